// The runner's input track (input_track.h): how steering keyframes combine
// with the other fields and with later keyframes, and the pushes recorded.

#include <gtest/gtest.h>

#include <vector>

#include "scenario/run/input_track.h"

namespace stepslide {
namespace {

const Vec3 kUp{0, 1, 0};
constexpr double kDt = 1.0 / 60;

InputKey steer_key(std::int64_t tick, Vec2 target) {
  InputKey key;
  key.tick = tick;
  key.steer = SteeringDef{};
  key.steer->targets = {target};
  return key;
}

CharacterState at_feet(double x, double z) {
  CharacterState state;
  state.position = btVector3(x, 0, z);
  return state;
}

TEST(InputTrack, YawAndJumpKeysCombineWithSteering) {
  std::vector<InputKey> keys = {steer_key(0, {10, 0})};
  InputKey yaw;
  yaw.tick = 2;
  yaw.yaw_deg = -90;  // camera looking along +X: the target is straight ahead
  yaw.jump = true;
  keys.push_back(yaw);
  InputTrack track(keys, kUp, 5, kDt);
  const CharacterState start = at_feet(0, 0);
  EXPECT_NEAR(track.at(0, start).move_right, 1.0, 1e-12) << "yaw 0: +X is to the right";
  EXPECT_NEAR(track.at(1, start).move_right, 1.0, 1e-12);
  const CharacterInput& turned = track.at(2, start);
  EXPECT_NEAR(turned.move_right, 0.0, 1e-12);
  EXPECT_NEAR(turned.move_forward, 1.0, 1e-12) << "still steering, in the new camera frame";
  EXPECT_TRUE(turned.jump);
}

TEST(InputTrack, MoveWishVelocityOrNewSteeringEndSteering) {
  InputKey move;
  move.tick = 1;
  move.move = Vec2{0, 0.5};
  InputKey wish;
  wish.tick = 3;
  wish.wish_velocity = Vec2{1, 2};
  const std::vector<InputKey> keys = {steer_key(0, {10, 0}), move, steer_key(2, {-10, 0}), wish};
  InputTrack track(keys, kUp, 5, kDt);
  const CharacterState start = at_feet(0, 0);
  EXPECT_NEAR(track.at(0, start).move_right, 1.0, 1e-12);
  const CharacterInput& moved = track.at(1, start);
  EXPECT_EQ(moved.move_right, 0.0);
  EXPECT_EQ(moved.move_forward, 0.5);
  const CharacterInput& steered = track.at(2, start);
  EXPECT_NEAR(steered.move_right, -1.0, 1e-12) << "the new target, to the left";
  EXPECT_FALSE(steered.use_wish_velocity);
  const CharacterInput& wished = track.at(3, start);
  EXPECT_TRUE(wished.use_wish_velocity);
  EXPECT_EQ(wished.move_right, 0.0);
  EXPECT_EQ(wished.wish_velocity.z(), 2.0);
  EXPECT_TRUE(track.at(4, at_feet(-10, 0)).use_wish_velocity) << "reaching the old target changes nothing";
}

TEST(InputTrack, SteeringAfterWishVelocityDropsIt) {
  InputKey wish;
  wish.tick = 0;
  wish.wish_velocity = Vec2{1, 2};
  const std::vector<InputKey> keys = {wish, steer_key(1, {0, -10})};
  InputTrack track(keys, kUp, 5, kDt);
  EXPECT_TRUE(track.at(0, at_feet(0, 0)).use_wish_velocity);
  const CharacterInput& steered = track.at(1, at_feet(0, 0));
  EXPECT_FALSE(steered.use_wish_velocity);
  EXPECT_NEAR(steered.move_forward, 1.0, 1e-12);
}

TEST(InputTrack, ATickIsWorkedOutOnceFromTheStateFirstSeen) {
  const std::vector<InputKey> keys = {steer_key(0, {0, -10})};
  InputTrack track(keys, kUp, 5, kDt);
  EXPECT_NEAR(track.at(0, at_feet(0, 0)).move_forward, 1.0, 1e-12);
  // The observer asks again after the step, with the state the step made.
  EXPECT_NEAR(track.at(0, at_feet(0, -10)).move_forward, 1.0, 1e-12);
  EXPECT_EQ(track.at(1, at_feet(0, -10)).move_forward, 0.0) << "the next tick sees the arrival";
}

TEST(InputTrack, PushedRowsFollowTheSticksUsed) {
  const std::vector<InputKey> keys = {steer_key(1, {0, -10})};
  InputTrack track(keys, kUp, 5, kDt);
  track.at(0, at_feet(0, 0));   // no input yet: row 1 not pushed
  track.at(1, at_feet(0, 0));   // steering: row 2 pushed
  track.at(2, at_feet(0, -9.9));  // arrived: row 3 not pushed
  EXPECT_EQ(track.pushed_rows(), (std::vector<bool>{false, false, true, false}));
}

TEST(InputTrack, TheGroundsTurnIsPartOfTheCameraFrame) {
  const std::vector<InputKey> keys = {steer_key(0, {10, 0})};
  InputTrack track(keys, kUp, 5, kDt);
  CharacterState state = at_feet(0, 0);
  state.ground_yaw_deg = -90;  // turn_with_ground has carried the frame around
  const CharacterInput& input = track.at(0, state);
  EXPECT_NEAR(input.move_forward, 1.0, 1e-12);
  EXPECT_NEAR(input.yaw_deg, 0.0, 0.0) << "the input's own yaw is untouched";
}

}  // namespace
}  // namespace stepslide
