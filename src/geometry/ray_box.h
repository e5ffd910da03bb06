// The ray against a box, exactly (slab method): the collision adapter's
// rays.cpp asks it instead of Bullet's ray test. Tested against Bullet's
// answer on random cases (tests/geometry/capsule_box_test.cpp).
#pragma once

#include "geometry/bullet_shapes.h"
#include "geometry/ray.h"

namespace stepslide {

/// The ray from→to against a box of `half_extents` at `box`. Not answered
/// when `from` is inside or on the box (the caller asks Bullet).
ExactRay ray_box(const btVector3& from, const btVector3& to, const btTransform& box, const btVector3& half_extents);

}  // namespace stepslide
