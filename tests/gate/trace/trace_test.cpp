// `stepslide trace`: the rule behind each step decision is named, the JSON
// form parses, attaching the observer never changes the trajectory, and
// each tick shows the input it was stepped with (stick or wish velocity,
// yaw, jump, and what steering worked out).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <vector>

#include "gate/commands/trace_run.h"
#include "gate/core/csv.h"
#include "gate/trace/trace.h"
#include "scenario/load/load.h"
#include "scenario/run/simulate.h"
#include "scenario/scenario.h"
#include "stepslide/controller.h"

namespace stepslide {
namespace {

Scenario load(const std::string& relative) {
  const LoadResult r = load_scenario_file(std::string(STEPSLIDE_SOURCE_DIR) + "/scenarios/" + relative);
  EXPECT_TRUE(r.scenario.has_value()) << relative;
  return *r.scenario;
}

TEST(Trace, ARefusedStepNamesItsRule) {
  const Scenario s = load("stairs/riser_too_tall.json");
  const std::string trace = trace_scenario(s, {15, 30, false});
  EXPECT_NE(trace.find("refused: riser taller than max_step_height"), std::string::npos) << trace;
  EXPECT_EQ(trace.find("accepted"), std::string::npos);
}

TEST(Trace, ALowCeilingRefusalNamesItsRule) {
  const Scenario s = load("stairs/step_low_ceiling.json");
  const std::string trace = trace_scenario(s, {1, s.ticks, false});
  EXPECT_NE(trace.find("refused: "), std::string::npos);
  EXPECT_EQ(trace.find("accepted"), std::string::npos);
}

TEST(Trace, AnAcceptedStepShowsItsSweepsRaysAndHeight) {
  const Scenario s = load("stairs/up_straight.json");
  const std::string trace = trace_scenario(s, {12, 12, false});
  for (const char* expected : {"tick 12 (row 11 -> row 12", "sweep slide", "riser: try a step up", "sweep step-up",
                               "sweep step-forward", "sweep step-down", "ray tread", "ray room-to-stand",
                               "accepted, tread 0.18", "sweep ground-probe", "-> grounded", "after   feet"}) {
    EXPECT_NE(trace.find(expected), std::string::npos) << "missing \"" << expected << "\" in\n" << trace;
  }
}

TEST(Trace, JsonHasOneParsableObjectPerTick) {
  const Scenario s = load("walls/corner.json");
  std::istringstream lines(trace_scenario(s, {40, 44, true}));
  std::string line;
  int tick = 40;
  while (std::getline(lines, line)) {
    const nlohmann::json j = nlohmann::json::parse(line);
    EXPECT_EQ(j["tick"].get<int>(), tick++);
    ASSERT_TRUE(j["events"].is_array());
    EXPECT_FALSE(j["events"].empty());
    EXPECT_EQ(j["events"][0]["event"], "velocity");
    EXPECT_EQ(j["after"]["tick"].get<double>(), j["tick"].get<double>());
  }
  EXPECT_EQ(tick, 45);
}

/// Counts events; attached on every tick.
struct CountingObserver : ControllerObserver {
  int events = 0;
  void on_depenetration(const DepenetrationEvent&) override { ++events; }
  void on_sweep(const SweepEvent&) override { ++events; }
  void on_ray(const RayEvent&) override { ++events; }
  void on_step_attempt(const StepAttemptEvent&) override { ++events; }
  void on_ground(const GroundEvent&) override { ++events; }
  void on_velocity(const VelocityEvent&) override { ++events; }
  void on_ride(const RideEvent&) override { ++events; }
};

TEST(Trace, AttachingTheObserverLeavesTheTrajectoryByteIdentical) {
  for (const char* name : {"stairs/up_straight.json", "walls/acute_seam.json", "basics/spawn_overlapped.json",
                           "platforms/crushed.json", "platforms/handover_on.json", "platforms/spin_disc.json"}) {
    const Scenario s = load(name);
    const std::string plain = to_csv(simulate(s).trajectory);
    CountingObserver counter;
    SimulationOptions observed;
    observed.on_tick = [&](const TickView& view) { view.controller.set_observer(&counter); };
    const std::string traced = to_csv(simulate(s, observed).trajectory);
    EXPECT_EQ(plain, traced) << name;
    EXPECT_GT(counter.events, static_cast<int>(s.ticks)) << name;
  }
}

/// Every event of kind "push" of the whole run, as trace records them.
std::vector<nlohmann::ordered_json> push_events(const Scenario& s) {
  const TraceRecording recording = record_trace(s, 1, s.ticks);
  std::vector<nlohmann::ordered_json> pushes;
  for (const auto& tick : recording.events) {
    for (const auto& e : tick) {
      if (e["event"] == "push") pushes.push_back(e);
    }
  }
  return pushes;
}

// Each impulse the character gives a dynamic body is printed: walking into a
// crate (with its approach speed), standing on a raft (its weight) and
// landing on a crate (the momentum into it: scenarios/dynamic/land_on_crate).
TEST(Trace, EveryPushWeightAndLandingIsTraced) {
  const std::vector<nlohmann::ordered_json> crate = push_events(load("dynamic/crate_light.json"));
  ASSERT_FALSE(crate.empty());
  EXPECT_EQ(crate[0]["kind"], "push");
  EXPECT_EQ(crate[0]["body"], "crate");
  EXPECT_GT(crate[0]["approach_speed"].get<double>(), 0.0);
  const std::string line = trace_event_text(crate[0]);
  EXPECT_EQ(line.rfind("push crate at ", 0), 0u) << line;
  EXPECT_NE(line.find("N s"), std::string::npos) << line;

  std::map<std::string, int> kinds;
  for (const char* name : {"dynamic/raft_ride.json", "dynamic/land_on_crate.json"}) {
    for (const auto& e : push_events(load(name))) ++kinds[e["kind"].get<std::string>()];
  }
  EXPECT_GT(kinds["weight"], 0);
  EXPECT_GT(kinds["landing"], 0) << "a landing on a dynamic body";
}

TEST(TraceCommand, RejectsTicksOutsideTheScenario) {
  const std::string cmd = std::string(STEPSLIDE_BINARY) + " trace " + STEPSLIDE_SOURCE_DIR +
                          "/scenarios/basics/jump.json --tick 0 > /dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
}


TEST(Trace, RidingSaysWhichBodyCarriedTheFeetAndHowFar) {
  const Scenario s = load("platforms/linear_mover.json");
  const std::string trace = trace_scenario(s, {10, 10, false});
  // The mover slides at 1.5 m/s: 2.5 cm a tick, before anything else happens.
  const std::string expected =
      "  ride mover  feet (0.225, 0.5, 0) -> (0.25, 0.5, 0)  carried 0.025 m, body velocity at the feet (1.5, 0, 0)\n";
  const std::size_t at = trace.find(expected);
  ASSERT_NE(at, std::string::npos) << trace;
  EXPECT_LT(at, trace.find("  velocity  ")) << "riding is the first stage of a tick";
}

TEST(Trace, LeavingAMovingBodySaysWhatItHandedOver) {
  const Scenario on = load("platforms/handover_on.json");
  const std::string kept = trace_scenario(on, {31, 31, false});
  EXPECT_NE(kept.find("  ride left carrier: velocity handed over (3, 0, 0) -> velocity (3, 4.8365, 0)\n"),
            std::string::npos)
      << kept;
  const Scenario off = load("platforms/handover_off.json");
  const std::string dropped = trace_scenario(off, {31, 31, false});
  EXPECT_NE(dropped.find("  ride left carrier: nothing handed over (inherit_ground_velocity 0)"), std::string::npos)
      << dropped;
  // Walking on static ground there is nothing to ride.
  EXPECT_EQ(trace_scenario(load("stairs/up_straight.json"), {1, 90, false}).find("ride"), std::string::npos);
}

TEST(Trace, SaysWhatStoppedACarryShort) {
  const Scenario s = load("platforms/carried_into_thin_wall.json");
  const std::string text = trace_scenario(s, {6, 6, false});
  EXPECT_NE(text.find("  sweep carry  (2.6, 0.2, 0) -> (3.1, 0.2, 0)  hit wall at 0.14"), std::string::npos) << text;
  EXPECT_NE(text.find("carried 0.07 m, body velocity at the feet (15, 0, 0); blocked by wall (normal (-1, 0, 0)) "
                      "short of (3.1, 0.2, 0): feet velocity (2.1, 0, 0)"),
            std::string::npos)
      << text;
  const nlohmann::json j = nlohmann::json::parse(trace_scenario(s, {6, 6, true}));
  const nlohmann::json& events = j["events"];
  ASSERT_GE(events.size(), 2u);
  EXPECT_EQ(events[0]["event"], "sweep");
  EXPECT_EQ(events[0]["purpose"], "carry");
  EXPECT_EQ(events[1]["event"], "ride");
  EXPECT_EQ(events[1]["blocked_by"], "wall");
  EXPECT_NEAR(events[1]["wanted"][0].get<double>(), 3.1, 1e-12);
  EXPECT_NEAR(events[1]["feet_velocity"][0].get<double>(), 2.1, 1e-9);
  // An unblocked carry says nothing of the kind.
  EXPECT_EQ(trace_scenario(s, {5, 5, false}).find("blocked"), std::string::npos);
}

TEST(Trace, JsonWritesCountsFlagsAndIndicesAsIntegers) {
  const Scenario s = load("platforms/handover_on.json");
  const nlohmann::json j = nlohmann::json::parse(trace_scenario(s, {31, 31, true}));
  EXPECT_TRUE(j["tick"].is_number_integer());
  for (const char* side : {"before", "after"}) {
    for (const char* column : {"tick", "grounded", "sweeps", "slide_iters", "depen_iters", "stuck", "ground_body"}) {
      EXPECT_TRUE(j[side][column].is_number_integer()) << side << "." << column << " = " << j[side][column].dump();
    }
    for (const char* column : {"time", "x", "vy", "camera_dy"}) {
      EXPECT_TRUE(j[side][column].is_number_float()) << side << "." << column;
    }
  }
  EXPECT_EQ(j["before"].dump().find(".0,\"sweeps\""), std::string::npos) << "no 1.0 for a count";
  const nlohmann::json& events = j["events"];
  ASSERT_GE(events.size(), 3u);
  EXPECT_EQ(events[0]["event"], "ride");
  EXPECT_EQ(events[0]["body"], "carrier");
  EXPECT_NEAR(events[0]["carried"].get<double>(), 0.05, 1e-12);
  EXPECT_EQ(events.back()["event"], "ride-handover");
  EXPECT_TRUE(events.back()["inherited"].is_boolean());
  EXPECT_NEAR(events.back()["velocity"][0].get<double>(), 3.0, 1e-9);
}

TEST(TraceTicks, EndIsTheScenariosLastTick) {
  TraceFileRequest request;
  request.tick = "end";
  Expected<TraceRequest> ticks = trace_ticks(request, 90);
  ASSERT_TRUE(ticks) << ticks.error();
  EXPECT_EQ(ticks->first, 90);
  EXPECT_EQ(ticks->last, 90);
  request.tick = "85";
  request.to = "end";
  ticks = trace_ticks(request, 90);
  ASSERT_TRUE(ticks) << ticks.error();
  EXPECT_EQ(ticks->first, 85);
  EXPECT_EQ(ticks->last, 90);
  request.tick = "end";
  request.to = "3";
  ticks = trace_ticks(request, 90);
  ASSERT_FALSE(ticks);
  EXPECT_EQ(ticks.error(),
            "ticks to trace must satisfy 1 <= --tick <= --to <= 90 (the scenario's ticks; end is 90), got --tick 90 "
            "--to 3");
  for (const char* bad : {"", "x", "1.5", "12 ", "END"}) {
    request.tick = bad;
    request.to = "";
    ticks = trace_ticks(request, 90);
    ASSERT_FALSE(ticks) << bad;
    EXPECT_EQ(ticks.error(), "--tick " + std::string(bad) + ": expected a tick number or end");
  }
}

TEST(TraceCommand, TracesTheLastTickAsEnd) {
  const std::string out = ::testing::TempDir() + "/trace_end.txt";
  const std::string cmd = std::string(STEPSLIDE_BINARY) + " trace " + STEPSLIDE_SOURCE_DIR +
                          "/scenarios/basics/jump.json --tick 149 --to end > '" + out + "' 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::ifstream in(out);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.rfind("tick 149 (row 148 -> row 149", 0), 0u) << text;
  EXPECT_NE(text.find("\ntick 150 (row 149 -> row 150"), std::string::npos) << text;
  EXPECT_EQ(text.find("tick 151"), std::string::npos);
}

/// The text lines of one traced tick.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(TraceInput, TheInputLineFollowsBeforeAndIsTheInputThatMadeTheRow) {
  const Scenario s = load("platforms/handover_on.json");  // "jump": true from tick 30's input on
  const std::vector<std::string> tick30 = lines_of(trace_scenario(s, {30, 30, false}));
  ASSERT_GE(tick30.size(), 3u);
  EXPECT_EQ(tick30[1].rfind("  before  ", 0), 0u);
  EXPECT_EQ(tick30[2], "  input   stick (right, forward) (0, 0)  yaw 0 deg  jump released");
  // Tick 31 is the step from row 30 to row 31, made with the input of tick 30.
  const std::vector<std::string> tick31 = lines_of(trace_scenario(s, {31, 31, false}));
  ASSERT_GE(tick31.size(), 3u);
  EXPECT_EQ(tick31[2], "  input   stick (right, forward) (0, 0)  yaw 0 deg  jump held");
}

TEST(TraceInput, AWishVelocityIsShownInsteadOfTheStick) {
  const std::string trace = trace_scenario(load("walls/thin_wall_high_speed.json"), {1, 1, false});
  EXPECT_NE(trace.find("\n  input   wish_velocity (x, z) (0, -100) m/s  yaw 0 deg  jump released\n"), std::string::npos)
      << trace;
  EXPECT_EQ(trace.find("steering"), std::string::npos);
}

TEST(TraceInput, SteeringSaysWhichTargetHowFarAndTheStickItGave) {
  const Scenario s = load("steering/move_to.json");  // to (3, -4), 5 m away, from rest, camera along -Z
  const std::string first = trace_scenario(s, {1, 1, false});
  EXPECT_NE(first.find("\n  input   stick (right, forward) (0.6, 0.8)  yaw 0 deg  jump released\n"
                       "  steering move_to: target 1 of 1 at (x, z) (3, -4), 5 m from the feet (0, 0, 0), feet "
                       "moving (0, 0, 0), camera yaw 0 deg -> stick (0.6, 0.8), length 1\n"),
            std::string::npos)
      << first;
  // Standing on the target at the end: passed, and the stick is let go.
  const std::string last = trace_scenario(s, {s.ticks, s.ticks, false});
  EXPECT_NE(last.find("\n  input   stick (right, forward) (0, 0)  yaw 0 deg  jump released\n"
                      "  steering move_to: the target passed -> stick (0, 0), length 0\n"),
            std::string::npos)
      << last;
}

TEST(TraceInput, SteeringWorksInTheCameraFrameOfTheTick) {
  // Tick 20's keyframe turns the camera to 90 degrees and holds jump.
  const std::string trace = trace_scenario(load("steering/yaw_during_move_to.json"), {21, 21, false});
  EXPECT_NE(trace.find("  yaw 90 deg  jump held\n  steering move_to: target 1 of 1 at (x, z) (0, -8)"),
            std::string::npos)
      << trace;
  EXPECT_NE(trace.find("camera yaw 90 deg -> stick ("), std::string::npos) << trace;
}

TEST(TraceInput, JsonCarriesTheInputAndTheStickSteeringGaveIsTheOneFed) {
  const Scenario s = load("steering/yaw_during_move_to.json");
  std::istringstream lines(trace_scenario(s, {1, s.ticks, true}));
  int ticks = 0;
  for (std::string line; std::getline(lines, line); ++ticks) {
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(line);
    std::vector<std::string> keys;
    for (const auto& item : j.items()) keys.push_back(item.key());
    EXPECT_EQ(keys, (std::vector<std::string>{"tick", "before", "input", "events", "after"}));
    const nlohmann::ordered_json& input = j["input"];
    ASSERT_TRUE(input["stick"].is_array()) << line;
    EXPECT_FALSE(input.contains("wish_velocity"));
    EXPECT_TRUE(input["jump"].is_boolean());
    const nlohmann::ordered_json& steering = input["steering"];
    ASSERT_TRUE(steering.is_object()) << line;
    EXPECT_EQ(steering["kind"], "move_to");
    EXPECT_EQ(steering["targets"], 1);
    EXPECT_EQ(steering["stick"], input["stick"]) << "tick " << j["tick"];
    EXPECT_EQ(steering["feet"][0].get<double>(), j["before"]["x"].get<double>()) << "steered from the row before";
    EXPECT_EQ(steering["feet"][2].get<double>(), j["before"]["z"].get<double>());
    if (!steering["arrived"].get<bool>()) {
      EXPECT_EQ(steering["target"], 0);
      EXPECT_EQ(steering["at"], nlohmann::ordered_json::array({0, -8}));
    }
  }
  EXPECT_EQ(ticks, s.ticks);
}

}  // namespace
}  // namespace stepslide
