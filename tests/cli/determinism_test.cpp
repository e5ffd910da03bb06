// Same binary, same scenario, same bytes: every scenario in scenarios/ is run
// twice in one process and the two CSV texts compared.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "gate/core/csv.h"
#include "gate/core/discovery.h"
#include "scenario/load/load.h"
#include "scenario/run/simulate.h"
#include "scenario/scenario.h"

namespace stepslide {
namespace {

/// As `check` finds them: level files (which scenarios include) are skipped.
std::vector<std::string> all_scenarios() {
  return discover_scenarios({std::string(STEPSLIDE_SOURCE_DIR) + "/scenarios"}).files;
}

TEST(Determinism, EveryScenarioTwiceGivesIdenticalBytes) {
  const std::vector<std::string> paths = all_scenarios();
  ASSERT_GE(paths.size(), 12u);
  for (const std::string& path : paths) {
    const LoadResult loaded = load_scenario_file(path);
    ASSERT_TRUE(loaded.scenario.has_value()) << path;
    const std::string first = to_csv(simulate(*loaded.scenario).trajectory);
    const std::string second = to_csv(simulate(*loaded.scenario).trajectory);
    EXPECT_EQ(first, second) << path;
    EXPECT_GT(first.size(), 100u) << path;
  }
}

}  // namespace
}  // namespace stepslide
