// `stepslide run --stats`: each scenario is timed over --repeat runs and the
// minimum and median reported. Wall time is never asserted; only how the line
// is written and that the runs happen.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gate/commands/run.h"
#include "scenario/load/load.h"
#include "support/temp_dir.h"

namespace stepslide::test {
namespace {

Scenario named(const std::string& name, std::int64_t ticks) {
  Scenario s;
  s.name = name;
  s.ticks = ticks;
  return s;
}

TEST(RunStatsLine, GivesTheMinimumAndTheMedianOfTheRuns) {
  const Scenario s = named("up_straight", 100);
  // 100 ticks: 1e-4 s is 1 us/tick.
  EXPECT_EQ(run_stats_line(s, {3e-4, 1e-4, 2e-4, 5e-4, 4e-4}, 250, ControllerKind::Stepslide),
            "up_straight: min 1 us/tick, median 3 us/tick over 5 runs, 2.5 sweeps/tick (stepslide)");
  EXPECT_EQ(run_stats_line(s, {4e-4, 1e-4, 2e-4, 8e-4}, 250, ControllerKind::Bullet),
            "up_straight: min 1 us/tick, median 3 us/tick over 4 runs, 2.5 sweeps/tick (bullet)")
      << "an even count takes the mean of the middle two";
  EXPECT_EQ(run_stats_line(s, {1.2345e-3}, 100, ControllerKind::Stepslide),
            "up_straight: min 12.3 us/tick, median 12.3 us/tick over 1 run, 1 sweeps/tick (stepslide)");
}

class RunStats : public WorkingDirTest {};

TEST_F(RunStats, RunsEachScenarioRepeatTimesAndWritesTheFirstRunsCsv) {
  RunRequest request;
  request.scenarios = {std::string(STEPSLIDE_SOURCE_DIR) + "/scenarios/basics/walk_flat.json"};
  request.out_dir = "stats";
  request.stats = true;
  request.repeat = 3;
  const stepslide::RunResult result = run_scenarios(request);
  ASSERT_EQ(result.exit_code, 0) << result.errors;
  ASSERT_EQ(result.items.size(), 1u);
  const RunItem& item = result.items[0];
  ASSERT_EQ(item.update_seconds.size(), 3u) << "three timed runs";
  for (const double seconds : item.update_seconds) EXPECT_GT(seconds, 0.0);
  EXPECT_TRUE(contains(item.report, "stats walk_flat: min ")) << item.report;
  EXPECT_TRUE(contains(item.report, " us/tick over 3 runs, ")) << item.report;

  request.stats = false;
  request.out_dir = "plain";
  const stepslide::RunResult plain = run_scenarios(request);
  ASSERT_EQ(plain.exit_code, 0) << plain.errors;
  EXPECT_TRUE(plain.items[0].update_seconds.empty()) << "timed only when asked";
  EXPECT_FALSE(contains(plain.items[0].report, "us/tick"));
  EXPECT_EQ(read("stats/walk_flat.csv"), read("plain/walk_flat.csv"));
}

TEST_F(RunStats, RefusesFewerThanOneRun) {
  RunRequest request;
  request.scenarios = {std::string(STEPSLIDE_SOURCE_DIR) + "/scenarios/basics/walk_flat.json"};
  request.out_dir = "out";
  request.stats = true;
  request.repeat = 0;
  const stepslide::RunResult result = run_scenarios(request);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.errors, "error: --repeat 0: expected 1 or more runs\n");
  EXPECT_FALSE(exists("out"));
}

TEST_F(RunStats, TheCommandTakesRepeatOnlyWithStats) {
  const std::string scenario = quoted(std::string(STEPSLIDE_SOURCE_DIR) + "/scenarios/basics/walk_flat.json");
  ::stepslide::test::RunResult r = run("run " + scenario + " --out-dir a --stats --repeat 2");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, " us/tick over 2 runs, ")) << r.out;
  r = run("run " + scenario + " --out-dir b --repeat 2");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "--repeat requires --stats")) << r.err;
  EXPECT_FALSE(exists("b"));
}

}  // namespace
}  // namespace stepslide::test
