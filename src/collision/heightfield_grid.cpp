// Bullet's heightfield walk as numbers (heightfield_grid.h).
#include "collision/heightfield_grid.h"

#include <cmath>

namespace stepslide::detail {

namespace {

/// Bullet keeps what its walk reads protected; member pointers named
/// through a derived class read it.
struct FieldAccess : btHeightfieldTerrainShape {
  using S = btHeightfieldTerrainShape;
  /// key(s) == k, read in place (asked once a query: no copy).
  static bool same(const S& s, const HeightfieldKey& k) {
    return k.data == s.getHeightfieldRawData() && k.scaling == s.getLocalScaling() &&
           k.origin == s.*(&FieldAccess::m_localOrigin) && k.width == s.*(&FieldAccess::m_heightStickWidth) &&
           k.length == s.*(&FieldAccess::m_heightStickLength) && k.up == s.getUpAxis() &&
           k.data_type == static_cast<int>(s.*(&FieldAccess::m_heightDataType)) &&
           k.height_scale == s.*(&FieldAccess::m_heightScale) && k.aabb_low == s.*(&FieldAccess::m_localAabbMin) &&
           k.aabb_high == s.*(&FieldAccess::m_localAabbMax) && k.flip_edges == s.*(&FieldAccess::m_flipQuadEdges) &&
           k.diamond == s.*(&FieldAccess::m_useDiamondSubdivision) &&
           k.zigzag == s.*(&FieldAccess::m_useZigzagSubdivision) &&
           k.flip_winding == s.*(&FieldAccess::m_flipTriangleWinding);
  }
  static HeightfieldKey key(const S& s) {
    HeightfieldKey k;
    k.data = s.getHeightfieldRawData();
    k.data_type = static_cast<int>(s.*(&FieldAccess::m_heightDataType));
    k.height_scale = s.*(&FieldAccess::m_heightScale);
    k.width = s.*(&FieldAccess::m_heightStickWidth);
    k.length = s.*(&FieldAccess::m_heightStickLength);
    k.up = s.getUpAxis();
    k.origin = s.*(&FieldAccess::m_localOrigin);
    k.aabb_low = s.*(&FieldAccess::m_localAabbMin);
    k.aabb_high = s.*(&FieldAccess::m_localAabbMax);
    k.scaling = s.getLocalScaling();
    k.flip_edges = s.*(&FieldAccess::m_flipQuadEdges);
    k.diamond = s.*(&FieldAccess::m_useDiamondSubdivision);
    k.zigzag = s.*(&FieldAccess::m_useZigzagSubdivision);
    k.flip_winding = s.*(&FieldAccess::m_flipTriangleWinding);
    return k;
  }
};

/// getQuantized of btHeightfieldTerrainShape.cpp (round half away from
/// zero) of `x` clamped to low..high, as quantizeWithClamp; false where
/// `x` lies within rounding error of a half.
inline bool quantized(double x, double low, double high, int* out) {
  if (!(x == x)) return false;  // NaN: Bullet's cast of it is undefined
  // setMax then setMin, as btVector3 does them.
  if (x < low) x = low;
  if (high < x) x = high;
  const double fraction = x - (x >= 0.0 ? static_cast<double>(static_cast<long long>(x)) : std::floor(x));
  if (std::fabs(fraction - 0.5) <= 1e-9 * (1.0 + std::fabs(x))) return false;
  *out = x < 0.0 ? static_cast<int>(x - 0.5) : static_cast<int>(x + 0.5);
  return true;
}

/// Cells from..to (c spanning c..c+1 in grid units) narrowed to those that
/// may meet a..b (in grid units, either order: a negative scaling mirrors
/// an axis): c + 1 >= low and c <= high.
void narrow(double a, double b, int* from, int* to) {
  const double low = a < b ? a : b;
  const double high = a < b ? b : a;
  if (!(low == low) || !(high == high)) return;  // NaN: keep them all
  // Within from..to the cell indices are non-negative: truncation floors.
  if (low > *from) *from = low >= *to ? *to : static_cast<int>(low);
  if (high + 1.0 < *to) *to = high + 1.0 <= *from ? *from : static_cast<int>(high + 1.0);
}

}  // namespace

bool HeightfieldKey::operator==(const HeightfieldKey& o) const {
  return data == o.data && data_type == o.data_type && height_scale == o.height_scale && width == o.width &&
         length == o.length && up == o.up && origin == o.origin && aabb_low == o.aabb_low &&
         aabb_high == o.aabb_high && scaling == o.scaling && flip_edges == o.flip_edges && diamond == o.diamond &&
         zigzag == o.zigzag && flip_winding == o.flip_winding;
}

HeightfieldKey key_of(const btHeightfieldTerrainShape& shape) { return FieldAccess::key(shape); }

bool same_key(const btHeightfieldTerrainShape& shape, const HeightfieldKey& key) {
  return FieldAccess::same(shape, key);
}

bool cells_meeting(const HeightfieldKey& key, const btVector3& low, const btVector3& high, GridCells* out) {
  // The box scaled down to grid units and moved to the grid's origin,
  // written as processAllTriangles writes it (1.f / scaling is a double
  // division in a double build).
  // Only the two axes across the field bound the loops: each coordinate
  // times the inverse scaling plus the origin, as the walk's vector
  // arithmetic computes it.
  const int x_axis = key.up == 0 ? 1 : 0;
  const int j_axis = key.up == 2 ? 1 : 2;
  const auto grid = [&](const btVector3& point, int axis) {
    const double inverse = 1.f / key.scaling[axis];
    double g = point[axis] * inverse;
    g += key.origin[axis];
    return g;
  };
  int q[4];
  if (!quantized(grid(low, x_axis), key.aabb_low[x_axis], key.aabb_high[x_axis], &q[0]) ||
      !quantized(grid(high, x_axis), key.aabb_low[x_axis], key.aabb_high[x_axis], &q[1]) ||
      !quantized(grid(low, j_axis), key.aabb_low[j_axis], key.aabb_high[j_axis], &q[2]) ||
      !quantized(grid(high, j_axis), key.aabb_low[j_axis], key.aabb_high[j_axis], &q[3]))
    return false;
  // Grown by a cell each way ("the box falls between grid points"), then
  // cut to the grid.
  out->x0 = q[0] - 1 > 0 ? q[0] - 1 : 0;
  out->x1 = q[1] + 1 < key.width - 1 ? q[1] + 1 : key.width - 1;
  out->j0 = q[2] - 1 > 0 ? q[2] - 1 : 0;
  out->j1 = q[3] + 1 < key.length - 1 ? q[3] + 1 : key.length - 1;
  return true;
}

GridCells cells_within(const HeightfieldKey& key, const btVector3& low, const btVector3& high,
                       const GridCells& cells) {
  const int x_axis = key.up == 0 ? 1 : 0;
  const int j_axis = key.up == 2 ? 1 : 2;
  GridCells out = cells;
  narrow(low[x_axis] / key.scaling[x_axis] + key.origin[x_axis],
         high[x_axis] / key.scaling[x_axis] + key.origin[x_axis], &out.x0, &out.x1);
  narrow(low[j_axis] / key.scaling[j_axis] + key.origin[j_axis],
         high[j_axis] / key.scaling[j_axis] + key.origin[j_axis], &out.j0, &out.j1);
  return out;
}

}  // namespace stepslide::detail
