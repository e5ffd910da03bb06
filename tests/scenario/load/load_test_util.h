// Helpers for the scenario loader tests: a minimal valid document to extend,
// and the problems of a load as "/path: message" lines.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scenario/load/load.h"

namespace stepslide::test {

/// The smallest valid scenario, with `extra` members ("\"world\": [...]") added.
inline std::string minimal(const std::string& extra = "") {
  return R"({"format": "stepslide/scenario@1", "ticks": 100)" + (extra.empty() ? "" : ", " + extra) + "}";
}

/// "/path: message" for each error, in order.
inline std::vector<std::string> paths_and_messages(const LoadResult& result) {
  std::vector<std::string> out;
  for (const LoadError& e : result.errors) out.push_back(e.json_path + ": " + e.message);
  return out;
}

/// The errors of minimal(extra).
inline std::vector<std::string> errors_of(const std::string& extra) {
  return paths_and_messages(load_scenario_text(minimal(extra), "t"));
}

/// The scenario of a load expected to succeed (a copy: results are often temporaries).
inline Scenario loaded(const LoadResult& result) {
  EXPECT_TRUE(result.errors.empty()) << ::testing::PrintToString(paths_and_messages(result));
  return result.scenario.value_or(Scenario{});
}

/// The scenario of minimal(extra), expected to be valid.
inline Scenario loaded_with(const std::string& extra) { return loaded(load_scenario_text(minimal(extra), "t")); }

inline void expect_vec(const Vec3& actual, const Vec3& expected) {
  for (int i = 0; i < 3; ++i) EXPECT_DOUBLE_EQ(actual[i], expected[i]) << "component " << i;
}

}  // namespace stepslide::test
