// Scenario loader, input keyframes (load_input.cpp): each field optional,
// ticks strictly increasing, and at most one of "move" and "wish_velocity".

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scenario/load_test_util.h"
#include "scenario/load.h"

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
            (Lines{"/input/0: expected at most one of \"move\" and \"wish_velocity\" (setting one clears the other), "
                   "got both",
                   "/input/0/move/0: expected a number <= 1, got 2"}));
}

}  // namespace
}  // namespace stepslide
