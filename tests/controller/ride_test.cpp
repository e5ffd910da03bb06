// Riding kinematic bodies.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

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


/// Keeps the ride events it is told about.
struct RideRecorder : ControllerObserver {
  std::vector<RideEvent> events;
  void on_ride(const RideEvent& e) override { events.push_back(e); }
};

TEST(RideGround, TellsTheObserverHowFarTheBodyCarriedTheFeet) {
  PlatformRig rig(sliding_along_x(3), ControllerSettings{});
  for (int i = 0; i < 5; ++i) rig.step(CharacterInput{});
  RideRecorder recorder;
  rig.controller->set_observer(&recorder);
  const btVector3 before = rig.controller->state().position;
  rig.step(CharacterInput{});
  ASSERT_EQ(recorder.events.size(), 1u);
  const RideEvent& e = recorder.events[0];
  EXPECT_EQ(e.kind, RideEvent::Kind::Carry);
  ASSERT_NE(e.body, nullptr);
  EXPECT_TRUE(e.body->isKinematicObject());
  EXPECT_EQ(e.from, before);
  EXPECT_NEAR((e.to - e.from).x(), 3.0 / 60.0, 1e-12);
  EXPECT_NEAR(e.velocity.x(), 3.0, 1e-9);
  EXPECT_EQ(e.velocity, rig.controller->state().carried_velocity);
  EXPECT_EQ(e.turned_deg, 0.0);
}

TEST(RideGround, TellsTheObserverWhatLeavingTheBodyHandedOver) {
  for (const int inherit : {1, 0}) {
    ControllerSettings s;
    s.inherit_ground_velocity = inherit;
    PlatformRig rig(sliding_along_x(3), s);
    for (int i = 0; i < 10; ++i) rig.step(CharacterInput{});
    RideRecorder recorder;
    rig.controller->set_observer(&recorder);
    CharacterInput jump;
    jump.jump = true;
    rig.step(jump);
    ASSERT_EQ(recorder.events.size(), 2u) << "carried, then left";
    EXPECT_EQ(recorder.events[0].kind, RideEvent::Kind::Carry);
    const RideEvent& left = recorder.events[1];
    EXPECT_EQ(left.kind, RideEvent::Kind::Handover);
    EXPECT_EQ(left.body, recorder.events[0].body);
    EXPECT_EQ(left.inherited, inherit == 1);
    EXPECT_NEAR(left.velocity.x(), inherit == 1 ? 3.0 : 0.0, 1e-9) << "inherit " << inherit;
    EXPECT_EQ(left.character_velocity, rig.controller->state().velocity);
    EXPECT_EQ(left.from, rig.controller->state().position);
  }
}

TEST(RideGround, TellsTheObserverHowFarTheStickFrameTurned) {
  MotionDef spin;
  spin.type = MotionType::Spin;
  spin.axis = {0, 1, 0};
  spin.deg_per_s = 90;
  ControllerSettings s;
  s.turn_with_ground = 1;
  PlatformRig rig(spin, s);
  rig.step(CharacterInput{});
  RideRecorder recorder;
  rig.controller->set_observer(&recorder);
  rig.step(CharacterInput{});
  ASSERT_EQ(recorder.events.size(), 1u);
  EXPECT_NEAR(recorder.events[0].turned_deg, 1.5, 1e-9);
}

TEST(RideGround, StandingOnAStaticBodyIsNoRide) {
  Rig rig({floor_at(0)});
  rig.place(btVector3(0, 0, 0));
  RideRecorder recorder;
  rig.controller->set_observer(&recorder);
  for (int i = 0; i < 3; ++i) rig.controller->update(CharacterInput{}, kDt60);
  ASSERT_TRUE(rig.controller->state().grounded);
  EXPECT_TRUE(recorder.events.empty());
}

}  // namespace
}  // namespace stepslide::test
