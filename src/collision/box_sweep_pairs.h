// Private to the collision adapter: a box-shaped character's sweeps against
// the triangles of meshes and heightfields and against boxes, answered
// exactly (box_triangle_sweep, box_box_sweep, box_sweeps.h). Not installed.
#pragma once

#include <btBulletCollisionCommon.h>

#include "collision/triangle_cache.h"

namespace stepslide::detail {

/// The sweep of `shape` (an unscaled box) from `from` to `to` (no turn)
/// against `object` (a mesh or heightfield): each triangle's first touch
/// reported to `result` as Bullet's objectQuerySingle would (world normal
/// and point, only those closer than the callback's closest fraction), in
/// order of fraction, then how squarely the motion pushes into it, normal
/// and point, so the order the shape visits its triangles in does not matter.
/// A triangle where rounding puts the box's core on it mid-advance is
/// Bullet's cast alone (bullet_triangle_sweep), the others still ours.
/// Returns false, reporting nothing, for other shapes or objects.
bool box_triangle_sweep_pair(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                             const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result, TriangleCache* triangles = nullptr);

/// The sweep of `shape` (an unscaled box) from `from` to `to` (no turn)
/// against `object` (a box): box_box_sweep's hit reported to `result` as
/// Bullet's objectQuerySingle would. Returns false, reporting nothing, for
/// other shapes, or where box_box_sweep has no answer (Bullet answers).
bool box_box_sweep_pair(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                        const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result);

}  // namespace stepslide::detail
