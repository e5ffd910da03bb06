// Exact closed-form queries (see capsule_box.h).
#include "geometry/capsule_box.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace stepslide {

namespace {

constexpr double kSliver = 1e-12;  ///< m: |d × axis| below this, no face
constexpr double kTie = 1e-9;      ///< m: pushes this close tie

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
    // An axis the segment runs across adds 0 to both (qa + 0 is qa, and qb
    // starts at +0, which adding a zero of either sign leaves +0).
    if (d[i] == 0.0) continue;
    const double x = a[i] + d[i] * mid;
    if (std::fabs(x) <= h[i]) continue;
    const double off = a[i] - (x > 0 ? h[i] : -h[i]);
    qa += d[i] * d[i];
    qb += 2 * d[i] * off;
  }
  if (qa <= 0.0) return lo;
  return std::clamp(-qb / (2 * qa), lo, hi);
}

/// The segment p + d t, t in [0, 1], and its closest point on the box (box
/// frame): the squared distance from the segment to the box is a convex
/// piecewise quadratic in t, minimised interval by interval. On a flat
/// stretch (the segment parallel to a face) the lowest t of it.
struct SegmentClosest {
  btVector3 on_segment;
  btVector3 on_box;
};

SegmentClosest closest_to_box(const btVector3& p, const btVector3& d, const btVector3& half_extents) {
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
  return {closest, clamp_to_box(closest, half_extents)};
}

}  // namespace

ExactContact capsule_box(const btVector3& a, const btVector3& b, double radius, const btTransform& box,
                         const btVector3& half_extents) {
  ExactContact contact;
  // An inverted box (a margin wider than half of it) has no closest point:
  // clamping to it would take a lower bound above the upper one.
  if (half_extents.x() < 0.0 || half_extents.y() < 0.0 || half_extents.z() < 0.0) return contact;
  const btVector3 p = box.invXform(a);
  // An end on the box: closest_to_box's first interval, wholly inside every
  // slab, minimises to that end at distance 0 exactly, and nothing is less.
  if (std::fabs(p.x()) <= half_extents.x() && std::fabs(p.y()) <= half_extents.y() &&
      std::fabs(p.z()) <= half_extents.z())
    return contact;  // capsule_box_penetration answers
  const btVector3 d = box.invXform(b) - p;
  const SegmentClosest c = closest_to_box(p, d, half_extents);
  const double distance = (c.on_segment - c.on_box).length();
  if (!(distance > 1e-9)) return contact;  // touching or inside: capsule_box_penetration answers
  contact.answered = true;
  contact.distance = distance - radius;
  contact.normal = box.getBasis() * ((c.on_segment - c.on_box) / distance);
  contact.point = box * c.on_box;
  return contact;
}

ExactContact capsule_box_penetration(const btVector3& a, const btVector3& b, double radius, const btTransform& box,
                                     const btVector3& half_extents) {
  ExactContact contact;
  if (half_extents.x() < 0.0 || half_extents.y() < 0.0 || half_extents.z() < 0.0) return contact;
  const btVector3 p = box.invXform(a);
  const btVector3 d = box.invXform(b) - p;
  // The segment enters the box where the origin lies inside the zonotope
  // box ⊕ (-segment); the least push out of it is along one of its face
  // normals: the box's axes, and d × axis. In the box's frame those cross
  // products are exact: (0, d.z, -d.y), (-d.z, 0, d.x), (d.y, -d.x, 0).
  btVector3 axes[6] = {btVector3(1, 0, 0), btVector3(0, 1, 0), btVector3(0, 0, 1),
                       btVector3(0, d.z(), -d.y()), btVector3(-d.z(), 0, d.x()), btVector3(d.y(), -d.x(), 0)};
  // Candidates, in order: +x, -x, +y, -y, +z, -z, then ±(d × x), ±(d × y), ±(d × z).
  // How far the segment must move along unit u to leave the box's slab
  // along it: the box projects onto u as [-reach, reach], the segment as
  // [min(s0, s1), max(s0, s1)]. Along -u the box reaches as far and the
  // projections change sign, exactly (rounding is symmetric).
  double push[12];
  int axis_of[12];  ///< candidate 2m is +axes[axis_of[2m]], 2m + 1 its opposite
  int n = 0;
  // The box's axes: reach is the half extent and the projections the
  // coordinates themselves (the other terms are zeros, which change no
  // push but for the sign of a zero push).
  for (int i = 0; i < 3; ++i) {
    const double s0 = p[i];
    const double s1 = s0 + d[i];
    axis_of[n] = axis_of[n + 1] = i;
    push[n++] = half_extents[i] - std::min(s0, s1);
    push[n++] = half_extents[i] + std::max(s0, s1);
  }
  const auto unit = [&](int i) {
    const double length = axes[i].length();
    return std::pair<btVector3, double>(axes[i] / length, length);
  };
  for (int i = 3; i < 6; ++i) {
    const auto [u, length] = unit(i);
    // A face narrower than this (the segment within 1e-12 m of parallel to
    // the axis) changes the depth by less than its width: left out.
    if (!(length > kSliver)) continue;
    const double reach = half_extents.x() * std::fabs(u.x()) + half_extents.y() * std::fabs(u.y()) +
                         half_extents.z() * std::fabs(u.z());
    const double s0 = p.dot(u);
    const double s1 = s0 + d.dot(u);
    axis_of[n] = axis_of[n + 1] = i;
    push[n++] = reach - std::min(s0, s1);
    push[n++] = reach + std::max(s0, s1);
  }
  // Ties: a box face's normal within kTie of the least push is taken over a
  // cross axis (a capsule lying nearly flat on a face is pushed off the face,
  // with its face normal, not tilted by a rounding); otherwise the least push,
  // and on an exact tie the first candidate in the order above.
  double least = push[0];
  for (int k = 1; k < n; ++k) least = std::min(least, push[k]);
  int best = -1;
  for (int k = 0; k < 6; ++k) {
    if (push[k] <= least + kTie && (best < 0 || push[k] < push[best])) best = k;
  }
  if (best < 0) {
    for (int k = 6; k < n; ++k) {
      if (push[k] == least) {
        best = k;
        break;
      }
    }
  }
  // Where Bullet puts a contact: on the box, where the capsule pushed out by
  // the depth would touch it; the closest point of the moved segment, as the
  // separated case's point at depth 0.
  const btVector3 u = axis_of[best] < 3 ? axes[axis_of[best]] : unit(axis_of[best]).first;
  const btVector3 normal = best % 2 == 0 ? u : -u;
  const btVector3 moved = p + normal * push[best];
  contact.distance = -push[best] - radius;
  contact.normal = box.getBasis() * normal;
  contact.point = box * closest_to_box(moved, d, half_extents).on_box;
  contact.answered = true;
  return contact;
}

}  // namespace stepslide
