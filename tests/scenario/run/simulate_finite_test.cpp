// The runner never hands back a non-finite row: a yaw of 1e308 turns every
// position cell into NaN, and the run must stop there rather than go on to the
// last tick with its expectations passing ("expectations ok").
// The scenario is built in code, past the loader, whose limits exist to make
// this impossible: the runner is the last line.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "fuzz/invariants.h"
#include "scenario/load/load.h"
#include "scenario/run/simulate.h"

namespace stepslide {
namespace {

Scenario floor_scenario() {
  LoadResult loaded = load_scenario_file(std::string(STEPSLIDE_SOURCE_DIR) + "/scenarios/basics/fall_and_rest.json");
  EXPECT_TRUE(loaded.errors.empty()) << format_load_errors(loaded);
  Scenario s = loaded.scenario.value_or(Scenario{});
  s.expect.clear();
  s.ticks = 10;
  return s;
}

TEST(SimulateFinite, OverflowStopsTheRunNamingTickAndColumn) {
  Scenario s = floor_scenario();
  InputKey key;
  key.tick = 3;
  key.move = Vec2{0.0, 1.0};
  key.yaw_deg = 1e308;  // past the loader: sin/cos of it are NaN here
  s.input = {key};
  const SimulationResult result = simulate(s);
  EXPECT_EQ(result.error, "tick 4: column x is nan (the controller's state overflowed)");
  EXPECT_EQ(result.trajectory.rows.size(), 4u) << "rows 0..3, not the one holding NaN";
  for (const std::vector<double>& row : result.trajectory.rows) {
    for (double cell : row) EXPECT_TRUE(std::isfinite(cell));
  }
  EXPECT_TRUE(result.expectation_failures.empty());
}

// The runner stops before the fuzzer's observer sees the NaN row; the stop
// itself must still be a NonFinite violation (it was lost when the stop came in).
TEST(SimulateFinite, TheFuzzerStillSeesTheStopAsNonFinite) {
  Scenario s = floor_scenario();
  InputKey key;
  key.tick = 3;
  key.move = Vec2{0.0, 1.0};
  key.yaw_deg = 1e308;
  s.input = {key};
  const InvariantReport report = check_invariants(s, InvariantOptions{});
  const Violation* v = report.first(InvariantKind::NonFinite);
  ASSERT_NE(v, nullptr) << format_violations(report);
  EXPECT_EQ(v->tick, 4);
  EXPECT_EQ(v->message, "state is not finite: tick 4: column x is nan (the controller's state overflowed)");
}

TEST(SimulateFinite, AFiniteRunHasNoError) {
  const SimulationResult result = simulate(floor_scenario());
  EXPECT_EQ(result.error, "");
  EXPECT_EQ(result.trajectory.rows.size(), 11u);
}

}  // namespace
}  // namespace stepslide
