// Scenario loader, expectations (scenario/load/expect.cpp): every kind of check, ticks
// within the scenario or "end", ranges that do not run backwards, and the
// rules of the motion, body and step checks.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scenario/load/load.h"
#include "scenario/load/load_test_util.h"

namespace stepslide {
namespace {

using test::errors_of;
using test::loaded_with;
using test::paths_and_messages;
using Lines = std::vector<std::string>;

TEST(LoadExpect, EachKindReadsItsFields) {
  const Scenario s = loaded_with(R"("expect": [
      {"tick": "end", "position": [null, 1, null]},
      {"ticks": [0, "end"], "grounded": false},
      {"ticks": [3, 3], "stuck": true},
      {"ticks": [0, 100], "max_penetration": 0},
      {"ticks": [1, 2], "y_between": [-1, -1]}])");
  ASSERT_EQ(s.expect.size(), 5u);
  EXPECT_EQ(s.expect[0].kind, ExpectCheck::Kind::Position);
  EXPECT_TRUE(s.expect[0].tick_is_end);
  EXPECT_FALSE(s.expect[0].position[0].has_value());
  EXPECT_EQ(s.expect[0].position[1], 1.0);
  EXPECT_EQ(s.expect[0].tolerance, 1e-3);  // the default
  EXPECT_EQ(s.expect[1].kind, ExpectCheck::Kind::Grounded);
  EXPECT_TRUE(s.expect[1].last_is_end);
  EXPECT_EQ(s.expect[2].kind, ExpectCheck::Kind::Stuck);
  EXPECT_TRUE(s.expect[2].stuck);
  EXPECT_EQ(s.expect[2].first, 3);
  EXPECT_EQ(s.expect[2].last, 3);
  EXPECT_EQ(s.expect[3].kind, ExpectCheck::Kind::MaxPenetration);
  EXPECT_EQ(s.expect[3].last, 100);
  EXPECT_EQ(s.expect[4].kind, ExpectCheck::Kind::YBetween);
  EXPECT_EQ(s.expect[4].lo, -1.0);
  EXPECT_EQ(s.expect[4].hi, -1.0);
  EXPECT_EQ(s.expect[4].json_path, "/expect/4");
}

TEST(LoadExpect, WithoutOneKindOnlyKeysNoCheckKnowsAreReported) {
  EXPECT_EQ(errors_of(R"("expect": [{"ticks": [0, 1], "tolerance": 1, "colour": "red"}])"),
            (Lines{"/expect/0: expected exactly one of \"position\", \"grounded\", \"max_penetration\", \"y_between\", "
                   "\"stuck\", \"x_between\", \"z_between\", \"speed_between\", \"on_body\", \"no_oscillation\", "
                   "\"reaches\", \"step_events\", \"moving\", \"max_rise_gain\", \"max_jump_apex\", \"body_reaches\", \"body_at_rest\", \"body_upright\", \"max_ground_normal_changes\", \"velocity_achieved\", \"max_speed\", got none",
                   "/expect/0/colour: unknown key \"colour\""}));
}

TEST(LoadExpect, TicksBeyondTheScenarioAreErrors) {
  EXPECT_EQ(errors_of(R"("expect": [{"tick": 100, "position": [0, 0, 0]}, {"ticks": [0, 101], "stuck": false}])"),
            Lines{"/expect/1/ticks/1: expected an integer <= 100 (the scenario's ticks), got 101"});
}

TEST(LoadExpect, WithInvalidTicksCheckedTicksAreBoundedByTheTickLimit) {
  const LoadResult result = load_scenario_text(
      R"({"format": "stepslide/scenario@1", "ticks": 0,
          "expect": [{"tick": 500, "position": [0, 0, 0]}, {"tick": 2000000, "position": [0, 0, 0]}]})",
      "t");
  EXPECT_EQ(paths_and_messages(result),
            (Lines{"/ticks: expected an integer >= 1, got 0",
                   "/expect/1/tick: expected an integer <= 1000000, got 2000000"}));
}

TEST(LoadExpect, RangesMustNotRunBackwards) {
  EXPECT_EQ(errors_of(R"("expect": [{"ticks": [5, 4], "grounded": true}, {"ticks": [0, 1], "y_between": [3, 2]}])"),
            (Lines{"/expect/0/ticks/1: expected an integer >= 5 (the first tick), got 4",
                   "/expect/1/y_between/1: expected a number >= 3 (the low bound), got 2"}));
}

/// A world of three bodies: "floor", an unnamed box, and "stairs" (a generator).
const char* const kWorld = R"("world": [
    {"name": "floor", "shape": {"type": "box", "half_extents": [20, 0.5, 20]}, "position": [0, -0.5, 0]},
    {"shape": {"type": "box", "half_extents": [1, 1, 1]}, "position": [5, 1, 0]},
    {"name": "stairs", "shape": {"type": "stairs", "steps": 3, "rise": 0.2, "run": 0.3, "width": 1}}])";

TEST(LoadExpect, TheMotionBodyAndStepKindsReadTheirFields) {
  const Scenario s = loaded_with(std::string(kWorld) + R"(, "expect": [
      {"ticks": [0, 10], "x_between": [-1, 2]},
      {"ticks": [0, "end"], "z_between": [-3, -3]},
      {"ticks": [1, "end"], "speed_between": [0, 5.5]},
      {"ticks": [2, 50], "on_body": "stairs"},
      {"ticks": [10, 20], "no_oscillation": {"window": 10, "max_wander": 0.001}},
      {"reaches": [1, null, -2], "within": 0.25, "by_tick": 40},
      {"reaches": [null, 1.8, null], "within": 0.1},
      {"ticks": [0, "end"], "step_events": {"up": [3, 3]}},
      {"ticks": [0, "end"], "step_events": {"down": [0, 2]}},
      {"ticks": [30, "end"], "moving": 1.5}])");
  ASSERT_EQ(s.expect.size(), 10u);
  EXPECT_EQ(s.expect[0].kind, ExpectCheck::Kind::XBetween);
  EXPECT_EQ(s.expect[0].lo, -1.0);
  EXPECT_EQ(s.expect[0].hi, 2.0);
  EXPECT_EQ(s.expect[1].kind, ExpectCheck::Kind::ZBetween);
  EXPECT_EQ(s.expect[1].lo, -3.0);
  EXPECT_EQ(s.expect[2].kind, ExpectCheck::Kind::SpeedBetween);
  EXPECT_EQ(s.expect[2].first, 1);
  EXPECT_EQ(s.expect[2].hi, 5.5);
  EXPECT_EQ(s.expect[3].kind, ExpectCheck::Kind::OnBody);
  EXPECT_EQ(s.expect[3].body_name, "stairs");
  EXPECT_EQ(s.expect[3].body_index, 2);  // the generator's index, which ground_body holds
  EXPECT_EQ(s.expect[4].kind, ExpectCheck::Kind::NoOscillation);
  EXPECT_EQ(s.expect[4].window, 10);  // exactly the range's length fits
  EXPECT_EQ(s.expect[4].max_wander, 0.001);
  EXPECT_EQ(s.expect[5].kind, ExpectCheck::Kind::Reaches);
  EXPECT_EQ(s.expect[5].position[0], 1.0);
  EXPECT_FALSE(s.expect[5].position[1].has_value());
  EXPECT_EQ(s.expect[5].position[2], -2.0);
  EXPECT_EQ(s.expect[5].tolerance, 0.25);
  EXPECT_EQ(s.expect[5].tick, 40);
  EXPECT_FALSE(s.expect[5].tick_is_end);
  EXPECT_TRUE(s.expect[6].tick_is_end);  // by_tick defaults to the last tick
  EXPECT_EQ(s.expect[7].kind, ExpectCheck::Kind::StepEvents);
  EXPECT_EQ(s.expect[7].steps_up, (std::array<std::int64_t, 2>{3, 3}));
  EXPECT_FALSE(s.expect[7].steps_down.has_value());
  EXPECT_FALSE(s.expect[8].steps_up.has_value());
  EXPECT_EQ(s.expect[8].steps_down, (std::array<std::int64_t, 2>{0, 2}));
  EXPECT_EQ(s.expect[9].kind, ExpectCheck::Kind::Moving);
  EXPECT_EQ(s.expect[9].min_speed, 1.5);
  EXPECT_TRUE(s.expect[9].last_is_end);
}

TEST(LoadExpect, BoundsMustNotRunBackwardsAndSpeedsAreNotNegative) {
  EXPECT_EQ(errors_of(R"("expect": [{"ticks": [0, 1], "x_between": [1, 0]}, {"ticks": [0, 1], "z_between": [0, -1e-9]},
                                    {"ticks": [1, 2], "speed_between": [-1, 2]}, {"ticks": [1, 2], "speed_between": [3, 2]},
                                    {"ticks": [0, 1], "x_between": [0, 2e6]}])"),
            (Lines{"/expect/0/x_between/1: expected a number >= 1 (the low bound), got 0",
                   "/expect/1/z_between/1: expected a number >= 0 (the low bound), got -1e-09",
                   "/expect/2/speed_between/0: expected a number >= 0, got -1",
                   "/expect/3/speed_between/1: expected a number >= 3 (the low bound), got 2",
                   "/expect/4/x_between/1: expected a number <= 1000000, got 2000000"}));
}

TEST(LoadExpect, SpeedChecksStartAtTickOneSinceSpeedNeedsTheTickBefore) {
  EXPECT_EQ(errors_of(R"("expect": [{"ticks": [0, "end"], "speed_between": [0, 1]}, {"ticks": [0, 5], "moving": 1},
                                    {"ticks": [1, 1], "moving": 1}])"),
            (Lines{"/expect/0/ticks/0: expected an integer >= 1 (speed is measured from the tick before), got 0",
                   "/expect/1/ticks/0: expected an integer >= 1 (speed is measured from the tick before), got 0"}));
}

TEST(LoadExpect, MovingNeedsASpeedAboveZero) {
  EXPECT_EQ(errors_of(R"("expect": [{"ticks": [1, 2], "moving": 0}, {"ticks": [1, 2], "moving": "fast"},
                                    {"ticks": [1, 2], "moving": -1}])"),
            (Lines{"/expect/0/moving: expected a number > 0, got 0", "/expect/1/moving: expected a number, got \"fast\"",
                   "/expect/2/moving: expected a number > 0, got -1"}));
}

TEST(LoadExpect, LaunchChecksTakeABoundAndTheirTicks) {
  EXPECT_EQ(errors_of(R"("expect": [{"ticks": [1, 2], "max_rise_gain": 0}, {"ticks": [0, 2], "max_jump_apex": 1.3},
                                    {"ticks": [0, 2], "max_rise_gain": 0.1}, {"ticks": [1, 2], "max_rise_gain": -1},
                                    {"ticks": [1, 2], "max_jump_apex": "high"}, {"ticks": [1, 2], "max_jump_apex": -0.5},
                                    {"ticks": [1, 2], "max_jump_apex": 1, "within": 2}])"),
            (Lines{"/expect/2/ticks/0: expected an integer >= 1 (speed is measured from the tick before), got 0",
                   "/expect/3/max_rise_gain: expected a number >= 0, got -1",
                   "/expect/4/max_jump_apex: expected a number, got \"high\"",
                   "/expect/5/max_jump_apex: expected a number >= 0, got -0.5",
                   "/expect/6/within: unknown key \"within\""}));
}

TEST(LoadExpect, RestChecksTakeABoundAndTicksFromOne) {
  EXPECT_EQ(errors_of(R"("expect": [{"ticks": [1, 2], "max_ground_normal_changes": 0}, {"ticks": [1, 2], "velocity_achieved": 0.01},
                                    {"ticks": [0, 2], "max_ground_normal_changes": 1}, {"ticks": [1, 2], "max_ground_normal_changes": 1.5},
                                    {"ticks": [1, 2], "max_ground_normal_changes": -1}, {"ticks": [0, 2], "velocity_achieved": 0},
                                    {"ticks": [1, 2], "velocity_achieved": -0.1}])"),
            (Lines{"/expect/2/ticks/0: expected an integer >= 1 (speed is measured from the tick before), got 0",
                   "/expect/3/max_ground_normal_changes: expected an integer, got 1.5",
                   "/expect/4/max_ground_normal_changes: expected an integer >= 0, got -1",
                   "/expect/5/ticks/0: expected an integer >= 1 (speed is measured from the tick before), got 0",
                   "/expect/6/velocity_achieved: expected a number >= 0, got -0.1"}));
}

TEST(LoadExpect, MaxSpeedTakesASpeedFromAnyTick) {
  EXPECT_EQ(errors_of(R"("expect": [{"ticks": [0, 2], "max_speed": 3.5}, {"ticks": [1, "end"], "max_speed": 0},
                                    {"ticks": [0, 2], "max_speed": -0.5}, {"ticks": [0, 2], "max_speed": "fast"}])"),
            (Lines{"/expect/2/max_speed: expected a number >= 0, got -0.5",
                   "/expect/3/max_speed: expected a number, got \"fast\""}));
}

TEST(LoadExpect, OnBodyNamesABodyOfTheWorld) {
  EXPECT_EQ(errors_of(std::string(kWorld) + R"(, "expect": [{"ticks": [0, 1], "on_body": "lift"},
      {"ticks": [0, 1], "on_body": ""}, {"ticks": [0, 1], "on_body": 1}, {"ticks": [0, 1], "on_body": "Floor"}])"),
            (Lines{"/expect/0/on_body: expected the name of a body in /world, got \"lift\"",
                   "/expect/1/on_body: expected the name of a body in /world, got \"\"",
                   "/expect/2/on_body: expected a string, got 1",
                   "/expect/3/on_body: expected the name of a body in /world, got \"Floor\""}));
  EXPECT_EQ(errors_of(R"("expect": [{"ticks": [0, 1], "on_body": "floor"}])"),
            Lines{"/expect/0/on_body: expected the name of a body in /world, got \"floor\""})
      << "no world, no names";
}

TEST(LoadExpect, NoOscillationWindowsSpanAtLeastTwoTicksAndFitInTheRange) {
  EXPECT_EQ(errors_of(R"("expect": [{"ticks": [0, 10], "no_oscillation": {"window": 1, "max_wander": 0}},
      {"ticks": [0, 10], "no_oscillation": {"window": 11, "max_wander": 0}},
      {"ticks": [90, "end"], "no_oscillation": {"window": 11, "max_wander": 0}},
      {"ticks": [0, 10], "no_oscillation": {"window": 2.5, "max_wander": -1}},
      {"ticks": [0, 10], "no_oscillation": {"window": 3}},
      {"ticks": [0, 10], "no_oscillation": {"window": 3, "max_wander": 0, "tolerance": 1}},
      {"ticks": [0, 10], "no_oscillation": 3}])"),
            (Lines{"/expect/0/no_oscillation/window: expected an integer >= 2, got 1",
                   "/expect/1/no_oscillation/window: expected an integer <= 10 (the range's last tick minus its first), "
                   "got 11",
                   "/expect/2/no_oscillation/window: expected an integer <= 10 (the range's last tick minus its first), "
                   "got 11",
                   "/expect/3/no_oscillation/window: expected an integer, got 2.5",
                   "/expect/3/no_oscillation/max_wander: expected a number >= 0, got -1",
                   "/expect/4/no_oscillation: missing required key \"max_wander\"",
                   "/expect/5/no_oscillation/tolerance: unknown key \"tolerance\"",
                   "/expect/6/no_oscillation: expected an object, got 3"}));
}

TEST(LoadExpect, ReachesNeedsAPointADistanceAndATickInTheRun) {
  EXPECT_EQ(errors_of(R"("expect": [{"reaches": [null, null, null], "within": 1},
      {"reaches": [0, 0, 0], "within": 0}, {"reaches": [0, 0, 0]}, {"reaches": [0, 0, 0], "within": 1, "by_tick": 101},
      {"reaches": [0, 0], "within": 1, "by_tick": "start"}, {"reaches": [0, 0, 0], "within": 1, "ticks": [0, 1]},
      {"reaches": [0, 0, 0], "within": 1, "tolerance": 1}])"),
            (Lines{"/expect/0/reaches: expected at least one coordinate that is not null, got [null, null, null]",
                   "/expect/1/within: expected a number > 0, got 0",
                   "/expect/2: missing required key \"within\"",
                   "/expect/3/by_tick: expected an integer <= 100 (the scenario's ticks), got 101",
                   "/expect/4/reaches: expected an array of 3 numbers or nulls, got an array of 2",
                   "/expect/4/by_tick: expected an integer or \"end\", got \"start\"",
                   "/expect/5/ticks: unknown key \"ticks\"",
                   "/expect/6/tolerance: unknown key \"tolerance\""}));
}

TEST(LoadExpect, StepEventsCountUpOrDownWithinBounds) {
  EXPECT_EQ(errors_of(R"("expect": [{"ticks": [0, 1], "step_events": {}},
      {"ticks": [0, 1], "step_events": {"up": [3, 1]}}, {"ticks": [0, 1], "step_events": {"down": [-1, 0.5]}},
      {"ticks": [0, 1], "step_events": {"up": [1]}}, {"ticks": [0, 1], "step_events": {"sideways": [0, 0]}},
      {"ticks": [0, 1], "step_events": [0, 1]}])"),
            (Lines{"/expect/0/step_events: expected at least one of \"up\" and \"down\", got neither",
                   "/expect/1/step_events/up/1: expected an integer >= 3 (the low bound), got 1",
                   "/expect/2/step_events/down/0: expected an integer >= 0, got -1",
                   "/expect/2/step_events/down/1: expected an integer, got 0.5",
                   "/expect/3/step_events/up: expected an array of 2 counts [lo, hi], got an array of 1",
                   "/expect/4/step_events: expected at least one of \"up\" and \"down\", got neither",
                   "/expect/4/step_events/sideways: unknown key \"sideways\"",
                   "/expect/5/step_events: expected an object, got an array"}));
}

TEST(LoadExpect, NewKindsKeepTheRangeRules) {
  EXPECT_EQ(errors_of(R"("expect": [{"ticks": [5, 4], "on_body": "x", "tick": 3},
                                    {"tick": 3, "x_between": [0, 1]}, {"ticks": ["end", 4], "moving": 1}])"),
            (Lines{"/expect/0/ticks/1: expected an integer >= 5 (the first tick), got 4",
                   "/expect/0/on_body: expected the name of a body in /world, got \"x\"",
                   "/expect/0/tick: unknown key \"tick\"", "/expect/1: missing required key \"ticks\"",
                   "/expect/1/tick: unknown key \"tick\"", "/expect/2/ticks/0: expected an integer, got \"end\""}));
}

}  // namespace
}  // namespace stepslide
