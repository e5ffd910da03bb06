// The sweep's pair functions by the dispatch table's entry (dispatch.h),
// for one broadphase candidate of CollisionQueries::sweep.
#pragma once

#include <btBulletCollisionCommon.h>

#include "collision/dispatch.h"
#include "collision/triangle_cache.h"

namespace stepslide::detail {

/// Answers the sweep of `shape` from `from` to `to` against `object` by the
/// pair function `pair`, reporting any hit to `result` as Bullet's
/// objectQuerySingle would (a LocalConvexResult with the fraction, the world
/// normal and point), and returns true; or returns false and reports
/// nothing when the pair function declines, and Bullet answers. Mesh and
/// heightfield triangles come from `triangles` where it holds them (null:
/// the shape's own walk).
bool sweep_pair(SweepPair pair, const btConvexShape* shape, const btTransform& from, const btTransform& to,
                const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result,
                TriangleCache* triangles);

/// sweep_pair with the entry of the pair's cell in the table.
bool exact_sweep_pair(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                      const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result,
                      TriangleCache* triangles = nullptr);

}  // namespace stepslide::detail
