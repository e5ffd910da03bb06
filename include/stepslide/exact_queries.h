// Exact closed-form queries for the common pairs, used by the collision
// adapter instead of Bullet's iterative ones (GJK, subsimplex casts) where
// the answer has a formula. Each is tested against Bullet's answer on random
// cases (tests/controller/exact_queries_test.cpp).
#pragma once

#include <btBulletCollisionCommon.h>

namespace stepslide {

struct ExactRayHit {
  bool hit = false;
  double fraction = 1.0;      ///< along from→to, in [0, 1]
  btVector3 normal{0, 0, 0};  ///< unit, world, the face entered
};

/// The ray from→to against a box of `half_extents` at `box` (slab method).
/// Only for rays starting outside the box: `starts_inside` is set (and no
/// hit reported) when `from` is inside or on it, where Bullet's answer has
/// no single right value and the caller asks Bullet.
ExactRayHit ray_box(const btVector3& from, const btVector3& to, const btTransform& box,
                    const btVector3& half_extents, bool* starts_inside);

struct ExactContact {
  bool separated = false;     ///< false: the segment touches or enters the box (ask Bullet)
  double distance = 0.0;      ///< capsule surface to box, negative inside
  btVector3 normal{0, 0, 0};  ///< unit, world, from the box toward the capsule
  btVector3 point{0, 0, 0};   ///< world, on the box
};

/// The closest points of a capsule (the segment a→b grown by `radius`) and a
/// box of `half_extents` at `box`, exactly: the squared distance from the
/// segment to the box is a convex piecewise quadratic in the segment's
/// parameter, minimised interval by interval. Only when the segment stays
/// outside the box (`separated`); the capsule's surface may overlap it. Never
/// for negative `half_extents` (a core inverted by a margin wider than half
/// the box): not `separated`, the caller asks Bullet.
ExactContact capsule_box(const btVector3& a, const btVector3& b, double radius, const btTransform& box,
                         const btVector3& half_extents);

}  // namespace stepslide
