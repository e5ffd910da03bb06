// Exact sweeps (see box_sweeps.h).
#include "geometry/box_sweeps.h"

#include <algorithm>
#include <cmath>

#include "geometry/box_box.h"
#include "geometry/box_distance.h"
#include "geometry/box_triangle.h"
#include "geometry/capsule_box.h"
#include "geometry/cast_advance.h"

namespace stepslide {

namespace {

using detail::advance;
using detail::Probe;

/// Where two box cores overlap, the middle of the overlap of their extents
/// along b's axes, carried along `normal` onto the plane through `point`
/// (box_box_overlap's point, on b's rounded surface). box_box_overlap puts
/// its point at the middle of a's deepest feature, which for a tall box
/// against a thin bar lies beside the bar, off b's face: a step-up's riser
/// probe aimed at that height would miss the bar that blocked it.
btVector3 overlap_middle(const btTransform& a, const btVector3& ha, const btTransform& b, const btVector3& hb,
                         const btVector3& point, const btVector3& normal) {
  const btTransform a_in_b = b.inverseTimes(a);
  btVector3 low = a_in_b * -ha;
  btVector3 high = low;
  for (int v = 1; v < 8; ++v) {
    const btVector3 corner = a_in_b * btVector3(v & 1 ? ha.x() : -ha.x(), v & 2 ? ha.y() : -ha.y(),
                                                v & 4 ? ha.z() : -ha.z());
    low.setMin(corner);
    high.setMax(corner);
  }
  btVector3 middle;
  for (int k = 0; k < 3; ++k) middle[k] = 0.5 * (std::max(low[k], -hb[k]) + std::min(high[k], hb[k]));
  const btVector3 world = b * middle;
  return world + normal * (point - world).dot(normal);
}

/// A box core closer to a triangle than this has no reliable closest
/// features (their difference is rounding): Bullet's penetration solver answers.
constexpr double kCoreTouching = 1e-9;

}  // namespace

ExactSweep capsule_box_sweep(const btVector3& a, const btVector3& b, double radius, const btVector3& motion,
                             const btTransform& box, const btVector3& core_half, double margin) {
  // Bullet's rounded box is the core grown by the margin: against the core,
  // the capsule grows by it instead (the same distances and normals).
  return advance(motion, [&](double lambda, double) {
    const btVector3 shift = motion * lambda;
    ExactContact c = lambda == 0.0 ? capsule_box(a, b, radius + margin, box, core_half)
                                   : capsule_box(a + shift, b + shift, radius + margin, box, core_half);
    Probe probe;
    probe.separated = c.answered;
    // Started with the segment on the core, Bullet's cast asks EPA for the
    // penetration and answers a hit at 0 along its direction when moving
    // into it: the exact penetration answers the same (only the start can
    // find the segment on the core; the advance stops short of it after).
    if (!c.answered && lambda == 0.0) {
      c = capsule_box_penetration(a, b, radius + margin, box, core_half);
      probe.known = c.answered;
    }
    probe.distance = c.distance;
    probe.normal = c.normal;
    probe.point = c.point + c.normal * margin;
    return probe;
  }, true);
}

ExactSweep box_triangle_sweep(const btTransform& box, const btVector3& core_half, double box_radius,
                              const btVector3& motion, const btVector3 triangle[3], double triangle_margin) {
  const double radius = box_radius + triangle_margin;
  return advance(motion, [&](double lambda, double cutoff) {
    btTransform moved = box;
    if (lambda != 0.0) moved.setOrigin(box.getOrigin() + motion * lambda);
    const ExactContact c = box_triangle(moved, core_half, radius, triangle, cutoff);
    Probe probe;
    if (c.distance > cutoff) {
      probe.beyond = true;
      return probe;
    }
    // box_triangle's distance is the rounded box's: the core's is radius more.
    probe.separated = c.distance + radius > kCoreTouching;
    probe.distance = c.distance;
    probe.normal = c.normal;
    probe.point = c.point + c.normal * triangle_margin;
    return probe;
  }, true);
}

ExactSweep box_box_sweep(const btTransform& box, const btVector3& core_half, double box_margin,
                         const btVector3& motion, const btTransform& other, const btVector3& other_core,
                         double other_margin) {
  return advance(motion, [&](double lambda, double cutoff) {
    btTransform moved = box;
    if (lambda != 0.0) moved.setOrigin(box.getOrigin() + motion * lambda);
    Probe probe;
    if (lambda == 0.0) {
      // Only the start can find the cores overlapping (the advance stops
      // short of touching), and box_box_distance needs them apart.
      const ExactContact o = box_box_overlap(moved, core_half, box_margin, other, other_core, other_margin);
      if (o.answered) {
        probe.distance = o.distance;
        probe.normal = o.normal;
        probe.point = overlap_middle(moved, core_half, other, other_core, o.point, o.normal);
        return probe;
      }
    }
    const ExactContact d =
        box_box_distance(moved, core_half, box_margin, other, other_core, other_margin, cutoff, kCoreTouching);
    if (d.beyond) {
      probe.beyond = true;
      return probe;
    }
    probe.separated = d.answered;
    probe.known = d.answered;
    probe.distance = d.distance;
    probe.normal = d.normal;
    probe.point = d.point;
    return probe;
  }, true);
}

}  // namespace stepslide
