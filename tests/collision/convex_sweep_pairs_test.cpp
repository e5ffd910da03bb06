// A cylinder character's sweeps against convex bodies (controller/
// convex_sweep_pairs.h): Bullet's conservative advancement on convex_distance,
// against Bullet's own cast (objectQuerySingle) on random pairs, and what
// the adapter reports for them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "collision/convex_sweep_pairs.h"
#include "support/cast_agreement.h"
#include "support/random_geometry.h"

namespace stepslide::test {
namespace {

using detail::ConvexSolid;
using detail::convex_distance;
using detail::convex_sweep;
using detail::convex_sweep_pair;

struct Random : RandomGeometry {
  Random() : RandomGeometry(20261128) {}
};

/// A margin as the scenario world gives bodies (0.001) or Bullet's default
/// (0.04), at most half the thinnest extent (a core is never inverted).
double margin_for(int i, const btVector3& half) { return std::min(i % 2 == 0 ? 0.001 : 0.04, 0.5 * half[half.minAxis()]); }

/// A body of one of the kinds a cylinder character meets: box, cylinder,
/// capsule, sphere (by `kind`, from 0), in any orientation; its margin by `i`.
std::unique_ptr<btConvexShape> random_body(Random& random, int kind, int i) {
  const double a = random.uniform(0.05, 1.5);
  const double b = random.uniform(0.05, 1.5);
  const double c = random.uniform(0.05, 1.5);
  std::unique_ptr<btConvexShape> shape;
  switch (kind) {
    case 0: shape = std::make_unique<btBoxShape>(btVector3(a, b, c)); break;
    case 1: shape = std::make_unique<btCylinderShape>(btVector3(a, b, a)); break;
    case 2: return std::make_unique<btCapsuleShape>(std::min(a, 0.6), b);
    default: return std::make_unique<btSphereShape>(std::min(a, 0.8));
  }
  shape->setMargin(margin_for(i, btVector3(a, b, kind == 1 ? a : c)));
  return shape;
}

struct RandomPair {
  std::unique_ptr<btCylinderShape> mover;
  std::unique_ptr<btConvexShape> body;
  btCollisionObject object;
  btTransform from;
  btTransform to;

  /// `kind`: only that body (0 box, 1 cylinder: the bodies the adapter
  /// answers, convex_sweep_pair); -1: boxes, cylinders, capsules and
  /// spheres in turn.
  RandomPair(Random& random, int i, int kind) {
    const double radius = random.uniform(0.1, 0.6);
    const double half_height = random.uniform(0.2, 1.0);
    mover = std::make_unique<btCylinderShape>(btVector3(radius, half_height, radius));
    mover->setMargin(i % 3 == 0 ? 0.04 : 0.001);  // Bullet's default, or the controller's (character.cpp)
    body = random_body(random, kind >= 0 ? kind : i % 4, i / 4);
    object.setCollisionShape(body.get());
    const btQuaternion body_turn = random.rotation();
    const btVector3 body_at = random.point(3);
    object.setWorldTransform(btTransform(body_turn, body_at));
    // Upright most of the time, as characters are; any rotation otherwise.
    const btQuaternion turn = i % 5 == 0 ? random.rotation() : btQuaternion::getIdentity();
    // Start outside both bounding spheres, aim near the body so that about half hit.
    const btVector3 away = random.point(1).normalized();
    const double clear = random.uniform(0.05, 3.0);
    const btVector3 start = body_at + away * (bound(*body) + bound(*mover) + clear);
    const btVector3 target = body_at + random.point(1.5);
    const double reach = random.uniform(0.3, 2.0);
    from = btTransform(turn, start);
    to = btTransform(turn, start + (target - start) * reach);
  }

  static double bound(const btConvexShape& shape) {
    btVector3 centre;
    double radius = 0.0;
    shape.getBoundingSphere(centre, radius);
    return radius;
  }

  btVector3 motion() const { return to.getOrigin() - from.getOrigin(); }

  ConvexSolid solid_at(double fraction, const btVector3& offset) const {
    btTransform at = from;
    at.setOrigin(from.getOrigin() + motion() * fraction + offset);
    return ConvexSolid::of(mover.get(), at);
  }

  /// The exact gap with the mover at `fraction`, its start moved by `offset`.
  double gap_at(double fraction, const btVector3& offset) const {
    const ConvexSolid body_solid = ConvexSolid::of(body.get(), object.getWorldTransform());
    const ConvexSolid at = solid_at(fraction, offset);
    return convex_distance(at, body_solid, from.getOrigin() - object.getWorldTransform().getOrigin()).distance;
  }

  /// The least gap over the motion: the signed distance of two convex solids
  /// is convex in a translation, so a ternary search converges to it.
  double closest_approach() const {
    return least_over_motion([this](double fraction) { return gap_at(fraction, btVector3(0, 0, 0)); });
  }

  ExactSweep ours() const {
    const ConvexSolid body_solid = ConvexSolid::of(body.get(), object.getWorldTransform());
    return convex_sweep(ConvexSolid::of(mover.get(), from), body_solid, motion(),
                        from.getOrigin() - object.getWorldTransform().getOrigin());
  }

  CastAnswer bullets() { return bullet_cast(mover.get(), from, to, object); }
};

/// Ours against Bullet's cast on 4 000 random pairs with bodies of `kind`
/// (RandomPair), tallied and printed; `unanswered` counts the pairs ours
/// left to Bullet.
CastAgreement agree_on_random_pairs(int kind, int* unanswered) {
  Random random;
  CastAgreement agreement;
  for (int i = 0; i < 4000; ++i) {
    RandomPair pair(random, i, kind);
    const ExactSweep ours = pair.ours();
    if (!ours.answered) {
      ++*unanswered;
      continue;
    }
    const CastPair compared{pair.motion(),
                            [&](double fraction, const btVector3& offset) { return pair.gap_at(fraction, offset); },
                            [&] { return pair.closest_approach(); }};
    agreement.add(cast_answer(ours), pair.bullets(), compared, i, false);
  }
  agreement.print();
  std::printf("unanswered %d\n", *unanswered);
  return agreement;
}

/// Against Bullet's cast on boxes, the bodies the adapter answers: hit or
/// miss always the same (no grazing case seen); the stopping points agree
/// within 1e-8 m along the motion and the normals within 1e-6
/// (support/cast_agreement.h) on two thirds of the hits (seen 1 628 of
/// 2 422, at most 9.9e-9 m and 8.6e-7 apart), and every other hit is one of
/// the counted disagreements, each checked against the exact gap: both stop
/// in the millimetre band, one a step further (633); Bullet's GJK misjudged
/// a distance on the cylinder and stopped inside the box or short of the
/// band, ours in it (108); the normals differ and ours is the gap's
/// gradient (53). Bullet's GJK stops at a relative error on a cylinder's
/// rim.
TEST(ConvexSweep, MatchesBulletsCastOnRandomBoxes) {
  int unanswered = 0;
  const CastAgreement agreement = agree_on_random_pairs(0, &unanswered);
  EXPECT_GT(agreement.compared, 3990);
  EXPECT_GT(agreement.hits, 2000);
  EXPECT_LT(agreement.grazing, 10);            // seen 0
  EXPECT_LT(agreement.disagreements(), 1000);  // seen 794, each checked in add()
  EXPECT_GT(agreement.hits - (agreement.disagreements() - agreement.grazing), 1500);  // seen 1 628 agreeing
  EXPECT_EQ(unanswered, 0);  // every start is clear of the body
}

/// Against Bullet's cast on cylinders in any orientation, where Bullet's GJK
/// stops at a relative error between two curved surfaces and ours hands its
/// last steps to Newton's method (newton.cpp): hit or miss always
/// the same (no grazing case seen), and every hit either agrees as on boxes
/// (seen 596 of 2 250) or is a counted disagreement checked against the
/// exact gap: a step apart in the band (1 297), Bullet inside the body or
/// short of the band, ours in it (317), the normals apart with ours the
/// gap's gradient (40).
TEST(ConvexSweep, MatchesBulletsCastOnRandomCylinders) {
  int unanswered = 0;
  const CastAgreement agreement = agree_on_random_pairs(1, &unanswered);
  EXPECT_GT(agreement.compared, 3990);
  EXPECT_GT(agreement.hits, 2000);
  EXPECT_LT(agreement.grazing, 10);            // seen 0
  EXPECT_LT(agreement.disagreements(), 1900);  // seen 1 654, each checked in add()
  EXPECT_GT(agreement.hits - (agreement.disagreements() - agreement.grazing), 450);  // seen 596 agreeing
  EXPECT_EQ(unanswered, 0);  // every start is clear of the body
}

/// Every hit stops within the stop distance of the body and never inside
/// it, with a unit normal opposing the motion and its point on the body's
/// extent along it; a miss never comes within the stop distance on the way
/// unless it grazes that band.
TEST(ConvexSweep, StopsWithinTheStopDistanceAndNeverInside) {
  Random random;
  int hits = 0;
  int grazing = 0;
  for (int i = 0; i < 2000; ++i) {
    RandomPair pair(random, i, -1);
    const ExactSweep ours = pair.ours();
    ASSERT_TRUE(ours.answered) << "case " << i;
    if (!ours.hit) {
      if (pair.closest_approach() < kCastStopDistance) ++grazing;
      continue;
    }
    ++hits;
    const double gap = pair.gap_at(ours.fraction, btVector3(0, 0, 0));
    EXPECT_GE(gap, -1e-9) << "case " << i;
    EXPECT_LE(gap, kCastStopDistance + 1e-9) << "case " << i;
    EXPECT_LT(ours.normal.dot(pair.motion()), 0.0) << "case " << i;
    EXPECT_NEAR(ours.normal.length(), 1.0, 1e-12) << "case " << i;
    const ConvexSolid body = ConvexSolid::of(pair.body.get(), pair.object.getWorldTransform());
    EXPECT_NEAR(ours.point.dot(ours.normal), body.extent(ours.normal), 1e-9) << "case " << i;
  }
  std::printf("hits %d, misses grazing within the stop distance %d\n", hits, grazing);
  EXPECT_GT(hits, 600);
  EXPECT_LT(grazing, 20);
}

/// Head on onto a box's face: the first step lands exactly on it (the
/// distance is exact), with the face's normal.
TEST(ConvexSweep, LandsOnAFaceInOneStep) {
  btCylinderShape mover(btVector3(0.3, 0.5, 0.3));
  mover.setMargin(0.001);
  btBoxShape floor(btVector3(2, 0.5, 2));
  floor.setMargin(0.001);
  const btTransform start(btQuaternion::getIdentity(), btVector3(0.1, 2.0, 0.2));
  const ConvexSolid body = ConvexSolid::of(&floor, btTransform::getIdentity());
  const ExactSweep s = convex_sweep(ConvexSolid::of(&mover, start), body, btVector3(0, -2, 0), btVector3(0, 1, 0));
  ASSERT_TRUE(s.answered);
  ASSERT_TRUE(s.hit);
  EXPECT_NEAR(s.fraction, 0.5, 1e-12);  // the bottom at y = 1.5 comes down to the top at y = 0.5
  EXPECT_NEAR((s.normal - btVector3(0, 1, 0)).length(), 0.0, 1e-12);
  EXPECT_NEAR(s.point.y(), 0.5, 1e-12);
  // Moving away or along it: no hit.
  EXPECT_FALSE(convex_sweep(ConvexSolid::of(&mover, start), body, btVector3(0, 1, 0), btVector3(0, 1, 0)).hit);
  EXPECT_FALSE(convex_sweep(ConvexSolid::of(&mover, start), body, btVector3(1, 0, 0), btVector3(0, 1, 0)).hit);
}

/// Started with the cores overlapping, the sweep answers as Bullet's cast
/// answers from its penetration solver: a hit at 0 along the least push
/// out when moving into it, a miss when moving away or along it.
TEST(ConvexSweep, AnswersOverlappingCoresFromThePenetration) {
  btCylinderShape mover(btVector3(0.3, 0.5, 0.3));
  mover.setMargin(0.001);
  btBoxShape floor(btVector3(2, 0.5, 2));
  floor.setMargin(0.001);
  const btTransform start(btQuaternion::getIdentity(), btVector3(0, 0.9, 0));  // 10 cm into the top
  const ConvexSolid body = ConvexSolid::of(&floor, btTransform::getIdentity());
  const ExactSweep s = convex_sweep(ConvexSolid::of(&mover, start), body, btVector3(0, -1, 0), btVector3(0, 1, 0));
  ASSERT_TRUE(s.answered);
  ASSERT_TRUE(s.hit);
  EXPECT_EQ(s.fraction, 0.0);
  EXPECT_NEAR((s.normal - btVector3(0, 1, 0)).length(), 0.0, 1e-12);
  EXPECT_NEAR(s.point.y(), 0.5, 1e-9);  // on the floor's surface
  const ExactSweep up = convex_sweep(ConvexSolid::of(&mover, start), body, btVector3(0, 1, 0), btVector3(0, 1, 0));
  EXPECT_TRUE(up.answered);
  EXPECT_FALSE(up.hit);
  const ExactSweep along = convex_sweep(ConvexSolid::of(&mover, start), body, btVector3(1, 0, 0), btVector3(0, 1, 0));
  EXPECT_TRUE(along.answered);
  EXPECT_FALSE(along.hit);
}

/// Against Bullet's cast on random starts with the cores overlapping (a
/// cylinder character in a box or cylinder, as a spinning body leaves it):
/// Bullet asks its GJK/EPA pair detector, whose EPA stops at its own
/// tolerance; ours answers from convex_distance's. Both hit at 0 or both
/// miss but where the motion is within 1e-2 of perpendicular to the push
/// out or the normals differ; the normals agree within 1e-3 on all but a
/// hundredth.
TEST(ConvexSweep, MatchesBulletsPenetrationAnswerOnOverlappingStarts) {
  Random random;
  int overlapped = 0;
  int hits = 0;
  int normal_off = 0;
  int hit_disagrees = 0;
  double worst_normal = 0.0;
  for (int i = 0; i < 3000; ++i) {
    RandomPair pair(random, i, i % 2);
    // Move the start into the body: the cores overlap for most draws.
    const btVector3 inside = pair.object.getWorldTransform().getOrigin() + random.point(0.6);
    pair.from.setOrigin(inside);
    const btVector3 direction = random.point(1);
    const double length = random.uniform(0.01, 2);
    pair.to.setOrigin(inside + direction * length);
    const ConvexSolid body = ConvexSolid::of(pair.body.get(), pair.object.getWorldTransform());
    const ConvexSolid mover = ConvexSolid::of(pair.mover.get(), pair.from);
    const ExactContact start = convex_distance(mover, body, btVector3(0, 1, 0));
    if (start.distance + mover.margin() + body.margin() > 1e-9) continue;  // the cores are apart
    if (!(pair.from.getBasis() == btMatrix3x3::getIdentity())) continue;
    ++overlapped;
    const ExactSweep ours = pair.ours();
    ASSERT_TRUE(ours.answered) << "case " << i;
    const CastAnswer theirs = pair.bullets();
    if (ours.hit) {
      ++hits;
      EXPECT_EQ(ours.fraction, 0.0) << "case " << i;
      EXPECT_GT(-ours.normal.dot(pair.motion()), SIMD_EPSILON) << "case " << i;
      EXPECT_NEAR(ours.normal.length(), 1.0, 1e-12) << "case " << i;
    }
    if (theirs.hit) {
      EXPECT_EQ(theirs.fraction, 0.0) << "case " << i;
    }
    const double apart = (ours.normal - theirs.normal).length();
    const bool normals_agree = apart <= 1e-3;
    if (ours.hit && theirs.hit) {
      if (normals_agree) {
        worst_normal = std::max(worst_normal, apart);
      } else {
        ++normal_off;
      }
    }
    if (ours.hit != theirs.hit) {
      ++hit_disagrees;
      const double along = std::fabs(ours.normal.dot(pair.motion().normalized()));
      EXPECT_TRUE(along < 1e-2 || !normals_agree) << "case " << i;
    }
  }
  std::printf("overlapped %d, hits %d; agreeing normals within %.3g; normal off %d, hit/miss disagrees %d\n",
              overlapped, hits, worst_normal, normal_off, hit_disagrees);
  EXPECT_GT(overlapped, 1500);
  EXPECT_GT(hits, overlapped / 3);
  EXPECT_LT(normal_off + hit_disagrees, overlapped / 100);
}

/// A moved solid's support is the original's moved by the shift.
TEST(ConvexSweep, MovedSolidSupportsShifted) {
  btCylinderShape cylinder(btVector3(0.3, 0.5, 0.3));
  const btTransform pose(btQuaternion(btVector3(1, 2, 3).normalized(), 0.7), btVector3(1, 2, 3));
  const ConvexSolid solid = ConvexSolid::of(&cylinder, pose);
  const btVector3 shift(0.25, -0.5, 0.125);
  const ConvexSolid moved = solid.moved(shift);
  const ConvexSolid tri = ConvexSolid::triangle(btVector3(0, 0, 0), btVector3(1, 0, 0), btVector3(0, 0, 1), 0.01);
  const ConvexSolid tri_moved = tri.moved(shift);
  for (const btVector3& u : {btVector3(1, 0, 0), btVector3(0, -1, 0), btVector3(1, 2, -3), btVector3(-1, -1, 1)}) {
    EXPECT_NEAR((moved.support(u) - (solid.support(u) + shift)).length(), 0.0, 1e-15);
    EXPECT_NEAR((tri_moved.support(u) - (tri.support(u) + shift)).length(), 0.0, 1e-15);
  }
  EXPECT_EQ(moved.margin(), solid.margin());
}

/// The adapter's pair: reported as Bullet's objectQuerySingle reports a
/// convex pair (world normal, point, fraction, no shape info), only when
/// earlier than the callback's closest; declined for other characters,
/// turning sweeps, inverted cores and cylinders not built along Y.
TEST(ConvexSweep, PairReportsAsBulletAndDeclinesWhatItDoesNotAnswer) {
  btCylinderShape mover(btVector3(0.3, 0.5, 0.3));
  mover.setMargin(0.001);
  btBoxShape floor(btVector3(2, 0.5, 2));
  floor.setMargin(0.001);
  btCollisionObject object;
  object.setCollisionShape(&floor);
  const btTransform from(btQuaternion::getIdentity(), btVector3(0.1, 2.0, 0.2));
  btTransform to = from;
  to.setOrigin(btVector3(0.1, 0.0, 0.2));
  btCollisionWorld::ClosestConvexResultCallback callback(from.getOrigin(), to.getOrigin());
  ASSERT_TRUE(convex_sweep_pair(&mover, from, to, &object, &callback));
  ASSERT_TRUE(callback.hasHit());
  EXPECT_NEAR(callback.m_closestHitFraction, 0.5, 1e-12);
  EXPECT_NEAR(callback.m_hitNormalWorld.y(), 1.0, 1e-12);
  EXPECT_EQ(callback.m_hitCollisionObject, &object);
  // A later hit than the callback already holds is not reported.
  btCollisionWorld::ClosestConvexResultCallback earlier(from.getOrigin(), to.getOrigin());
  earlier.m_closestHitFraction = 0.25;
  ASSERT_TRUE(convex_sweep_pair(&mover, from, to, &object, &earlier));
  EXPECT_EQ(earlier.m_hitCollisionObject, nullptr);
  EXPECT_EQ(earlier.m_closestHitFraction, 0.25);
  // A shape without a written-out support function (a cone), a scaled
  // capsule, a turning sweep, an inverted core: Bullet's.
  btCollisionWorld::ClosestConvexResultCallback unused(from.getOrigin(), to.getOrigin());
  btConeShape cone(0.3, 0.8);
  EXPECT_FALSE(convex_sweep_pair(&cone, from, to, &object, &unused));
  btCapsuleShape capsule(0.3, 0.4);
  capsule.setLocalScaling(btVector3(1, 2, 1));
  EXPECT_FALSE(convex_sweep_pair(&capsule, from, to, &object, &unused));
  btTransform turned = to;
  turned.setRotation(btQuaternion(btVector3(0, 1, 0), 0.1));
  EXPECT_FALSE(convex_sweep_pair(&mover, from, turned, &object, &unused));
  btBoxShape thin(btVector3(2, 0.01, 2));
  thin.setMargin(0.04);  // over half the height: the core is inverted
  object.setCollisionShape(&thin);
  EXPECT_FALSE(convex_sweep_pair(&mover, from, to, &object, &unused));
  EXPECT_FALSE(unused.hasHit());
  // A cylinder body built along Y, lying on its side: answered, landing on
  // its top line; one built along X is Bullet's.
  btCylinderShape drum(btVector3(0.5, 1.0, 0.5));
  drum.setMargin(0.001);
  object.setCollisionShape(&drum);
  object.setWorldTransform(btTransform(btQuaternion(btVector3(1, 0, 0), M_PI / 2), btVector3(0, 0, 0)));
  btCollisionWorld::ClosestConvexResultCallback lying(from.getOrigin(), to.getOrigin());
  ASSERT_TRUE(convex_sweep_pair(&mover, from, to, &object, &lying));
  ASSERT_TRUE(lying.hasHit());
  EXPECT_NEAR(lying.m_closestHitFraction, 0.5, kCastStopDistance);  // the bottom at 1.5 down to the top line at 0.5
  EXPECT_NEAR(lying.m_hitNormalWorld.y(), 1.0, 1e-9);
  btCylinderShapeX along_x(btVector3(1.0, 0.5, 0.5));
  along_x.setMargin(0.001);
  object.setCollisionShape(&along_x);
  EXPECT_FALSE(convex_sweep_pair(&mover, from, to, &object, &unused));
}

}  // namespace
}  // namespace stepslide::test
