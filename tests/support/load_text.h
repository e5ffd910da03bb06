// A scenario from JSON text, for tests that build or generate one: a load
// error fails the test, naming the first error, and gives an empty scenario.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "scenario/load/load.h"

namespace stepslide::test {

inline Scenario load_or_fail(const std::string& text) {
  const LoadResult load = load_scenario_text(text, "test.json");
  EXPECT_TRUE(load.errors.empty()) << (load.errors.empty() ? "" : format_error(load.errors.front()));
  return load.scenario.value_or(Scenario{});
}

}  // namespace stepslide::test
