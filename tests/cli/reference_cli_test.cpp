// `stepslide run/check/bless --controller bullet` and `run --stats`, run as a
// user would: the real binary in a temp directory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "gate/core/csv.h"
#include "scenario/columns.h"
#include "support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using stepslide::test::contains;
using stepslide::test::read_text;
using stepslide::test::RunResult;

/// A character dropped 1 m onto a floor and left standing, walking forward
/// from tick 60; `expect` is the "expect" array's content.
std::string drop_and_walk(const std::string& expect) {
  return R"({"format": "stepslide/scenario@1", "ticks": 90, "character": {"position": [0, 1, 0]},
             "world": [{"shape": {"type": "box", "half_extents": [20, 0.5, 20]}, "position": [0, -0.5, 0]}],
             "input": [{"tick": 60, "move": [0, 1]}],
             "expect": [)" +
         expect + "]}";
}

class ReferenceCli : public stepslide::test::TempDirTest {};

TEST_F(ReferenceCli, RunBulletWritesTheFixedColumnsWithZerosWhereItHasNoEquivalent) {
  write("drop.json", drop_and_walk(""));
  const RunResult r = run("run drop.json --controller bullet");
  ASSERT_EQ(r.code, 0) << r.err;
  const stepslide::Expected<stepslide::Trajectory> t = stepslide::parse_csv(read("out/drop.csv"));
  ASSERT_TRUE(t) << t.error();
  ASSERT_GE(t->columns.size(), stepslide::fixed_columns().size());
  EXPECT_TRUE(std::equal(stepslide::fixed_columns().begin(), stepslide::fixed_columns().end(), t->columns.begin()));
  EXPECT_EQ(t->metadata.back(), " controller bullet");
  ASSERT_EQ(t->rows.size(), 91u);

  auto column = [&](const char* name) { return static_cast<std::size_t>(t->column_index(name)); };
  for (const auto& row : t->rows) {
    for (const char* none : {"normal_x", "normal_y", "normal_z", "step_dy", "camera_dy", "slide_iters", "depen_iters"}) {
      EXPECT_EQ(row[column(none)], 0.0) << none << " at tick " << row[0];
    }
  }
  for (std::size_t tick = 1; tick < t->rows.size(); ++tick) EXPECT_GT(t->rows[tick][column("sweeps")], 0.0);
  // It fell (airborne), landed and walked off along -Z.
  EXPECT_EQ(t->rows[10][column("grounded")], 0.0);
  EXPECT_EQ(t->rows[59][column("grounded")], 1.0);
  EXPECT_NEAR(t->rows[59][column("y")], 0.0, 1e-6);
  EXPECT_LT(t->rows[90][column("z")], -0.5);
  EXPECT_LT(t->rows[90][column("vz")], -1.0);
}

TEST_F(ReferenceCli, RunStatsPrintsCostAndLeavesTheCsvAlone) {
  write("drop.json", drop_and_walk(""));
  for (const char* controller : {"stepslide", "bullet"}) {
    const std::string plain = std::string("run drop.json --out-dir plain --controller ") + controller;
    const std::string stats = std::string("run drop.json --out-dir stats --stats --controller ") + controller;
    const RunResult without = run(plain);
    const RunResult with = run(stats);
    ASSERT_EQ(without.code, 0) << without.err;
    ASSERT_EQ(with.code, 0) << with.err;
    EXPECT_FALSE(contains(without.out, "us/tick"));
    const std::regex line(std::string("stats drop: min [0-9.e+-]+ us/tick, median [0-9.e+-]+ us/tick over 5 runs, "
                                      "[0-9.e+-]+ sweeps/tick \\(") +
                          controller + "\\)\n");
    EXPECT_TRUE(std::regex_search(with.out, line)) << with.out;
    EXPECT_EQ(read("plain/drop.csv"), read("stats/drop.csv")) << controller;
  }
}

TEST_F(ReferenceCli, CheckBulletEvaluatesExpectationsWithoutGoldens) {
  // No goldens at all: with our controller that is a failure per scenario;
  // with Bullet's only the expectations count.
  write("scenarios/lands.json", drop_and_walk(R"({"ticks": [59, 60], "grounded": true})"));
  write("scenarios/flies.json", drop_and_walk(R"({"tick": "end", "position": [0, 5, 0]})"));
  const RunResult ours = run("check");
  EXPECT_EQ(ours.code, 1);
  EXPECT_CONTAINS(ours.out, "missing golden");

  const RunResult bullet = run("check --controller bullet");
  EXPECT_EQ(bullet.code, 1) << bullet.err;
  EXPECT_CONTAINS(bullet.out, "PASS scenarios/lands.json (controller bullet, expectations only)");
  EXPECT_CONTAINS(bullet.out, "FAIL scenarios/flies.json: 1 expectation failed (controller bullet, expectations only)");
  EXPECT_CONTAINS(bullet.out, "scenarios/flies.json: /expect/0 at tick 90: feet at");
  EXPECT_FALSE(contains(bullet.out, "missing golden"));
  EXPECT_CONTAINS(bullet.out, "1 passed, 1 failed");

  EXPECT_EQ(run("check scenarios/lands.json --controller bullet").code, 0);
}

TEST_F(ReferenceCli, BlessRefusesBulletAndWritesNothing) {
  write("scenarios/lands.json", drop_and_walk(""));
  const RunResult r = run("bless --controller bullet");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "goldens record the stepslide controller only");
  EXPECT_FALSE(fs::exists(dir_ / "golden"));
}

TEST_F(ReferenceCli, UnknownControllerIsAUsageError) {
  write("drop.json", drop_and_walk(""));
  const RunResult r = run("run drop.json --controller havok");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "--controller");
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

}  // namespace
