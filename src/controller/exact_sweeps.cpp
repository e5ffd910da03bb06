// Exact sweeps (see exact_sweeps.h).
#include "stepslide/exact_sweeps.h"

#include "stepslide/exact_queries.h"

namespace stepslide {

namespace {

/// Bullet's limit on its cast's steps (btContinuousConvexCollision's
/// MAX_ITERATIONS): past it Bullet reports no hit, and so do we.
constexpr int kMaxCastSteps = 64;

}  // namespace

ExactSweep capsule_box_sweep(const btVector3& a, const btVector3& b, double radius, const btVector3& motion,
                             const btTransform& box, const btVector3& core_half, double margin) {
  ExactSweep sweep;
  // Bullet's rounded box is the core grown by the margin: against the core,
  // the capsule grows by it instead (the same distances and normals).
  ExactContact contact = capsule_box(a, b, radius + margin, box, core_half);
  if (!contact.separated) return sweep;  // the core is touched: Bullet's penetration solver answers
  sweep.answered = true;
  if (motion.length2() == 0.0) return sweep;
  // Bullet's relative velocity is the box's minus the character's: the
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
    const btVector3 shift = motion * lambda;
    contact = capsule_box(a + shift, b + shift, radius + margin, box, core_half);
    if (!contact.separated) {  // rounding put the segment on the core: let Bullet decide
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
  sweep.point = contact.point + contact.normal * margin;
  return sweep;
}

}  // namespace stepslide
