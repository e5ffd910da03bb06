// How an exact sweep of ours agrees with Bullet's convex cast of the same
// pair, for the tests that compare them on many random pairs (capsule and
// box against boxes and triangles). Both run the same conservative
// advancement and stop at the first step within kCastStopDistance, ours on
// exact distances, Bullet's on GJK's; so they may disagree only in ways
// that are counted here, each checked against the pair's exact gap, and
// each test bounds how many there are.
#pragma once

#include <btBulletCollisionCommon.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

#include "geometry/box_sweeps.h"
#include "support/random_geometry.h"

namespace stepslide::test {

/// Stopping points agree within 10 nm along the motion.
constexpr double kCastDistanceTolerance = 1e-8;
/// Normals agree within 1e-6 (6e-5 degrees).
constexpr double kCastNormalTolerance = 1e-6;
/// A hit against a miss only where the pass grazes the stop distance this closely.
constexpr double kCastGrazingBand = 1e-5;

/// What the comparison needs of one random pair.
struct CastPair {
  btVector3 motion;
  /// The exact gap between the shapes with the mover at `fraction` of the
  /// motion and its start shifted by `offset`.
  std::function<double(double fraction, const btVector3& offset)> gap_at;
  /// The least exact gap over the whole motion (a brute force).
  std::function<double()> closest_approach;
};

/// One answer: ours (an ExactSweep) or Bullet's.
struct CastAnswer {
  bool hit = false;
  double fraction = 1.0;
  btVector3 normal{0, 0, 0};
};

/// `answer` is an ExactSweep or a test's record of Bullet's cast.
template <typename Answer>
CastAnswer cast_answer(const Answer& answer) {
  return {answer.hit, answer.fraction, answer.normal};
}

/// Bullet's cast of `shape` from `from` to `to` against `object`:
/// objectQuerySingle, what its convexSweepTest runs for each candidate.
inline CastAnswer bullet_cast(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                              btCollisionObject& object) {
  btCollisionWorld::ClosestConvexResultCallback callback(from.getOrigin(), to.getOrigin());
  btCollisionWorld::objectQuerySingle(shape, from, to, &object, object.getCollisionShape(),
                                      object.getWorldTransform(), callback, 0.0);
  return {callback.hasHit(), callback.m_closestHitFraction, callback.m_hitNormalWorld.normalized()};
}

/// The least of `gap` over the fractions [0, 1] of a straight motion (a
/// brute force for CastPair::closest_approach): the distance of two convex
/// solids is convex in a translation, so a ternary search of `rounds` steps
/// converges to it.
inline double least_over_motion(const std::function<double(double)>& gap, int rounds = 60) {
  double lo = 0.0;
  double hi = 1.0;
  for (int round = 0; round < rounds; ++round) {
    const double m1 = lo + (hi - lo) / 3;
    const double m2 = hi - (hi - lo) / 3;
    if (gap(m1) < gap(m2)) {
      hi = m2;
    } else {
      lo = m1;
    }
  }
  return gap(0.5 * (lo + hi));
}

/// CastPair for a motion and its gap function, the least gap over the
/// motion found by least_over_motion.
inline CastPair cast_pair_of(const btVector3& motion,
                             const std::function<double(double fraction, const btVector3& offset)>& gap_at) {
  return {motion, gap_at,
          [gap_at] { return least_over_motion([&](double fraction) { return gap_at(fraction, btVector3(0, 0, 0)); }); }};
}

/// An unturned sweep for the random tests: from `clearance` plus 5 cm to
/// 2 m away from `centre` in a random direction, toward a point within 1 m
/// of it, 0.3 to 2 times as far (about half of them hit what is there).
struct RandomSweep {
  btTransform from;
  btTransform to;

  RandomSweep(RandomGeometry& random, const btVector3& centre, double clearance) {
    const btVector3 away = random.point(1).normalized();
    const btVector3 start = centre + away * (clearance + random.uniform(0.05, 2.0));
    const btVector3 target = centre + random.point(1.0);
    const double reach = random.uniform(0.3, 2.0);
    from = btTransform(btQuaternion::getIdentity(), start);
    to = btTransform(btQuaternion::getIdentity(), start + (target - start) * reach);
  }

  btVector3 motion() const { return to.getOrigin() - from.getOrigin(); }

  /// The mover's pose at `fraction` of the motion, its start moved by `offset`.
  btTransform at(double fraction, const btVector3& offset) const {
    btTransform pose = from;
    pose.setOrigin(from.getOrigin() + motion() * fraction + offset);
    return pose;
  }
};

/// The tally of one test's random pairs.
struct CastAgreement {
  int compared = 0;     ///< both hit or both missed
  int hits = 0;         ///< of those, both hit
  int grazing = 0;      ///< one hit, one missed: the pass grazes the stop distance
  int step_apart = 0;   ///< both stop in the band, one a step further
  int bullet_off = 0;   ///< Bullet stopped inside the shape or short of the band
  int normal_off = 0;   ///< the normals differ: ours is the gap's gradient
  double worst_apart = 0.0;   ///< over the hits that agree
  double worst_normal = 0.0;  ///< over the hits that agree

  /// Compares one pair that starts apart. Returns true when both hit and
  /// agree (point and normal), so a test may compare more of them.
  /// `bullets_normal_gains_less`: where the normals differ, also require
  /// Bullet's to be a worse gradient than ours (GJK's normal converges more
  /// slowly than its distance), not only ours to be the gradient.
  bool add(const CastAnswer& ours, const CastAnswer& theirs, const CastPair& pair, int index,
           bool bullets_normal_gains_less = true) {
    if (ours.hit != theirs.hit) {
      EXPECT_NEAR(pair.closest_approach(), kCastStopDistance, kCastGrazingBand)
          << "case " << index << ": hit " << ours.hit << " against " << theirs.hit;
      ++grazing;
      return false;
    }
    ++compared;
    if (!ours.hit) return false;
    ++hits;
    const double length = pair.motion.length();
    const double apart = std::fabs(ours.fraction - theirs.fraction) * length;
    if (apart > kCastDistanceTolerance) return stopped_apart(ours, theirs, pair, index, apart);
    worst_apart = std::max(worst_apart, apart);
    const double off = (ours.normal - theirs.normal).length();
    if (off > kCastNormalTolerance) return normals_apart(ours, theirs, pair, index, bullets_normal_gains_less);
    worst_normal = std::max(worst_normal, off);
    return true;
  }

  /// Every counted disagreement.
  int disagreements() const { return grazing + step_apart + bullet_off + normal_off; }

  void print() const {
    std::printf("compared %d, hits %d (worst %g m, normals %g apart); grazing %d, a step apart %d, Bullet off the band "
                "%d, normals off %d\n",
                compared, hits, worst_apart, worst_normal, grazing, step_apart, bullet_off, normal_off);
  }

 private:
  /// The stopping points differ: either Bullet's GJK misjudged a distance
  /// (it stopped inside the shape or short of the band; ours must be in the
  /// band), or both are in the band and one took a step more (then they are
  /// at most the stop distance over the approach apart).
  bool stopped_apart(const CastAnswer& ours, const CastAnswer& theirs, const CastPair& pair, int index, double apart) {
    const double theirs_gap = pair.gap_at(theirs.fraction, btVector3(0, 0, 0));
    if (theirs_gap < -1e-9 || theirs_gap > kCastStopDistance + 1e-9) {
      ++bullet_off;
      const double ours_gap = pair.gap_at(ours.fraction, btVector3(0, 0, 0));
      EXPECT_GE(ours_gap, -1e-9) << "case " << index;
      EXPECT_LE(ours_gap, kCastStopDistance + 1e-9) << "case " << index;
      return false;
    }
    ++step_apart;
    const double approach = -ours.normal.dot(pair.motion / pair.motion.length());
    EXPECT_LE(apart, kCastStopDistance / std::max(approach, 1e-3)) << "case " << index;
    return false;
  }

  /// The normals differ: ours must be the gap's gradient (moving the mover
  /// along it by a step gains that whole step, within the reference
  /// distance's own error: convex_distance's GJK may stall a few 1e-9 m
  /// short on a flat cap over a flat triangle, seen 2.9e-9).
  bool normals_apart(const CastAnswer& ours, const CastAnswer& theirs, const CastPair& pair, int index,
                     bool bullets_normal_gains_less) {
    ++normal_off;
    const double step = 1e-5;
    const double gap = pair.gap_at(ours.fraction, btVector3(0, 0, 0));
    EXPECT_NEAR(pair.gap_at(ours.fraction, ours.normal * step) - gap, step, 5e-9) << "case " << index;
    if (bullets_normal_gains_less) {
      EXPECT_LT(pair.gap_at(ours.fraction, theirs.normal * step) - gap, step * (1 - 1e-7)) << "case " << index;
    }
    return false;
  }
};

}  // namespace stepslide::test
