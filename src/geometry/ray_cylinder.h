// The ray against an upright cylinder, exactly (the collision adapter's
// rays.cpp asks it instead of Bullet's subsimplex cast, whose answer on a
// cylinder stops short, and slowly).
#pragma once

#include "geometry/bullet_shapes.h"
#include "geometry/ray.h"

namespace stepslide::detail {

/// The ray from→to against `cylinder` (its up axis y) at `pose`: the solid
/// of its full radius and half height, margin included, edges sharp, as
/// ray_box treats a box. Not answered when the ray starts inside or on it,
/// or the cylinder is not upright or is scaled: Bullet answers.
ExactRay ray_cylinder(const btVector3& from, const btVector3& to, const btCylinderShape& cylinder,
                      const btTransform& pose);

}  // namespace stepslide::detail
