// Exact contact of a box with a triangle (separating axes), used by the
// collision adapter for a box-shaped character against mesh and heightfield
// triangles: Bullet's GJK/EPA answer for that pair is unreliable (no
// penetration at one pose, a deep one a little higher). Tested against a
// brute-force search over directions (tests/geometry/box_triangle_test.cpp).
#pragma once

#include <limits>

#include "geometry/bullet_shapes.h"
#include "geometry/contact.h"

namespace stepslide {

/// The box of core half extents `half_extents` at `box`, grown by `radius`
/// (Bullet's box: its margin rounds the edges of the core), against the
/// triangle `triangle` (world). The depth comes from the 13 separating axes
/// (3 box faces, the triangle's face, 9 edge pairs), which give the exact
/// penetration depth of two convex polyhedra; the distance of separated
/// shapes from their closest features (vertex-solid and edge-edge pairs).
///
/// Always answered (ExactContact, geometry/contact.h, the box as `a`):
/// `distance` of the rounded box from the triangle, exact for both signs;
/// `normal` the direction that separates them fastest; `point` on the
/// triangle, the middle of the deepest part of the overlap (the closest
/// point when separated).
///
/// `cutoff`: a caller that drops every contact farther than some distance
/// passes it (with a slack far above rounding). When the separating axes
/// alone prove the distance beyond it, the closest features are not
/// searched: `beyond`, `distance` that lower bound above `cutoff`.
ExactContact box_triangle(const btTransform& box, const btVector3& half_extents, double radius,
                          const btVector3 triangle[3], double cutoff = std::numeric_limits<double>::infinity());

}  // namespace stepslide
