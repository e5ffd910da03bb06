// The ray against a capsule (ray_capsule.h): the quadratic of its side
// around the segment, and of each end's sphere.
#include "geometry/ray_capsule.h"

#include <algorithm>
#include <cmath>

#include "geometry/closest_points.h"

namespace stepslide::detail {

namespace {

/// The smaller root t >= 0 of |m + t d|^2 = r^2 where the ray enters from
/// outside (|m| > r), or a negative value when it never does.
double enter_sphere(const btVector3& m, const btVector3& d, double r) {
  const double a = d.length2();
  const double b = m.dot(d);
  const double c = m.length2() - r * r;
  if (a == 0.0 || b >= 0.0) return -1.0;  // not moving, or moving away from the centre
  const double discriminant = b * b - a * c;
  if (discriminant < 0.0) return -1.0;
  return c / (-b + std::sqrt(discriminant));  // the near root, without cancellation
}

/// The closest point of segment a→b to `p`.
btVector3 on_segment(const btVector3& p, const btVector3& a, const btVector3& b) {
  const btVector3 axis = b - a;
  const double length2 = axis.length2();
  if (length2 == 0.0) return a;
  return a + axis * std::clamp((p - a).dot(axis) / length2, 0.0, 1.0);
}

}  // namespace

ExactRay ray_capsule(const btVector3& from, const btVector3& to, const btVector3& a, const btVector3& b,
                     double radius) {
  ExactRay hit;
  if ((from - on_segment(from, a, b)).length2() <= radius * radius) return hit;  // starts inside or on it
  hit.answered = true;
  const btVector3 d = to - from;
  double enter = BT_LARGE_FLOAT;
  for (const btVector3& centre : {a, b}) {
    const double t = enter_sphere(from - centre, d, radius);
    if (t >= 0.0) enter = std::min(enter, t);
  }
  const btVector3 axis = b - a;
  const double length2 = axis.length2();
  if (length2 > 0.0) {
    // The side: the parts of the ray's start and direction across the axis.
    const btVector3 u = axis / std::sqrt(length2);
    const btVector3 m = (from - a) - u * (from - a).dot(u);
    const btVector3 e = d - u * d.dot(u);
    const double t = enter_sphere(m, e, radius);
    if (t >= 0.0) {
      const double along = (from + d * t - a).dot(axis);
      if (along >= 0.0 && along <= length2) enter = std::min(enter, t);
    }
  }
  if (!(enter <= 1.0)) return hit;
  const btVector3 at = from + d * enter;
  const btVector3 out = at - on_segment(at, a, b);
  const double length = std::sqrt(out.length2());
  if (!(length > 0.0)) return ExactRay{};
  hit.hit = true;
  hit.fraction = enter;
  hit.normal = out / length;
  return hit;
}

}  // namespace stepslide::detail
