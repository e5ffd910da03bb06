// Rollback: a game saves the controller's state every tick, rewinds some
// ticks, and steps again; the rows must come back to the bit. Checked on
// every repository scenario (moving platforms included: the runner puts the
// world's kinematic poses back too), and at every tick by a save and restore
// that drops what the collision queries remember but the clearance proof.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gate/core/csv.h"
#include "gate/core/discovery.h"
#include "scenario/load/load.h"
#include "scenario/run/simulate.h"
#include "stepslide/controller.h"

namespace stepslide {
namespace {

std::vector<std::string> all_scenarios() {
  return discover_scenarios({std::string(STEPSLIDE_SOURCE_DIR) + "/scenarios"}).files;
}

/// Every scenario, rewound at random ticks by a random number of ticks and
/// replayed: each replay matches its first pass, and the whole trajectory
/// the run of `stepslide run` (hence its golden, which check --exact holds).
TEST(Rollback, EveryScenarioRewoundAndReplayedGivesIdenticalBytes) {
  const std::vector<std::string> paths = all_scenarios();
  ASSERT_GE(paths.size(), 12u);
  int rollbacks = 0;
  for (const std::string& path : paths) {
    const LoadResult loaded = load_scenario_file(path);
    ASSERT_TRUE(loaded.scenario.has_value()) << path;
    const std::string plain = to_csv(simulate(*loaded.scenario).trajectory);
    SimulationOptions options;
    options.rollback_seed = std::hash<std::string>{}(path) | 1;
    const SimulationResult rolled = simulate(*loaded.scenario, options);
    EXPECT_EQ(rolled.rollback_mismatch, "") << path;
    EXPECT_EQ(to_csv(rolled.trajectory), plain) << path;
    // The runner does not rewind a world with dynamic bodies (Bullet's
    // dynamics world keeps contact manifolds it cannot put back).
    const bool dynamic = std::any_of(loaded.scenario->world.begin(), loaded.scenario->world.end(),
                                     [](const BodyDef& body) { return body.dynamic(); });
    if (dynamic) {
      EXPECT_EQ(rolled.rollbacks, 0) << path;
    } else if (loaded.scenario->ticks >= 60) {
      EXPECT_GT(rolled.rollbacks, 0) << path;
    }
    rollbacks += rolled.rollbacks;
  }
  EXPECT_GT(rollbacks, 100);
}

/// What else the collision queries remember between ticks (the broadphase
/// region, the triangles, the cast memo) never changes a row: restoring the
/// state after every tick, which drops all of it and puts back only the
/// clearance proof, leaves every scenario's trajectory as it was.
TEST(Rollback, DroppingTheQueriesMemoryButTheClearanceEveryTickChangesNoRow) {
  for (const std::string& path : all_scenarios()) {
    const LoadResult loaded = load_scenario_file(path);
    ASSERT_TRUE(loaded.scenario.has_value()) << path;
    const std::string plain = to_csv(simulate(*loaded.scenario).trajectory);
    SimulationOptions options;
    options.on_tick = [](const TickView& view) {
      view.controller.restore_state(view.controller.save_state());
      for (const OtherCharacterView& other : view.others) other.controller.restore_state(other.controller.save_state());
    };
    EXPECT_EQ(to_csv(simulate(*loaded.scenario, options).trajectory), plain) << path;
  }
}

/// The seed decides where and how far; the same seed rewinds the same way.
TEST(Rollback, TheSeedDecidesTheRewinds) {
  const LoadResult loaded =
      load_scenario_file(std::string(STEPSLIDE_SOURCE_DIR) + "/scenarios/platforms/keyframed_lift.json");
  ASSERT_TRUE(loaded.scenario.has_value());
  SimulationOptions options;
  options.rollback_seed = 7;
  const SimulationResult a = simulate(*loaded.scenario, options);
  const SimulationResult b = simulate(*loaded.scenario, options);
  EXPECT_EQ(a.rollbacks, b.rollbacks);
  EXPECT_GT(a.rollbacks, 0);
  EXPECT_EQ(to_csv(a.trajectory), to_csv(b.trajectory));
}

}  // namespace
}  // namespace stepslide
