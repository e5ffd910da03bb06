// Bullet's heightfield walk (btHeightfieldTerrainShape::processAllTriangles)
// as numbers: which cells a query box covers, computed as the walk computes
// them, and everything the walk's triangles depend on (the triangle cache's
// key for a heightfield).
#pragma once

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>

namespace stepslide::detail {

/// Cells x0 <= x < x1, j0 <= j < j1 of a heightfield's grid: the bounds of
/// processAllTriangles' loops (j outer, x inner, two triangles a cell).
struct GridCells {
  int x0 = 0;
  int x1 = 0;
  int j0 = 0;
  int j1 = 0;
  bool empty() const { return x1 <= x0 || j1 <= j0; }
  int count() const { return empty() ? 0 : (x1 - x0) * (j1 - j0); }
  /// Whether every cell of `inner` is one of these.
  bool contains(const GridCells& inner) const {
    return inner.empty() || (x0 <= inner.x0 && inner.x1 <= x1 && j0 <= inner.j0 && inner.j1 <= j1);
  }
};

/// What a heightfield's triangles and its walk's cells depend on, read from
/// the shape (its protected members included): while two reads compare
/// equal, and the heights in its data are unchanged, the walk hands out the
/// same triangles for the same box.
struct HeightfieldKey {
  const void* data = nullptr;
  int data_type = 0;
  double height_scale = 0.0;
  int width = 0;   ///< grid points along x (heightStickWidth)
  int length = 0;  ///< grid points along j (heightStickLength)
  int up = 1;
  btVector3 origin{0, 0, 0};
  btVector3 aabb_low{0, 0, 0};
  btVector3 aabb_high{0, 0, 0};
  btVector3 scaling{1, 1, 1};
  bool flip_edges = false;
  bool diamond = false;
  bool zigzag = false;
  bool flip_winding = false;
  bool operator==(const HeightfieldKey& o) const;
};

HeightfieldKey key_of(const btHeightfieldTerrainShape& shape);
/// key_of(shape) == key, without the copy.
bool same_key(const btHeightfieldTerrainShape& shape, const HeightfieldKey& key);

/// The cells `shape.processAllTriangles(callback, low, high)` loops over
/// (`key` read from that shape), with the same arithmetic; false where a
/// coordinate sits so near a rounding boundary (a half) that a build of
/// Bullet fusing a multiply and an add could round it the other way: the
/// caller then asks Bullet.
bool cells_meeting(const HeightfieldKey& key, const btVector3& low, const btVector3& high, GridCells* out);

/// Of `cells`, those whose extent across the field may meet low..high
/// (cells only touching it at an edge may be left out: for a box grown by a
/// slack beyond what its query reaches, they are out of reach).
GridCells cells_within(const HeightfieldKey& key, const btVector3& low, const btVector3& high,
                       const GridCells& cells);

/// Whether the walk's up test lets a triangle whose up coordinates span
/// low..high through for a query box spanning query_low..query_high on the
/// up axis (Range::overlaps).
inline bool up_overlaps(double low, double high, double query_low, double query_high) {
  return !(low > query_high || high < query_low);
}

}  // namespace stepslide::detail
