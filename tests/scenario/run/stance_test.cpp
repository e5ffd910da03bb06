// The runner's change of stance: a shape is taken where it fits, and a
// rounding-size overlap of the feet (a nanometre into the floor, as
// `check --perturb` places them) must not refuse it for a tick.

#include <gtest/gtest.h>

#include <string>

#include "scenario/columns.h"
#include "scenario/load/load.h"
#include "scenario/run/simulate.h"

namespace stepslide {
namespace {

Scenario crouch_under_ledge() {
  LoadResult loaded =
      load_scenario_file(std::string(STEPSLIDE_SOURCE_DIR) + "/scenarios/crouch/box_crouch_under_ledge.json");
  EXPECT_TRUE(loaded.errors.empty()) << format_load_errors(loaded);
  Scenario s = loaded.scenario.value_or(Scenario{});
  s.expect.clear();
  s.ticks = 2;
  return s;
}

double camera_dy_at_row(const SimulationResult& result, std::size_t row) {
  const std::vector<std::string>& columns = result.trajectory.columns;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == "camera_dy") return result.trajectory.rows.at(row).at(i);
  }
  ADD_FAILURE() << "no camera_dy column";
  return 0.0;
}

TEST(Stance, FeetANanometreInsideTheFloorStillCrouchOnTheFirstTick) {
  Scenario exact = crouch_under_ledge();
  Scenario sunk = exact;
  sunk.character.position[1] -= 1e-9;
  const double crouched = camera_dy_at_row(simulate(exact), 1);
  EXPECT_GT(crouched, 0.5) << "crouching 1.8 m -> 1.0 m lifts the camera offset by 0.8 m, gliding";
  EXPECT_NEAR(camera_dy_at_row(simulate(sunk), 1), crouched, 1e-6);
}

}  // namespace
}  // namespace stepslide
