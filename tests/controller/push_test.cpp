// The character's impulses on dynamic bodies (stepslide/pushable.h): the
// bounds of a push, the weight, a landing, the handover clamp, and Pushable
// on Bullet's rigid bodies.

#include <gtest/gtest.h>

#include <btBulletDynamicsCommon.h>

#include <limits>

#include "controller/rig.h"
#include "stepslide/pushable.h"
#include "stepslide/stages.h"

namespace stepslide {
namespace {

constexpr double kDt = 1.0 / 60.0;

TEST(PushImpulse, NothingWhenNotMovingIntoTheBody) {
  EXPECT_EQ(push_impulse(70, 100, kDt, 0.0, 0.1), 0.0);
  EXPECT_EQ(push_impulse(70, 100, kDt, -2.0, 0.1), 0.0);
  EXPECT_EQ(push_impulse(70, 100, kDt, std::numeric_limits<double>::quiet_NaN(), 0.1), 0.0);
}

TEST(PushImpulse, StrengthBoundsAHeavyBody) {
  // 500 kg: the momentum (70 * 5) and the catch-up (5 * 500) are far above 100 N for a tick.
  EXPECT_DOUBLE_EQ(push_impulse(70, 100, kDt, 5.0, 1.0 / 500), 100 * kDt);
}

TEST(PushImpulse, MomentumBoundsASlowApproach) {
  // 1 mm/s into a heavy body: 70 kg * 0.001 m/s is below 100 N * dt.
  EXPECT_DOUBLE_EQ(push_impulse(70, 100, kDt, 0.001, 1.0 / 500), 70 * 0.001);
}

TEST(PushImpulse, NeverThrowsALightBodyFasterThanTheCharacter) {
  // 0.1 kg, approached at 5 m/s: 0.5 N s brings it to 5 m/s; more would throw it away.
  EXPECT_DOUBLE_EQ(push_impulse(70, 1e6, kDt, 5.0, 10.0), 0.5);
}

TEST(PushImpulse, ZeroStrengthPushesNothing) { EXPECT_EQ(push_impulse(70, 0, kDt, 5.0, 0.1), 0.0); }

TEST(WeightImpulse, IsMassTimesGravityOverTheTickOnAnImmovableBody) {
  const btVector3 w = weight_impulse(70, btVector3(0, -9.81, 0), kDt, 0.0);
  EXPECT_DOUBLE_EQ(w.x(), 0.0);
  EXPECT_DOUBLE_EQ(w.y(), -9.81 * 70 * kDt);
  EXPECT_DOUBLE_EQ(w.z(), 0.0);
}

TEST(WeightImpulse, IsSharedWithALightBodyAsIfTheyFellTogether) {
  // 70 kg on a free 10 kg body: they would fall together, the body taking 10/80 of the weight.
  const btVector3 w = weight_impulse(70, btVector3(0, -9.81, 0), kDt, 1.0 / 10);
  EXPECT_DOUBLE_EQ(w.y(), -9.81 * 70 * kDt * 10.0 / 80.0);
}

TEST(LandingImpulse, IsTheMomentumIntoTheSurfaceWithoutAStrengthBound) {
  EXPECT_DOUBLE_EQ(landing_impulse(70, 4.0, 1.0 / 1000), 280.0);
  // A light body is never sent away faster than the character came.
  EXPECT_DOUBLE_EQ(landing_impulse(70, 4.0, 1.0), 4.0);
  EXPECT_EQ(landing_impulse(70, -1.0, 1.0), 0.0);
}

TEST(ClampHandover, KeepsSlowCarriesAndCutsFastOnesToTheBodysSpeed) {
  const btVector3 slow(1, 0, 0);
  EXPECT_EQ(clamp_handover(slow, 2.0), slow);
  const btVector3 cut = clamp_handover(btVector3(3, 4, 0), 2.5);
  EXPECT_DOUBLE_EQ(cut.length(), 2.5);
  EXPECT_DOUBLE_EQ(cut.x() / cut.y(), 0.75);  // same direction
  EXPECT_EQ(clamp_handover(btVector3(3, 4, 0), 0.0), btVector3(0, 0, 0));
}

/// A 2 kg unit box at `origin`, turning at `spin` rad/s about y.
struct Box {
  btBoxShape shape{btVector3(0.5, 0.5, 0.5)};
  btRigidBody body;
  static btRigidBody::btRigidBodyConstructionInfo info(btBoxShape& shape, double mass) {
    btVector3 inertia(0, 0, 0);
    if (mass > 0) shape.calculateLocalInertia(mass, inertia);
    return btRigidBody::btRigidBodyConstructionInfo(mass, nullptr, &shape, inertia);
  }
  explicit Box(double mass) : body(info(shape, mass)) {}
};

TEST(Pushable, OnlyRigidBodiesWithAMassArePushable) {
  Box dynamic(2.0), fixed(0.0);
  btCollisionObject plain;
  EXPECT_TRUE(Pushable::of(&dynamic.body));
  EXPECT_FALSE(Pushable::of(&fixed.body));
  EXPECT_FALSE(Pushable::of(&plain));
  EXPECT_FALSE(Pushable::of(nullptr));
  EXPECT_EQ(Pushable::of(&dynamic.body).object(), &dynamic.body);
}

TEST(Pushable, InverseMassAlongCountsTheTurn) {
  Box box(2.0);
  const Pushable p = Pushable::of(&box.body);
  // Through the centre: the body only translates.
  EXPECT_DOUBLE_EQ(p.inverse_mass_along(btVector3(-0.5, 0, 0), btVector3(1, 0, 0)), 0.5);
  // At a corner, across: it also turns, so it gives more.
  EXPECT_GT(p.inverse_mass_along(btVector3(-0.5, 0, 0.5), btVector3(1, 0, 0)), 0.5);
}

TEST(Pushable, AnImpulseChangesTheVelocityAtThePoint) {
  Box box(2.0);
  const Pushable p = Pushable::of(&box.body);
  const btVector3 point(-0.5, 0, 0), along(1, 0, 0);
  p.apply_impulse(along * 3.0, point);
  EXPECT_DOUBLE_EQ(p.velocity_at(point).x(), 3.0 * p.inverse_mass_along(point, along));
  EXPECT_DOUBLE_EQ(p.speed_at(point), 1.5);
  EXPECT_TRUE(box.body.isActive());
}

TEST(PushBodies, FollowingAPushedBodyNeverGivesUpwardSpeed) {
  // Falling into a heavy crate whose face leans down toward the character
  // (its normal 1 degree below level): the slide stopped the character, the
  // push moves the crate along the face's inward normal, a little upward,
  // and the character follows it, across up only. Following it up, the
  // character rose by its own push: a launch without a jump.
  test::Rig rig({test::floor_at(-5)});
  Box crate(2000.0);
  SweepHit hit;
  hit.hit = true;
  hit.object = &crate.body;
  hit.normal = btVector3(-0.6, -0.02, 0.8).normalized();  // points at the character
  hit.point = btVector3(-0.5, 0, 0);
  CharacterState state;
  state.velocity = btVector3(0, 0, 0);  // what the slide left
  Intent intent;
  intent.airborne = true;
  intent.velocity = btVector3(0.22, -0.33, -0.15);
  push_bodies(rig.ctx(), state, intent, {hit}, kDt);
  const btVector3 into = -hit.normal;
  ASSERT_GT(Pushable::of(&crate.body).velocity_at(hit.point).dot(into), 0.0);  // pushed
  EXPECT_GT(state.velocity.dot(into), 0.0);  // follows it
  EXPECT_LE(state.velocity.y(), 0.0);        // never upward
}

TEST(PushBodies, FollowingAPushedBodyNeverMakesTheCharacterFasterThanItTriedToMove) {
  // Falling onto a light plank that tilts away (a walkable face): landing
  // stops the fall and keeps the horizontal velocity (the floor counts as
  // level), and the push sends the plank down along the face's inward
  // normal, which the character follows. That normal is not across the
  // horizontal velocity kept: following it added speed along the plank that
  // the landing had not taken, a little more every tick the character lay on
  // the plank (fuzz seeds 8328017, 8736661).
  test::Rig rig({test::floor_at(-5)});
  Box plank(0.2);
  SweepHit hit;
  hit.hit = true;
  hit.object = &plank.body;
  hit.normal = btVector3(0.2297, 0.9733, 0.0).normalized();  // points at the character
  hit.point = btVector3(0, 0.5, 0);
  Intent intent;
  intent.airborne = true;
  intent.velocity = btVector3(-1.9755, -1.2701, 1.0832);
  CharacterState state;
  state.velocity = btVector3(intent.velocity.x(), 0.0, intent.velocity.z());  // what the landing clip left
  push_bodies(rig.ctx(), state, intent, {hit}, kDt);
  const btVector3 into = -hit.normal;
  ASSERT_GT(Pushable::of(&plank.body).velocity_at(hit.point).dot(into), state.velocity.dot(into) - 1e-12);
  EXPECT_GT(state.velocity.dot(into), btVector3(intent.velocity.x(), 0.0, intent.velocity.z()).dot(into));  // follows it
  EXPECT_LE(state.velocity.length(), intent.velocity.length() * (1 + 1e-15));
}

}  // namespace
}  // namespace stepslide
