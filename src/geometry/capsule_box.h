// Exact closed-form queries for the common pairs, used by the collision
// adapter instead of Bullet's iterative ones (GJK, subsimplex casts) where
// the answer has a formula. Each is tested against Bullet's answer on random
// cases (tests/geometry/capsule_box_test.cpp).
#pragma once

#include "geometry/bullet_shapes.h"
#include "geometry/contact.h"

namespace stepslide {

/// Both answer ExactContact (geometry/contact.h) with the capsule as `a`,
/// the box's core as `b`: `distance` from the capsule's surface to the box,
/// negative inside, `point` on the box.

/// The closest points of a capsule (the segment a→b grown by `radius`) and a
/// box of `half_extents` at `box`, exactly: the squared distance from the
/// segment to the box is a convex piecewise quadratic in the segment's
/// parameter, minimised interval by interval. Answered only when the segment
/// stays outside the box (the capsule's surface may overlap it); where it
/// touches or enters the box, capsule_box_penetration answers. Never for
/// negative `half_extents` (a core inverted by a margin wider than half the
/// box): not answered, the caller asks Bullet.
ExactContact capsule_box(const btVector3& a, const btVector3& b, double radius, const btTransform& box,
                         const btVector3& half_extents);

/// The penetration of the same capsule and box where the segment touches or
/// enters the box (capsule_box does not answer), exactly: the least push
/// that takes the segment out of the box, along one of the face normals of
/// their Minkowski sum (the box's three axes and the segment's direction
/// crossed with each, both ways), plus `radius`. `distance` is minus that
/// depth, `normal` the push's direction (from the box toward the capsule),
/// `point` on the box where the pushed-out segment would touch it (the
/// separated case's point as the depth falls to 0). Ties: a box axis within
/// 1e-9 m of the least push is taken over a cross axis (its face normal, not
/// one tilted by a rounding); otherwise the least, and on an exact tie the
/// first of +x, -x, +y, -y, +z, -z (box frame), then the cross axes.
/// Not answered only for an inverted box (negative `half_extents`).
ExactContact capsule_box_penetration(const btVector3& a, const btVector3& b, double radius, const btTransform& box,
                                     const btVector3& half_extents);

}  // namespace stepslide
