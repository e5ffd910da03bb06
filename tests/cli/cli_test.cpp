// The `stepslide` executable, run as a user would: in a temp directory, with
// tiny scenarios written by the test, checking output and exit codes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using stepslide::test::contains;
using stepslide::test::read_text;
using stepslide::test::RunResult;

std::string floor_scenario(int ticks, const std::string& extra = "") {
  return R"({"format": "stepslide/scenario@1", "ticks": )" + std::to_string(ticks) +
         R"(, "world": [{"shape": {"type": "box", "half_extents": [5, 0.5, 5]}, "position": [0, -0.5, 0]}])" +
         (extra.empty() ? "" : ", " + extra) + "}";
}

const char* const kFailingExpectation = R"("expect": [{"tick": "end", "position": [0, 5, 0]}])";

class Cli : public stepslide::test::TempDirTest {};

// ---------------------------------------------------------------------------
// Usage, help, version

TEST_F(Cli, VersionPrintsTheFingerprint) {
  const RunResult r = run("--version");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "stepslide 0.");
  EXPECT_CONTAINS(r.out, "float64");
}

TEST_F(Cli, HelpExitsZeroAndDocumentsExitCodes) {
  for (const char* command : {"", "run ", "check ", "bless ", "diff ", "validate ", "settings "}) {
    const RunResult r = run(std::string(command) + "--help");
    EXPECT_EQ(r.code, 0) << command << r.err;
    EXPECT_CONTAINS(r.out, "Exit codes");
  }
}

TEST_F(Cli, UsageErrorsExitTwo) {
  EXPECT_EQ(run("").code, 2);
  EXPECT_EQ(run("frobnicate").code, 2);
  EXPECT_EQ(run("check --no-such-option").code, 2);
  EXPECT_EQ(run("diff only_one.csv").code, 2);
  EXPECT_EQ(run("check -j many").code, 2);
}

// ---------------------------------------------------------------------------
// validate

TEST_F(Cli, ValidateReportsEveryErrorWithFileAndJsonPath) {
  write("ok.json", floor_scenario(3));
  write("bad.json", R"({"format": "stepslide/scenario@1", "ticks": 0, "bogus": 1})");
  const RunResult r = run("validate ok.json bad.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.out, "ok ok.json");
  EXPECT_CONTAINS(r.err, "bad.json: /ticks");
  EXPECT_CONTAINS(r.err, "bad.json: /bogus");
  EXPECT_EQ(run("validate ok.json").code, 0);
  EXPECT_EQ(run("validate missing.json").code, 2);
}

// ---------------------------------------------------------------------------
// run

TEST_F(Cli, RunWritesCsvWithMetadataAndPrintsASummary) {
  write("floor.json", floor_scenario(4));
  const RunResult r = run("run floor.json");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "floor: 4 ticks, feet (");
  EXPECT_CONTAINS(r.out, "expectations ok");
  const std::string csv = read("out/floor.csv");
  EXPECT_EQ(csv.rfind("# stepslide trajectory 1\n# scenario floor fnv1a64:", 0), 0u) << csv;
  EXPECT_CONTAINS(csv, "\n# build stepslide ");
  EXPECT_CONTAINS(csv, "\ntick,time,x,y,z,vx,vy,vz,grounded,");

  const RunResult again = run("run floor.json --out again.csv");
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(read("again.csv"), csv) << "runs must be byte-identical";
}

TEST_F(Cli, RunToStdoutKeepsTheSummaryOnStderr) {
  write("floor.json", floor_scenario(2));
  const RunResult r = run("run floor.json --out -");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("# stepslide trajectory 1\n", 0), 0u) << r.out;
  EXPECT_CONTAINS(r.err, "floor: 2 ticks");
}

TEST_F(Cli, RunOutTakesOneScenario) {
  write("a.json", floor_scenario(2));
  write("b.json", floor_scenario(2));
  const RunResult r = run("run a.json b.json --out x.csv");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "--out");
  EXPECT_FALSE(exists("x.csv"));
  EXPECT_EQ(run("run a.json --out x.csv --out-dir d").code, 2);
}

TEST_F(Cli, RunRunsTheValidScenariosAndNamesTheInvalidOnes) {
  write("a.json", floor_scenario(2));
  write("b.json", R"({"format": "stepslide/scenario@1", "ticks": -1})");
  const RunResult r = run("run a.json b.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "b.json: /ticks");
  EXPECT_CONTAINS(r.err, "error: 1 invalid scenario not run; ran the 1 valid\n");
  EXPECT_CONTAINS(r.out, "a: 2 ticks, feet (");
  EXPECT_TRUE(exists("out/a.csv"));
  EXPECT_FALSE(exists("out/b.csv"));
}

TEST_F(Cli, RunFailedExpectationExitsOneButWritesTheTrajectory) {
  write("floor.json", floor_scenario(3, kFailingExpectation));
  const RunResult r = run("run floor.json");
  EXPECT_EQ(r.code, 1);
  EXPECT_CONTAINS(r.out, "expectations 1 failed");
  EXPECT_CONTAINS(r.out, "floor.json: /expect/0 at tick 3: ");
  EXPECT_TRUE(exists("out/floor.csv"));
}

TEST_F(Cli, RunKeepsTheFoldersOfTwoScenariosWithOneName) {
  write("a/floor.json", floor_scenario(2));
  write("b/floor.json", floor_scenario(2));
  const RunResult r = run("run a b");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, " -> out/a/floor.csv\n");
  EXPECT_CONTAINS(r.out, " -> out/b/floor.csv\n");
  EXPECT_TRUE(exists("out/a/floor.csv"));
  EXPECT_TRUE(exists("out/b/floor.csv"));
}

// ---------------------------------------------------------------------------
// bless and check

TEST_F(Cli, CheckFailsOnAMissingGoldenUntilBlessed) {
  write("scenarios/walk/floor.json", floor_scenario(3));
  RunResult r = run("check");
  EXPECT_EQ(r.code, 1);
  EXPECT_CONTAINS(r.out, "FAIL scenarios/walk/floor.json: missing golden golden/walk/floor.csv");
  EXPECT_CONTAINS(r.out, "\n0 passed, 1 failed\n");

  r = run("bless");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "blessed golden/walk/floor.csv (new)\n");

  r = run("check");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "PASS scenarios/walk/floor.json\n1 passed, 0 failed\n");
}

TEST_F(Cli, BlessRefusesUnderCiUnlessForced) {
  write("scenarios/floor.json", floor_scenario(2));
  RunResult r = run("bless", "CI=true");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "CI");
  EXPECT_CONTAINS(r.err, "--force");
  EXPECT_FALSE(exists("golden"));
  r = run("bless --force", "CI=true");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(exists("golden/floor.csv"));
  EXPECT_EQ(run("bless", "CI=").code, 0) << "an empty CI is unset";
}

TEST_F(Cli, BlessSkipsScenariosWhoseExpectationsFail) {
  write("scenarios/good.json", floor_scenario(2));
  write("scenarios/wrong.json", floor_scenario(2, kFailingExpectation));
  const RunResult r = run("bless");
  EXPECT_EQ(r.code, 1);
  EXPECT_CONTAINS(r.out, "blessed golden/good.csv (new)");
  EXPECT_CONTAINS(r.err, "not blessed golden/wrong.csv");
  EXPECT_TRUE(exists("golden/good.csv"));
  EXPECT_FALSE(exists("golden/wrong.csv"));
}

/// Rewrites the golden at `path`, changing the y value of data row `row`.
void change_golden_y(const fs::path& path, int row, const std::string& y) {
  std::istringstream in(read_text(path));
  std::string line, out;
  int data_row = -2;  // the header is row -1
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') ++data_row;
    if (data_row == row) {
      std::vector<std::string> cells;
      std::stringstream fields(line);
      std::string cell;
      while (std::getline(fields, cell, ',')) cells.push_back(cell);
      cells.at(3) = y;
      line.clear();
      for (std::size_t i = 0; i < cells.size(); ++i) line += (i ? "," : "") + cells[i];
    }
    out += line + "\n";
  }
  std::ofstream(path, std::ios::binary) << out;
}

TEST_F(Cli, CheckReportsTheFirstDivergenceAndWritesJUnit) {
  write("scenarios/floor.json", floor_scenario(5));
  ASSERT_EQ(run("bless").code, 0);
  change_golden_y(dir_ / "golden/floor.csv", 2, "0.125");

  const RunResult r = run("check --junit report/junit.xml");
  EXPECT_EQ(r.code, 1);
  EXPECT_CONTAINS(r.out, "FAIL scenarios/floor.json: trajectory differs from golden golden/floor.csv\n");
  EXPECT_CONTAINS(r.out, "0.125");
  EXPECT_CONTAINS(r.out, "\n0 passed, 1 failed\n");
  const std::string xml = read("report/junit.xml");
  EXPECT_CONTAINS(xml, "<testsuites");
  EXPECT_CONTAINS(xml, "scenarios/floor.json");
  EXPECT_CONTAINS(xml, "first divergence at tick 2, column y");

  EXPECT_EQ(run("check --tol y=1").code, 0);
  EXPECT_EQ(run("check --tol nope=1").code, 2);
  EXPECT_EQ(run("diff golden/floor.csv golden/floor.csv --exact").code, 0);
}

TEST_F(Cli, TolForAColumnNoRunnerWritesIsRefusedWithTheColumnsThatExist) {
  write("scenarios/floor.json", floor_scenario(3));
  ASSERT_EQ(run("bless").code, 0);
  for (const char* command : {"check --tol crushed=1", "diff golden/floor.csv golden/floor.csv --tol crushed=1"}) {
    const RunResult r = run(command);
    EXPECT_EQ(r.code, 2) << command;
    EXPECT_EQ(r.out, "") << command;
    EXPECT_EQ(r.err,
              "error: --tol 'crushed=1': unknown column 'crushed' (known: camera_dy, depen_iters, ground_body, "
              "grounded, local_x, local_y, local_z, normal_x, normal_y, normal_z, slide_iters, step_dy, stuck, sweeps, "
              "tick, time, vx, vy, vz, x, y, z)\n")
        << command;
  }
  EXPECT_EQ(run("check --tol stuck=1 --tol ground_body=0").code, 0);
}

TEST_F(Cli, ParallelCheckPrintsExactlyWhatSerialPrints) {
  for (int i = 0; i < 5; ++i) write("scenarios/s" + std::to_string(i) + ".json", floor_scenario(2 + 9 * (4 - i)));
  ASSERT_EQ(run("bless").code, 0);
  fs::remove(dir_ / "golden/s3.csv");
  write("scenarios/s1.json", "{ broken");
  const RunResult serial = run("check -j 1");
  const RunResult parallel = run("check -j 4");
  EXPECT_EQ(serial.code, 2) << serial.out;
  EXPECT_EQ(parallel.code, 2);
  EXPECT_EQ(parallel.out, serial.out);
  EXPECT_CONTAINS(serial.out, "3 passed, 2 failed");
}

TEST_F(Cli, OrphanGoldensFailOnlyAFullUnshardedRun) {
  write("scenarios/a.json", floor_scenario(2));
  ASSERT_EQ(run("bless").code, 0);
  write("golden/old/removed.csv", read("golden/a.csv"));
  RunResult r = run("check");
  EXPECT_EQ(r.code, 1);
  EXPECT_CONTAINS(r.out, "FAIL golden/old/removed.csv: orphan golden");
  EXPECT_CONTAINS(r.out, "1 passed, 1 failed");
  EXPECT_EQ(run("check scenarios/a.json").code, 0);
  EXPECT_EQ(run("check", "GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=0").code, 0);
}

TEST_F(Cli, ShardingSplitsTheSortedList) {
  for (const char* name : {"a", "b", "c"}) write(std::string("scenarios/") + name + ".json", floor_scenario(2));
  ASSERT_EQ(run("bless").code, 0);
  RunResult r = run("check", "TEST_TOTAL_SHARDS=2 TEST_SHARD_INDEX=1 TEST_SHARD_STATUS_FILE=shard_status");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "PASS scenarios/b.json\n1 passed, 0 failed\n");
  EXPECT_TRUE(exists("shard_status"));
  r = run("check", "GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=0");
  EXPECT_EQ(r.out, "PASS scenarios/a.json\nPASS scenarios/c.json\n2 passed, 0 failed\n");
  r = run("check", "GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=7");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "GTEST_SHARD_INDEX");
}

// A scenario outside the root has no golden (golden/<file name>.csv would
// fail the next full check as an orphan), and the report gives the roots
// under which it would have one.
TEST_F(Cli, CheckOutsideTheRootGivesRootsOfItsOwn) {
  write("scenarios/a.json", floor_scenario(2));
  write("bugs/report.json", floor_scenario(2));
  const RunResult r = run("check bugs/report.json");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out,
            "FAIL bugs/report.json: outside the scenario root 'scenarios', so no golden maps to it\n"
            "hint: give it roots of its own: `stepslide bless --scenario-root bugs --golden-dir bugs/golden "
            "bugs/report.json`, then `stepslide check --scenario-root bugs --golden-dir bugs/golden "
            "bugs/report.json`; or move it under scenarios/\n"
            "0 passed, 1 failed\n");
  EXPECT_FALSE(exists("golden/report.csv"));
  EXPECT_FALSE(exists("golden/report.csv.new")) << "no pending result without a golden to stand in for";
  EXPECT_EQ(run("check nowhere.json").code, 2);
  EXPECT_EQ(run("bless --scenario-root bugs --golden-dir bugs/golden bugs/report.json").code, 0);
  EXPECT_EQ(run("check --scenario-root bugs --golden-dir bugs/golden bugs/report.json").code, 0);
  EXPECT_EQ(run("bless").code, 0);
  EXPECT_EQ(run("check").out, "PASS scenarios/a.json\n1 passed, 0 failed\n") << "no orphans in golden/";
}

TEST_F(Cli, CheckWithoutAScenarioRootSaysWhere) {
  const RunResult r = run("check");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "scenario root 'scenarios' is not a directory");
}

TEST_F(Cli, TolTakesOneValueSoPathsMayFollowIt) {
  write("scenarios/a.json", floor_scenario(2));
  write("scenarios/b.json", floor_scenario(2));
  ASSERT_EQ(run("bless").code, 0);
  const RunResult r = run("check --tol y=1e-4 scenarios/a.json --exact --tol x=0 scenarios/b.json");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "PASS scenarios/a.json\nPASS scenarios/b.json\n2 passed, 0 failed\n");
}

TEST_F(Cli, CustomRootsMapGoldensAndAppearInTheBlessHint) {
  write("cases/x/y.json", floor_scenario(2));
  const RunResult r = run("check --scenario-root cases --golden-dir expected");
  EXPECT_EQ(r.code, 1);
  EXPECT_CONTAINS(r.out, "missing golden expected/x/y.csv "
                         "(run `stepslide bless --scenario-root cases --golden-dir expected cases/x/y.json`)");
  EXPECT_EQ(run("bless --scenario-root cases --golden-dir expected cases/x/y.json").code, 0);
  EXPECT_EQ(run("check --scenario-root cases --golden-dir expected").code, 0);
}

// ---------------------------------------------------------------------------
// diff

TEST_F(Cli, DiffExitCodes) {
  write("a.csv", "tick,time,x\n0,0,1\n1,0.5,2\n");
  write("b.csv", "tick,time,x\n0,0,1\n1,0.5,2.5\n");
  write("broken.csv", "tick,time\n0,zero\n");
  EXPECT_EQ(run("diff a.csv a.csv").code, 0);
  RunResult r = run("diff a.csv b.csv");
  EXPECT_EQ(r.code, 1);
  EXPECT_CONTAINS(r.out, "first divergence at tick 1, column x: expected 2, got 2.5");
  EXPECT_EQ(run("diff a.csv b.csv --tol x=1").code, 0);
  r = run("diff a.csv broken.csv");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "broken.csv");
  r = run("diff a.csv missing.csv");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "missing.csv");
}

// ---------------------------------------------------------------------------
// settings

TEST_F(Cli, SettingsListsEveryNameWithDefaultAndUnit) {
  RunResult r = run("settings");
  EXPECT_EQ(r.code, 0);
  for (const char* name : {"max_step_height", "min_step_depth", "max_slope_deg", "step_down_height", "skin_width",
                           "max_slide_iterations", "max_depenetration_iterations", "step_up_slide_iterations",
                           "walk_speed", "ground_acceleration", "air_acceleration", "friction", "jump_speed",
                           "terminal_velocity", "camera_smoothing"}) {
    EXPECT_CONTAINS(r.out, name);
  }
  EXPECT_CONTAINS(r.out, "max_step_height");
  EXPECT_CONTAINS(r.out, "0.35");

  r = run("settings --json");
  EXPECT_EQ(r.code, 0);
  const nlohmann::json json = nlohmann::json::parse(r.out);
  ASSERT_TRUE(json.is_array());
  EXPECT_EQ(json[0]["name"], "max_step_height");
  EXPECT_EQ(json[0]["default"], 0.35);
  EXPECT_EQ(json[0]["unit"], "m");
}

}  // namespace
