// Bullet's convex cast (conservative
// advancement, btContinuousConvexCollision::calcTimeOfImpact) run on exact
// distances, shared by the exact sweeps (box_sweeps.cpp) and the convex
// pairs' sweeps (convex_sweep_pairs.cpp). Not installed.
#pragma once

#include <cmath>

#include "geometry/bullet_shapes.h"
#include "geometry/sweep.h"

namespace stepslide::detail {

/// Bullet's limit on its cast's steps (btContinuousConvexCollision's
/// MAX_ITERATIONS): past it Bullet reports no hit, and so do we.
constexpr int kMaxCastSteps = 64;

/// One exact distance query along the sweep, at some fraction of the motion.
struct Probe {
  bool separated = false;  ///< false: the cores touch, Bullet's penetration solver answers
  bool beyond = false;     ///< true: proved farther than the cutoff asked for (nothing else set)
  bool known = true;       ///< false: the cores touch and nothing is known of the overlap
  double distance = 0.0;
  btVector3 normal{0, 0, 0};  ///< from the object toward the moving shape
  btVector3 point{0, 0, 0};   ///< on the object's surface
};

/// Bullet's cast, conservative advancement (btContinuousConvexCollision::
/// calcTimeOfImpact), run on exact distances: `probe(lambda, cutoff)` answers
/// the moving shape moved by `motion * lambda`; a probe may stop searching
/// once it proves the distance beyond `cutoff` (then no step can reach the
/// end of the motion: Bullet misses). `overlap_answered`: a probe's answer
/// where the cores overlap at the start is exact too (the penetration depth
/// and direction Bullet's EPA approximates), and the start is answered as
/// Bullet answers it: a hit at 0 when moving into that direction.
template <class ProbeAt>
ExactSweep advance(const btVector3& motion, ProbeAt probe, bool overlap_answered = false) {
  ExactSweep sweep;
  const double length = std::sqrt(motion.length2());
  // Slack far above rounding: a lower bound past it proves the first step
  // already overshoots the motion.
  const auto cutoff = [&](double lambda) { return (1.0 - lambda) * length * (1 + 1e-9) + 2 * kCastStopDistance; };
  Probe contact = probe(0.0, cutoff(0.0));
  if (contact.beyond) {
    sweep.answered = true;
    return sweep;
  }
  if (!contact.separated && !(overlap_answered && contact.known)) return sweep;  // the core is touched: Bullet's penetration solver answers
  sweep.answered = true;
  if (motion.length2() == 0.0) return sweep;
  // Bullet's relative velocity is the object's minus the moving shape's: the
  // approach speed along the normal is -motion·n, and it needs more than
  // SIMD_EPSILON of it to move at all.
  double distance = contact.distance;
  double lambda = 0.0;
  int steps = 0;
  while (distance > kCastStopDistance) {
    const double approach = -motion.dot(contact.normal);
    if (approach <= SIMD_EPSILON) return sweep;  // moving away or along: never closer
    const double next = lambda + distance / approach;
    if (next > 1.0 || next < 0.0 || next <= lambda) return sweep;
    lambda = next;
    contact = probe(lambda, cutoff(lambda));
    if (contact.beyond) return sweep;  // the rest of the motion cannot close the gap
    if (!contact.separated) {          // rounding put the shapes' cores together: let Bullet decide
      sweep.answered = false;
      return sweep;
    }
    distance = contact.distance;
    if (++steps > kMaxCastSteps) return sweep;
  }
  // Bullet checks the approach before its first step only: a start already
  // within the stop distance needs it too.
  if (steps == 0 && -motion.dot(contact.normal) <= SIMD_EPSILON) return sweep;
  sweep.hit = true;
  sweep.fraction = lambda;
  sweep.normal = contact.normal;
  sweep.point = contact.point;
  return sweep;
}

}  // namespace stepslide::detail
