// Collects the triangles of one mesh part from any source: welds vertices on
// the kWeldPitch grid, drops triangles that lose their area and triangles on
// the same three vertices as an earlier one, and counts both. Private to
// mesh_import.cpp; kept apart so the cleaning rules can be tested alone.
#pragma once

#include <array>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "scenario/load/mesh_import.h"

namespace stepslide {

class MeshBuilder {
 public:
  /// Adds one triangle (already in metres, Y-up, finite). The result depends
  /// only on the order of calls: indices are given in order of first use.
  void add(const Vec3& a, const Vec3& b, const Vec3& c);

  std::int64_t triangles() const { return static_cast<std::int64_t>(part_.triangles.size()); }
  /// The part built so far, and its counts added to `stats`.
  MeshPart take(std::string name, MeshImportStats& stats);

 private:
  using Key = std::array<std::int64_t, 3>;
  struct KeyHash {
    std::size_t operator()(const Key& k) const;
  };
  struct TriangleHash {
    std::size_t operator()(const std::array<std::int32_t, 3>& t) const;
  };
  std::int32_t vertex(const Vec3& p);

  MeshPart part_;
  std::unordered_map<Key, std::int32_t, KeyHash> index_of_;  // lookups only: never iterated
  std::unordered_set<std::array<std::int32_t, 3>, TriangleHash> seen_;  // sorted corners; lookups only
  std::int64_t source_triangles_ = 0, degenerate_ = 0, duplicate_ = 0;
};

}  // namespace stepslide
