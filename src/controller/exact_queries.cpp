// Exact closed-form queries (see exact_queries.h).
#include "stepslide/exact_queries.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace stepslide {

ExactRayHit ray_box(const btVector3& from, const btVector3& to, const btTransform& box,
                    const btVector3& half_extents, bool* starts_inside) {
  ExactRayHit result;
  // In the box's frame the faces are the planes x = ±h.x, y = ±h.y, z = ±h.z.
  const btVector3 p = box.invXform(from);
  const btVector3 d = box.invXform(to) - p;
  *starts_inside = std::fabs(p.x()) <= half_extents.x() && std::fabs(p.y()) <= half_extents.y() &&
                   std::fabs(p.z()) <= half_extents.z();
  if (*starts_inside) return result;
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

namespace {

/// The box's closest point to `p` (box frame).
inline btVector3 clamp_to_box(const btVector3& p, const btVector3& h) {
  return btVector3(std::clamp(p.x(), -h.x(), h.x()), std::clamp(p.y(), -h.y(), h.y()), std::clamp(p.z(), -h.z(), h.z()));
}

/// Minimises |p(t) - box|² over t in [lo, hi], where on that interval every
/// axis is wholly below, inside or above its slab (a quadratic in t).
double minimise_on(const btVector3& a, const btVector3& d, const btVector3& h, double lo, double hi) {
  const double mid = 0.5 * (lo + hi);
  double qa = 0.0;  // |p(t) - box|² = qa t² + qb t + qc
  double qb = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double x = a[i] + d[i] * mid;
    if (std::fabs(x) <= h[i]) continue;
    const double off = a[i] - (x > 0 ? h[i] : -h[i]);
    qa += d[i] * d[i];
    qb += 2 * d[i] * off;
  }
  if (qa <= 0.0) return lo;
  return std::clamp(-qb / (2 * qa), lo, hi);
}

}  // namespace

ExactContact capsule_box(const btVector3& a, const btVector3& b, double radius, const btTransform& box,
                         const btVector3& half_extents) {
  ExactContact contact;
  // An inverted box (a margin wider than half of it) has no closest point:
  // clamping to it would take a lower bound above the upper one.
  if (half_extents.x() < 0.0 || half_extents.y() < 0.0 || half_extents.z() < 0.0) return contact;
  const btVector3 p = box.invXform(a);
  const btVector3 d = box.invXform(b) - p;
  // Where the segment crosses a slab's faces, the squared distance changes form.
  double cuts[8];
  int n = 0;
  cuts[n++] = 0.0;
  cuts[n++] = 1.0;
  for (int i = 0; i < 3; ++i) {
    if (d[i] == 0.0) continue;
    for (const double face : {-half_extents[i], half_extents[i]}) {
      const double t = (face - p[i]) / d[i];
      if (t > 0.0 && t < 1.0) cuts[n++] = t;
    }
  }
  for (int i = 1; i < n; ++i) {  // at most 8: an insertion sort
    const double cut = cuts[i];
    int j = i;
    for (; j > 0 && cuts[j - 1] > cut; --j) cuts[j] = cuts[j - 1];
    cuts[j] = cut;
  }
  double best_t = 0.0;
  double best = -1.0;
  for (int k = 0; k + 1 < n; ++k) {
    if (cuts[k + 1] <= cuts[k]) continue;
    const double t = minimise_on(p, d, half_extents, cuts[k], cuts[k + 1]);
    const btVector3 at = p + d * t;
    const double distance2 = (at - clamp_to_box(at, half_extents)).length2();
    if (best < 0 || distance2 < best) {
      best = distance2;
      best_t = t;
    }
    // Convex in t: a minimum before this interval's end is the least of all.
    if (t < cuts[k + 1]) break;
  }
  const btVector3 closest = p + d * best_t;
  const btVector3 on_box = clamp_to_box(closest, half_extents);
  const double distance = (closest - on_box).length();
  if (!(distance > 1e-9)) return contact;  // touching or inside: no unique normal here
  contact.separated = true;
  contact.distance = distance - radius;
  contact.normal = box.getBasis() * ((closest - on_box) / distance);
  contact.point = box * on_box;
  return contact;
}

}  // namespace stepslide
