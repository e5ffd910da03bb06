// Building diff rules from tolerance layers (gate/core/tolerances.h): the --tol
// syntax, glob precedence within a layer, and the order of the layers —
// defaults, project, directories, the scenario's own block, --exact, --tol.
#include "gate/core/tolerances.h"

#include <gtest/gtest.h>

#include "scenario/columns.h"

namespace stepslide {
namespace {

ColumnTolerance tol(const std::string& pattern, double abs, double rel = 0.0) { return {pattern, abs, rel, ""}; }

DiffRules defaults() { return default_diff_rules(); }

/// "abs/rel" of a column, for compact expectations.
std::string rule_of(const DiffRules& rules, const std::string& column) {
  const ColumnRule rule = rules.rule_for(column);
  return std::to_string(rule.abs_tolerance) + "/" + std::to_string(rule.rel_tolerance);
}

std::string ar(double abs, double rel = 0.0) { return std::to_string(abs) + "/" + std::to_string(rel); }

// ---------------------------------------------------------------------------
// --tol

TEST(TolOption, AbsoluteRelativeOrBoth) {
  Expected<ColumnTolerance> t = parse_tol_option("y=1e-4");
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->pattern, "y");
  EXPECT_EQ(t->abs, 1e-4);
  EXPECT_EQ(t->rel, 0.0);
  t = parse_tol_option("v*=abs:1e-5,rel:1e-6");
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->pattern, "v*");
  EXPECT_EQ(t->abs, 1e-5);
  EXPECT_EQ(t->rel, 1e-6);
  t = parse_tol_option(" local_? = rel:0.01 ");
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->pattern, "local_?");
  EXPECT_EQ(t->abs, 0.0);
  EXPECT_EQ(t->rel, 0.01);
  t = parse_tol_option("x=rel: 2 , abs: 3");
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->abs, 3.0);
  EXPECT_EQ(t->rel, 2.0);
}

TEST(TolOption, RefusesMalformedValues) {
  for (const std::string bad : {"y", "=1", "y=", "y=-1", "y=nan", "y=inf", "y=1e-4x", "y= ", "y=abs:", "y=abs:-1",
                                "y=abs:1,abs:2", "y=rel:1,", "y=mid:1", "y=abs=1", "y=abs:1;rel:2", "y=abs:inf"}) {
    const Expected<ColumnTolerance> t = parse_tol_option(bad);
    EXPECT_FALSE(t) << bad;
    EXPECT_EQ(t.error().rfind("--tol '" + bad + "': ", 0), 0u) << t.error();
  }
  EXPECT_EQ(parse_tol_option("y").error(),
            "--tol 'y': expected COLUMN=ABS or COLUMN=abs:A,rel:R, for example --tol y=1e-4 or --tol "
            "'v*=abs:1e-5,rel:1e-6'");
  EXPECT_EQ(parse_tol_option("y=abs:1,abs:2").error(),
            "--tol 'y=abs:1,abs:2': expected abs:A and/or rel:R after '=', each a finite number >= 0");
}

TEST(TolOption, UnknownColumnsAndGlobsMatchingNothingNameTheColumnsThatExist) {
  const std::string known =
      "(known: camera_dy, depen_iters, ground_body, grounded, local_x, local_y, local_z, normal_x, normal_y, "
      "normal_z, slide_iters, step_dy, stuck, sweeps, tick, time, vx, vy, vz, x, y, z)";
  EXPECT_EQ(parse_tol_option("foo=1").error(), "--tol 'foo=1': unknown column 'foo' " + known);
  EXPECT_EQ(parse_tol_option("foo_*=1").error(), "--tol 'foo_*=1': glob 'foo_*' matches no column " + known);
  EXPECT_TRUE(parse_tol_option("local_*=1"));
}

// ---------------------------------------------------------------------------
// One layer

TEST(ApplyTolerances, AGlobSetsEveryColumnItMatchesAndNothingElse) {
  DiffRules rules = defaults();
  apply_tolerances({tol("local_*", 1e-3)}, rules);
  for (const char* c : {"local_x", "local_y", "local_z"}) EXPECT_EQ(rule_of(rules, c), ar(1e-3)) << c;
  EXPECT_EQ(rule_of(rules, "x"), ar(1e-6));
  EXPECT_EQ(rules.default_tolerance, 1e-9) << "a glob matches table columns only";
}

TEST(ApplyTolerances, MostSpecificWinsWhateverTheOrder) {
  const std::vector<ColumnTolerance> forward = {tol("*", 1), tol("v*", 2), tol("v?", 3), tol("vx", 4)};
  const std::vector<ColumnTolerance> backward(forward.rbegin(), forward.rend());
  for (const auto& layer : {forward, backward}) {
    DiffRules rules = defaults();
    apply_tolerances(layer, rules);
    EXPECT_EQ(rule_of(rules, "vx"), ar(4)) << "exact name";
    EXPECT_EQ(rule_of(rules, "vy"), ar(3)) << "'v?' has as many literals as 'v*' and no star";
    EXPECT_EQ(rule_of(rules, "x"), ar(1)) << "only '*' matches";
    EXPECT_EQ(rule_of(rules, "tick"), ar(1));
  }
  DiffRules rules = defaults();
  apply_tolerances({tol("local_*", 1), tol("l*", 2), tol("*_x", 3)}, rules);
  EXPECT_EQ(rule_of(rules, "local_x"), ar(1)) << "longest pattern: 6 literals beat 2 and 1";
  EXPECT_EQ(rule_of(rules, "normal_x"), ar(3));
}

TEST(ApplyTolerances, EquallySpecificEntriesLaterWins) {
  // Only the command line can hold such a pair with different values: the
  // loaders refuse it in a file, where key order means nothing.
  DiffRules rules = defaults();
  apply_tolerances({tol("x", 1), tol("x", 2)}, rules);
  EXPECT_EQ(rule_of(rules, "x"), ar(2));
  apply_tolerances({tol("*l_x", 5), tol("loc*", 6)}, rules);
  EXPECT_EQ(rule_of(rules, "local_x"), ar(6));
}

TEST(ApplyTolerances, AnEntryReplacesTheWholeRule) {
  DiffRules rules = defaults();
  apply_tolerances({tol("y", 0.5, 0.25)}, rules);
  apply_tolerances({tol("y", 0.0, 0.125)}, rules);
  EXPECT_EQ(rule_of(rules, "y"), ar(0.0, 0.125)) << "an omitted abs is 0 in the later layer too";
}

// ---------------------------------------------------------------------------
// The layers

ToleranceLayers project_layers() {
  ToleranceLayers layers;
  layers.project.tolerances = {tol("x", 1), tol("local_*", 2), tol("v*", 3, 0.5)};
  layers.project.directories = {{"terrain/steep/", {tol("y", 20), tol("x", 21)}},
                                {"terrain/", {tol("y", 10), tol("z", 11), tol("*", 12)}},
                                {"walls/", {tol("x", 30)}}};
  return layers;
}

TEST(ToleranceLayers, ProjectThenDirectoriesShorterFirstThenTheScenario) {
  const ToleranceLayers layers = project_layers();
  DiffRules rules = rules_for(defaults(), layers, "", {});
  EXPECT_EQ(rule_of(rules, "x"), ar(1));
  EXPECT_EQ(rule_of(rules, "local_y"), ar(2));
  EXPECT_EQ(rule_of(rules, "vz"), ar(3, 0.5));
  EXPECT_EQ(rule_of(rules, "y"), ar(1e-6)) << "not in the project: the default";

  rules = rules_for(defaults(), layers, "terrain/", {});
  EXPECT_EQ(rule_of(rules, "y"), ar(10));
  EXPECT_EQ(rule_of(rules, "z"), ar(11));
  EXPECT_EQ(rule_of(rules, "x"), ar(12)) << "a later layer wins with any key that matches, even '*'";

  rules = rules_for(defaults(), layers, "terrain/steep/", {});
  EXPECT_EQ(rule_of(rules, "y"), ar(20)) << "the longest prefix wins";
  EXPECT_EQ(rule_of(rules, "x"), ar(21));
  EXPECT_EQ(rule_of(rules, "z"), ar(11)) << "shorter prefixes still apply to what the longer leaves";

  rules = rules_for(defaults(), layers, "terrain/steep/deeper/", {tol("z", 40), tol("tick", 41)});
  EXPECT_EQ(rule_of(rules, "y"), ar(20));
  EXPECT_EQ(rule_of(rules, "z"), ar(40)) << "the scenario's own block comes after every directory";
  EXPECT_EQ(rule_of(rules, "tick"), ar(41));

  rules = rules_for(defaults(), layers, "terrainx/", {});
  EXPECT_EQ(rule_of(rules, "y"), ar(1e-6)) << "prefixes are whole directories";
}

TEST(ToleranceLayers, CommandLineComesLastAndExactDropsTheFiles) {
  ToleranceLayers layers = project_layers();
  layers.command_line = {tol("y", 7)};
  DiffRules rules = rules_for(defaults(), layers, "terrain/", {tol("y", 8)});
  EXPECT_EQ(rule_of(rules, "y"), ar(7)) << "--tol wins over the scenario's own block";
  EXPECT_EQ(rule_of(rules, "z"), ar(11));

  layers.exact = true;
  rules = rules_for(defaults(), layers, "terrain/", {tol("z", 8)});
  EXPECT_EQ(rule_of(rules, "y"), ar(7)) << "--tol still applies after --exact";
  for (const std::string& column : column_names()) {
    if (column != "y") {
      EXPECT_EQ(rule_of(rules, column), ar(0)) << column;
    }
  }
  EXPECT_EQ(rules.default_tolerance, 0.0);
}

TEST(ToleranceLayers, MadeFromOptionsAndTheProject) {
  ProjectTolerances project;
  project.tolerances = {tol("x", 1)};
  Expected<ToleranceLayers> layers = make_tolerance_layers(false, {"y=2", "v*=rel:0.5"}, project);
  ASSERT_TRUE(layers) << layers.error();
  EXPECT_EQ(layers->command_line.size(), 2u);
  const DiffRules rules = rules_for(defaults(), *layers, "", {});
  EXPECT_EQ(rule_of(rules, "x"), ar(1));
  EXPECT_EQ(rule_of(rules, "y"), ar(2));
  EXPECT_EQ(rule_of(rules, "vy"), ar(0, 0.5));
  layers = make_tolerance_layers(false, {"y=2", "nope=1", "z=-1"}, project);
  ASSERT_FALSE(layers);
  EXPECT_EQ(layers.error().rfind("--tol 'nope=1': unknown column 'nope'", 0), 0u) << "the first bad option";
}

TEST(ToleranceLayers, ScenarioDirectoryIsRelativeToTheRoot) {
  EXPECT_EQ(scenario_directory("scenarios/terrain/steep/a.json", "scenarios"), "terrain/steep/");
  EXPECT_EQ(scenario_directory("scenarios/terrain/a.json", "scenarios/"), "terrain/");
  EXPECT_EQ(scenario_directory("./scenarios//terrain/a.json", "scenarios"), "terrain/");
  EXPECT_EQ(scenario_directory("scenarios/a.json", "scenarios"), "");
  EXPECT_EQ(scenario_directory("elsewhere/terrain/a.json", "scenarios"), "") << "outside the root: no directory";
  EXPECT_EQ(scenario_directory("../p/scenarios/terrain/a.json", "../p/scenarios"), "terrain/");
}

TEST(ToleranceLayers, DiffRulesWithoutAScenarioAreDefaultsExactAndTol) {
  Expected<DiffRules> rules = make_diff_rules(false, {"local_*=abs:1,rel:0.5"});
  ASSERT_TRUE(rules) << rules.error();
  EXPECT_EQ(rule_of(*rules, "local_z"), ar(1, 0.5));
  EXPECT_EQ(rule_of(*rules, "x"), ar(1e-6));
  const DiffRules exact = exact_diff_rules();
  for (const ColumnRule& rule : exact.rules) {
    EXPECT_EQ(rule.abs_tolerance, 0.0) << rule.column;
    EXPECT_EQ(rule.rel_tolerance, 0.0) << rule.column;
  }
}

}  // namespace
}  // namespace stepslide
