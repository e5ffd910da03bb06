// Steering math (steering.h): the stick toward a target in the camera's
// frame, its easing near the target, and waypoints passed in order.

#include <gtest/gtest.h>

#include <cmath>

#include "scenario/run/steering.h"
#include "stepslide/stages.h"

namespace stepslide {
namespace {

const Vec3 kUp{0, 1, 0};
const Vec3 kStill{0, 0, 0};

/// The world direction the controller makes of `stick` at `yaw_deg`.
btVector3 world_push(const Vec2& stick, double yaw_deg, const Vec3& up = kUp) {
  CharacterInput input;
  input.move_right = stick[0];
  input.move_forward = stick[1];
  input.yaw_deg = yaw_deg;
  return wish_direction(input, btVector3(up[0], up[1], up[2]));
}

TEST(Steering, AtYawZeroForwardIsMinusZAndRightIsPlusX) {
  const Vec2 ahead = stick_toward({0, 0, -3}, 0, kUp, 1);
  EXPECT_NEAR(ahead[0], 0.0, 1e-15);
  EXPECT_NEAR(ahead[1], 1.0, 1e-15);
  const Vec2 right = stick_toward({2, 0, 0}, 0, kUp, 0.5);
  EXPECT_NEAR(right[0], 0.5, 1e-15);
  EXPECT_NEAR(right[1], 0.0, 1e-15);
}

TEST(Steering, TheCameraYawTurnsTheStickSoThePushStaysOnTheTarget) {
  // A target at +X: at yaw 90 (camera looking along -X) it is straight behind.
  const Vec2 behind = stick_toward({4, 0, 0}, 90, kUp, 1);
  EXPECT_NEAR(behind[0], 0.0, 1e-12);
  EXPECT_NEAR(behind[1], -1.0, 1e-12);
  for (double yaw : {0.0, 37.0, -120.0, 270.0, 1000.0}) {
    const Vec2 stick = stick_toward({3, 0, 4}, yaw, kUp, 1);
    const btVector3 push = world_push(stick, yaw);
    EXPECT_NEAR(push.x(), 0.6, 1e-12) << "yaw " << yaw;
    EXPECT_NEAR(push.y(), 0.0, 1e-12) << "yaw " << yaw;
    EXPECT_NEAR(push.z(), 0.8, 1e-12) << "yaw " << yaw;
  }
}

TEST(Steering, AHeightDifferenceDoesNotTiltTheStick) {
  const Vec2 stick = stick_toward({0, 5, -1}, 0, kUp, 1);
  EXPECT_NEAR(std::hypot(stick[0], stick[1]), 1.0, 1e-15);
}

TEST(Steering, ATiltedUpPushesAlongTheOffsetAcrossUp) {
  const double s = std::sqrt(0.5);
  const Vec3 up{s, s, 0};
  const Vec2 stick = stick_toward({1, 0, 0}, 0, up, 1);
  const btVector3 push = world_push(stick, 0, up);
  // (1, 0, 0) across (s, s, 0) is (0.5, -0.5, 0): unit (s, -s, 0).
  EXPECT_NEAR(push.x(), s, 1e-12);
  EXPECT_NEAR(push.y(), -s, 1e-12);
  EXPECT_NEAR(push.z(), 0.0, 1e-12);
  EXPECT_EQ(stick_toward({1, 1, 0}, 0, up, 1), (Vec2{0, 0})) << "an offset along up has nothing across it";
}

TEST(Steering, DistanceIsHorizontal) {
  EXPECT_DOUBLE_EQ(steering_distance({1, 7, 2}, {4, 6}), 5.0);
}

TEST(Steering, StickEasesLinearlyWithinSlowWithin) {
  SteeringDef def;
  def.stick = 0.8;
  def.slow_within = 2.0;
  const double no_tick_cap = 0.0;  // walk_speed 0: only the easing
  EXPECT_DOUBLE_EQ(eased_stick(def, 10.0, no_tick_cap, 1.0 / 60), 0.8);
  EXPECT_DOUBLE_EQ(eased_stick(def, 2.0, no_tick_cap, 1.0 / 60), 0.8);
  EXPECT_DOUBLE_EQ(eased_stick(def, 1.0, no_tick_cap, 1.0 / 60), 0.4);
  EXPECT_DOUBLE_EQ(eased_stick(def, 0.5, no_tick_cap, 1.0 / 60), 0.2);
  def.slow_within = 0.0;
  EXPECT_DOUBLE_EQ(eased_stick(def, 0.5, no_tick_cap, 1.0 / 60), 0.8) << "slow_within 0: no easing";
}

TEST(Steering, StickNeverAsksToCrossTheTargetInOneTick) {
  SteeringDef def;
  def.slow_within = 0.0;
  // 10 m/s at 10 Hz is 1 m a tick: 0.3 m away asks for 0.3 of the stick.
  EXPECT_DOUBLE_EQ(eased_stick(def, 0.3, 10.0, 0.1), 0.3);
  EXPECT_DOUBLE_EQ(eased_stick(def, 3.0, 10.0, 0.1), 1.0);
}

TEST(Steering, MoveToReleasesTheStickWithinTheRadiusAndStaysReleased) {
  SteeringDef def;
  def.targets = {{0, -10}};
  def.radius = 0.5;
  Steering steering(def);
  const Vec2 far = steering.stick({0, 0, 0}, kStill, 0, kUp, 5, 1.0 / 60);
  EXPECT_NEAR(far[1], 1.0, 1e-15);
  EXPECT_FALSE(steering.arrived());
  EXPECT_EQ(steering.stick({0, 0, -9.5}, kStill, 0, kUp, 5, 1.0 / 60), (Vec2{0, 0})) << "0.5 m is within 0.5";
  EXPECT_TRUE(steering.arrived());
  EXPECT_EQ(steering.stick({0, 0, 5}, kStill, 0, kUp, 5, 1.0 / 60), (Vec2{0, 0})) << "pushed away afterwards: still released";
}

TEST(Steering, WaypointsAreFollowedInOrderAndCloseOnesPassedInOneTick) {
  SteeringDef def;
  def.targets = {{0, -5}, {0.1, -5}, {5, -5}, {5, 0}};
  def.slow_within = 0.0;
  Steering steering(def);
  const Vec2 first = steering.stick({0, 0, 0}, kStill, 0, kUp, 5, 1.0 / 60);
  EXPECT_EQ(steering.next_target(), 0u);
  EXPECT_NEAR(first[1], 1.0, 1e-15) << "toward (0, -5): forward";
  const Vec2 third = steering.stick({0, 0, -4.9}, kStill, 0, kUp, 5, 1.0 / 60);
  EXPECT_EQ(steering.next_target(), 2u) << "(0, -5) and (0.1, -5) both within 0.25";
  EXPECT_GT(third[0], 0.99) << "toward (5, -5): right";
  steering.stick({5, 0, -5}, kStill, 0, kUp, 5, 1.0 / 60);
  EXPECT_EQ(steering.next_target(), 3u);
  steering.stick({5, 0, -0.2}, kStill, 0, kUp, 5, 1.0 / 60);
  EXPECT_TRUE(steering.arrived());
}

// Near a waypoint the stick keeps as much speed as the next leg allows: all
// of it when the path goes straight on, half at a right angle, none for a
// U-turn or the last target. Half a metre before (0, -5), still:
TEST(Steering, WaypointsKeepTheSpeedTheTurnAllows) {
  auto stick_near = [](Vec2 after) {
    SteeringDef def;
    def.targets = {{0, -5}, after};
    Steering steering(def);
    const Vec2 stick = steering.stick({0, 0, -4.5}, kStill, 0, kUp, 5, 1.0 / 60);
    return std::hypot(stick[0], stick[1]);
  };
  EXPECT_DOUBLE_EQ(stick_near({0, -10}), 1.0) << "straight on";
  EXPECT_DOUBLE_EQ(stick_near({5, -5}), 1.0) << "a right angle: 0.5 + 0.5 of slow_within";
  EXPECT_DOUBLE_EQ(stick_near({0, 0}), 0.5) << "a U-turn eases like the last target";
  SteeringDef last;
  last.targets = {{0, -5}};
  Steering steering(last);
  const Vec2 stick = steering.stick({0, 0, -4.5}, kStill, 0, kUp, 5, 1.0 / 60);
  EXPECT_DOUBLE_EQ(std::hypot(stick[0], stick[1]), 0.5);
  // 0.3 m out, a right angle keeps (0.3 + 0.5) / 1 of the stick.
  SteeringDef corner;
  corner.targets = {{0, -5}, {5, -5}};
  Steering at_corner(corner);
  const Vec2 slow = at_corner.stick({0, 0, -4.7}, kStill, 0, kUp, 5, 1.0 / 60);
  EXPECT_NEAR(std::hypot(slow[0], slow[1]), 0.8, 1e-12);
}

TEST(Steering, NeverNaNOnTheTargetOrFarAway) {
  SteeringDef def;
  def.targets = {{1e6, -1e6}};
  Steering steering(def);
  const Vec2 far = steering.stick({-1e6, 0, 1e6}, kStill, 1e6, kUp, 1000, 1e-4);
  EXPECT_TRUE(std::isfinite(far[0]) && std::isfinite(far[1]));
  EXPECT_NEAR(std::hypot(far[0], far[1]), 1.0, 1e-12);
  EXPECT_EQ(stick_toward({0, 0, 0}, 0, kUp, 1), (Vec2{0, 0}));
}

}  // namespace
}  // namespace stepslide
