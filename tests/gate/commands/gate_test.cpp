// The gate library: discovery, golden paths, sharding, metadata, tolerance
// options, and checking/blessing scenarios end to end in a temp directory.
#include "gate/gate.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

#include "base/file_io.h"
#include "gate/core/fingerprint.h"
#include "scenario/columns.h"
#include "support/temp_dir.h"

namespace stepslide {
namespace {

namespace fs = std::filesystem;

/// A fresh directory per test, removed afterwards; the process works inside it.
class GateFiles : public test::WorkingDirTest {
};

/// A character standing on a floor; `extra` adds members such as "expect".
std::string scenario_json(int ticks, const std::string& extra = "") {
  return R"({"format": "stepslide/scenario@1", "ticks": )" + std::to_string(ticks) +
         R"(, "world": [{"shape": {"type": "box", "half_extents": [5, 0.5, 5]}, "position": [0, -0.5, 0]}])" +
         (extra.empty() ? "" : ", " + extra) + "}";
}

// ---------------------------------------------------------------------------
// Hashing and fingerprint

TEST(GateFingerprint, Fnv1a64KnownValues) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64_hex("a"), "af63dc4c8601ec8c");
  EXPECT_EQ(fnv1a64_hex("foobar"), "85944171f73967e8");
}

TEST(GateFingerprint, NamesCompilerBulletPrecisionAndLibc) {
  const std::string fp = build_fingerprint();
  EXPECT_NE(fp.find("stepslide "), std::string::npos) << fp;
  EXPECT_NE(fp.find("float64"), std::string::npos) << fp;
  EXPECT_NE(fp.find("glibc "), std::string::npos) << fp;
  EXPECT_NE(fp.find(build_info().compiler), std::string::npos) << fp;
  EXPECT_EQ(fp.find('\n'), std::string::npos);
  EXPECT_EQ(fp.find(';' + std::string("-f")), std::string::npos) << "CMake list separators leak: " << fp;
}

// ---------------------------------------------------------------------------
// Golden paths

TEST(GateGoldenPath, MirrorsTheScenarioTree) {
  EXPECT_EQ(golden_path_for("scenarios/a/b.json", "scenarios", "golden"), "golden/a/b.csv");
  EXPECT_EQ(golden_path_for("scenarios/top.json", "scenarios/", "golden/"), "golden/top.csv");
  EXPECT_EQ(golden_path_for("./scenarios//a/./b.json", "scenarios", "golden"), "golden/a/b.csv");
  EXPECT_EQ(golden_path_for("s/x.json", "s", "g/sub"), "g/sub/x.csv");
}

TEST(GateGoldenPath, AbsoluteAndRelativeSpellingsAgree) {
  const std::string absolute = (fs::current_path() / "scenarios/a/b.json").string();
  EXPECT_EQ(golden_path_for(absolute, "scenarios", "golden"), "golden/a/b.csv");
}

TEST(GateGoldenPath, GoldensMapBackToTheirScenario) {
  EXPECT_EQ(scenario_path_for("golden/a/b.csv", "scenarios", "golden"), "scenarios/a/b.json");
  EXPECT_EQ(scenario_path_for("./golden//top.csv", "s/", "golden/"), "s/top.json");
  EXPECT_EQ(scenario_path_for("elsewhere/x.csv", "scenarios", "golden"), std::nullopt);
}

// A scenario outside the root has no golden: GOLDEN/<file name>, which no
// scenario under the root maps to, would fail the next full check as an
// orphan.
TEST(GateGoldenPath, OutsideTheRootThereIsNoGolden) {
  EXPECT_EQ(golden_path_for("/tmp/elsewhere/bug_report.json", "scenarios", "golden"), std::nullopt);
  EXPECT_EQ(golden_path_for("scenarios_old/x.json", "scenarios", "golden"), std::nullopt);
  EXPECT_EQ(golden_path_for("noext", "scenarios", "golden"), std::nullopt);
  EXPECT_EQ(golden_path_for("scenarios", "scenarios", "golden"), std::nullopt) << "the root itself is no scenario";
  EXPECT_EQ(golden_path_for("scenarios/noext", "scenarios", "golden"), "golden/noext.csv");
}

TEST(GateGoldenPath, ScenarioNamesAreRootRelativeWithoutTheExtension) {
  EXPECT_EQ(scenario_name("scenarios/stairs/up.json", "scenarios"), "stairs/up");
  EXPECT_EQ(scenario_name("./scenarios//top.json", "scenarios/"), "top");
  EXPECT_EQ(scenario_name("cases/a/b.json", "cases"), "a/b");
  EXPECT_EQ(scenario_name("/tmp/elsewhere/x.json", "scenarios"), "/tmp/elsewhere/x") << "outside: the path";
}

// ---------------------------------------------------------------------------
// Discovery

TEST_F(GateFiles, DiscoveryIsRecursiveSortedAndSkipsHiddenAndNonJson) {
  write("scenarios/b.json", "{}");
  write("scenarios/a/z.json", "{}");
  write("scenarios/a/c.json", "{}");
  write("scenarios/notes.txt", "");
  write("scenarios/.#b.json", "");
  write("scenarios/.hidden/x.json", "{}");
  const ScenarioList list = discover_scenarios({"scenarios/"});
  EXPECT_TRUE(list.errors.empty());
  EXPECT_EQ(list.files,
            (std::vector<std::string>{"scenarios/a/c.json", "scenarios/a/z.json", "scenarios/b.json"}));
}

TEST_F(GateFiles, DiscoveryTakesFilesAsGivenAndRemovesDuplicates) {
  write("scenarios/b.json", "{}");
  write("bug.scenario", "{}");
  const ScenarioList list = discover_scenarios({"scenarios", "./scenarios/b.json", "bug.scenario"});
  EXPECT_EQ(list.files, (std::vector<std::string>{"bug.scenario", "scenarios/b.json"}));
}

TEST_F(GateFiles, DiscoveryReportsMissingPaths) {
  const ScenarioList list = discover_scenarios({"nope.json"});
  ASSERT_EQ(list.errors.size(), 1u);
  EXPECT_EQ(list.errors[0], "nope.json: no such file or directory");
}

TEST_F(GateFiles, OrphansAreGoldensNoScenarioMapsTo) {
  write("golden/a/b.csv", "");
  write("golden/kept.csv", "");
  write("golden/gone.csv", "");
  write("golden/README.md", "");
  const std::vector<std::string> orphans =
      find_orphan_goldens({"scenarios/a/b.json", "scenarios/kept.json"}, "scenarios", "golden");
  EXPECT_EQ(orphans, (std::vector<std::string>{"golden/gone.csv"}));
  EXPECT_TRUE(find_orphan_goldens({}, "scenarios", "no_such_dir").empty());
}

TEST_F(GateFiles, PathsCoverTheGoldensOfTheirFolders) {
  fs::create_directories("scenarios/stairs/deep");
  fs::create_directories("scenarios/walls");
  write("scenarios/stairs/up.json", "{}");
  fs::create_directories("elsewhere");
  EXPECT_EQ(covered_golden_dirs({}, "scenarios", "golden"), (std::vector<std::string>{"golden"}));
  EXPECT_EQ(covered_golden_dirs({"./scenarios/"}, "scenarios", "golden"), (std::vector<std::string>{"golden"}));
  EXPECT_EQ(covered_golden_dirs({"scenarios/walls", "scenarios/stairs/deep", "scenarios/stairs/up.json"}, "scenarios",
                                "golden"),
            (std::vector<std::string>{"golden/stairs/deep", "golden/walls"}))
      << "a file covers nothing beyond its own golden";
  EXPECT_TRUE(covered_golden_dirs({"elsewhere"}, "scenarios", "golden").empty()) << "outside the root: nothing";

  write("golden/stairs/up.csv", "");
  write("golden/stairs/gone.csv", "");
  write("golden/walls/gone.csv", "");
  write("golden/top_gone.csv", "");
  const std::vector<std::string> scenarios{"scenarios/stairs/up.json"};
  EXPECT_EQ(find_orphan_goldens(scenarios, "scenarios", "golden", {"golden/stairs"}),
            (std::vector<std::string>{"golden/stairs/gone.csv"}));
  EXPECT_EQ(find_orphan_goldens(scenarios, "scenarios", "golden", {"golden", "golden/stairs"}),
            (std::vector<std::string>{"golden/stairs/gone.csv", "golden/top_gone.csv", "golden/walls/gone.csv"}))
      << "nested covered folders list each orphan once";
  EXPECT_TRUE(find_orphan_goldens(scenarios, "scenarios", "golden", {}).empty());
}

// ---------------------------------------------------------------------------
// Sharding

EnvLookup env_of(const std::map<std::string, std::string>& vars) {
  return [vars](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

TEST(GateSharding, UnsetMeansOneShard) {
  const Expected<Shard> shard = shard_from_env(env_of({}));
  ASSERT_TRUE(shard) << shard.error();
  EXPECT_FALSE(shard->active());
}

TEST(GateSharding, ReadsGTestAndBazelVariables) {
  Expected<Shard> shard = shard_from_env(env_of({{"GTEST_TOTAL_SHARDS", "3"}, {"GTEST_SHARD_INDEX", "2"}}));
  ASSERT_TRUE(shard) << shard.error();
  EXPECT_EQ(shard->total, 3);
  EXPECT_EQ(shard->index, 2);
  shard = shard_from_env(
      env_of({{"TEST_TOTAL_SHARDS", "4"}, {"TEST_SHARD_INDEX", "0"}, {"TEST_SHARD_STATUS_FILE", "/tmp/status"}}));
  ASSERT_TRUE(shard) << shard.error();
  EXPECT_EQ(shard->total, 4);
  EXPECT_EQ(shard->status_file, "/tmp/status");
}

TEST(GateSharding, RejectsBadValues) {
  const std::vector<std::map<std::string, std::string>> bad = {
      {{"GTEST_TOTAL_SHARDS", "0"}, {"GTEST_SHARD_INDEX", "0"}},
      {{"GTEST_TOTAL_SHARDS", "2"}, {"GTEST_SHARD_INDEX", "2"}},
      {{"GTEST_TOTAL_SHARDS", "2"}, {"GTEST_SHARD_INDEX", "-1"}},
      {{"GTEST_TOTAL_SHARDS", "two"}, {"GTEST_SHARD_INDEX", "0"}},
      {{"GTEST_TOTAL_SHARDS", "2 "}, {"GTEST_SHARD_INDEX", "0"}},
      {{"GTEST_TOTAL_SHARDS", "2"}},
      {{"TEST_SHARD_INDEX", "1"}},
      {{"GTEST_TOTAL_SHARDS", "2"}, {"GTEST_SHARD_INDEX", "0"}, {"TEST_TOTAL_SHARDS", "2"}, {"TEST_SHARD_INDEX", "1"}},
  };
  for (const auto& vars : bad) {
    const Expected<Shard> shard = shard_from_env(env_of(vars));
    EXPECT_FALSE(shard) << vars.begin()->first << "=" << vars.begin()->second;
    EXPECT_FALSE(shard.error().empty());
  }
  EXPECT_EQ(shard_from_env(env_of({{"GTEST_TOTAL_SHARDS", "2"}})).error(),
            "GTEST_SHARD_INDEX is not set but GTEST_TOTAL_SHARDS is: set both or neither");
}

TEST(GateSharding, SelectsEveryTotalthFile) {
  const std::vector<std::string> files = {"a", "b", "c", "d", "e"};
  Shard shard;
  shard.total = 2;
  shard.index = 1;
  EXPECT_EQ(select_shard(files, shard), (std::vector<std::string>{"b", "d"}));
  shard.index = 0;
  EXPECT_EQ(select_shard(files, shard), (std::vector<std::string>{"a", "c", "e"}));
}

TEST_F(GateFiles, TouchesTheShardStatusFile) {
  Shard shard;
  EXPECT_TRUE(touch_shard_status_file(shard));
  shard.status_file = "status";
  EXPECT_TRUE(touch_shard_status_file(shard));
  EXPECT_TRUE(fs::exists("status"));
  shard.status_file = "no/such/dir/status";
  const Status touched = touch_shard_status_file(shard);
  EXPECT_FALSE(touched);
  EXPECT_EQ(touched.error(), "no/such/dir/status: No such file or directory");
}

// ---------------------------------------------------------------------------
// Metadata

TEST(GateMetadata, SurvivesTheCsvRoundTrip) {
  Trajectory t;
  t.metadata = trajectory_metadata("stairs up\nstraight", "{scenario bytes}", "build X 1.0");
  t.columns = {"tick"};
  t.rows = {{0}};
  const std::string csv = to_csv(t);
  EXPECT_EQ(csv.rfind("# stepslide trajectory 1\n# scenario stairs up straight fnv1a64:", 0), 0u) << csv;
  const Expected<Trajectory> back = parse_csv(csv);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(metadata_value(*back, "build"), "build X 1.0");
  EXPECT_EQ(metadata_scenario_hash(*back), "fnv1a64:" + fnv1a64_hex("{scenario bytes}"));
  EXPECT_EQ(metadata_value(*back, "nothing"), std::nullopt);
}

TEST(GateMetadata, BuildNoteOnlyWhenTheBuildDiffers) {
  Trajectory golden;
  EXPECT_EQ(build_change_note(golden, "now"), "");
  golden.metadata = trajectory_metadata("n", "", "then");
  EXPECT_EQ(build_change_note(golden, "then"), "");
  EXPECT_EQ(build_change_note(golden, "now"), "note: golden was written by a different build: then (now: now)\n");
}

TEST(GateMetadata, OutputFileNamesStayInTheirDirectory) {
  EXPECT_EQ(output_file_name("stairs_up-1.5"), "stairs_up-1.5.csv");
  EXPECT_EQ(output_file_name("../../etc/passwd"), "_.._.._etc_passwd.csv");
  EXPECT_EQ(output_file_name(".."), "_...csv");
  EXPECT_EQ(output_file_name(""), "_.csv");
  EXPECT_EQ(output_file_name("a b/c"), "a_b_c.csv");
}

// ---------------------------------------------------------------------------
// Comparison options

TEST(GateDiffOptions, TolOverridesOneColumnAndExactZeroesAll) {
  Expected<DiffRules> rules = make_diff_rules(false, {"y=1e-4", " x = 0.5 "});
  ASSERT_TRUE(rules) << rules.error();
  EXPECT_EQ(rules->tolerance_for("y"), 1e-4);
  EXPECT_EQ(rules->tolerance_for("x"), 0.5);
  EXPECT_EQ(rules->tolerance_for("z"), default_diff_rules().tolerance_for("z"));

  rules = make_diff_rules(true, {"y=1e-4"});
  ASSERT_TRUE(rules) << rules.error();
  EXPECT_EQ(rules->tolerance_for("y"), 1e-4);
  for (const std::string& column : fixed_columns()) {
    if (column != "y") {
      EXPECT_EQ(rules->tolerance_for(column), 0.0) << column;
    }
  }
  EXPECT_EQ(rules->tolerance_for("some_extension"), 0.0);
}

TEST(GateDiffOptions, RejectsMalformedUnknownAndNegative) {
  for (const std::string bad : {"y", "=1", "Y=1e-4", "y=", "y=-1", "y=nan", "y=inf", "y=1e-4x", "y= "}) {
    const Expected<DiffRules> rules = make_diff_rules(false, {bad});
    EXPECT_FALSE(rules) << bad;
    EXPECT_EQ(rules.error().rfind("--tol '" + bad + "': ", 0), 0u) << rules.error();
  }
}

TEST(GateDiffOptions, ColumnsNoRunnerWritesAreRefusedWithTheColumnsThatExist) {
  for (const std::string dead : {"crushed", "steps_up", "steps_down", "jumped", "landed", "ceiling_hit"}) {
    const Expected<DiffRules> rules = make_diff_rules(false, {dead + "=1"});
    ASSERT_FALSE(rules) << dead;
    EXPECT_EQ(rules.error(), "--tol '" + dead + "=1': unknown column '" + dead +
                                 "' (known: camera_dy, depen_iters, ground_body, grounded, local_x, local_y, local_z, "
                                 "normal_x, normal_y, normal_z, slide_iters, step_dy, stuck, sweeps, tick, time, vx, "
                                 "vy, vz, x, y, z)");
  }
  EXPECT_TRUE(make_diff_rules(false, {"stuck=1", "local_x=0.1"}));
}

TEST(GateDiffOptions, ExactRulesZeroEveryTolerance) {
  const DiffRules rules = exact_diff_rules();
  for (const ColumnRule& rule : rules.rules) EXPECT_EQ(rule.abs_tolerance, 0.0) << rule.column;
  EXPECT_EQ(rules.default_tolerance, 0.0);
}

// ---------------------------------------------------------------------------
// Checking and blessing (needs the loader and the simulator)

GateOptions test_options() {
  GateOptions options;
  options.fingerprint = "test build";
  return options;
}

TEST_F(GateFiles, MissingGoldenFailsWithABlessHint) {
  write("scenarios/floor.json", scenario_json(5));
  const CheckOutcome outcome = check_scenario("scenarios/floor.json", test_options());
  EXPECT_EQ(outcome.verdict, Verdict::Fail) << outcome.report;
  EXPECT_EQ(outcome.golden, "golden/floor.csv");
  EXPECT_EQ(outcome.report,
            "FAIL scenarios/floor.json: missing golden golden/floor.csv "
            "(run `stepslide bless scenarios/floor.json`)\n");
}

TEST_F(GateFiles, BlessThenCheckPasses) {
  write("scenarios/floor.json", scenario_json(5));
  const GateOptions options = test_options();
  const BlessOutcome blessed = bless_scenario(load_scenario_keeping_bytes("scenarios/floor.json"), options);
  EXPECT_EQ(blessed.verdict, Verdict::Pass) << blessed.report;
  EXPECT_EQ(blessed.change, GoldenChange::New);
  EXPECT_EQ(blessed.report, "blessed golden/floor.csv (new)\n");
  const std::string golden = read("golden/floor.csv");
  EXPECT_EQ(golden.rfind("# stepslide trajectory 1\n# scenario floor fnv1a64:", 0), 0u) << golden;
  EXPECT_NE(golden.find("# build test build\ntick,time,x,y,z,"), std::string::npos) << golden;

  const CheckOutcome outcome = check_scenario("scenarios/floor.json", options);
  EXPECT_EQ(outcome.verdict, Verdict::Pass) << outcome.report;
  EXPECT_EQ(outcome.report, "PASS scenarios/floor.json\n");

  const BlessOutcome again = bless_scenario(load_scenario_keeping_bytes("scenarios/floor.json"), options);
  EXPECT_EQ(again.change, GoldenChange::Unchanged);
  EXPECT_EQ(again.report, "blessed golden/floor.csv (unchanged)\n");
}

TEST_F(GateFiles, ReblessWithAnotherBuildIsMetadataOnly) {
  write("scenarios/floor.json", scenario_json(5));
  GateOptions options = test_options();
  bless_scenario(load_scenario_keeping_bytes("scenarios/floor.json"), options);
  options.fingerprint = "other build";
  const BlessOutcome again = bless_scenario(load_scenario_keeping_bytes("scenarios/floor.json"), options);
  EXPECT_EQ(again.change, GoldenChange::MetadataOnly) << again.report;
  EXPECT_NE(read("golden/floor.csv").find("# build other build\n"), std::string::npos);
}

/// Replaces the y of row `row` in a golden, as a behaviour change would.
void tamper_y(const std::string& golden_path, std::size_t row, double y) {
  Expected<Trajectory> t = read_trajectory_file(golden_path);
  ASSERT_TRUE(t) << t.error();
  t->rows.at(row).at(static_cast<std::size_t>(t->column_index("y"))) = y;
  t->metadata.back() = " build an older build";
  ASSERT_EQ(write_file_atomic(golden_path, to_csv(*t)).error(), "");
}

TEST_F(GateFiles, RegressionReportsFirstDivergenceAndBuildNote) {
  write("scenarios/floor.json", scenario_json(5));
  const GateOptions options = test_options();
  bless_scenario(load_scenario_keeping_bytes("scenarios/floor.json"), options);
  tamper_y("golden/floor.csv", 3, 0.25);

  const CheckOutcome outcome = check_scenario("scenarios/floor.json", options);
  EXPECT_EQ(outcome.verdict, Verdict::Fail);
  EXPECT_EQ(outcome.report.rfind("FAIL scenarios/floor.json: trajectory differs from golden golden/floor.csv\n"
                                 "note: golden was written by a different build: an older build (now: test build)\n",
                                 0),
            0u)
      << outcome.report;
  EXPECT_NE(outcome.report.find("hint: if this change is intended, run `stepslide bless scenarios/floor.json`"),
            std::string::npos)
      << outcome.report;
  EXPECT_EQ(outcome.summary.rfind("first divergence at tick 3, column y: expected 0.25, got ", 0), 0u)
      << outcome.summary;

  GateOptions loose = options;
  loose.rules.set("y", 1.0);
  EXPECT_EQ(check_scenario("scenarios/floor.json", loose).verdict, Verdict::Pass);
}

TEST_F(GateFiles, FailedExpectationFailsTheCheckAndBlessRefusesIt) {
  write("scenarios/floor.json", scenario_json(5, R"("expect": [{"tick": "end", "position": [0, 5, 0]}])"));
  const GateOptions options = test_options();
  const BlessOutcome blessed = bless_scenario(load_scenario_keeping_bytes("scenarios/floor.json"), options);
  EXPECT_EQ(blessed.verdict, Verdict::Fail);
  EXPECT_NE(blessed.report.find("scenarios/floor.json: /expect/0 at tick 5: "), std::string::npos)
      << blessed.report;
  EXPECT_FALSE(fs::exists("golden/floor.csv"));

  const CheckOutcome outcome = check_scenario("scenarios/floor.json", options);
  EXPECT_EQ(outcome.verdict, Verdict::Fail);
  EXPECT_NE(outcome.report.find("scenarios/floor.json: /expect/0 at tick 5: "), std::string::npos)
      << outcome.report;
}

TEST_F(GateFiles, InvalidScenarioAndBrokenGoldenAreInvalidInput) {
  write("scenarios/bad.json", R"({"format": "stepslide/scenario@1"})");
  CheckOutcome outcome = check_scenario("scenarios/bad.json", test_options());
  EXPECT_EQ(outcome.verdict, Verdict::Invalid);
  EXPECT_EQ(outcome.report.rfind("FAIL scenarios/bad.json: invalid scenario\nscenarios/bad.json", 0), 0u)
      << outcome.report;

  write("scenarios/floor.json", scenario_json(5));
  write("golden/floor.csv", "<<<<<<< HEAD\nnot,a\ncsv\n");
  outcome = check_scenario("scenarios/floor.json", test_options());
  EXPECT_EQ(outcome.verdict, Verdict::Invalid) << outcome.report;
  EXPECT_EQ(outcome.report,
            "FAIL scenarios/floor.json: golden/floor.csv: line 2: expected 1 cells, got 2 (not a trajectory file)\n");

  fs::remove("golden/floor.csv");
  fs::create_directories("golden/floor.csv");
  outcome = check_scenario("scenarios/floor.json", test_options());
  EXPECT_EQ(outcome.verdict, Verdict::Invalid) << outcome.report;
  EXPECT_EQ(outcome.summary, "cannot read golden golden/floor.csv: cannot open: Is a directory");
}

TEST_F(GateFiles, ParallelCheckReportsInInputOrder) {
  std::vector<std::string> files;
  for (int i = 0; i < 6; ++i) {
    const std::string path = "scenarios/s" + std::to_string(i) + ".json";
    write(path, i == 2 ? std::string("{") : scenario_json(3 + 7 * (5 - i)));
    files.push_back(path);
  }
  const GateOptions options = test_options();
  for (const std::string& file : files) {
    if (file != "scenarios/s2.json") bless_scenario(load_scenario_keeping_bytes(file), options);
  }
  fs::remove("golden/s4.csv");

  auto run = [&](int jobs) {
    std::string printed;
    const std::vector<CheckOutcome> outcomes =
        check_scenarios(files, options, jobs, [&](const CheckOutcome& o) { printed += o.report; });
    return printed + closing_line(outcomes) + " exit " + std::to_string(exit_code_for(outcomes));
  };
  const std::string serial = run(1);
  EXPECT_NE(serial.find("PASS scenarios/s0.json\nPASS scenarios/s1.json\nFAIL scenarios/s2.json: invalid"),
            std::string::npos)
      << serial;
  EXPECT_NE(serial.find("4 passed, 2 failed exit 2"), std::string::npos) << serial;
  EXPECT_EQ(run(4), serial);
  EXPECT_EQ(run(0), serial);
}

TEST(GateSummary, ClosingLineExitCodeAndJUnitCases) {
  CheckOutcome pass;
  pass.name = "scenarios/a.json";
  pass.scenario = pass.name;
  CheckOutcome fail = pass;
  fail.verdict = Verdict::Fail;
  fail.summary = "first divergence at tick 1";
  fail.report = "FAIL ...\n";
  const CheckOutcome orphan = orphan_outcome("golden/old/gone.csv", GateOptions{});
  EXPECT_EQ(orphan.report,
            "FAIL golden/old/gone.csv: orphan golden: no scenario maps to it (expected scenarios/old/gone.json); "
            "delete it or restore its scenario\n");

  EXPECT_EQ(closing_line({pass, fail, orphan}), "1 passed, 2 failed");
  EXPECT_EQ(closing_line({}), "0 passed, 0 failed");
  EXPECT_EQ(exit_code_for({pass}), 0);
  EXPECT_EQ(exit_code_for({pass, fail}), 1);
  CheckOutcome invalid = fail;
  invalid.verdict = Verdict::Invalid;
  EXPECT_EQ(exit_code_for({invalid, fail}), 2);

  const std::vector<JUnitCase> cases = junit_cases({pass, fail, orphan});
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_FALSE(cases[0].failed);
  EXPECT_TRUE(cases[1].failed);
  EXPECT_EQ(cases[1].failure_message, "first divergence at tick 1");
  EXPECT_EQ(cases[1].failure_text, "FAIL ...\n");
  EXPECT_EQ(cases[2].name, "golden/old/gone.csv");
}

}  // namespace
}  // namespace stepslide
