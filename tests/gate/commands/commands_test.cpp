// The commands as library calls (check_run.h, bless.h, run.h,
// compare_files.h, validate.h): the policy the CLI used to hold, tested
// without a process. tests/cli_test.cpp runs the same through the executable.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

#include "gate/commands/bless.h"
#include "gate/commands/check_run.h"
#include "gate/commands/compare_files.h"
#include "gate/commands/run.h"
#include "gate/commands/trace_run.h"
#include "gate/commands/validate.h"
#include "gate/core/csv.h"
#include "support/temp_dir.h"

namespace stepslide {
namespace {

namespace fs = std::filesystem;

/// A fresh directory per test, removed afterwards; the process works inside it.
class GateCommands : public test::WorkingDirTest {
 protected:
  /// Blesses every scenario under scenarios/.
  static void bless_all() {
    BlessRequest request;
    request.fingerprint = "test build";
    ASSERT_EQ(run_bless(request).exit_code, kExitOk);
  }
};

std::string floor_json(int ticks, const std::string& extra = "") {
  return R"({"format": "stepslide/scenario@1", "ticks": )" + std::to_string(ticks) +
         R"(, "world": [{"shape": {"type": "box", "half_extents": [5, 0.5, 5]}, "position": [0, -0.5, 0]}])" +
         (extra.empty() ? "" : ", " + extra) + "}";
}

EnvLookup env_of(const std::map<std::string, std::string>& vars) {
  return [vars](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

CheckRequest check_request() {
  CheckRequest request;
  request.fingerprint = "test build";
  return request;
}

/// What a listener saw, in order.
struct Heard {
  std::vector<std::string> started;
  std::vector<std::string> outcomes;
  std::string warnings;
};

void listen(CheckRequest& request, Heard& heard) {
  request.listener.on_start = [&heard](const std::vector<std::string>& files) { heard.started = files; };
  request.listener.on_outcome = [&heard](const CheckOutcome& o) { heard.outcomes.push_back(o.name); };
  request.listener.on_warning = [&heard](const std::string& text) { heard.warnings += text; };
}

// ---------------------------------------------------------------------------
// check

TEST_F(GateCommands, CheckOfTheWholeRootAddsOrphansAfterTheScenarios) {
  write("scenarios/a.json", floor_json(3));
  write("scenarios/b.json", floor_json(4));
  bless_all();
  write("golden/gone.csv", "tick\n0\n");
  CheckRequest request = check_request();
  Heard heard;
  listen(request, heard);
  const CheckRun run = run_check(request);
  EXPECT_EQ(run.errors, "");
  EXPECT_EQ(heard.started, (std::vector<std::string>{"scenarios/a.json", "scenarios/b.json"}));
  EXPECT_EQ(heard.outcomes, (std::vector<std::string>{"scenarios/a.json", "scenarios/b.json", "golden/gone.csv"}));
  ASSERT_EQ(run.outcomes.size(), 3u);
  EXPECT_EQ(run.outcomes[2].report.rfind("FAIL golden/gone.csv: orphan golden", 0), 0u) << run.outcomes[2].report;
  EXPECT_EQ(closing_line(run.outcomes), "2 passed, 1 failed");
  EXPECT_EQ(run.exit_code, kExitFailure);
  EXPECT_FALSE(run.self_checked);
}

TEST_F(GateCommands, OrphansCountOnlyForTheWholeRootUnshardedWithOurController) {
  write("scenarios/a.json", floor_json(3));
  write("scenarios/b.json", floor_json(3));
  bless_all();
  write("golden/gone.csv", "tick\n0\n");

  CheckRequest some = check_request();
  some.paths = {"scenarios/a.json"};
  EXPECT_EQ(run_check(some).exit_code, kExitOk) << "a named file is not the whole root";

  CheckRequest sharded = check_request();
  sharded.env = env_of({{"GTEST_TOTAL_SHARDS", "2"}, {"GTEST_SHARD_INDEX", "1"}});
  const CheckRun shard = run_check(sharded);
  EXPECT_EQ(shard.exit_code, kExitOk);
  ASSERT_EQ(shard.outcomes.size(), 1u);
  EXPECT_EQ(shard.outcomes[0].name, "scenarios/b.json");

  CheckRequest bullet = check_request();
  bullet.controller = "bullet";
  const CheckRun reference = run_check(bullet);
  EXPECT_EQ(reference.outcomes.size(), 2u) << "goldens are not compared, so none is an orphan";
}

TEST_F(GateCommands, CheckRefusesBadRequestsBeforeCheckingAnything) {
  write("scenarios/a.json", floor_json(3));
  const std::map<std::string, std::function<void(CheckRequest&)>> bad = {
      {"error: --tol 'crushed=1': unknown column 'crushed' (known: ",
       [](CheckRequest& r) { r.tolerances = {"crushed=1"}; }},
      {"error: -j -1: expected 0 (one per core) or more\n", [](CheckRequest& r) { r.jobs = -1; }},
      {"error: --controller nope: expected stepslide or bullet\n", [](CheckRequest& r) { r.controller = "nope"; }},
      {"error: GTEST_SHARD_INDEX is not set but GTEST_TOTAL_SHARDS is: set both or neither\n",
       [](CheckRequest& r) { r.env = env_of({{"GTEST_TOTAL_SHARDS", "2"}}); }},
      {"error: scenario root 'nowhere' is not a directory: ", [](CheckRequest& r) { r.scenario_root = "nowhere"; }},
      {"error: missing.json: no such file or directory\n", [](CheckRequest& r) { r.paths = {"missing.json"}; }},
  };
  for (const auto& [error, spoil] : bad) {
    CheckRequest request = check_request();
    spoil(request);
    Heard heard;
    listen(request, heard);
    const CheckRun run = run_check(request);
    EXPECT_EQ(run.exit_code, kExitInvalid) << error;
    EXPECT_EQ(run.errors.rfind(error, 0), 0u) << run.errors;
    EXPECT_TRUE(run.outcomes.empty());
    EXPECT_TRUE(heard.outcomes.empty());
  }
}

TEST_F(GateCommands, AnUntouchableShardStatusFileIsOnlyAWarning) {
  write("scenarios/a.json", floor_json(3));
  bless_all();
  CheckRequest request = check_request();
  request.env = env_of({{"TEST_TOTAL_SHARDS", "1"}, {"TEST_SHARD_INDEX", "0"},
                        {"TEST_SHARD_STATUS_FILE", "no/such/dir/status"}});
  Heard heard;
  listen(request, heard);
  const CheckRun run = run_check(request);
  EXPECT_EQ(heard.warnings,
            "warning: cannot create the shard status file no/such/dir/status: No such file or directory\n");
  EXPECT_EQ(run.exit_code, kExitOk);
}

TEST_F(GateCommands, CheckWritesJUnitAndTheReport) {
  write("scenarios/a.json", floor_json(3));
  CheckRequest request = check_request();
  request.junit = "out/junit.xml";
  request.report_dir = "out/report";
  const CheckRun run = run_check(request);
  EXPECT_EQ(run.exit_code, kExitFailure) << "the golden is missing";
  EXPECT_EQ(run.report_page, "out/report/index.html");
  EXPECT_EQ(run.report_error, "");
  EXPECT_EQ(run.junit_error, "");
  EXPECT_NE(read("out/junit.xml").find("missing golden golden/a.csv"), std::string::npos);
  EXPECT_NE(read("out/report/index.html").find("scenarios/a.json"), std::string::npos);
}

TEST_F(GateCommands, UnwritableReportAndJUnitMakeTheRunInvalid) {
  write("scenarios/a.json", floor_json(3));
  bless_all();
  write("blocker", "a file where a directory should be");
  CheckRequest report = check_request();
  report.report_dir = "blocker";
  const CheckRun with_report = run_check(report);
  EXPECT_EQ(with_report.exit_code, kExitInvalid);
  EXPECT_EQ(with_report.report_page, "");
  EXPECT_EQ(with_report.report_error.rfind("error: cannot write blocker/index.html: ", 0), 0u)
      << with_report.report_error;

  CheckRequest junit = check_request();
  junit.junit = "blocker/junit.xml";
  const CheckRun with_junit = run_check(junit);
  EXPECT_EQ(with_junit.exit_code, kExitInvalid);
  EXPECT_EQ(with_junit.junit_error.rfind("error: cannot write blocker/junit.xml: ", 0), 0u) << with_junit.junit_error;
}

TEST_F(GateCommands, SelfCheckRunsEveryScenarioOfTheShardTwice) {
  write("scenarios/a.json", floor_json(3));
  write("scenarios/b.json", floor_json(3));
  bless_all();
  CheckRequest request = check_request();
  request.self_check = true;
  const CheckRun run = run_check(request);
  EXPECT_TRUE(run.self_checked);
  ASSERT_EQ(run.self_check.size(), 2u);
  EXPECT_EQ(self_check_line(run.self_check), "self-check: 2 scenarios run twice in one process, 0 nondeterministic");
  EXPECT_EQ(run.exit_code, kExitOk);
}

// ---------------------------------------------------------------------------
// bless

TEST_F(GateCommands, BlessRefusesCiAndOtherControllers) {
  write("scenarios/a.json", floor_json(3));
  BlessRequest ci;
  ci.env = env_of({{"CI", "true"}});
  const BlessRun refused = run_bless(ci);
  EXPECT_EQ(refused.exit_code, kExitInvalid);
  EXPECT_EQ(refused.errors.rfind("error: refusing to bless: the CI environment variable is set (CI=true)", 0), 0u)
      << refused.errors;
  EXPECT_FALSE(fs::exists("golden/a.csv"));
  ci.force = true;
  EXPECT_EQ(run_bless(ci).exit_code, kExitOk);
  EXPECT_TRUE(fs::exists("golden/a.csv"));

  BlessRequest bullet;
  bullet.controller = "bullet";
  EXPECT_EQ(run_bless(bullet).errors,
            "error: bless --controller bullet: goldens record the stepslide controller only; use `check "
            "--controller bullet` to evaluate its expectations\n");
}

TEST_F(GateCommands, OneInvalidScenarioAndNothingIsBlessed) {
  write("scenarios/a.json", floor_json(3));
  write("scenarios/b.json", R"({"format": "stepslide/scenario@1"})");
  BlessRequest request;
  std::vector<std::string> heard;
  request.on_outcome = [&heard](const BlessOutcome& o) { heard.push_back(o.golden); };
  const BlessRun run = run_bless(request);
  EXPECT_EQ(run.exit_code, kExitInvalid);
  EXPECT_EQ(run.errors.rfind("scenarios/b.json: ", 0), 0u) << run.errors;
  EXPECT_TRUE(heard.empty());
  EXPECT_FALSE(fs::exists("golden/a.csv"));
}

TEST_F(GateCommands, BlessReportsEachGoldenAndTheOrphans) {
  write("scenarios/a.json", floor_json(3));
  write("scenarios/b.json", floor_json(3, R"("expect": [{"tick": "end", "position": [0, 5, 0]}])"));
  write("golden/gone.csv", "tick\n0\n");
  BlessRequest request;
  std::vector<std::string> heard;
  request.on_outcome = [&heard](const BlessOutcome& o) { heard.push_back(o.report); };
  const BlessRun run = run_bless(request);
  EXPECT_EQ(run.exit_code, kExitFailure) << "b fails its own expectation";
  ASSERT_EQ(heard.size(), 2u);
  EXPECT_EQ(heard[0], "blessed golden/a.csv (new)\n");
  EXPECT_EQ(heard[1].rfind("not blessed golden/b.csv: scenarios/b.json fails 1 expectation", 0), 0u) << heard[1];
  EXPECT_EQ(run.orphans, std::vector<std::string>{"golden/gone.csv"});
  EXPECT_EQ(orphan_note("golden/gone.csv"),
            "note: golden/gone.csv has no scenario; `stepslide check` fails on it until it is deleted");
}

// ---------------------------------------------------------------------------
// run, diff, validate, trace

TEST_F(GateCommands, RunWritesEachScenarioAndSummarisesIt) {
  write("scenarios/a.json", floor_json(3));
  RunRequest request;
  request.scenarios = {"scenarios"};
  request.fingerprint = "test build";
  const RunResult result = run_scenarios(request);
  EXPECT_EQ(result.exit_code, kExitOk) << result.errors;
  ASSERT_EQ(result.items.size(), 1u);
  EXPECT_EQ(result.items[0].csv, "") << "written to a file, not handed back";
  EXPECT_EQ(result.items[0].report.rfind("a: 3 ticks, feet (", 0), 0u) << result.items[0].report;
  EXPECT_NE(result.items[0].report.find(" -> out/a.csv\n"), std::string::npos) << result.items[0].report;
  const Expected<Trajectory> written = read_trajectory_file("out/a.csv");
  ASSERT_TRUE(written) << written.error();
  EXPECT_EQ(written->rows.size(), 4u);

  request.out = "-";
  request.scenarios = {"scenarios/a.json"};
  const RunResult to_stdout = run_scenarios(request);
  ASSERT_EQ(to_stdout.items.size(), 1u);
  EXPECT_EQ(to_stdout.items[0].csv, read("out/a.csv"));
}

TEST_F(GateCommands, RunKeepsTheFoldersOfScenariosThatShareAName) {
  write("one/a.json", floor_json(3));
  write("two/a.json", floor_json(3));
  write("two/b.json", floor_json(3));
  RunRequest request;
  request.scenarios = {"one", "two"};
  const RunResult result = run_scenarios(request);
  EXPECT_EQ(result.exit_code, kExitOk) << result.errors;
  EXPECT_TRUE(fs::exists("out/one/a.csv"));
  EXPECT_TRUE(fs::exists("out/two/a.csv"));
  EXPECT_TRUE(fs::exists("out/b.csv")) << "a name of its own stays at the top";
}

TEST_F(GateCommands, RunRunsTheValidScenariosAndReportsTheInvalidOnes) {
  write("scenarios/a.json", floor_json(3));
  write("scenarios/b.json", R"({"format": "stepslide/scenario@1"})");
  write("scenarios/c.json", floor_json(3));
  RunRequest request;
  request.scenarios = {"scenarios"};
  const RunResult result = run_scenarios(request);
  EXPECT_EQ(result.exit_code, kExitInvalid);
  ASSERT_EQ(result.items.size(), 2u);
  EXPECT_EQ(result.items[0].scenario, "scenarios/a.json");
  EXPECT_EQ(result.items[1].scenario, "scenarios/c.json");
  EXPECT_TRUE(fs::exists("out/a.csv"));
  EXPECT_TRUE(fs::exists("out/c.csv"));
  EXPECT_EQ(result.errors.rfind("scenarios/b.json: ", 0), 0u) << result.errors;
  EXPECT_CONTAINS(result.errors, "error: 1 invalid scenario not run; ran the 2 valid\n");
}

TEST_F(GateCommands, CompareFilesSaysWhetherTwoTrajectoriesMatch) {
  write("a.csv", "# build one\ntick,y\n0,1\n1,2\n");
  write("b.csv", "# build two\ntick,y\n0,1\n1,2.5\n");
  CompareRequest same{"a.csv", "a.csv", {}, false, {}, {}};
  EXPECT_EQ(compare_trajectory_files(same).text, "no differences: a.csv matches a.csv\n");
  CompareRequest different{"a.csv", "b.csv", {}, false, {}, {}};
  const CompareResult result = compare_trajectory_files(different);
  EXPECT_EQ(result.exit_code, kExitFailure);
  EXPECT_EQ(result.text.rfind("b.csv differs from a.csv\n"
                              "note: the files were written by different builds: one (a.csv) and two (b.csv)\n"
                              "first divergence at tick 1, column y: expected 2, got 2.5",
                              0),
            0u)
      << result.text;
  CompareRequest missing{"a.csv", "nope.csv", {}, false, {}, {}};
  EXPECT_EQ(compare_trajectory_files(missing).errors.rfind("error: nope.csv: cannot open: ", 0), 0u);
  CompareRequest dead{"a.csv", "b.csv", {"crushed=1"}, false, {}, {}};
  EXPECT_EQ(compare_trajectory_files(dead).exit_code, kExitInvalid);
}

TEST_F(GateCommands, ValidateReportsEveryFile) {
  write("s/ok.json", floor_json(3));
  write("s/bad.json", R"({"format": "stepslide/scenario@1"})");
  const ValidateResult result = validate_scenarios({"s"});
  EXPECT_EQ(result.exit_code, kExitInvalid);
  ASSERT_EQ(result.files.size(), 2u);
  EXPECT_EQ(result.files[0].path, "s/bad.json");
  EXPECT_FALSE(result.files[0].valid);
  EXPECT_EQ(result.files[0].errors.rfind("s/bad.json: ", 0), 0u) << result.files[0].errors;
  EXPECT_TRUE(result.files[1].valid);
  EXPECT_EQ(validate_scenarios({"nothing_here"}).errors, "error: nothing_here: no such file or directory\n");
}

TEST_F(GateCommands, TraceNeedsTicksInsideTheScenario) {
  write("a.json", floor_json(3));
  TraceFileRequest request;
  request.scenario = "a.json";
  request.tick = "2";
  const TraceFileResult traced = trace_scenario_file(request);
  EXPECT_EQ(traced.exit_code, kExitOk) << traced.errors;
  EXPECT_NE(traced.text, "");
  request.to = "4";
  EXPECT_EQ(trace_scenario_file(request).errors,
            "a.json: ticks to trace must satisfy 1 <= --tick <= --to <= 3 (the scenario's ticks; end is 3), got --tick 2 "
            "--to 4\n");
  request.scenario = "missing.json";
  EXPECT_EQ(trace_scenario_file(request).errors.rfind("missing.json: ", 0), 0u);
}

}  // namespace
}  // namespace stepslide
