#include "scenario/load/mesh_builder.h"

#include <algorithm>
#include <cmath>

namespace stepslide {

namespace {

/// Same rule as an inline mesh's triangles (scenario/load/shapes.cpp): a triangle whose
/// doubled area is below this fraction of its longest edge squared has none.
constexpr double kTriangleFlatness = 1e-9;

Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double norm(const Vec3& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

bool has_zero_area(const Vec3& a, const Vec3& b, const Vec3& c) {
  const double longest = std::max({norm(sub(b, a)), norm(sub(c, b)), norm(sub(a, c))});
  return norm(cross(sub(b, a), sub(c, a))) <= kTriangleFlatness * longest * longest;
}

std::size_t mix(std::size_t seed, std::uint64_t value) {
  value ^= value >> 33;
  value *= 0xff51afd7ed558ccdull;
  value ^= value >> 33;
  return seed * 31u + static_cast<std::size_t>(value);
}

}  // namespace

std::size_t MeshBuilder::KeyHash::operator()(const Key& k) const {
  return mix(mix(mix(0, static_cast<std::uint64_t>(k[0])), static_cast<std::uint64_t>(k[1])),
             static_cast<std::uint64_t>(k[2]));
}

std::size_t MeshBuilder::TriangleHash::operator()(const std::array<std::int32_t, 3>& t) const {
  return mix(mix(mix(0, static_cast<std::uint64_t>(t[0])), static_cast<std::uint64_t>(t[1])),
             static_cast<std::uint64_t>(t[2]));
}

std::int32_t MeshBuilder::vertex(const Vec3& p) {
  // Coordinates are within ScenarioLimits::max_coordinate (checked by the
  // caller), so p / kWeldPitch stays far inside int64.
  const Key key{std::llround(p[0] / kWeldPitch), std::llround(p[1] / kWeldPitch), std::llround(p[2] / kWeldPitch)};
  const auto [it, inserted] = index_of_.emplace(key, static_cast<std::int32_t>(part_.vertices.size()));
  if (inserted) {
    part_.vertices.push_back({static_cast<double>(key[0]) * kWeldPitch, static_cast<double>(key[1]) * kWeldPitch,
                              static_cast<double>(key[2]) * kWeldPitch});
  }
  return it->second;
}

void MeshBuilder::add(const Vec3& a, const Vec3& b, const Vec3& c) {
  ++source_triangles_;
  const std::array<std::int32_t, 3> t{vertex(a), vertex(b), vertex(c)};
  if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2] ||
      has_zero_area(part_.vertices[t[0]], part_.vertices[t[1]], part_.vertices[t[2]])) {
    ++degenerate_;
    return;
  }
  std::array<std::int32_t, 3> sorted = t;
  std::sort(sorted.begin(), sorted.end());
  if (!seen_.insert(sorted).second) {
    ++duplicate_;
    return;
  }
  part_.triangles.push_back(t);
}

namespace {

/// Drops the vertices only dropped triangles used, keeping the order of the rest.
void drop_unused_vertices(MeshPart& part) {
  std::vector<std::int32_t> new_index(part.vertices.size(), -1);
  for (const auto& t : part.triangles) {
    for (std::int32_t i : t) new_index[static_cast<std::size_t>(i)] = 0;
  }
  std::vector<Vec3> kept;
  for (std::size_t i = 0; i < part.vertices.size(); ++i) {
    if (new_index[i] < 0) continue;
    new_index[i] = static_cast<std::int32_t>(kept.size());
    kept.push_back(part.vertices[i]);
  }
  if (kept.size() == part.vertices.size()) return;
  for (auto& t : part.triangles) {
    for (std::int32_t& i : t) i = new_index[static_cast<std::size_t>(i)];
  }
  part.vertices = std::move(kept);
}

}  // namespace

MeshPart MeshBuilder::take(std::string name, MeshImportStats& stats) {
  drop_unused_vertices(part_);
  stats.source_triangles += source_triangles_;
  stats.degenerate += degenerate_;
  stats.duplicate += duplicate_;
  stats.source_vertices += 3 * source_triangles_;
  stats.vertices += static_cast<std::int64_t>(part_.vertices.size());
  stats.triangles += static_cast<std::int64_t>(part_.triangles.size());
  MeshPart part = std::move(part_);
  part.name = std::move(name);
  *this = MeshBuilder();
  return part;
}

}  // namespace stepslide
