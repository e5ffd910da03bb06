// The ray against a capsule or sphere, exactly (the collision adapter's
// rays.cpp asks it instead of Bullet's subsimplex cast, whose normal on a
// round body moves by far more than the ray does).
#pragma once

#include "geometry/bullet_shapes.h"
#include "geometry/ray.h"

namespace stepslide::detail {

/// The ray from→to against the capsule a→b grown by `radius` (a sphere when
/// a == b): the first entry into its side or either end's sphere, the
/// normal from the segment's closest point to the hit. Not answered when
/// the ray starts inside or on it: Bullet answers.
ExactRay ray_capsule(const btVector3& from, const btVector3& to, const btVector3& a, const btVector3& b,
                     double radius);

}  // namespace stepslide::detail
