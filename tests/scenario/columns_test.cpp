// The trajectory column table: the one definition of what a row holds, the
// runner's rows, and the gate's default tolerances.

#include "scenario/columns.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "gate/core/diff.h"
#include "scenario/load/load.h"
#include "scenario/run/simulate.h"
#include "scenario/scenario.h"

namespace stepslide {
namespace {

TEST(FixedColumns, AreTheSpecColumnsInOrder) {
  const std::vector<std::string> expected = {
      "tick",     "time",     "x",        "y",       "z",         "vx",     "vy",          "vz",         "grounded",
      "normal_x", "normal_y", "normal_z", "step_dy", "camera_dy", "sweeps", "slide_iters", "depen_iters"};
  EXPECT_EQ(fixed_columns(), expected);
}

TEST(ColumnTable, FixedColumnsComeFirstThenTheExtensions) {
  std::vector<std::string> expected = fixed_columns();
  for (const char* extension : {"stuck", "ground_body", "local_x", "local_y", "local_z"}) expected.push_back(extension);
  EXPECT_EQ(column_names(), expected);
  const std::vector<Column>& table = trajectory_columns();
  for (std::size_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(table[i].fixed, i < fixed_columns().size()) << table[i].name;
  }
}

TEST(ColumnTable, NamesAreUniqueAndEveryColumnIsDescribed) {
  std::set<std::string> seen;
  for (const Column& column : trajectory_columns()) {
    EXPECT_TRUE(seen.insert(column.name).second) << column.name;
    EXPECT_NE(column.unit, nullptr) << column.name;
    EXPECT_NE(std::string(column.description), "") << column.name;
    EXPECT_NE(column.read, nullptr) << column.name;
    EXPECT_EQ(find_column(column.name), &column);
  }
}

TEST(ColumnTable, DiscreteColumnsAreComparedExactlyAndTheOthersNot) {
  for (const Column& column : trajectory_columns()) {
    if (column.discrete) {
      EXPECT_EQ(column.tolerance, 0.0) << column.name;
    } else {
      EXPECT_GT(column.tolerance, 0.0) << column.name;
    }
  }
  for (const char* discrete : {"tick", "grounded", "sweeps", "slide_iters", "depen_iters", "stuck", "ground_body"}) {
    ASSERT_NE(find_column(discrete), nullptr) << discrete;
    EXPECT_TRUE(find_column(discrete)->discrete) << discrete;
  }
}

TEST(ColumnTable, ColumnsNoRunnerWritesAreGone) {
  for (const char* dead : {"crushed", "steps_up", "steps_down", "jumped", "landed", "ceiling_hit"}) {
    EXPECT_EQ(find_column(dead), nullptr) << dead;
  }
}

TEST(ColumnTable, EveryColumnReadsItsOwnPartOfTheTick) {
  CharacterState state;
  state.position = btVector3(1, 2, 3);
  state.velocity = btVector3(4, 5, 6);
  state.grounded = true;
  state.ground_normal = btVector3(0.1, 0.2, 0.3);
  state.camera_dy = 7;
  TickReport report;
  report.step_dy = 8;
  report.sweeps = 9;
  report.slide_iters = 10;
  report.depen_iters = 11;
  report.depenetration_converged = false;
  TickSample sample{30, 60, state, report};
  sample.ground_body = 12;
  sample.local_feet = btVector3(13, 14, 15);

  const std::map<std::string, double> expected = {
      {"tick", 30},        {"time", 0.5},       {"x", 1},           {"y", 2},          {"z", 3},
      {"vx", 4},           {"vy", 5},           {"vz", 6},          {"grounded", 1},   {"normal_x", 0.1},
      {"normal_y", 0.2},   {"normal_z", 0.3},   {"step_dy", 8},     {"camera_dy", 7},  {"sweeps", 9},
      {"slide_iters", 10}, {"depen_iters", 11}, {"stuck", 1},       {"ground_body", 12}, {"local_x", 13},
      {"local_y", 14},     {"local_z", 15}};
  const std::vector<double> row = read_row(sample);
  ASSERT_EQ(row.size(), trajectory_columns().size());
  ASSERT_EQ(expected.size(), trajectory_columns().size()) << "a new column needs its value here";
  for (std::size_t i = 0; i < row.size(); ++i) {
    const std::string name = trajectory_columns()[i].name;
    ASSERT_EQ(expected.count(name), 1u) << name;
    EXPECT_EQ(row[i], expected.at(name)) << name;
  }
}

TEST(ColumnTable, FlagsReadZeroWhenClear) {
  CharacterState state;
  TickReport report;
  const TickSample sample{0, 60, state, report};
  EXPECT_EQ(find_column("grounded")->read(sample), 0.0);
  EXPECT_EQ(find_column("stuck")->read(sample), 0.0) << "converged: not stuck";
  EXPECT_EQ(find_column("ground_body")->read(sample), -1.0);
}

TEST(ColumnTable, DefaultDiffRulesComeFromTheTable) {
  const DiffRules rules = default_diff_rules();
  ASSERT_EQ(rules.rules.size(), trajectory_columns().size());
  for (const Column& column : trajectory_columns()) {
    EXPECT_EQ(rules.tolerance_for(column.name), column.tolerance) << column.name;
  }
  EXPECT_EQ(rules.tolerance_for("crushed"), rules.default_tolerance);
}

TEST(ColumnTable, TheRunnerWritesEveryColumnInTableOrder) {
  const LoadResult load = load_scenario_text(
      R"({"format": "stepslide/scenario@1", "ticks": 3,
          "world": [{"shape": {"type": "box", "half_extents": [5, 0.5, 5]}, "position": [0, -0.5, 0]}]})",
      "floor.json");
  ASSERT_TRUE(load.scenario) << (load.errors.empty() ? "" : format_error(load.errors.front()));
  const SimulationResult result = simulate(*load.scenario);
  EXPECT_EQ(result.trajectory.columns, column_names());
  ASSERT_EQ(result.trajectory.rows.size(), 4u);
  for (const std::vector<double>& row : result.trajectory.rows) EXPECT_EQ(row.size(), column_names().size());
  EXPECT_EQ(result.trajectory.rows.back()[static_cast<std::size_t>(result.trajectory.column_index("ground_body"))], 0)
      << "standing on body 0";
}

TEST(EntityColumns, EachEntityGetsTheGroupAfterTheCharactersColumns) {
  const std::vector<std::string> names = column_names_with({"crate", "b"});
  ASSERT_EQ(names.size(), column_names().size() + 2 * entity_columns().size());
  EXPECT_EQ(names[column_names().size()], "crate.x");
  EXPECT_EQ(names[column_names().size() + 6], "crate.qw");
  EXPECT_EQ(names.back(), "b.wz");
  EXPECT_EQ(column_names_with({}), column_names());
}

TEST(EntityColumns, AreFoundByTheirSuffixAfterTheLastDot) {
  ASSERT_NE(find_entity_column("crate.qw"), nullptr);
  EXPECT_STREQ(find_entity_column("crate.qw")->suffix, "qw");
  EXPECT_EQ(find_entity_column("crate.vx")->tolerance, 1e-5);
  EXPECT_EQ(find_entity_column("x"), nullptr);
  EXPECT_EQ(find_entity_column(".x"), nullptr);
  EXPECT_EQ(find_entity_column("crate.speed"), nullptr);
  EXPECT_TRUE(entity_pattern("crate.*"));
  EXPECT_TRUE(entity_pattern("*.q?"));
  EXPECT_FALSE(entity_pattern("crate.nope"));
  EXPECT_FALSE(entity_pattern("local_*"));
}

TEST(EntityColumns, TakeTheGroupToleranceAndTheMostSpecificGlobOfEachLayer) {
  DiffRules rules = default_diff_rules();
  EXPECT_EQ(rules.rule_for("crate.x").abs_tolerance, 1e-6);
  EXPECT_EQ(rules.rule_for("crate.wz").abs_tolerance, 1e-5);
  rules.entity_layers.push_back({{"crate.*", 1e-3, 0.0, ""}, {"crate.y", 1e-2, 0.0, ""}});
  EXPECT_EQ(rules.rule_for("crate.x").abs_tolerance, 1e-3);
  EXPECT_EQ(rules.rule_for("crate.y").abs_tolerance, 1e-2);
  EXPECT_EQ(rules.rule_for("box.y").abs_tolerance, 1e-6);
  rules.entities_exact = true;
  EXPECT_EQ(rules.rule_for("box.y").abs_tolerance, 0.0);
}

TEST(EntityColumns, ADynamicBodysStateIsRecordedEveryRow) {
  const LoadResult loaded = load_scenario_text(R"({"format": "stepslide/scenario@1", "ticks": 30, "world": [
      {"shape": {"type": "box", "half_extents": [5, 0.5, 5]}, "position": [0, -0.5, 0]},
      {"name": "ball", "shape": {"type": "sphere", "radius": 0.2}, "position": [3, 2, 0], "mass": 1}]})", "t");
  ASSERT_TRUE(loaded.scenario);
  const SimulationResult result = simulate(*loaded.scenario);
  const Trajectory& t = result.trajectory;
  const int y = t.column_index("ball.y"), vy = t.column_index("ball.vy"), qw = t.column_index("ball.qw");
  ASSERT_GE(y, 0);
  EXPECT_EQ(t.cell(0, y), 2.0);
  EXPECT_EQ(t.cell(0, qw), 1.0);
  // Falling freely under gravity, one step of 1/60 s a tick.
  EXPECT_NEAR(t.cell(10, vy), -9.81 * 10 / 60, 1e-9);
  EXPECT_LT(t.cell(10, y), 2.0);
}

}  // namespace
}  // namespace stepslide
