// Exact contact of a box with a triangle (separating axes), used by the
// collision adapter for a box-shaped character against mesh and heightfield
// triangles: Bullet's GJK/EPA answer for that pair is unreliable (no
// penetration at one pose, a deep one a little higher). Tested against a
// brute-force search over directions (tests/geometry/box_triangle_test.cpp).
#pragma once

#include <btBulletCollisionCommon.h>

#include <limits>

namespace stepslide {

struct BoxTriangleContact {
  /// Signed distance of the rounded box (core grown by `radius`) from the
  /// triangle: negative is penetration depth. Exact for both signs.
  double distance = 0.0;
  /// Unit, world: from the triangle toward the box, the direction that
  /// separates them fastest (the box moved by -distance along it just
  /// touches the triangle).
  btVector3 normal{0, 1, 0};
  /// World, on the triangle: the middle of the deepest part of the overlap
  /// (the closest point when separated).
  btVector3 point{0, 0, 0};
};

/// The box of core half extents `half_extents` at `box`, grown by `radius`
/// (Bullet's box: its margin rounds the edges of the core), against the
/// triangle `triangle` (world). The depth comes from the 13 separating axes
/// (3 box faces, the triangle's face, 9 edge pairs), which give the exact
/// penetration depth of two convex polyhedra; the distance of separated
/// shapes from their closest features (vertex-solid and edge-edge pairs).
///
/// `cutoff`: a caller that drops every contact farther than some distance
/// passes it (with a slack far above rounding). When the separating axes
/// alone prove the distance beyond it, the closest features are not
/// searched: the returned distance is then that lower bound, above
/// `cutoff`, and the normal and point are unset.
BoxTriangleContact box_triangle(const btTransform& box, const btVector3& half_extents, double radius,
                                const btVector3 triangle[3],
                                double cutoff = std::numeric_limits<double>::infinity());

}  // namespace stepslide
