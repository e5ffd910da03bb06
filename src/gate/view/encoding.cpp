#include "gate/view/encoding.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "base/format.h"

namespace stepslide::view {

namespace {

/// 10^digits, exact for the digits used here.
double scale(int digits) {
  static const double kPowers[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
  if (digits < 0 || digits > 9) throw std::invalid_argument("view encoding: digits must be in [0, 9]");
  return kPowers[digits];
}

constexpr double kMaxExact = 9007199254740992.0;  // 2^53

bool all_integers(const std::vector<double>& values) {
  for (double v : values) {
    if (v != std::floor(v)) return false;
  }
  return true;
}

}  // namespace

bool quantisable(double value, int digits) {
  return std::isfinite(value) && std::fabs(value) * scale(digits) < kMaxExact;
}

std::int64_t quantise(double value, int digits) {
  if (!quantisable(value, digits)) {
    throw std::invalid_argument("view encoding: " + format_number(value) + " cannot be quantised");
  }
  return static_cast<std::int64_t>(std::llround(value * scale(digits)));
}

Json delta_encode(const std::vector<std::int64_t>& values, std::size_t stride) {
  Json out = Json::array();
  for (std::size_t i = 0; i < values.size(); ++i) {
    out.push_back(i < stride ? values[i] : values[i] - values[i - stride]);
  }
  return out;
}

std::vector<std::int64_t> delta_decode(const Json& deltas, std::size_t stride) {
  std::vector<std::int64_t> values;
  values.reserve(deltas.size());
  for (std::size_t i = 0; i < deltas.size(); ++i) {
    const auto d = deltas[i].get<std::int64_t>();
    values.push_back(i < stride ? d : values[i - stride] + d);
  }
  return values;
}

Json encode_column(const std::vector<double>& values, int digits) {
  bool fits = true;
  for (double v : values) fits = fits && quantisable(v, digits);
  if (!fits) {
    Json text = Json::array();
    for (double v : values) text.push_back(format_number(v));
    return Json{{"text", text}};
  }
  const int used = all_integers(values) ? 0 : digits;
  std::vector<std::int64_t> counts;
  counts.reserve(values.size());
  for (double v : values) counts.push_back(quantise(v, used));
  return Json{{"digits", used}, {"delta", delta_encode(counts, 1)}};
}

Json encode_rows(const std::vector<double>& flat, std::size_t stride, int digits) {
  std::vector<std::int64_t> counts;
  counts.reserve(flat.size());
  for (double v : flat) counts.push_back(quantise(v, digits));
  return Json{{"digits", digits}, {"delta", delta_encode(counts, stride)}};
}

Json encode_mesh(const TriMesh& mesh, int digits) {
  std::vector<std::int64_t> coordinates, indices;
  coordinates.reserve(3 * mesh.vertices.size());
  indices.reserve(3 * mesh.triangles.size());
  for (const btVector3& v : mesh.vertices) {
    for (int axis = 0; axis < 3; ++axis) coordinates.push_back(quantise(v[axis], digits));
  }
  for (const auto& t : mesh.triangles) indices.insert(indices.end(), t.begin(), t.end());
  return Json{{"digits", digits}, {"vertices", delta_encode(coordinates, 3)}, {"triangles", delta_encode(indices, 3)}};
}

Json encode_point(const btVector3& p, int digits) {
  return Json::array({quantise(p.x(), digits), quantise(p.y(), digits), quantise(p.z(), digits)});
}

}  // namespace stepslide::view
