// The ray against a box (see ray_box.h).
#include "geometry/ray_box.h"

#include <cmath>
#include <utility>

namespace stepslide {

ExactRay ray_box(const btVector3& from, const btVector3& to, const btTransform& box, const btVector3& half_extents) {
  ExactRay result;
  // In the box's frame the faces are the planes x = ±h.x, y = ±h.y, z = ±h.z.
  const btVector3 p = box.invXform(from);
  const btVector3 d = box.invXform(to) - p;
  if (std::fabs(p.x()) <= half_extents.x() && std::fabs(p.y()) <= half_extents.y() &&
      std::fabs(p.z()) <= half_extents.z())
    return result;  // starts inside or on it
  result.answered = true;
  double enter = 0.0;
  double leave = 1.0;
  int axis = -1;
  double side = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double h = half_extents[i];
    if (d[i] == 0.0) {
      if (std::fabs(p[i]) > h) return result;  // parallel to this slab and outside it
      continue;
    }
    // Entering through the face the ray moves toward from outside.
    double t_near = (-h - p[i]) / d[i];
    double t_far = (h - p[i]) / d[i];
    double face = -1.0;
    if (t_near > t_far) {
      std::swap(t_near, t_far);
      face = 1.0;
    }
    if (t_near > enter) {
      enter = t_near;
      axis = i;
      side = face;
    }
    if (t_far < leave) leave = t_far;
    if (enter > leave) return result;
  }
  // Outside, so some slab excludes the origin and sets the entering face.
  if (axis < 0) return result;
  btVector3 local(0, 0, 0);
  local[axis] = side;
  result.hit = true;
  result.fraction = enter;
  result.normal = box.getBasis() * local;
  return result;
}

}  // namespace stepslide
