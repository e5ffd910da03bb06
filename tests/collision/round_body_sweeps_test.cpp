// Sweeps against round bodies (cylinders, spheres, capsules) and convex
// hulls for every character shape (exact_sweep_pair in collision/sweep_pairs.cpp, on
// convex_sweep): against Bullet's own cast (objectQuerySingle) on random
// pairs, each disagreement counted and checked against the exact gap.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "collision/convex_sweep_pairs.h"
#include "collision/query_bounds.h"
#include "collision/sweep_pairs.h"
#include "geometry/shapes.h"
#include "stepslide/character.h"
#include "support/cast_agreement.h"
#include "support/random_geometry.h"

namespace stepslide::test {
namespace {

using detail::ConvexSolid;
using detail::convex_distance;
using detail::exact_sweep_pair;

enum class Mover { Box, Capsule, Sphere, Cylinder };

/// A character of `kind` (upright) swept from outside toward a round body
/// (a cylinder, sphere or capsule in turn, in any pose), about half hitting.
struct RandomRoundPair {
  std::unique_ptr<btConvexShape> mover;
  std::unique_ptr<btConvexShape> body;
  btCollisionObject object;
  RandomSweep sweep;

  RandomRoundPair(RandomGeometry& random, int i, Mover kind, bool hull = false)
      : sweep(aimed(random, i, kind, hull)) {}

  /// Builds the mover and the body, then aims the sweep past both.
  RandomSweep aimed(RandomGeometry& random, int i, Mover kind, bool hull) {
    const btVector3 half = random.vector(0.1, 0.6);
    switch (kind) {
      case Mover::Box:
        mover = std::make_unique<btBoxShape>(half);
        mover->setMargin(box_margin(half));
        break;
      case Mover::Capsule: mover = std::make_unique<btCapsuleShape>(half.x(), 2 * half.y()); break;
      case Mover::Sphere: mover = std::make_unique<btSphereShape>(half.x()); break;
      case Mover::Cylinder:
        mover = std::make_unique<btCylinderShape>(btVector3(half.x(), half.y() + 0.2, half.x()));
        mover->setMargin(0.001);
        break;
    }
    const double a = random.uniform(0.1, 1.2);
    const double b = random.uniform(0.1, 1.2);
    switch (hull ? 3 : i % 3) {
      case 3: {  // a hull of 6 to 12 random points within 1 m, Bullet's margin
        auto points = std::make_unique<btConvexHullShape>();
        for (int k = 0; k < 6 + i % 7; ++k) points->addPoint(random.point(a + 0.3), false);
        points->recalcLocalAabb();
        body = std::move(points);
        break;
      }
      case 0:
        body = std::make_unique<btCylinderShape>(btVector3(a, b, a));
        body->setMargin(i % 2 == 0 ? 0.001 : 0.04);
        break;
      case 1: body = std::make_unique<btSphereShape>(a); break;
      default: body = std::make_unique<btCapsuleShape>(std::min(a, 0.6), b); break;
    }
    object.setCollisionShape(body.get());
    const btVector3 at = random.point(2.0);
    object.setWorldTransform(btTransform(random.rotation(), at));
    btVector3 centre;
    double bound = 0.0, mover_bound = 0.0;
    body->getBoundingSphere(centre, bound);
    mover->getBoundingSphere(centre, mover_bound);
    return RandomSweep(random, at, bound + mover_bound);
  }

  double gap_at(double fraction, const btVector3& offset) const {
    const btTransform at = sweep.at(fraction, offset);
    const btTransform& pose = object.getWorldTransform();
    return convex_distance(ConvexSolid::of(mover.get(), at), ConvexSolid::of(body.get(), pose),
                           at.getOrigin() - pose.getOrigin())
        .distance;
  }

  CastAnswer ours(bool* answered) {
    btCollisionWorld::ClosestConvexResultCallback callback(sweep.from.getOrigin(), sweep.to.getOrigin());
    *answered = exact_sweep_pair(mover.get(), sweep.from, sweep.to, &object, &callback);
    return {callback.hasHit(), callback.m_closestHitFraction, callback.m_hitNormalWorld.normalized()};
  }
};

struct Tally {
  CastAgreement agreement;
  int unanswered = 0;
  int agreeing = 0;
};

Tally agree_on_random_round_bodies(Mover kind, bool hull = false) {
  RandomGeometry random((hull ? 8000 : 7000) + static_cast<int>(kind));
  Tally tally;
  for (int i = 0; i < 3000; ++i) {
    RandomRoundPair pair(random, i, kind, hull);
    bool answered = false;
    const CastAnswer ours = pair.ours(&answered);
    if (!answered) {
      ++tally.unanswered;
      continue;
    }
    const CastPair compared =
        cast_pair_of(pair.sweep.motion(), [&](double f, const btVector3& offset) { return pair.gap_at(f, offset); });
    if (tally.agreement.add(ours, bullet_cast(pair.mover.get(), pair.sweep.from, pair.sweep.to, pair.object),
                            compared, i, false)) {
      ++tally.agreeing;
    }
  }
  tally.agreement.print();
  return tally;
}

/// Every character against cylinders, spheres and capsules: every pair
/// answered, hit or miss always as Bullet's cast (but where the pass
/// grazes the stop distance), and every hit either agreeing within 1e-8 m
/// and 1e-6 or a counted disagreement checked against the exact gap.
/// Seen (of 3 000 pairs each): box 1 591 of 1 980 hits agree, capsule
/// 1 597 of 2 002, sphere 1 388 of 1 711, cylinder 786 of 2 030; the rest
/// mostly a step apart in the band (310, 313, 244, 921), where Bullet's GJK
/// stops at a relative error on a curved surface, then Bullet inside or
/// short of the band with ours in it (65, 50, 34, 162) and the normals
/// apart with ours the gap's gradient (14, 42, 45, 161). No grazing case.
class RoundBodySweep : public ::testing::TestWithParam<Mover> {};

TEST_P(RoundBodySweep, MatchesBulletsCast) {
  const Tally tally = agree_on_random_round_bodies(GetParam());
  EXPECT_EQ(tally.unanswered, 0);
  EXPECT_GT(tally.agreement.hits, 1500);
  EXPECT_LT(tally.agreement.grazing, 10);
  EXPECT_GT(tally.agreeing, tally.agreement.hits / 3);
}

/// Box, capsule and sphere characters against convex hulls (6 to 12 random
/// points, Bullet's default margin), through Bullet's own support
/// function: Bullet's GJK converges there too, and every hit agrees (seen
/// 1 956, 1 902 and 1 656 hits, at most 2.8e-13 m and 4.1e-13 apart).
class HullBodySweep : public ::testing::TestWithParam<Mover> {};

TEST_P(HullBodySweep, MatchesBulletsCast) {
  const Tally tally = agree_on_random_round_bodies(GetParam(), true);
  EXPECT_EQ(tally.unanswered, 0);
  EXPECT_GT(tally.agreement.hits, 1500);
  EXPECT_LT(tally.agreement.grazing, 10);
  EXPECT_EQ(tally.agreeing, tally.agreement.hits);
}

std::string mover_name(const ::testing::TestParamInfo<Mover>& info) {
  static const char* const kNames[] = {"Box", "Capsule", "Sphere", "Cylinder"};
  return kNames[static_cast<int>(info.param)];
}

INSTANTIATE_TEST_SUITE_P(EveryCharacter, RoundBodySweep,
                         ::testing::Values(Mover::Box, Mover::Capsule, Mover::Sphere, Mover::Cylinder), mover_name);

/// A cylinder character against hulls: as against round bodies, Bullet's
/// GJK stops at a relative error on the rim, so each disagreement is
/// counted and checked against the exact gap (seen: 1 167 of 1 942 hits
/// agree; 600 a step apart in the band, 120 Bullet off it, 55 normals).
TEST(HullBodySweep, CylinderMatchesBulletsCastOrTheExactGap) {
  const Tally tally = agree_on_random_round_bodies(Mover::Cylinder, true);
  EXPECT_EQ(tally.unanswered, 0);
  EXPECT_GT(tally.agreement.hits, 1500);
  EXPECT_LT(tally.agreement.grazing, 10);
  EXPECT_GT(tally.agreeing, tally.agreement.hits / 3);
}

INSTANTIATE_TEST_SUITE_P(FlatAndRoundCharacters, HullBodySweep,
                         ::testing::Values(Mover::Box, Mover::Capsule, Mover::Sphere), mover_name);

}  // namespace
}  // namespace stepslide::test
