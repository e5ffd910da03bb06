// Scenario loader, expectations (load_expect.cpp): the five kinds of check,
// ticks within the scenario or "end", and ranges that do not run backwards.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scenario/load_test_util.h"
#include "scenario/load.h"

namespace stepslide {
namespace {

using test::errors_of;
using test::loaded_with;
using test::paths_and_messages;
using Lines = std::vector<std::string>;

TEST(LoadExpect, EachKindReadsItsFields) {
  const Scenario s = loaded_with(R"("expect": [
      {"tick": "end", "position": [null, 1, null]},
      {"ticks": [0, "end"], "grounded": false},
      {"ticks": [3, 3], "stuck": true},
      {"ticks": [0, 100], "max_penetration": 0},
      {"ticks": [1, 2], "y_between": [-1, -1]}])");
  ASSERT_EQ(s.expect.size(), 5u);
  EXPECT_EQ(s.expect[0].kind, ExpectCheck::Kind::Position);
  EXPECT_TRUE(s.expect[0].tick_is_end);
  EXPECT_FALSE(s.expect[0].position[0].has_value());
  EXPECT_EQ(s.expect[0].position[1], 1.0);
  EXPECT_EQ(s.expect[0].tolerance, 1e-3);  // the default
  EXPECT_EQ(s.expect[1].kind, ExpectCheck::Kind::Grounded);
  EXPECT_TRUE(s.expect[1].last_is_end);
  EXPECT_EQ(s.expect[2].kind, ExpectCheck::Kind::Stuck);
  EXPECT_TRUE(s.expect[2].stuck);
  EXPECT_EQ(s.expect[2].first, 3);
  EXPECT_EQ(s.expect[2].last, 3);
  EXPECT_EQ(s.expect[3].kind, ExpectCheck::Kind::MaxPenetration);
  EXPECT_EQ(s.expect[3].last, 100);
  EXPECT_EQ(s.expect[4].kind, ExpectCheck::Kind::YBetween);
  EXPECT_EQ(s.expect[4].y_lo, -1.0);
  EXPECT_EQ(s.expect[4].y_hi, -1.0);
  EXPECT_EQ(s.expect[4].json_path, "/expect/4");
}

TEST(LoadExpect, WithoutOneKindOnlyKeysNoCheckKnowsAreReported) {
  EXPECT_EQ(errors_of(R"("expect": [{"ticks": [0, 1], "tolerance": 1, "colour": "red"}])"),
            (Lines{"/expect/0: expected exactly one of \"position\", \"grounded\", \"max_penetration\", \"y_between\", "
                   "\"stuck\", got none",
                   "/expect/0/colour: unknown key \"colour\""}));
}

TEST(LoadExpect, TicksBeyondTheScenarioAreErrors) {
  EXPECT_EQ(errors_of(R"("expect": [{"tick": 100, "position": [0, 0, 0]}, {"ticks": [0, 101], "stuck": false}])"),
            Lines{"/expect/1/ticks/1: expected an integer <= 100 (the scenario's ticks), got 101"});
}

TEST(LoadExpect, WithInvalidTicksCheckedTicksAreBoundedByTheTickLimit) {
  const LoadResult result = load_scenario_text(
      R"({"format": "stepslide/scenario@1", "ticks": 0,
          "expect": [{"tick": 500, "position": [0, 0, 0]}, {"tick": 2000000, "position": [0, 0, 0]}]})",
      "t");
  EXPECT_EQ(paths_and_messages(result),
            (Lines{"/ticks: expected an integer >= 1, got 0",
                   "/expect/1/tick: expected an integer <= 1000000, got 2000000"}));
}

TEST(LoadExpect, RangesMustNotRunBackwards) {
  EXPECT_EQ(errors_of(R"("expect": [{"ticks": [5, 4], "grounded": true}, {"ticks": [0, 1], "y_between": [3, 2]}])"),
            (Lines{"/expect/0/ticks/1: expected an integer >= 5 (the first tick), got 4",
                   "/expect/1/y_between/1: expected a number >= 3 (the low bound), got 2"}));
}

}  // namespace
}  // namespace stepslide
