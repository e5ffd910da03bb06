// Private to the collision adapter's files: what the query functions need to
// know about the shapes Bullet hands them. Not installed.
#pragma once

#include <btBulletCollisionCommon.h>
#include <BulletCollision/BroadphaseCollision/btBroadphaseInterface.h>

#include "stepslide/exact_sweeps.h"

namespace stepslide::detail {

/// Contact normals within this of a face's normal (1 - cos, 0.08 degrees)
/// are on that face: GJK's normal carries a little noise, an edge's leans.
constexpr double kSameFace = 1e-6;

/// The normal of the face of `shape` (the shape Bullet handed the contact
/// callback: a box, a compound's child box, a cylinder's cap, or one
/// triangle of a mesh or heightfield, with `basis` its world rotation) that a
/// contact with `normal` lies on, facing the character; zero when it is not
/// on one face.
btVector3 face_normal(const btCollisionShape* shape, const btMatrix3x3& basis, const btVector3& normal);

/// Whether a box's or cylinder's core (its half extents without the margin,
/// Bullet's implicit dimensions) is a solid: a margin wider than half an
/// extent inverts it, Bullet's support function then describes no solid, and
/// only Bullet knows its answers.
inline bool has_core(const btVector3& core) { return core.x() >= 0.0 && core.y() >= 0.0 && core.z() >= 0.0; }

/// Whether a body of Bullet shape type `type` is round (a cylinder, sphere
/// or capsule) or a convex hull: the bodies the adapter answers from support
/// functions (convex_distance) for characters other shape functions do not
/// cover (cylinder_contacts.h, convex_sweeps.h).
inline bool round_or_hull(int type) {
  return type == CYLINDER_SHAPE_PROXYTYPE || type == SPHERE_SHAPE_PROXYTYPE || type == CAPSULE_SHAPE_PROXYTYPE ||
         type == CONVEX_HULL_SHAPE_PROXYTYPE;
}

/// `shape` at `pose` as a segment a→b grown by a radius, when it is an
/// unscaled capsule or sphere (Bullet's margin of both is their radius).
bool capsule_segment(const btCollisionShape* shape, const btTransform& pose, btVector3* a, btVector3* b,
                     double* radius);

/// The query object's shape as a segment a→b grown by a radius, when it is
/// an unscaled capsule or sphere.
bool as_capsule(const btCollisionObject* object, btVector3* a, btVector3* b, double* radius);

}  // namespace stepslide::detail

namespace stepslide::detail {

/// Answers the sweep of `shape` from `from` to `to` against `object` exactly,
/// reporting any hit to `result` as Bullet's objectQuerySingle would (a
/// LocalConvexResult with the fraction, the world normal and point), and
/// returns true; or returns false and reports nothing when no exact pair
/// function covers this pair, and Bullet answers it. Defined in
/// sweep_pairs.cpp.
bool exact_sweep_pair(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                      const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result);

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
