// Riding kinematic bodies.
#include <gtest/gtest.h>

#include <cmath>

#include "controller/rig.h"

namespace stepslide::test {
namespace {

TEST(CarryWithGround, FollowsTheArcOfATurningBody) {
  // A point 2 m from the axis of a body turning 90 degrees stays 2 m from it.
  const btTransform before = btTransform::getIdentity();
  const btTransform after(btQuaternion(btVector3(0, 1, 0), M_PI / 2), btVector3(0, 0, 0));
  const btVector3 carried = carry_with_ground(btVector3(2, 0.5, 0), before, after);
  EXPECT_NEAR(carried.x(), 0.0, 1e-12);
  EXPECT_NEAR(carried.z(), -2.0, 1e-12);
  EXPECT_NEAR(carried.y(), 0.5, 1e-12);
  EXPECT_NEAR(btVector3(carried.x(), 0, carried.z()).length(), 2.0, 1e-12);
}

TEST(CarryWithGround, TranslatesExactlyWithALinearBody) {
  const btTransform before(btQuaternion::getIdentity(), btVector3(1, 2, 3));
  const btTransform after(btQuaternion::getIdentity(), btVector3(1.5, 2.25, 3));
  const btVector3 carried = carry_with_ground(btVector3(0, 2.5, 0), before, after);
  EXPECT_NEAR(carried.x(), 0.5, 1e-15);
  EXPECT_NEAR(carried.y(), 2.75, 1e-15);
}

TEST(YawAbout, MeasuresTurnsAboutUpCounterClockwise) {
  EXPECT_NEAR(yaw_about(btQuaternion(btVector3(0, 1, 0), M_PI / 6), btVector3(0, 1, 0)), 30.0, 1e-9);
  EXPECT_NEAR(yaw_about(btQuaternion(btVector3(0, 1, 0), -M_PI / 2), btVector3(0, 1, 0)), -90.0, 1e-9);
  EXPECT_NEAR(yaw_about(btQuaternion(btVector3(1, 0, 0), 0.3), btVector3(0, 1, 0)), 0.0, 1e-9);  // a tilt, not a turn
}

TEST(RideGround, JumpingOffAMovingBodyKeepsItsVelocity) {
  ControllerSettings s;
  PlatformRig rig(sliding_along_x(3), s);
  for (int i = 0; i < 10; ++i) rig.step(CharacterInput{});
  ASSERT_TRUE(rig.controller->state().grounded);
  EXPECT_NEAR(rig.controller->state().carried_velocity.x(), 3.0, 1e-9);
  CharacterInput jump;
  jump.jump = true;
  rig.step(jump);
  EXPECT_FALSE(rig.controller->state().grounded);
  EXPECT_NEAR(rig.controller->state().velocity.x(), 3.0, 1e-9);
}

TEST(RideGround, WithoutInheritanceTheCharacterLeavesWithItsOwnVelocity) {
  ControllerSettings s;
  s.inherit_ground_velocity = 0;
  PlatformRig rig(sliding_along_x(3), s);
  for (int i = 0; i < 10; ++i) rig.step(CharacterInput{});
  CharacterInput jump;
  jump.jump = true;
  rig.step(jump);
  EXPECT_FALSE(rig.controller->state().grounded);
  EXPECT_NEAR(rig.controller->state().velocity.x(), 0.0, 1e-9);
}

TEST(RideGround, TurnWithGroundAccumulatesThePlatformsYaw) {
  MotionDef spin;
  spin.type = MotionType::Spin;
  spin.axis = {0, 1, 0};
  spin.deg_per_s = 90;
  ControllerSettings s;
  s.turn_with_ground = 1;
  PlatformRig rig(spin, s);
  for (int i = 0; i < 60; ++i) rig.step(CharacterInput{});
  EXPECT_NEAR(rig.controller->state().ground_yaw_deg, 90.0, 1e-6);
  // Off by default: the stick stays in the camera's frame.
  PlatformRig fixed(spin, ControllerSettings{});
  for (int i = 0; i < 60; ++i) fixed.step(CharacterInput{});
  EXPECT_EQ(fixed.controller->state().ground_yaw_deg, 0.0);
}

}  // namespace
}  // namespace stepslide::test
