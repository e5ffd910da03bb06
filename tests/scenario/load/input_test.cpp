// Scenario loader, input keyframes (scenario/load/input.cpp): each field optional,
// ticks strictly increasing, at most one of "move", "wish_velocity", "move_to"
// and "waypoints", and steering's targets and options.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scenario/load/load.h"
#include "scenario/load/load_test_util.h"

namespace stepslide {
namespace {

using test::errors_of;
using test::loaded_with;
using Lines = std::vector<std::string>;

TEST(LoadInput, AbsentFieldsStayUnset) {
  const Scenario s = loaded_with(R"("input": [{"tick": 0, "move": [0.5, -1], "yaw_deg": 45},
                                              {"tick": 5, "jump": false},
                                              {"tick": 6, "wish_velocity": [3, 4]}])");
  ASSERT_EQ(s.input.size(), 3u);
  EXPECT_EQ(s.input[0].move, (Vec2{0.5, -1}));
  EXPECT_EQ(s.input[0].yaw_deg, 45.0);
  EXPECT_FALSE(s.input[0].jump.has_value());
  EXPECT_FALSE(s.input[0].wish_velocity.has_value());
  EXPECT_EQ(s.input[1].tick, 5);
  EXPECT_EQ(s.input[1].jump, false);
  EXPECT_FALSE(s.input[1].move.has_value());
  EXPECT_FALSE(s.input[1].yaw_deg.has_value());
  EXPECT_EQ(s.input[2].wish_velocity, (Vec2{3, 4}));
}

TEST(LoadInput, TicksMustStrictlyIncrease) {
  EXPECT_EQ(errors_of(R"("input": [{"tick": 10}, {"tick": 10}, {"tick": 11}, {"tick": 5}])"),
            (Lines{"/input/1/tick: expected an integer > 10 (the previous keyframe's tick), got 10",
                   "/input/3/tick: expected an integer > 11 (the previous keyframe's tick), got 5"}));
}

TEST(LoadInput, MoveAndWishVelocityTogetherAreOneErrorAtTheKey) {
  EXPECT_EQ(errors_of(R"("input": [{"tick": 0, "move": [2, 0], "wish_velocity": [1, 1]}])"),
            (Lines{"/input/0: expected at most one of \"move\", \"wish_velocity\", \"move_to\" and \"waypoints\" "
                   "(each sets what drives the character and clears the others), got \"move\" and \"wish_velocity\"",
                   "/input/0/move/0: expected a number <= 1, got 2"}));
}

TEST(LoadInput, MoveToIsOneTargetWithTheDefaults) {
  const Scenario s = loaded_with(R"("input": [{"tick": 0, "move_to": [3, -4], "yaw_deg": 90, "jump": true}])");
  ASSERT_TRUE(s.input[0].steer.has_value());
  const SteeringDef& steer = *s.input[0].steer;
  EXPECT_EQ(steer.targets, (std::vector<Vec2>{{3, -4}}));
  EXPECT_FALSE(steer.waypoints);
  EXPECT_EQ(steer.stick, 1.0);
  EXPECT_EQ(steer.radius, kDefaultSteeringRadius);
  EXPECT_EQ(steer.slow_within, kDefaultSlowWithin);
  EXPECT_EQ(s.input[0].yaw_deg, 90.0);
  EXPECT_EQ(s.input[0].jump, true);
  EXPECT_FALSE(s.input[0].move.has_value());
}

TEST(LoadInput, WaypointsKeepTheirOrderAndOptions) {
  const Scenario s = loaded_with(
      R"("input": [{"tick": 2, "waypoints": [[1, 2], [-3, 4], [1, 2]], "stick": 0.5, "radius": 0.1, "slow_within": 0}])");
  const SteeringDef& steer = *s.input[0].steer;
  EXPECT_EQ(steer.targets, (std::vector<Vec2>{{1, 2}, {-3, 4}, {1, 2}}));
  EXPECT_TRUE(steer.waypoints);
  EXPECT_EQ(steer.stick, 0.5);
  EXPECT_EQ(steer.radius, 0.1);
  EXPECT_EQ(steer.slow_within, 0.0);
}

TEST(LoadInput, EveryBadWaypointAndOptionIsReported) {
  EXPECT_EQ(errors_of(R"("input": [{"tick": 0, "waypoints": [[1, "a"], 5, [1e7, 0]], "stick": 2, "radius": -1}])"),
            (Lines{"/input/0/waypoints/0/1: expected a number, got \"a\"",
                   "/input/0/waypoints/1: expected an array of 2 numbers, got 5",
                   "/input/0/waypoints/2/0: expected a number <= 1000000, got 10000000",
                   "/input/0/stick: expected a number <= 1, got 2", "/input/0/radius: expected a number > 0, got -1"}));
}

TEST(LoadInput, SteeringOptionsNeedATarget) {
  EXPECT_EQ(errors_of(R"("input": [{"tick": 0, "radius": 1, "slow_within": 2}])"),
            (Lines{"/input/0/radius: expected \"radius\" only with \"move_to\" or \"waypoints\" (it is a steering "
                   "option), got neither",
                   "/input/0/slow_within: expected \"slow_within\" only with \"move_to\" or \"waypoints\" (it is a "
                   "steering option), got neither"}));
}

TEST(LoadInput, SteeringNeedsUpNearTheYAxis) {
  EXPECT_EQ(errors_of(R"("up": [0, 0.1, 1], "input": [{"tick": 0, "move_to": [1, 1]}])").size(), 1u);
  const Scenario tilted = loaded_with(R"("up": [1, 1, 0], "input": [{"tick": 0, "move_to": [1, 1]}])");
  EXPECT_TRUE(tilted.input[0].steer.has_value()) << "45 degrees from Y is fine";
}

}  // namespace
}  // namespace stepslide

namespace stepslide {
namespace {

TEST(LoadInputCrouch, CrouchIsAnOptionalBoolean) {
  const Scenario s = test::loaded_with(R"("input": [{"tick": 0, "crouch": true}, {"tick": 5}, {"tick": 9, "crouch": false}])");
  EXPECT_EQ(s.input[0].crouch, std::optional<bool>(true));
  EXPECT_FALSE(s.input[1].crouch.has_value());
  EXPECT_EQ(s.input[2].crouch, std::optional<bool>(false));
  EXPECT_EQ(test::errors_of(R"("input": [{"tick": 0, "crouch": 1}])"),
            (std::vector<std::string>{"/input/0/crouch: expected a boolean, got 1"}));
}

}  // namespace
}  // namespace stepslide
