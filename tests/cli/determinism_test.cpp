// Same binary, same scenario, same bytes: every scenario in scenarios/ is run
// twice in one process and the two CSV texts compared.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "scenario/load.h"
#include "scenario/scenario.h"
#include "gate/csv.h"
#include "scenario/simulate.h"

namespace stepslide {
namespace {

std::vector<std::string> all_scenarios() {
  std::vector<std::string> paths;
  const std::filesystem::path root = std::filesystem::path(STEPSLIDE_SOURCE_DIR) / "scenarios";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
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
