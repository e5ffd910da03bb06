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

}  // namespace stepslide
