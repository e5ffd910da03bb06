// The velocity model: stick, acceleration, friction, air control.
#include <gtest/gtest.h>

#include <cmath>

#include "controller/rig.h"

namespace stepslide::test {
namespace {

TEST(Velocity, WishDirectionTurnsWithYaw) {
  CharacterInput in;
  in.move_forward = 1;
  btVector3 w = wish_direction(in, btVector3(0, 1, 0));
  EXPECT_NEAR(w.z(), -1.0, 1e-12);
  in.yaw_deg = 90;  // positive turns left: forward becomes -X
  w = wish_direction(in, btVector3(0, 1, 0));
  EXPECT_NEAR(w.x(), -1.0, 1e-12);
  EXPECT_NEAR(w.z(), 0.0, 1e-12);
  in = CharacterInput{};
  in.move_right = 1;
  in.move_forward = 1;
  EXPECT_NEAR(wish_direction(in, btVector3(0, 1, 0)).length(), 1.0, 1e-12);  // clamped
}

TEST(Velocity, GroundAccelerationReachesWalkSpeedAndNoFurther) {
  ControllerSettings s;
  btVector3 v(0, 0, 0);
  const btVector3 wish(0, 0, -1);
  v = ground_velocity(v, wish, s, kDt60);
  EXPECT_NEAR(v.z(), -s.ground_acceleration * kDt60, 1e-12);
  for (int i = 0; i < 600; ++i) v = ground_velocity(v, wish, s, kDt60);
  EXPECT_NEAR(v.z(), -s.walk_speed, 1e-12);
}

TEST(Velocity, FrictionDecaysUnwantedVelocityExponentiallyThenStops) {
  ControllerSettings s;
  const btVector3 v = ground_velocity(btVector3(2, 0, 0), btVector3(0, 0, 0), s, kDt60);
  EXPECT_NEAR(v.x(), 2 * std::exp(-s.friction * kDt60), 1e-12);
  EXPECT_EQ(ground_velocity(btVector3(s.stop_speed * 0.5, 0, 0), btVector3(0, 0, 0), s, kDt60).x(), 0.0);
  // Sideways velocity decays while the stick's direction accelerates.
  const btVector3 turned = ground_velocity(btVector3(3, 0, 0), btVector3(0, 0, -1), s, kDt60);
  EXPECT_NEAR(turned.x(), 3 * std::exp(-s.friction * kDt60), 1e-12);
}

TEST(Velocity, AccelerationNeverRaisesSpeedAboveTheTarget) {
  ControllerSettings s;
  // Moving at the target speed, stick at 45 degrees to the motion: turning
  // toward the stick must not add speed.
  const btVector3 v(s.walk_speed, 0, 0);
  const btVector3 wish = btVector3(1, 0, -1).normalized();
  for (const btVector3& out : {ground_velocity(v, wish, s, kDt60), air_velocity(v, wish, s, kDt60)}) {
    EXPECT_LE(out.length(), s.walk_speed + 1e-12);
  }
  // Faster than the target (a platform's push): acceleration keeps it from
  // growing further; on the ground friction brings it down.
  const btVector3 fast(9, 0, 0);
  EXPECT_LE(air_velocity(fast, wish, s, kDt60).length(), 9 + 1e-12);
  EXPECT_LT(ground_velocity(fast, wish, s, kDt60).length(), 9);
}

TEST(Velocity, AirControlHasNoFriction) {
  ControllerSettings s;
  const btVector3 v = air_velocity(btVector3(2, 0, 0), btVector3(0, 0, 0), s, kDt60);
  EXPECT_EQ(v.x(), 2.0);
  const btVector3 a = air_velocity(btVector3(0, 0, 0), btVector3(1, 0, 0), s, kDt60);
  EXPECT_NEAR(a.x(), s.air_acceleration * kDt60, 1e-12);
}

}  // namespace
}  // namespace stepslide::test
