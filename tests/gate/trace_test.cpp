// `stepslide trace`: the rule behind each step decision is named, the JSON
// form parses, and attaching the observer never changes the trajectory.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <sstream>

#include "stepslide/controller.h"
#include "scenario/load.h"
#include "scenario/scenario.h"
#include "scenario/simulate.h"
#include "gate/trace.h"
#include "gate/csv.h"

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
};

TEST(Trace, AttachingTheObserverLeavesTheTrajectoryByteIdentical) {
  for (const char* name : {"stairs/up_straight.json", "walls/acute_seam.json", "basics/spawn_overlapped.json",
                           "platforms/crushed.json"}) {
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

TEST(TraceCommand, RejectsTicksOutsideTheScenario) {
  const std::string cmd = std::string(STEPSLIDE_BINARY) + " trace " + STEPSLIDE_SOURCE_DIR +
                          "/scenarios/basics/jump.json --tick 0 > /dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
}

}  // namespace
}  // namespace stepslide
