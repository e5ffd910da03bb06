// Column patterns (column_pattern.h) and a scenario's own "tolerance" block
// (scenario/load/tolerance.cpp): globs, specificity, every error with its JSON
// Pointer, and the schema agreeing with the loader on the block's shape.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "load_test_util.h"
#include "scenario/json/reader.h"
#include "scenario/load/column_pattern.h"
#include "scenario/load/load.h"
#include "scenario/load/schema_check.h"

namespace stepslide {
namespace {

using test::errors_of;
using test::loaded_with;

const std::string kKnown =
    "(known: camera_dy, depen_iters, ground_body, grounded, local_x, local_y, local_z, normal_x, normal_y, normal_z, "
    "slide_iters, step_dy, stuck, sweeps, tick, time, vx, vy, vz, x, y, z)";

// ---------------------------------------------------------------------------
// Patterns

TEST(ColumnPattern, GlobsMatchAnyRunOrOneCharacter) {
  EXPECT_TRUE(glob_match("local_*", "local_x"));
  EXPECT_TRUE(glob_match("local_*", "local_"));
  EXPECT_FALSE(glob_match("local_*", "local"));
  EXPECT_TRUE(glob_match("v?", "vx"));
  EXPECT_FALSE(glob_match("v?", "v"));
  EXPECT_FALSE(glob_match("v?", "vxx"));
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("*_*_*", "a_b_c"));
  EXPECT_TRUE(glob_match("*x", "normal_x"));
  EXPECT_FALSE(glob_match("*x", "normal_y"));
  EXPECT_TRUE(glob_match("n*l_?", "normal_z"));
  EXPECT_TRUE(glob_match("x", "x"));
  EXPECT_FALSE(glob_match("x", "vx"));
  EXPECT_FALSE(glob_match("[x]", "x")) << "brackets are literal";
  // Backtracking over many stars stays correct (and fast: no recursion).
  EXPECT_FALSE(glob_match("*a*a*a*a*a*a*b", std::string(200, 'a')));
  EXPECT_TRUE(glob_match("*a*a*a*a*a*a*b", std::string(200, 'a') + "b"));
}

TEST(ColumnPattern, ColumnsMatchingFollowTheTable) {
  EXPECT_EQ(columns_matching("v*"), (std::vector<std::string>{"vx", "vy", "vz"}));
  EXPECT_EQ(columns_matching("local_?"), (std::vector<std::string>{"local_x", "local_y", "local_z"}));
  EXPECT_EQ(columns_matching("*_x"), (std::vector<std::string>{"normal_x", "local_x"}));
  EXPECT_EQ(columns_matching("y"), (std::vector<std::string>{"y"}));
  EXPECT_TRUE(columns_matching("crushed").empty());
  EXPECT_EQ(columns_matching("*").size(), 22u);
}

TEST(ColumnPattern, ExactBeatsLongerBeatsShorterThenFewerStars) {
  EXPECT_GT(compare_specificity("local_x", "local_*"), 0);
  EXPECT_GT(compare_specificity("x", "*x"), 0) << "an exact name beats a glob with as many literals";
  EXPECT_GT(compare_specificity("local_*", "l*"), 0);
  EXPECT_LT(compare_specificity("*", "v*"), 0);
  EXPECT_GT(compare_specificity("local_?", "local_*"), 0) << "'?' pins one character; '*' any run";
  EXPECT_GT(compare_specificity("*", "**"), 0);
  EXPECT_EQ(compare_specificity("*l_x", "loc*"), 0);
  EXPECT_EQ(compare_specificity("x", "x"), 0);
}

TEST(ColumnPattern, ProblemsNameTheColumnsThatExist) {
  EXPECT_EQ(pattern_problem("y", "'y'"), std::nullopt);
  EXPECT_EQ(pattern_problem("local_*", "'local_*'"), std::nullopt);
  EXPECT_EQ(pattern_problem("crushed", "'crushed'"), "unknown column 'crushed' " + kKnown);
  EXPECT_EQ(pattern_problem("foo_*", "\"foo_*\""), "glob \"foo_*\" matches no column " + kKnown);
  EXPECT_EQ(pattern_problem("", "''"), "expected a column name or glob, got an empty name " + kKnown);
  EXPECT_EQ(pattern_problem("v[xy]", "'v[xy]'"), "'[' in 'v[xy]' is not a wildcard here; only * and ? are");
  EXPECT_EQ(known_columns_text() , kKnown.substr(8, kKnown.size() - 9));
}

// ---------------------------------------------------------------------------
// The scenario's "tolerance" block

TEST(LoadTolerance, AbsentMeansNone) { EXPECT_TRUE(loaded_with("").tolerance.empty()); }

TEST(LoadTolerance, NumbersAreAbsoluteAndObjectsGiveAbsAndOrRel) {
  const Scenario s = loaded_with(
      R"("tolerance": {"x": 1e-4, "local_*": {"rel": 1e-6}, "v?": {"abs": 1e-5, "rel": 2e-6}, "tick": 0})");
  ASSERT_EQ(s.tolerance.size(), 4u);
  EXPECT_EQ(s.tolerance[0].pattern, "x");
  EXPECT_EQ(s.tolerance[0].abs, 1e-4);
  EXPECT_EQ(s.tolerance[0].rel, 0.0);
  EXPECT_EQ(s.tolerance[0].json_path, "/tolerance/x");
  EXPECT_EQ(s.tolerance[1].pattern, "local_*");
  EXPECT_EQ(s.tolerance[1].abs, 0.0) << "an omitted abs is 0, not inherited";
  EXPECT_EQ(s.tolerance[1].rel, 1e-6);
  EXPECT_EQ(s.tolerance[2].abs, 1e-5);
  EXPECT_EQ(s.tolerance[2].rel, 2e-6);
  EXPECT_EQ(s.tolerance[3].pattern, "tick");
  EXPECT_EQ(s.tolerance[3].abs, 0.0);
}

TEST(LoadTolerance, EveryProblemAtItsPointer) {
  EXPECT_EQ(errors_of(R"("tolerance": [1])"),
            (std::vector<std::string>{"/tolerance: expected an object, got an array"}));
  EXPECT_EQ(errors_of(R"("tolerance": {"x": -1, "foo": 1, "foo_*": 2, "y": {"abs": 1, "lol": 2}, "z": {},
                                       "vx": "1", "vy": {"rel": -0.5}, "time": null})"),
            (std::vector<std::string>{
                "/tolerance/x: expected a number >= 0, got -1",
                "/tolerance/foo: unknown column \"foo\" " + kKnown,
                "/tolerance/foo_*: glob \"foo_*\" matches no column " + kKnown,
                "/tolerance/y/lol: unknown key \"lol\"",
                "/tolerance/z: expected \"abs\" and/or \"rel\"",
                "/tolerance/vx: expected a number >= 0 or an object with \"abs\" and/or \"rel\", got \"1\"",
                "/tolerance/vy/rel: expected a number >= 0, got -0.5",
                "/tolerance/time: expected a number >= 0 or an object with \"abs\" and/or \"rel\", got null",
            }));
}

TEST(LoadTolerance, EquallySpecificKeysMustAgree) {
  // "*l_x" and "loc*" both match local_x with 3 literals and one star.
  EXPECT_EQ(errors_of(R"("tolerance": {"*l_x": 1, "loc*": 2})"),
            (std::vector<std::string>{"/tolerance/loc*: \"loc*\" and \"*l_x\" match column local_x equally "
                                      "specifically with different tolerances; add a key for local_x itself or make "
                                      "one of them more specific"}));
  EXPECT_TRUE(errors_of(R"("tolerance": {"*l_x": 1, "loc*": 1})").empty()) << "the same tolerance: no ambiguity";
  EXPECT_TRUE(errors_of(R"("tolerance": {"*l_x": 1, "loc*": 2, "local_x": 3})").empty())
      << "a more specific key settles local_x";
  EXPECT_TRUE(errors_of(R"("tolerance": {"*": 1, "v*": 2, "vx": 3})").empty());
}

TEST(LoadTolerance, ProblemsAreInDocumentOrderWithTheRest) {
  const std::vector<std::string> errors =
      errors_of(R"("tolerance": {"nope": 1}, "expect": [{"tick": 1, "position": [0, 0, 0], "tolerance": 0}])");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0], "/tolerance/nope: unknown column \"nope\" " + kKnown);
  EXPECT_EQ(errors[1].rfind("/expect/0/tolerance: ", 0), 0u) << errors[1];
}

// ---------------------------------------------------------------------------
// The schema agrees on the block's shape

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(LoadTolerance, TheSchemaAgreesOnTheShapeOfTheBlock) {
  std::string error;
  const std::optional<JsonSchema> schema = JsonSchema::compile(
      JsonSchema::Json::parse(slurp(std::string(STEPSLIDE_SOURCE_DIR) + "/schema/scenario.schema.json")), &error);
  ASSERT_TRUE(schema) << error;
  const std::vector<std::pair<std::string, bool>> variants = {
      {R"({"x": 1e-4, "local_*": {"rel": 1e-6}, "v?": {"abs": 0, "rel": 0.5}})", true},
      {R"({})", true},
      {R"({"x": -1})", false},
      {R"({"x": "1"})", false},
      {R"({"x": {}})", false},
      {R"({"x": {"abs": 1, "lol": 1}})", false},
      {R"({"x": {"rel": -1}})", false},
      {R"([])", false},
  };
  for (const auto& [block, valid] : variants) {
    const std::string text = test::minimal(R"("tolerance": )" + block);
    const LoadResult load = load_scenario_text(text, "t");
    const std::vector<SchemaIssue> issues = schema->validate(JsonSchema::Json::parse(text));
    EXPECT_EQ(load.scenario.has_value(), valid) << block << "\n" << format_load_errors(load);
    EXPECT_EQ(issues.empty(), valid) << block;
    if (!valid && !issues.empty() && !load.errors.empty()) {
      EXPECT_EQ(issues.front().instance_path.rfind(load.errors.front().json_path, 0), 0u)
          << block << ": schema at " << issues.front().instance_path << ", loader at "
          << load.errors.front().json_path;
    }
  }
}

}  // namespace
}  // namespace stepslide
