// Expectations (scenario/expect/) on small scenarios:
// each kind passing and failing, with its exact message. The scenarios walk
// with wish_velocity, which is applied exactly (3 m/s is 0.05 m a tick at
// 60 Hz), so the numbers in the messages follow from the input.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/format.h"
#include "scenario/expect/expectations.h"
#include "scenario/load/load.h"
#include "scenario/run/simulate.h"
#include "stepslide/controller.h"

namespace stepslide {
namespace {

using Lines = std::vector<std::string>;

const char* const kFloor =
    R"({"name": "floor", "shape": {"type": "box", "half_extents": [20, 0.5, 20]}, "position": [0, -0.5, 0]})";

/// A scenario of `ticks` ticks on a floor, with more bodies, input and checks.
std::string on_floor(int ticks, const std::string& input, const std::string& expect, const std::string& more_world = "",
                     const std::string& more = "") {
  return R"({"format": "stepslide/scenario@1", "ticks": )" + std::to_string(ticks) + R"(, "world": [)" + kFloor +
         (more_world.empty() ? "" : ", " + more_world) + R"(], "input": [)" + input + R"(], "expect": [)" + expect +
         "]" + (more.empty() ? "" : ", " + more) + "}";
}

Scenario load(const std::string& text) {
  LoadResult result = load_scenario_text(text, "t.json");
  EXPECT_TRUE(result.errors.empty()) << format_load_errors(result);
  return result.scenario.value_or(Scenario{});
}

/// "/expect/N at tick T: message" for each failed check, as `check` prints them.
Lines failures(const Scenario& scenario) {
  Lines out;
  for (const ExpectationFailure& f : simulate(scenario).expectation_failures) {
    out.push_back(f.check + " at tick " + std::to_string(f.tick) + ": " + f.message);
  }
  return out;
}

Lines failures(const std::string& text) { return failures(load(text)); }

/// Walks diagonally at 3 m/s along x and -3 m/s along z.
const char* const kDiagonal = R"({"tick": 0, "wish_velocity": [3, -3]})";

TEST(Expectations, AJumpGainsNoSpeedInTheAirAndPeaksAtItsBallisticApex) {
  // 5 m/s at 9.81 m/s^2: 1.274 m continuous, about 1.23 m in 60 Hz steps.
  const char* const jump = R"({"tick": 2, "jump": true})";
  EXPECT_EQ(failures(on_floor(90, jump, R"({"ticks": [1, "end"], "max_rise_gain": 0},
                                         {"ticks": [0, "end"], "max_jump_apex": 1.274})")),
            Lines{});
  const Lines apex = failures(on_floor(90, jump, R"({"ticks": [0, "end"], "max_jump_apex": 1})"));
  ASSERT_EQ(apex.size(), 1u);
  EXPECT_NE(apex[0].find("m above where they left the ground at tick 2, more than 1"), std::string::npos) << apex[0];
  // A flight that starts outside the range is not checked.
  EXPECT_EQ(failures(on_floor(90, jump, R"({"ticks": [10, "end"], "max_jump_apex": 1})")), Lines{});
}

TEST(Expectations, WalkingOnOneFloorKeepsItsNormalAndReportsTheVelocityItAchieves) {
  EXPECT_EQ(failures(on_floor(60, kDiagonal, R"({"ticks": [1, "end"], "max_ground_normal_changes": 0},
                                               {"ticks": [1, "end"], "velocity_achieved": 1e-9})")),
            Lines{});
  // Into a wall at 3 m/s: once against it, the velocity reported is what the
  // feet achieve, nothing (on the tick it reaches the wall the velocity is
  // clipped to nothing while the feet still moved up to it).
  const std::string wall =
      R"({"name": "wall", "shape": {"type": "box", "half_extents": [0.5, 2, 5]}, "position": [1.5, 2, 0]})";
  EXPECT_EQ(failures(on_floor(60, R"({"tick": 0, "wish_velocity": [3, 0]})",
                              R"({"ticks": [15, "end"], "velocity_achieved": 1e-6})", wall)),
            Lines{});
}

TEST(Expectations, GroundNormalChangesAndVelocityNotAchievedAreCaught) {
  // Walking from the floor onto a 20-degree ramp changes the normal once.
  const std::string ramp =
      R"({"name": "ramp", "shape": {"type": "ramp", "length": 4, "width": 4, "angle_deg": 20}, "position": [2, 0, -3]})";
  const char* const forward = R"({"tick": 0, "move": [0, 1]})";
  EXPECT_EQ(failures(on_floor(60, forward, R"({"ticks": [1, "end"], "max_ground_normal_changes": 1})", ramp)),
            Lines{});
  const Lines changes = failures(on_floor(60, forward, R"({"ticks": [1, "end"], "max_ground_normal_changes": 0})", ramp));
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_NE(changes[0].find("the ground normal changed from (0, 1, 0) to"), std::string::npos) << changes[0];
  EXPECT_NE(changes[0].find("change 1 between grounded rows, more than 0"), std::string::npos) << changes[0];
  // In the air at 3 m/s, 2 cm short of a wall: the tick moves the feet
  // 2 cm (1.2 m/s) and the velocity is clipped to nothing across the wall.
  const std::string wall =
      R"({"name": "wall", "shape": {"type": "box", "half_extents": [0.5, 3, 5]}, "position": [0.83, 3, 0]})";
  const Lines velocity =
      failures(on_floor(5, R"({"tick": 0, "move": [0, 0]})", R"({"ticks": [1, "end"], "velocity_achieved": 0.5})",
                        wall, R"("character": {"position": [0, 1, 0], "velocity": [3, 0, 0]})"));
  ASSERT_EQ(velocity.size(), 1u);
  EXPECT_NE(velocity[0].find("/expect/0 at tick 1: the velocity across up is reported as"), std::string::npos)
      << velocity[0];
}

TEST(Expectations, MaxSpeedBoundsTheVelocityColumns) {
  // Walking diagonally at a wish_velocity of 4.243 m/s on the floor: never faster.
  EXPECT_EQ(failures(on_floor(60, kDiagonal, R"({"ticks": [0, "end"], "max_speed": 4.25})")), Lines{});
  const Lines fast = failures(on_floor(60, kDiagonal, R"({"ticks": [0, "end"], "max_speed": 4.2})"));
  ASSERT_EQ(fast.size(), 1u);
  EXPECT_NE(fast[0].find("/expect/0 at tick 1: the velocity (3, 0, -3) m/s is"), std::string::npos) << fast[0];
  EXPECT_NE(fast[0].find("m/s fast, more than 4.2"), std::string::npos) << fast[0];
  // The velocity is the whole vector: falling counts too.
  const Lines falling = failures(on_floor(30, R"({"tick": 0, "move": [0, 0]})", R"({"ticks": [0, 10], "max_speed": 1})", "",
                                          R"("character": {"position": [0, 3, 0]})"));
  ASSERT_EQ(falling.size(), 1u);
  EXPECT_NE(falling[0].find("/expect/0 at tick"), std::string::npos) << falling[0];
}

TEST(Expectations, XAndZBetweenBoundTheFeet) {
  EXPECT_EQ(failures(on_floor(60, kDiagonal, R"({"ticks": [0, "end"], "x_between": [0, 3.0001]},
                                               {"ticks": [0, "end"], "z_between": [-3.0001, 0]},
                                               {"ticks": [0, "end"], "x_between": [0, 1.98]},
                                               {"ticks": [0, 30], "z_between": [-1.02, 0]},
                                               {"ticks": [50, "end"], "z_between": [-2, 5]})")),
            (Lines{"/expect/2 at tick 40: feet x 2 outside [0, 1.98]",
                   "/expect/3 at tick 21: feet z -1.05 outside [-1.02, 0]",
                   "/expect/4 at tick 50: feet z -2.5 outside [-2, 5]"}));
}

TEST(Expectations, AValueJustPastItsBoundShowsTheDigitsThatTellThemApart) {
  // 0.05 + 0.05 + 0.05 is 0.15000000000000002: at 6 digits it would read
  // "feet x 0.15 outside [0, 0.15]". Bounds read as written.
  EXPECT_EQ(failures(on_floor(5, R"({"tick": 0, "wish_velocity": [3, 0]})", R"({"ticks": [0, "end"], "x_between": [0, 0.15]},
                                                                           {"ticks": [0, "end"], "x_between": [0, 0.1500001]})")),
            (Lines{"/expect/0 at tick 3: feet x 0.15000000000000002 outside [0, 0.15]",
                   "/expect/1 at tick 4: feet x 0.2 outside [0, 0.1500001]"}));
}

TEST(Expectations, SpeedBetweenIsTheHorizontalSpeedOfTheFeet) {
  // 3 m/s along each of x and z: 3·√2 = 4.24264 m/s.
  EXPECT_EQ(failures(on_floor(30, kDiagonal, R"({"ticks": [1, "end"], "speed_between": [4.2426, 4.2427]},
                                               {"ticks": [1, "end"], "speed_between": [0, 4]},
                                               {"ticks": [10, "end"], "speed_between": [5, 6]})")),
            (Lines{"/expect/1 at tick 1: feet moved at 4.24264 m/s horizontally, outside [0, 4]",
                   "/expect/2 at tick 10: feet moved at 4.24264 m/s horizontally, outside [5, 6]"}));
}

/// At 3 m/s toward a wall whose face is at x = 1: the capsule (radius 0.3)
/// stops at x = 0.69 after 0.05 m a tick, so tick 14 moves 0.04 m and tick 15 none.
std::string into_wall(const std::string& expect) {
  return on_floor(30, R"({"tick": 0, "wish_velocity": [3, 0]})", expect,
                  R"({"name": "wall", "shape": {"type": "box", "half_extents": [0.5, 2, 5]}, "position": [1.5, 2, 0]})");
}

TEST(Expectations, SpeedIsMeasuredFromPositionsSoAWallStopsIt) {
  EXPECT_EQ(failures(into_wall(R"({"ticks": [1, "end"], "speed_between": [2.9, 3.1]},
                                  {"ticks": [1, 13], "speed_between": [2.9, 3.1]})")),
            Lines{"/expect/0 at tick 14: feet moved at 2.4 m/s horizontally, outside [2.9, 3.1]"});
}

TEST(Expectations, SpeedIgnoresMotionAlongUp) {
  // Falling with no input: the feet move, but not horizontally; with gravity
  // along -x, "horizontal" is the plane across x.
  const std::string falling = R"({"format": "stepslide/scenario@1", "ticks": 30, "expect": [
      {"ticks": [1, "end"], "speed_between": [0, 0]}, {"ticks": [30, 30], "y_between": [-10, -0.5]}]})";
  EXPECT_EQ(failures(falling), Lines{});
  const std::string sideways = R"({"format": "stepslide/scenario@1", "ticks": 30, "gravity": [-9.81, 0, 0],
      "expect": [{"ticks": [1, "end"], "speed_between": [0, 0]}, {"ticks": [30, 30], "x_between": [-10, -0.5]},
                 {"ticks": [30, 30], "y_between": [0, 0]}]})";
  EXPECT_EQ(failures(sideways), Lines{});
}

TEST(Expectations, MovingFailsAtTheFirstTickThePushedFeetStoodStill) {
  EXPECT_EQ(failures(into_wall(R"({"ticks": [1, "end"], "moving": 1}, {"ticks": [1, 14], "moving": 2.39})")),
            Lines{"/expect/0 at tick 15: feet moved at 0 m/s horizontally while the input pushed, slower than 1 m/s"});
}

TEST(Expectations, MovingLooksOnlyAtTicksTheInputPushes) {
  // Row T is made with the input of tick T-1: nothing pushes rows 1-5, the
  // push of tick 5 moves row 6, and the zero wish of tick 20 stops row 21 on.
  const std::string input = R"({"tick": 5, "wish_velocity": [3, 0]}, {"tick": 20, "wish_velocity": [0, 0]})";
  EXPECT_EQ(failures(on_floor(40, input, R"({"ticks": [1, "end"], "moving": 2.9},
                                           {"ticks": [1, 6], "speed_between": [0, 0]},
                                           {"ticks": [21, "end"], "speed_between": [0, 0]})")),
            Lines{"/expect/1 at tick 6: feet moved at 3 m/s horizontally, outside [0, 0]"});
  // A stick pushes as well as a wish does; at rest it does not.
  EXPECT_EQ(failures(on_floor(20, R"({"tick": 0, "move": [0, 0]}, {"tick": 10, "move": [0, 1]})",
                              R"({"ticks": [1, "end"], "moving": 0.5})")),
            Lines{});
}

TEST(Expectations, MovingWhereTheInputNeverPushesIsAMistake) {
  EXPECT_EQ(failures(on_floor(20, R"({"tick": 0, "yaw_deg": 90, "jump": true})", R"({"ticks": [1, "end"], "moving": 1})")),
            Lines{"/expect/0 at tick 1: the input never pushes in ticks [1, 20] (stick and wish_velocity zero), so "
                  "there is nothing to check"});
}

/// A 0.5 m high platform "plat" over the floor.
const char* const kPlatform =
    R"({"name": "plat", "shape": {"type": "box", "half_extents": [1, 0.25, 1]}, "position": [0, 0.25, 0]})";

TEST(Expectations, OnBodyNamesTheBodyStoodOn) {
  const std::string on_platform = on_floor(10, "", R"({"ticks": [0, "end"], "on_body": "plat"},
                                                     {"ticks": [3, "end"], "on_body": "floor"})",
                                           kPlatform, R"("character": {"position": [0, 0.5, 0]})");
  EXPECT_EQ(failures(on_platform), Lines{"/expect/1 at tick 3: stands on \"plat\" (/world/1), expected \"floor\" (/world/0)"});
  const std::string dropped = on_floor(10, "", R"({"ticks": [0, "end"], "on_body": "plat"})", kPlatform,
                                       R"("character": {"position": [0, 2, 0]})");
  EXPECT_EQ(failures(dropped), Lines{"/expect/0 at tick 0: not grounded, expected \"plat\" (/world/1)"});
}

TEST(Expectations, OnBodyNamesAnUnnamedBodyByItsPath) {
  const std::string text = R"({"format": "stepslide/scenario@1", "ticks": 5, "world": [
      {"shape": {"type": "box", "half_extents": [20, 0.5, 20]}, "position": [0, -0.5, 0]},
      {"name": "lift", "shape": {"type": "box", "half_extents": [1, 0.25, 1]}, "position": [5, 0.25, 0]}],
      "expect": [{"ticks": [0, "end"], "on_body": "lift"}]})";
  EXPECT_EQ(failures(text), Lines{"/expect/0 at tick 0: stands on /world/0, expected \"lift\" (/world/1)"});
}

TEST(Expectations, OnBodyCountsEveryStepOfAGeneratorAsItsBody) {
  // Walks down from the middle of step 1 (top 0.4 m) across step 0 (top
  // 0.2 m) onto the floor: both steps are the body "stairs". The capsule's
  // round bottom rolls over the last edge, and from tick 47 it stands on the floor.
  const std::string stairs =
      R"({"name": "stairs", "shape": {"type": "stairs", "steps": 3, "rise": 0.2, "run": 0.6, "width": 2},
          "position": [0, 0, -1]})";
  const std::string text = on_floor(60, R"({"tick": 0, "wish_velocity": [0, 1.5]})",
                                    R"({"ticks": [0, 11], "y_between": [0.399, 0.401]},
                                       {"ticks": [25, 35], "y_between": [0.199, 0.201]},
                                       {"ticks": [0, 46], "on_body": "stairs"},
                                       {"ticks": [0, "end"], "on_body": "stairs"})",
                                    stairs, R"("character": {"position": [0, 0.4, -1.9]})");
  EXPECT_EQ(failures(text), Lines{"/expect/3 at tick 47: stands on \"floor\" (/world/0), expected \"stairs\" (/world/1)"});
}

TEST(Expectations, NoOscillationCatchesTheFeetGoingBackAndForth) {
  // Rows 1-10 move +0.05 m along x, rows 11-20 move back: the first window
  // of 2 ticks with a turn in it is rows 9-11.
  const std::string input = R"({"tick": 0, "wish_velocity": [3, 0]}, {"tick": 10, "wish_velocity": [-3, 0]},
                               {"tick": 20, "wish_velocity": [0, 0]})";
  EXPECT_EQ(failures(on_floor(40, input, R"({"ticks": [0, "end"], "no_oscillation": {"window": 2, "max_wander": 0.01}},
                                           {"ticks": [0, 10], "no_oscillation": {"window": 10, "max_wander": 1e-12}},
                                           {"ticks": [11, "end"], "no_oscillation": {"window": 20, "max_wander": 1e-12}},
                                           {"ticks": [0, "end"], "no_oscillation": {"window": 40, "max_wander": 0.99}})")),
            (Lines{"/expect/0 at tick 9: over ticks [9, 11] the feet travelled 0.1 m but ended 0 m from where they "
                   "started: wander 0.1 m, more than 0.01",
                   "/expect/3 at tick 0: over ticks [0, 40] the feet travelled 1 m but ended 0 m from where they "
                   "started: wander 1 m, more than 0.99"}));
}

TEST(Expectations, NoOscillationMeasuresTheFeetIn3D) {
  // A jump in place goes up and comes down: wander without any horizontal motion.
  const std::string text = on_floor(60, R"({"tick": 0, "jump": true})",
                                    R"({"ticks": [0, "end"], "no_oscillation": {"window": 60, "max_wander": 0.5}},
                                       {"ticks": [1, "end"], "speed_between": [0, 0]})");
  const Lines failed = failures(text);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].rfind("/expect/0 at tick 0: over ticks [0, 60] the feet travelled ", 0), 0u) << failed[0];
}

TEST(Expectations, ReachesReportsTheClosestApproach) {
  // x = 0.05 m a tick: x = 2 at tick 40, 1.5 at tick 30.
  const std::string walk = R"({"tick": 0, "wish_velocity": [3, 0]}, {"tick": 50, "wish_velocity": [-3, 0]})";
  EXPECT_EQ(failures(on_floor(60, walk, R"({"reaches": [2, null, null], "within": 0.001, "by_tick": 40},
                                          {"reaches": [2, 0, 0], "within": 0.01, "by_tick": 30},
                                          {"reaches": [3, null, 1], "within": 0.5},
                                          {"reaches": [2.5, null, 0], "within": 0.01})")),
            (Lines{"/expect/1 at tick 30: feet never came within 0.01 m of (2, 0, 0) by tick 30; closest 0.5 m at "
                   "tick 30, feet at (1.5, 0, 0)",
                   "/expect/2 at tick 60: feet never came within 0.5 m of (3, null, 1) by tick 60; closest 1.11803 m "
                   "at tick 50, feet at (2.5, 0, 0)"}));
}

/// Step events as the controller reports them to a game (TickReport::steps).
struct ReportedSteps {
  std::vector<std::int64_t> up_ticks, down_ticks;
  std::vector<double> up_dy, down_dy;
};

ReportedSteps reported_steps(const Scenario& scenario) {
  ReportedSteps steps;
  SimulationOptions options;
  options.on_tick = [&](const TickView& view) {
    for (const StepEvent& e : view.report.steps) {
      (e.kind == StepEvent::Kind::Up ? steps.up_ticks : steps.down_ticks).push_back(view.tick);
      (e.kind == StepEvent::Kind::Up ? steps.up_dy : steps.down_dy).push_back(e.dy);
    }
  };
  simulate(scenario, options);
  return steps;
}

/// A step_events check over every tick.
ExpectCheck step_check(std::optional<std::array<std::int64_t, 2>> up, std::optional<std::array<std::int64_t, 2>> down) {
  ExpectCheck check;
  check.kind = ExpectCheck::Kind::StepEvents;
  check.json_path = "/expect/0";
  check.last_is_end = true;
  check.steps_up = up;
  check.steps_down = down;
  return check;
}

Scenario repository_scenario(const std::string& rel) {
  LoadResult result = load_scenario_file(std::string(STEPSLIDE_SOURCE_DIR) + "/scenarios/" + rel);
  EXPECT_TRUE(result.errors.empty()) << format_load_errors(result);
  return result.scenario.value_or(Scenario{});
}

TEST(Expectations, StepEventsCountWhatTheControllerReports) {
  for (const char* rel : {"stairs/up_straight.json", "stairs/down_straight.json", "stairs/bumps_and_curbs.json"}) {
    SCOPED_TRACE(rel);
    Scenario s = repository_scenario(rel);
    const ReportedSteps reported = reported_steps(s);
    const auto up = static_cast<std::int64_t>(reported.up_ticks.size());
    const auto down = static_cast<std::int64_t>(reported.down_ticks.size());
    ASSERT_GT(up + down, 0);
    const std::string range = " in ticks [0, " + std::to_string(s.ticks) + "]";

    s.expect = {step_check(std::array<std::int64_t, 2>{up, up}, std::array<std::int64_t, 2>{down, down})};
    EXPECT_EQ(failures(s), Lines{});

    if (up > 0) {
      s.expect = {step_check(std::array<std::int64_t, 2>{0, up - 1}, std::nullopt)};
      EXPECT_EQ(failures(s), Lines{"/expect/0 at tick " + std::to_string(reported.up_ticks.back()) +
                                   ": step-up event number " + std::to_string(up) + " (step_dy " +
                                   readable_number(reported.up_dy.back()) + " m), expected at most " +
                                   std::to_string(up - 1) + range});
    }
    s.expect = {step_check(std::nullopt, std::array<std::int64_t, 2>{down + 1, down + 5})};
    const std::string found =
        down == 0 ? "no step-down events"
                  : std::to_string(down) + (down == 1 ? " step-down event" : " step-down events") +
                        " (the last at tick " + std::to_string(reported.down_ticks.back()) + ")";
    EXPECT_EQ(failures(s), Lines{"/expect/0 at tick " + std::to_string(s.ticks) + ": " + found + range +
                                 ", expected at least " + std::to_string(down + 1)});
  }
}

TEST(Expectations, StepEventsUseTheScenariosMinStepEventAndRange) {
  // Ten risers of 0.18 m. The capsule's round bottom climbs each edge over a
  // few ticks, and each tick that rises at least min_step_event (0.02 m) is
  // an event: more events than risers. With 0.11 m, no tick rises enough.
  Scenario s = repository_scenario("stairs/up_straight.json");
  const auto up = static_cast<std::int64_t>(reported_steps(s).up_ticks.size());
  ASSERT_GE(up, 10);
  s.expect = {step_check(std::array<std::int64_t, 2>{10, up}, std::array<std::int64_t, 2>{0, 0})};
  EXPECT_EQ(failures(s), Lines{});
  s.character.settings.min_step_event = 0.11;
  ASSERT_EQ(reported_steps(s).up_ticks.size(), 0u);
  EXPECT_EQ(failures(s), Lines{"/expect/0 at tick 90: no step-up events in ticks [0, 90], expected at least 10"});
  // Only the range's events count.
  s = repository_scenario("stairs/up_straight.json");
  const std::int64_t third = reported_steps(s).up_ticks[2];
  s.expect = {step_check(std::array<std::int64_t, 2>{3, 3}, std::nullopt)};
  s.expect[0].last_is_end = false;
  s.expect[0].last = third;
  EXPECT_EQ(failures(s), Lines{});
  s.expect[0].first = third;
  EXPECT_EQ(failures(s), Lines{"/expect/0 at tick " + std::to_string(third) + ": 1 step-up event (the last at tick " +
                                   std::to_string(third) + ") in ticks [" + std::to_string(third) + ", " +
                                   std::to_string(third) + "], expected at least 3"});
}

TEST(Expectations, AZeroMoveIsNeverAStepEvent) {
  // With min_step_event 0 the controller reports a zero "down" event on every
  // walking tick; the check counts moves, not those.
  Scenario s = load(on_floor(20, R"({"tick": 0, "wish_velocity": [3, 0]})", "",
                             "", R"("character": {"settings": {"min_step_event": 0}})"));
  ASSERT_GT(reported_steps(s).down_ticks.size(), 0u);
  s.expect = {step_check(std::array<std::int64_t, 2>{0, 0}, std::array<std::int64_t, 2>{0, 0})};
  EXPECT_EQ(failures(s), Lines{});
}

TEST(Expectations, FailuresComeInCheckOrderOnePerCheck) {
  EXPECT_EQ(failures(into_wall(R"({"ticks": [1, "end"], "moving": 1}, {"ticks": [0, "end"], "x_between": [0, 0.5]},
                                  {"reaches": [5, null, null], "within": 1})")),
            (Lines{"/expect/0 at tick 15: feet moved at 0 m/s horizontally while the input pushed, slower than 1 m/s",
                   "/expect/1 at tick 11: feet x 0.55 outside [0, 0.5]",
                   "/expect/2 at tick 30: feet never came within 1 m of (5, null, null) by tick 30; closest 4.31 m at "
                   "tick 14, feet at (0.69, 0, 0)"}));
}

}  // namespace
}  // namespace stepslide
