// The planes a move has met, solved together: the motion (or velocity) they
// allow that is closest to the one asked for.
#include "stepslide/stages.h"

#include <algorithm>

#include "controller/internal.h"

namespace stepslide {

namespace {

/// Planes whose normals are closer than this (about 3 degrees) are one
/// plane. On a dense mesh a flat wall answers a sweep with its face normal on
/// one tick and a normal blended with a triangle edge's (GJK at an edge, up to
/// about 2 degrees off) on the next; kept as two planes, their crease would
/// stand across the wall and stop a slide along it.
constexpr double kSamePlaneCosine = 0.99863;

/// A candidate direction satisfies a plane when it does not push into it by
/// more than this fraction of the asked-for motion's length. Two walls at
/// right angles give dot products of a few 1e-17 of either sign, and
/// Bullet's normals differ in the last bit between CPUs (fused multiply-adds
/// on arm64), so an exact test against zero would flip between sliding and
/// following the crease. Either choice moves the feet by at most this
/// fraction of the motion divided by the sine of the angle between the
/// planes: far below the gate's tolerances.
constexpr double kPlaneTolerance = 1e-9;

bool satisfies_all(const btVector3& d, const SlidePlanes& planes, double slack) {
  for (int i = 0; i < planes.count; ++i) {
    if (d.dot(planes.normals[i]) < -slack) return false;
  }
  return true;
}

}  // namespace

bool SlidePlanes::add(const btVector3& normal) {
  for (int i = 0; i < count; ++i) {
    if (normals[i].dot(normal) > kSamePlaneCosine) {
      normals[i] = normal;  // the newest answer for that plane is the one the next sweep starts against
      return false;
    }
  }
  if (count == kMaxSlidePlanes) {
    // The oldest plane is the one the character has most likely left.
    for (int i = 1; i < count; ++i) normals[i - 1] = normals[i];
    --count;
  }
  normals[count++] = normal;
  return true;
}

bool SlidePlanes::contains(const btVector3& normal) const {
  for (int i = 0; i < count; ++i) {
    if (normals[i].dot(normal) > kSamePlaneCosine) return true;
  }
  return false;
}

PlaneSolution constrain_to_planes(const btVector3& wanted, const SlidePlanes& planes) {
  // The motion each plane allows is a half-space through the origin; the
  // planes together allow a convex cone. The closest point of a cone to
  // `wanted` is `wanted` itself, or its projection onto one plane, or onto
  // the crease of two, or the apex: whichever of those candidates lies in
  // the cone and is closest is the answer. Solving all the planes at once is
  // what keeps a corner at rest: clipping against the latest plane alone, an
  // obtuse corner's second wall sends the character back out along itself,
  // the stick brings it back on the next tick, and it jitters forever.
  PlaneSolution best;
  const double slack = kPlaneTolerance * wanted.length();
  if (satisfies_all(wanted, planes, slack)) {
    best.direction = wanted;
    return best;
  }
  double best_distance = wanted.length2();  // the apex, zero, always allowed
  best.blocked = true;
  for (int i = 0; i < planes.count; ++i) {
    const btVector3& n = planes.normals[i];
    const btVector3 along = wanted - n * wanted.dot(n);
    const double distance = (wanted - along).length2();
    if (distance < best_distance && satisfies_all(along, planes, slack)) {
      best = PlaneSolution{along, 1, false};
      best_distance = distance;
    }
  }
  for (int i = 0; i < planes.count; ++i) {
    for (int j = i + 1; j < planes.count; ++j) {
      const btVector3 crease = safe_normalized(planes.normals[i].cross(planes.normals[j]));
      if (crease.isZero()) continue;
      const btVector3 along = crease * wanted.dot(crease);
      const double distance = (wanted - along).length2();
      if (distance < best_distance && satisfies_all(along, planes, slack)) {
        best = PlaneSolution{along, 2, false};
        best_distance = distance;
      }
    }
  }
  return best;
}

PlaneSolution limit_rise(const btVector3& wanted, const PlaneSolution& clipped, const SlidePlanes& planes,
                         const btVector3& up) {
  const double allowed = std::max(0.0, wanted.dot(up));
  const double rise = clipped.direction.dot(up);
  if (rise <= allowed) return clipped;
  SlidePlanes level = planes;
  level.add(-up);
  PlaneSolution limited;
  if (allowed > 0.0) {
    // Rising: the point between the closest non-rising motion and the
    // clipped one that rises as fast as `wanted` did.
    const PlaneSolution flat = constrain_to_planes(wanted, level);
    const double flat_rise = flat.direction.dot(up);
    const double t = std::clamp((allowed - flat_rise) / (rise - flat_rise), 0.0, 1.0);
    limited = flat;
    limited.direction = flat.direction + (clipped.direction - flat.direction) * t;
  } else {
    // Falling or level: the push across up slides along the planes without
    // rising, and the fall is solved on its own (a fall projected onto a
    // surface never rises), so pushing into two edges does not hold the
    // character up either.
    const btVector3 fall = up * wanted.dot(up);
    const PlaneSolution across = constrain_to_planes(wanted - fall, level);
    const PlaneSolution down = constrain_to_planes(fall, planes);
    limited.direction = across.direction + down.direction;
    limited.active = std::max(across.active, down.active);
  }
  limited.blocked = limited.direction.length2() < 1e-28;
  return limited;
}

}  // namespace stepslide
