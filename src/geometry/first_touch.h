// The first touch of a capsule moving along a straight line and a triangle,
// in closed form (the exact sweeps of capsule_triangle.cpp): the motion, as a
// ray, enters the triangle grown by the segment (a convex polytope) grown by
// the radius through an offset face (an endpoint onto the face, or the
// segment onto an edge, where both closest points are interior), a cylinder
// (an endpoint onto an edge, or a vertex onto the segment) or a sphere (an
// endpoint onto a vertex). Each feature's first touch, kept where its closest
// points are really on the feature, is a point of the grown shape, and the
// entry is one of them: the least is exact. Private to capsule_triangle.cpp and
// first_touch.cpp.
#pragma once

#include <limits>

#include "geometry/bullet_shapes.h"
#include "geometry/capsule_triangle.h"

namespace stepslide::detail {

/// Squared lengths below this (m², m⁴ for cross products) are degenerate:
/// a triangle of no area, an edge of no length, parallel directions.
inline constexpr double kDegenerate = 1e-24;
/// Rounding may put a first touch this far before the start of the motion.
inline constexpr double kEarly = 1e-12;

/// Whether `x`, on the triangle's plane (normal `n`, any length), is inside
/// it or on its boundary.
inline bool inside(const Triangle& tri, const btVector3& n, const btVector3& x) {
  for (int i = 0; i < 3; ++i) {
    const btVector3& p = tri.v[i];
    const btVector3& q = tri.v[(i + 1) % 3];
    if ((q - p).cross(x - p).dot(n) < 0.0) return false;
  }
  return true;
}

/// The least first touch found so far; ties keep the first feature found,
/// in the fixed order the features are tried.
struct FirstTouch {
  double t = std::numeric_limits<double>::infinity();
  btVector3 normal{0, 0, 0};
  btVector3 point{0, 0, 0};

  void offer(double at, const btVector3& capsule_point, const btVector3& triangle_point) {
    if (at < 0.0) {
      if (at < -kEarly) return;
      at = 0.0;
    }
    if (at > 1.0 || !(at < t)) return;
    const btVector3 gap = capsule_point - triangle_point;
    if (gap.length2() <= kDegenerate) return;
    t = at;
    normal = gap.normalized();
    point = triangle_point;
  }
};

/// The least first touch (t in [0, 1], infinity for none within the motion)
/// of the capsule a→b of `radius` moving by `m` and the triangle of plane
/// `plane`, from a start farther than `radius`.
FirstTouch first_touch(const btVector3& a, const btVector3& b, double radius, const btVector3& m, const Triangle& tri,
                       const TrianglePlane& plane);

}  // namespace stepslide::detail
