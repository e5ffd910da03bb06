// Private to the collision adapter's files: conservative bounds tests that
// let a query skip a box (or a compound's child box) it provably cannot
// touch, before any exact pair function. Each one only ever answers "cannot
// touch" when the exact answer would have been "nothing": skipping never
// changes a query's result. Not installed.
#pragma once

#include <btBulletCollisionCommon.h>

#include <algorithm>

namespace stepslide::detail {

/// Room left for rounding in the tests below (1 µm): far above what either
/// these tests or the exact pair functions round, far below any distance a
/// query asks about.
constexpr double kBoundsSlack = 1e-6;

/// An axis-aligned box in one frame (a compound's, a box's).
struct Bounds {
  btVector3 low;
  btVector3 high;

  /// The box `low`..`high` of segment a→b grown by `reach` on every side.
  static Bounds of_segment(const btVector3& a, const btVector3& b, double reach) {
    const btVector3 grow(reach, reach, reach);
    Bounds bounds{a, a};
    bounds.low.setMin(b);
    bounds.high.setMax(b);
    bounds.low -= grow;
    bounds.high += grow;
    return bounds;
  }

  bool overlaps(const btVector3& other_low, const btVector3& other_high) const {
    return low.x() <= other_high.x() && high.x() >= other_low.x() && low.y() <= other_high.y() &&
           high.y() >= other_low.y() && low.z() <= other_high.z() && high.z() >= other_low.z();
  }
};

/// True when every point of segment a→b is farther than `reach` from the box
/// of `core` half extents at `pose`: the segment's bounds in the box's frame
/// already are. A capsule of radius r then lies farther than reach - r from it.
/// Never for a reach below kBoundsSlack: a segment that close to the box may
/// be one the exact functions call touching (no unique normal).
inline bool segment_beyond_box(const btVector3& a, const btVector3& b, double reach, const btTransform& pose,
                               const btVector3& core) {
  if (!(reach >= kBoundsSlack)) return false;
  const btVector3 p = pose.invXform(a);
  const btVector3 q = pose.invXform(b);
  double gap2 = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double gap = std::max({std::min(p[i], q[i]) - core[i], -core[i] - std::max(p[i], q[i]), 0.0});
    gap2 += gap * gap;
  }
  return gap2 > reach * reach;
}

/// False when child `index` of `compound` provably misses `bounds` (in the
/// compound's frame): the box Bullet's child tree keeps for it (the child's
/// shape bounds at its transform, margin included) does not overlap them.
/// True when it may touch them, or when the compound keeps no tree.
inline bool child_may_touch(const btCompoundShape& compound, int index, const Bounds& bounds) {
  // getChildList is not const in Bullet 3.24; reading it changes nothing.
  const btDbvtNode* node = const_cast<btCompoundShape&>(compound).getChildList()[index].m_node;
  if (node == nullptr) return true;
  return bounds.overlaps(node->volume.Mins(), node->volume.Maxs());
}

}  // namespace stepslide::detail
