// convex_sweep: Bullet's conservative advancement (cast_advance.h) on
// convex_distance, whose GJK runs on the exact support functions (its last
// steps Newton's between curved surfaces), starts each step from the last
// step's normal and stops once a step is proved to overshoot the motion.
#include "geometry/convex_sweep.h"

#include "geometry/cast_advance.h"

namespace stepslide::detail {

namespace {

/// Nearer than this the cores touch (their difference is rounding): the
/// start is answered from the penetration (EPA), as Bullet's cast answers it.
constexpr double kCoreTouching = 1e-9;

}  // namespace

ExactSweep convex_sweep(const ConvexSolid& mover, const ConvexSolid& body, const btVector3& motion,
                        const btVector3& guess) {
  const double margins = mover.margin() + body.margin();
  btVector3 direction = guess;
  return advance(motion, [&](double lambda, double cutoff) {
    // With the depth: where GJK finds the cores touching in a degenerate
    // simplex, EPA can still prove them apart (asked without it, 4 of 8 000
    // random sweeps in the tests went to Bullet for nothing).
    ConvexDetail detail;
    const ExactContact d = lambda == 0.0 ? convex_distance(mover, body, direction, cutoff, &detail)
                                         : convex_distance(mover.moved(motion * lambda), body, direction, cutoff);
    Probe probe;
    if (d.distance > cutoff) {
      probe.beyond = true;
      return probe;
    }
    // The next step starts where this one ended: a few GJK steps there.
    direction = d.normal;
    probe.separated = d.distance + margins > kCoreTouching;
    // Started with the cores touching or overlapping, Bullet's cast asks its
    // penetration solver (EPA, compiled into Bullet's library and so
    // contracted differently on each CPU) and answers a hit at 0 along its
    // direction when moving into it: convex_distance's own EPA, run to its
    // tolerance, answers the same question in this build. Only the start:
    // later steps stop short of touching, and one that rounding puts on the
    // cores is still Bullet's.
    probe.known = probe.separated || (lambda == 0.0 && detail.converged);
    probe.distance = d.distance;
    probe.normal = d.normal;
    probe.point = d.point;
    return probe;
  }, true);
}

}  // namespace stepslide::detail
