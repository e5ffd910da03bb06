// The ray against an upright cylinder (ray_cylinder.h): the quadratic for
// its side, the slab of its caps.
#include "geometry/ray_cylinder.h"

#include <algorithm>
#include <cmath>

namespace stepslide::detail {

ExactRay ray_cylinder(const btVector3& from, const btVector3& to, const btCylinderShape& cylinder,
                      const btTransform& pose) {
  ExactRay hit;
  if (cylinder.getUpAxis() != 1 || cylinder.getLocalScaling() != btVector3(1, 1, 1)) return hit;
  const btVector3 size = cylinder.getHalfExtentsWithMargin();
  const double r = size.x();
  const double h = size.y();
  const btVector3 p = pose.invXform(from);
  const btVector3 d = pose.invXform(to) - p;
  const double across2 = p.x() * p.x() + p.z() * p.z();
  if (across2 <= r * r && std::fabs(p.y()) <= h) return hit;  // starts inside or on it
  hit.answered = true;
  // The caps' slab: the ray is between them for t in [cap_in, cap_out].
  double cap_in = 0.0;
  double cap_out = 1.0;
  double cap_side = 0.0;  // which cap it enters through (0: it starts between them)
  if (d.y() == 0.0) {
    if (std::fabs(p.y()) > h) return hit;
  } else {
    double t_near = (-h - p.y()) / d.y();
    double t_far = (h - p.y()) / d.y();
    double side = -1.0;
    if (t_near > t_far) {
      std::swap(t_near, t_far);
      side = 1.0;
    }
    if (t_near > cap_in) {
      cap_in = t_near;
      cap_side = side;
    }
    cap_out = std::min(cap_out, t_far);
  }
  // The side: |p + t d| across the axis <= r for t in [side_in, side_out].
  const double a = d.x() * d.x() + d.z() * d.z();
  const double b = p.x() * d.x() + p.z() * d.z();  // half the linear term
  const double c = across2 - r * r;
  double side_in = -BT_LARGE_FLOAT;
  double side_out = BT_LARGE_FLOAT;
  if (a == 0.0) {
    if (c > 0.0) return hit;  // along the axis, outside the side
  } else {
    const double discriminant = b * b - a * c;
    if (discriminant < 0.0) return hit;
    const double root = std::sqrt(discriminant);
    // The stable form: no cancellation between -b and the root.
    const double q = b >= 0.0 ? -(b + root) : -(b - root);
    double t0 = q / a;
    double t1 = q != 0.0 ? c / q : -t0;
    if (t0 > t1) std::swap(t0, t1);
    side_in = t0;
    side_out = t1;
  }
  const double enter = std::max({0.0, cap_in, side_in});
  const double leave = std::min(cap_out, side_out);
  if (enter > leave || enter > 1.0) return hit;
  btVector3 local(0, 0, 0);
  if (side_in >= cap_in && side_in > 0.0) {
    const btVector3 at = p + d * side_in;
    local.setValue(at.x(), 0.0, at.z());
    local /= std::sqrt(at.x() * at.x() + at.z() * at.z());
  } else if (cap_side != 0.0) {
    local.setY(cap_side);
  } else {
    return hit;  // starts outside yet enters through neither: rounding at an edge; no hit
  }
  hit.hit = true;
  hit.fraction = enter;
  hit.normal = pose.getBasis() * local;
  return hit;
}

}  // namespace stepslide::detail
