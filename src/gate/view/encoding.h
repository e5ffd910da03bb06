// How `stepslide view` packs numbers into its page: compact and
// deterministic. Every number becomes an integer count of 10^-digits (so the
// page holds no float text whose form could vary), and long sequences are
// stored as differences, which for a path, a pose track or a mesh's
// vertices are mostly short. The page's script (view/assets/decode.js)
// undoes exactly this; the tests decode here too.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gate/view/geometry.h"

namespace stepslide::view {

using Json = nlohmann::ordered_json;

/// Decimal digits kept: trajectory columns and body poses (the gate's
/// position tolerance is 1e-6 m), level geometry and trace queries (0.1 mm).
inline constexpr int kRowDigits = 6;
inline constexpr int kGeometryDigits = 4;

/// True when `value` is finite and round(value * 10^digits) is an exact
/// integer in a double (below 2^53), so the page reads it back as the same count.
bool quantisable(double value, int digits);
/// round(value * 10^digits), halves away from zero. `value` must be quantisable.
std::int64_t quantise(double value, int digits);

/// `values` as differences from the value `stride` places before; the first
/// `stride` values as they are. stride 3 for x, y, z triples.
Json delta_encode(const std::vector<std::int64_t>& values, std::size_t stride);
/// The inverse of delta_encode.
std::vector<std::int64_t> delta_decode(const Json& deltas, std::size_t stride);

/// A trajectory column: {"digits": d, "delta": [...]} when every value is
/// quantisable (d = 0 when every value is an integer, else `digits`);
/// otherwise {"text": [...]} with each value as format_number writes it
/// ("nan", "inf" included).
Json encode_column(const std::vector<double>& values, int digits);

/// Rows of `stride` numbers each (e.g. a pose: x, y, z, qx, qy, qz, qw),
/// flattened: {"digits": digits, "delta": [...]} with that stride. Every
/// value must be quantisable.
Json encode_rows(const std::vector<double>& flat, std::size_t stride, int digits);

/// A mesh: {"digits": digits, "vertices": x, y, z deltas (stride 3),
/// "triangles": vertex index deltas (stride 3: each corner against the same
/// corner of the triangle before, which for a grid is a short number)}.
Json encode_mesh(const TriMesh& mesh, int digits);

/// A point as three integer counts, not differenced: for a few points.
Json encode_point(const btVector3& p, int digits);

}  // namespace stepslide::view
