// The cast memo (stepslide/cast_memo.h): Bullet's cast of a convex pair,
// asked again with the same inputs, is replayed bit for bit; any change to
// what the cast reads is asked of Bullet again.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "collision/cast_memo.h"
#include "collision/convex_sweep_pairs.h"
#include "support/random_geometry.h"

namespace stepslide::test {
namespace {

/// What a callback was told: compared bit for bit.
struct Told {
  double closest = 1.0;
  const btCollisionObject* object = nullptr;
  btVector3 normal{0, 0, 0};
  btVector3 point{0, 0, 0};
};

/// (A callback told nothing leaves its normal and point unset.)
bool same_bits(const Told& a, const Told& b) {
  if (std::memcmp(&a.closest, &b.closest, sizeof(double)) != 0 || a.object != b.object) return false;
  if (a.object == nullptr) return true;
  return std::memcmp(a.normal.m_floats, b.normal.m_floats, 3 * sizeof(double)) == 0 &&
         std::memcmp(a.point.m_floats, b.point.m_floats, 3 * sizeof(double)) == 0;
}

Told told(const btCollisionWorld::ClosestConvexResultCallback& callback) {
  return {callback.m_closestHitFraction, callback.m_hitCollisionObject, callback.m_hitNormalWorld,
          callback.m_hitPointWorld};
}

/// Bullet's own answer for the pair, as the adapter asks it.
Told bullets(const btConvexShape* shape, const btTransform& from, const btTransform& to, btCollisionObject* object,
             double closest) {
  btCollisionWorld::ClosestConvexResultCallback callback(from.getOrigin(), to.getOrigin());
  callback.m_closestHitFraction = closest;
  btCollisionWorld::objectQuerySingle(shape, from, to, object, object->getCollisionShape(),
                                      object->getWorldTransform(), callback, 0.0);
  return told(callback);
}

/// The memo's answer.
Told memos(CastMemo* memo, const btConvexShape* shape, const btTransform& from, const btTransform& to,
           btCollisionObject* object, double closest) {
  btCollisionWorld::ClosestConvexResultCallback callback(from.getOrigin(), to.getOrigin());
  callback.m_closestHitFraction = closest;
  memo->cast(shape, from, to, object, &callback);
  return told(callback);
}

std::unique_ptr<btConvexShape> random_shape(RandomGeometry& random, int kind) {
  const double a = random.uniform(0.1, 1.0);
  const double b = random.uniform(0.1, 1.0);
  switch (kind % 5) {
    case 0: return std::make_unique<btBoxShape>(btVector3(a, b, a + 0.1));
    case 1: return std::make_unique<btCylinderShape>(btVector3(a, b, a));
    case 2: return std::make_unique<btCapsuleShape>(a, b);
    case 3: return std::make_unique<btSphereShape>(a);
    default: {
      const btVector3 points[5] = {{0, 0, 0}, {a, 0, 0}, {0, b, 0}, {0, 0, a}, {a, b, a}};
      return std::make_unique<btConvexHullShape>(&points[0].x(), 5, sizeof(btVector3));
    }
  }
}

/// A random cast: a mover of `mover_kind` from a random start to a random
/// end (no turn) against a body of `body_kind` turned at random about the
/// origin (random_shape's kinds).
struct RandomCast {
  RandomCast(RandomGeometry& random, int mover_kind, int body_kind)
      : mover(random_shape(random, mover_kind)), body(random_shape(random, body_kind)) {
    object.setCollisionShape(body.get());
    const btQuaternion turn = random.rotation();
    object.setWorldTransform(btTransform(turn, btVector3(0, 0, 0)));
    const btVector3 start = random.point(3.0);
    const btVector3 end = random.point(1.0);
    from = btTransform(btQuaternion::getIdentity(), start);
    to = btTransform(btQuaternion::getIdentity(), end);
  }

  std::unique_ptr<btConvexShape> mover;
  std::unique_ptr<btConvexShape> body;
  btCollisionObject object;
  btTransform from;
  btTransform to;
};

/// On random pairs, the memo's first answer and its replay are Bullet's,
/// bit for bit, and the replay does not ask Bullet.
TEST(CastMemo, ReplaysBulletsAnswerBitForBit) {
  RandomGeometry random(20261128);
  CastMemo memo;
  int hits = 0;
  for (int i = 0; i < 600; ++i) {
    RandomCast cast(random, i % 4, i / 4);  // the movers: the characters' shapes
    auto& [mover, body, object, from, to] = cast;
    const double closest = i % 3 == 0 ? 0.5 : 1.0;
    const Told expected = bullets(mover.get(), from, to, &object, closest);
    const int before = memo.replayed();
    EXPECT_TRUE(same_bits(memos(&memo, mover.get(), from, to, &object, closest), expected)) << "case " << i;
    EXPECT_EQ(memo.replayed(), before);
    EXPECT_TRUE(same_bits(memos(&memo, mover.get(), from, to, &object, closest), expected)) << "case " << i;
    EXPECT_EQ(memo.replayed(), before + 1) << "case " << i;
    hits += expected.object != nullptr;
  }
  EXPECT_GT(hits, 100);
}

/// The adapter's exact sweep of a cylinder against a cylinder, asked at
/// this closest fraction directly.
Told exacts(const btConvexShape* shape, const btTransform& from, const btTransform& to, btCollisionObject* object,
            double closest) {
  btCollisionWorld::ClosestConvexResultCallback callback(from.getOrigin(), to.getOrigin());
  callback.m_closestHitFraction = closest;
  EXPECT_TRUE(detail::convex_sweep_pair(shape, from, to, object, &callback));
  return told(callback);
}

/// An exact sweep (a cylinder against a cylinder) is remembered whatever
/// was closer when it was asked: it computes its hit without that and
/// only reports it when earlier. Asked again at any closest fraction, the
/// replay is the sweep's own answer at that fraction, bit for bit.
TEST(CastMemo, RemembersExactSweepsWhateverIsCloser) {
  RandomGeometry random(20261130);
  CastMemo memo;
  int hits = 0;
  int withheld = 0;
  int declined = 0;
  for (int i = 0; i < 300; ++i) {
    RandomCast cast(random, 1, 1);
    auto& [mover, body, object, from, to] = cast;
    const double first = random.uniform(0.0, 1.0);
    const double again = random.uniform(0.0, 1.0);
    btCollisionWorld::ClosestConvexResultCallback scratch(from.getOrigin(), to.getOrigin());
    if (!detail::convex_sweep_pair(mover.get(), from, to, &object, &scratch)) {
      ++declined;  // started with the cores overlapping: Bullet's cast, keyed by the closest fraction as ever
      continue;
    }
    const int before = memo.replayed();
    btCollisionWorld::ClosestConvexResultCallback callback(from.getOrigin(), to.getOrigin());
    callback.m_closestHitFraction = first;
    memo.cast(mover.get(), from, to, &object, &callback, detail::convex_sweep_pair);
    EXPECT_TRUE(same_bits(told(callback), exacts(mover.get(), from, to, &object, first))) << "case " << i;
    EXPECT_EQ(memo.replayed(), before);
    btCollisionWorld::ClosestConvexResultCallback replay(from.getOrigin(), to.getOrigin());
    replay.m_closestHitFraction = again;
    memo.cast(mover.get(), from, to, &object, &replay, detail::convex_sweep_pair);
    const Told expected = exacts(mover.get(), from, to, &object, again);
    EXPECT_TRUE(same_bits(told(replay), expected)) << "case " << i;
    EXPECT_EQ(memo.replayed(), before + 1) << "case " << i;
    hits += expected.object != nullptr;
    withheld += expected.object == nullptr && exacts(mover.get(), from, to, &object, 1.0).object != nullptr;
  }
  EXPECT_GT(hits, 30);
  EXPECT_GT(withheld, 30);  // remembered hits not reported: something closer
  EXPECT_LT(declined, 60);
}

/// A changed shape (in place: resized, re-margined, a hull's point moved),
/// pose, end, or closest fraction so far is a new cast, asked of Bullet.
TEST(CastMemo, AnyChangeToWhatTheCastReadsIsAskedAgain) {
  btCylinderShape mover(btVector3(0.3, 0.5, 0.3));
  const btVector3 points[4] = {{-1, 0, -1}, {1, 0, -1}, {0, 0, 1}, {0, 0.5, 0}};
  btConvexHullShape hull(&points[0].x(), 4, sizeof(btVector3));
  btCollisionObject object;
  object.setCollisionShape(&hull);
  object.setWorldTransform(btTransform::getIdentity());
  const btTransform from(btQuaternion::getIdentity(), btVector3(0.1, 2, 0));
  btTransform to(btQuaternion::getIdentity(), btVector3(0.1, 0, 0));
  CastMemo memo;
  const auto check = [&](double closest, int replayed) {
    EXPECT_TRUE(same_bits(memos(&memo, &mover, from, to, &object, closest), bullets(&mover, from, to, &object, closest)));
    EXPECT_EQ(memo.replayed(), replayed);
  };
  check(1.0, 0);
  check(1.0, 1);  // the same: replayed
  check(0.5, 1);  // another closest fraction
  hull.getUnscaledPoints()[3] = btVector3(0, 0.75, 0);  // the top raised in place
  check(1.0, 1);
  check(1.0, 2);
  hull.setMargin(0.01);
  check(1.0, 2);
  mover.setLocalScaling(btVector3(1, 1.5, 1));
  check(1.0, 2);
  object.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, -0.25, 0)));
  check(1.0, 2);
  to.setOrigin(btVector3(0.1, -0.5, 0));
  check(1.0, 2);
  check(1.0, 3);
}

/// Shapes the memo does not key (a cone) are Bullet's every time; after
/// kEntries other casts the oldest is forgotten.
TEST(CastMemo, KeepsOnlyShapesItKeysAndTheLatestCasts) {
  btConeShape cone(0.5, 1.0);
  btBoxShape box(btVector3(1, 0.5, 1));
  btCollisionObject object;
  object.setCollisionShape(&cone);
  object.setWorldTransform(btTransform::getIdentity());
  btSphereShape mover(0.25);
  const btTransform from(btQuaternion::getIdentity(), btVector3(0, 2, 0));
  const btTransform to(btQuaternion::getIdentity(), btVector3(0, -1, 0));
  CastMemo memo;
  memos(&memo, &mover, from, to, &object, 1.0);
  memos(&memo, &mover, from, to, &object, 1.0);
  EXPECT_EQ(memo.replayed(), 0);
  object.setCollisionShape(&box);
  for (int i = 0; i <= CastMemo::kEntries; ++i) {
    const btTransform end(btQuaternion::getIdentity(), btVector3(0.01 * i, -1, 0));
    memos(&memo, &mover, from, end, &object, 1.0);
  }
  memos(&memo, &mover, from, btTransform(btQuaternion::getIdentity(), btVector3(0.01 * CastMemo::kEntries, -1, 0)),
        &object, 1.0);
  EXPECT_EQ(memo.replayed(), 1);  // the latest is remembered
  memos(&memo, &mover, from, btTransform(btQuaternion::getIdentity(), btVector3(0, -1, 0)), &object, 1.0);
  EXPECT_EQ(memo.replayed(), 1);  // the first was replaced
}

}  // namespace
}  // namespace stepslide::test
