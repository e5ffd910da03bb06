// Exact capsule-capsule queries (see capsule_capsule.h).
#include "geometry/capsule_capsule.h"

#include <cmath>

#include "geometry/cast_advance.h"
#include "geometry/closest_points.h"

namespace stepslide {

namespace {

/// Segments closer than this touch: their direction is a rounding.
constexpr double kSegmentsTouch = 1e-12;

}  // namespace

ExactContact capsule_capsule(const btVector3& a0, const btVector3& a1, double ra, const btVector3& b0,
                             const btVector3& b1, double rb) {
  ExactContact c;
  btVector3 on_a;
  btVector3 on_b;
  detail::closest_on_segments(a0, a1, b0, b1, &on_a, &on_b);
  const btVector3 between = on_a - on_b;
  const double length = std::sqrt(between.length2());
  if (!(length > kSegmentsTouch)) return c;
  c.answered = true;
  c.normal = between / length;
  c.distance = length - ra - rb;
  c.point = on_b + c.normal * rb;
  return c;
}

ExactSweep capsule_capsule_sweep(const btVector3& a0, const btVector3& a1, double ra, const btVector3& motion,
                                 const btVector3& b0, const btVector3& b1, double rb) {
  return detail::advance(motion, [&](double lambda, double) {
    const btVector3 shift = motion * lambda;
    const ExactContact c =
        lambda == 0.0 ? capsule_capsule(a0, a1, ra, b0, b1, rb) : capsule_capsule(a0 + shift, a1 + shift, ra, b0, b1, rb);
    detail::Probe probe;
    probe.separated = c.answered;
    probe.distance = c.distance;
    probe.normal = c.normal;
    probe.point = c.point;
    return probe;
  });
}

}  // namespace stepslide
