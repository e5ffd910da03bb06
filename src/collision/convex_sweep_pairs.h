// The sweeps of a cylinder character against boxes and triangles, and of
// characters against round bodies (cylinders, spheres, capsules) and hulls,
// answered by Bullet's own cast (conservative advancement, convex_sweep.h)
// on convex_distance's exact distances instead of Bullet's GJK at every step.
#pragma once

#include <btBulletCollisionCommon.h>

#include "collision/triangle_cache.h"
#include "geometry/convex_sweep.h"

namespace stepslide::detail {

/// The sweep of `shape` from `from` to `to` (no turn) against `object`,
/// both solids whose support function ConvexSolid writes out (a box or an
/// upright cylinder with a core, an upright capsule whose margin is its
/// radius, a sphere; the body in any pose): convex_sweep's hit reported to
/// `result` as Bullet's objectQuerySingle reports a convex pair's. False,
/// reporting nothing, for other shapes (hulls, cones, scaled shapes), or
/// where convex_sweep has no answer (Bullet's cast answers). The adapter
/// asks it for a cylinder character against boxes, for capsule, sphere and
/// cylinder characters against round bodies (cylinders, spheres, capsules),
/// and for box, capsule and sphere characters against hulls
/// (the dispatch table, dispatch.h).
///
/// Against a box Bullet's GJK converges to rounding and the two casts stop
/// together (tests/collision/convex_sweep_pairs_test.cpp). Against a
/// cylinder its GJK stops at a relative error between two curved surfaces:
/// its normals are off and it may stop inside the body or short of the
/// millimetre band; ours stop in the band, by exact distances whose last
/// GJK steps are Newton's (newton.cpp). Hulls and other shapes stay Bullet's.
bool convex_sweep_pair(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                       const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result);

/// The sweep of `shape` (an upright cylinder with a core) from `from` to
/// `to` (no turn) against `object` (a mesh or heightfield): convex_sweep
/// against each triangle the swept bounds meet, grown by the shape's
/// margin as Bullet's cast grows it (btTriangleConvexcastCallback), the
/// hits reported as the box character's are (report_triangle_hits); a
/// triangle with no answer there (the cores touch) is Bullet's cast alone
/// (bullet_triangle_sweep). False, reporting nothing, for other shapes and
/// objects.
bool cylinder_triangle_sweep_pair(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                                  const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result, TriangleCache* triangles = nullptr);

}  // namespace stepslide::detail
