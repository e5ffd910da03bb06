// Private to the collision adapter's files: a conservative bounds test that
// lets a query skip a compound's child box it provably cannot touch, before
// any exact pair function. It only ever answers "cannot touch" when the
// exact answer would have been "nothing": skipping never changes a query's
// result. Not installed.
#pragma once

#include <BulletCollision/BroadphaseCollision/btBroadphaseInterface.h>
#include <btBulletCollisionCommon.h>

#include <algorithm>

#include "geometry/shapes.h"
#include "geometry/sweep.h"

namespace stepslide::detail {

/// Room left for rounding (1 µm): far above what the bounds or the exact
/// pair functions round, far below any distance a query asks about.
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

/// The query object's shape as a segment a→b grown by a radius, when it is
/// an unscaled capsule or sphere.
inline bool as_capsule(const btCollisionObject* object, btVector3* a, btVector3* b, double* radius) {
  return capsule_segment(object->getCollisionShape(), object->getWorldTransform(), a, b, radius);
}

/// Reports an exact sweep's hit of `object` (world normal and point) to
/// `result` as Bullet's objectQuerySingle reports a convex pair's: only when
/// nearer than the closest hit so far.
inline void report_sweep(const ExactSweep& s, const btCollisionObject* object,
                         btCollisionWorld::ConvexResultCallback* result) {
  if (!s.hit || !(s.fraction < result->m_closestHitFraction)) return;
  btCollisionWorld::LocalConvexResult hit(object, nullptr, s.normal, s.point, s.fraction);
  result->addSingleResult(hit, true);
}

}  // namespace stepslide::detail

namespace stepslide::detail {

/// Points a broadphase ray callback along from→to as Bullet's own rayTest
/// and convexSweepTest callbacks do (inverse direction, signs, length), so
/// walking the tree with it visits the same leaves in the same order.
inline void aim_ray(btBroadphaseRayCallback* callback, const btVector3& from, const btVector3& to) {
  const btVector3 direction = (to - from).normalized();
  for (int i = 0; i < 3; ++i) {
    callback->m_rayDirectionInverse[i] = direction[i] == 0.0 ? BT_LARGE_FLOAT : 1.0 / direction[i];
    callback->m_signs[i] = callback->m_rayDirectionInverse[i] < 0.0;
  }
  callback->m_lambda_max = direction.dot(to - from);
}


}  // namespace stepslide::detail
