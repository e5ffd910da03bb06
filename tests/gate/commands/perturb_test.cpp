// check --perturb (gate/commands/perturb.h): the perturbation of each run (its size,
// what it moves, that run k is always the same), the spread per column group,
// the verdicts (steady, fragile, declared chaotic), and the command's output
// and exit codes.
#include "gate/commands/perturb.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "scenario/load/load.h"
#include "support/temp_dir.h"

namespace stepslide {
namespace {

using test::RunResult;
using test::TempDirTest;

Scenario load(const std::string& text) {
  LoadResult result = load_scenario_text(text, "t.json");
  EXPECT_TRUE(result.scenario) << format_load_errors(result);
  return result.scenario ? *result.scenario : Scenario{};
}

/// A floor, a static wall, a keyframed box and a spinning disc.
const char* const kWorld = R"({"format": "stepslide/scenario@1", "ticks": 30,
  "character": {"position": [0, 0.01, 0]},
  "world": [
    {"shape": {"type": "box", "half_extents": [10, 0.5, 10]}, "position": [0, -0.5, 0]},
    {"shape": {"type": "box", "half_extents": [0.5, 1, 0.5]}, "position": [4, 1, 0],
     "motion": {"type": "keyframes", "keys": [{"tick": 10, "position": [5, 1, 0]}, {"tick": 20, "position": [5, 2, 0]}]}},
    {"shape": {"type": "box", "half_extents": [0.1, 1, 3]}, "position": [-3, 1, 0]},
    {"shape": {"type": "cylinder", "radius": 1, "height": 0.1}, "position": [0, 0.05, 5],
     "motion": {"type": "spin", "axis": [0, 1, 0], "deg_per_s": 90}}
  ]})";

Vec3 minus(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }

void expect_offset_of_size(const Vec3& d, double size, const std::string& what) {
  for (double c : d) EXPECT_EQ(std::fabs(c), size) << what;
}

TEST(Perturb, MovesTheSpawnAndEachMovingBodysWholePathByTheSizeOnEveryAxis) {
  const Scenario s = load(kWorld);
  const Scenario p = perturbed_scenario(s, 1, 0.25);  // a size exact in binary, so the offsets are exact
  expect_offset_of_size(minus(p.character.position, s.character.position), 0.25, "spawn");
  const Vec3 body = minus(p.world[1].position, s.world[1].position);
  expect_offset_of_size(body, 0.25, "keyframed body");
  for (std::size_t k = 0; k < s.world[1].motion.keys.size(); ++k) {
    EXPECT_EQ(minus(p.world[1].motion.keys[k].position, s.world[1].motion.keys[k].position), body) << "key " << k;
  }
  expect_offset_of_size(minus(p.world[3].position, s.world[3].position), 0.25, "spinning body");
  EXPECT_EQ(p.world[0].position, s.world[0].position) << "static bodies stay";
  EXPECT_EQ(p.world[2].position, s.world[2].position) << "static bodies stay";
  EXPECT_EQ(p.world[1].rotation_deg, s.world[1].rotation_deg);
  EXPECT_EQ(p.character.velocity, s.character.velocity);
}

TEST(Perturb, RunKIsAlwaysTheSameOffsetAndRunsDiffer) {
  const Scenario s = load(kWorld);
  std::set<std::vector<bool>> distinct;
  for (int run = 1; run <= 8; ++run) {
    const Scenario a = perturbed_scenario(s, run, 1e-9);
    const Scenario b = perturbed_scenario(s, run, 1e-9);
    EXPECT_EQ(a.character.position, b.character.position) << run;
    EXPECT_EQ(a.world[1].position, b.world[1].position) << run;
    const Vec3 c = minus(a.character.position, s.character.position);
    const Vec3 w = minus(a.world[1].position, s.world[1].position);
    distinct.insert({c[0] > 0, c[1] > 0, c[2] > 0, w[0] > 0, w[1] > 0, w[2] > 0});
  }
  EXPECT_GE(distinct.size(), 6u) << "eight runs should mostly differ";
  // The documented seed: run 1's first sign is the top bit of SplitMix64(kPerturbSeed + 1).
  EXPECT_EQ(kPerturbSeed, 0x5eedf00d15u);
}

Trajectory table(std::vector<std::vector<double>> rows) {
  Trajectory t;
  t.columns = {"tick", "time", "x", "y", "z", "vx", "grounded", "sweeps"};
  t.rows = std::move(rows);
  return t;
}

TEST(Perturb, SpreadIsTheLargestDifferencePerGroupAndRowsDifferingPerDiscreteColumn) {
  const Trajectory base = table({{0, 0, 1, 2, 3, 0.5, 1, 4}, {1, 0.1, 1, 2, 3, 0.5, 1, 4}});
  const Trajectory a = table({{0, 0, 1.25, 2, 3, 0.5, 1, 4}, {1, 0.1, 1, 1.5, 3, 0.75, 0, 5}});
  const Trajectory b = table({{0, 0, 1, 2, 3.125, 0.5, 1, 4}, {1, 0.1, 1, 2, 3, 0.5, 1, 5}});
  std::vector<ColumnSpread> spread;
  add_spread(base, a, spread);
  add_spread(base, b, spread);
  ASSERT_EQ(spread.size(), 4u);
  EXPECT_EQ(spread[0].group, "position");
  EXPECT_EQ(spread[0].unit, "m");
  EXPECT_EQ(spread[0].largest, 0.5);
  EXPECT_EQ(spread[1].group, "velocity");
  EXPECT_EQ(spread[1].largest, 0.25);
  EXPECT_EQ(spread[2].group, "grounded");
  EXPECT_TRUE(spread[2].discrete);
  EXPECT_EQ(spread[2].rows, 1u);
  EXPECT_EQ(spread[3].group, "sweeps");
  EXPECT_EQ(spread[3].rows, 2u) << "summed over the runs";
}

TEST(Perturb, ARunThatStoppedEarlyIsAnInfiniteSpread) {
  const Trajectory base = table({{0, 0, 1, 2, 3, 0.5, 1, 4}, {1, 0.1, 1, 2, 3, 0.5, 1, 4}});
  const Trajectory cut = table({{0, 0, 1, 2, 3, 0.5, 1, 4}});
  std::vector<ColumnSpread> spread;
  add_spread(base, cut, spread);
  EXPECT_TRUE(std::isinf(spread[0].largest));
  EXPECT_EQ(spread[2].rows, 1u);
}

/// Standing on a floor: every perturbed run stays 1e-9 m from the unperturbed one.
const char* const kSteady = R"({"format": "stepslide/scenario@1", "ticks": 60,
  "character": {"position": [0, 0.5, 0]},
  "input": [{"tick": 0, "move": [0, 1]}],
  "world": [{"shape": {"type": "box", "half_extents": [20, 0.5, 20]}, "position": [0, -0.5, 0]}]})";

/// Dropped onto a pillar 1 cm wide: shifted by 0.5 m, the capsule (radius
/// 0.3 m) misses it and falls past its top.
std::string pillar(const std::string& extra = "") {
  return R"({"format": "stepslide/scenario@1", "ticks": 40,)" + extra + R"(
    "character": {"position": [0, 1.2, 0]},
    "world": [{"shape": {"type": "box", "half_extents": [0.005, 0.5, 0.005]}, "position": [0, 0.5, 0]}]})";
}

TEST(Perturb, AScenarioThatStaysWithinTheTolerancesIsSteady) {
  PerturbOptions options;
  options.runs = 3;
  const PerturbOutcome o = perturb_scenario("scenarios/steady.json", load(kSteady), options);
  EXPECT_FALSE(o.fragile());
  EXPECT_FALSE(o.fails());
  EXPECT_EQ(o.runs, 3);
  ASSERT_FALSE(o.spread.empty());
  EXPECT_EQ(o.spread[0].group, "position");
  EXPECT_GE(o.spread[0].largest, 0.5e-9);
  EXPECT_LE(o.spread[0].largest, 1e-8);
  EXPECT_EQ(o.report.rfind("STEADY scenarios/steady.json: 3 perturbed runs within the tolerances\n  spread: position ", 0),
            0u)
      << o.report;
}

TEST(Perturb, AScenarioOnAKnifeEdgeIsFragileWithItsFirstDivergence) {
  PerturbOptions options;
  options.runs = 2;
  options.size = 0.5;
  const PerturbOutcome o = perturb_scenario("scenarios/pillar.json", load(pillar()), options);
  EXPECT_EQ(o.fragile_runs, 2);
  EXPECT_TRUE(o.fails());
  ASSERT_TRUE(o.first);
  EXPECT_EQ(o.first->tick, 0) << "the spawn itself moved by 0.5 m";
  EXPECT_EQ(o.first_run, 1);
  EXPECT_GT(o.spread[0].largest, 0.5) << "it fell past the pillar's top";
  EXPECT_EQ(o.report.rfind("FRAGILE scenarios/pillar.json: 2 of 2 perturbed runs leave the tolerances\n", 0), 0u)
      << o.report;
  EXPECT_CONTAINS(o.report, "\n  first: run 1 at tick 0, column x: 0 unperturbed, ");
}

TEST(Perturb, TheScenariosOwnTolerancesDecide) {
  PerturbOptions options;
  options.runs = 2;
  options.size = 0.5;
  const PerturbOutcome o = perturb_scenario("scenarios/pillar.json", load(pillar(R"("tolerance": {"*": 100},)")), options);
  EXPECT_FALSE(o.fragile()) << o.report;
}

TEST(Perturb, ADeclaredChaoticScenarioIsReportedWithoutFailing) {
  PerturbOptions options;
  options.runs = 2;
  options.size = 0.5;
  const PerturbOutcome o =
      perturb_scenario("p.json", load(pillar(R"("chaotic": "balanced on a pillar 1 cm wide",)")), options);
  EXPECT_TRUE(o.fragile());
  EXPECT_FALSE(o.fails());
  EXPECT_EQ(o.report.rfind("CHAOTIC p.json: 2 of 2 perturbed runs leave the tolerances\n", 0), 0u) << o.report;
  EXPECT_CONTAINS(o.report, "\n  declared chaotic: balanced on a pillar 1 cm wide\n");

  options.size = 1e-9;
  const PerturbOutcome calm = perturb_scenario("p.json", load(pillar(R"("chaotic": "why",)")), options);
  EXPECT_FALSE(calm.fragile()) << calm.report;
  EXPECT_CONTAINS(calm.report, "within the tolerances (declared chaotic, so the declaration may go)\n");
}

TEST(Perturb, AnExpectationWithNoMarginIsSaidButTheStillPathIsNotFragile) {
  PerturbOptions options;
  options.runs = 4;
  const std::string text = R"({"format": "stepslide/scenario@1", "ticks": 5, "gravity": [0, 0, 0], "up": [0, 1, 0],
    "character": {"position": [0, 2, 0]}, "expect": [{"ticks": [0, 0], "y_between": [1, 2]}]})";
  const PerturbOutcome o = perturb_scenario("e.json", load(text), options);
  EXPECT_FALSE(o.fragile()) << o.report;
  EXPECT_CONTAINS(o.report, "\n  expectation without margin: run ");
  EXPECT_CONTAINS(o.report, " fails /expect/0 at tick 0: ");
}

TEST(Perturb, SummaryCountsFragileAndChaoticAndListsWhatFails) {
  PerturbOutcome steady, fragile, chaotic;
  steady.scenario = "a.json";
  fragile.scenario = "b.json";
  fragile.fragile_runs = 1;
  chaotic.scenario = "c.json";
  chaotic.fragile_runs = 2;
  chaotic.chaotic = "why";
  PerturbOptions options;
  options.runs = 4;
  EXPECT_EQ(perturb_summary({steady, fragile, chaotic}, options),
            "perturb: 3 scenarios, 4 perturbed runs each (+-1e-09 m), 2 fragile (1 declared chaotic)\n"
            "fragile: b.json\n");
  EXPECT_EQ(perturb_summary({steady, chaotic}, options),
            "perturb: 2 scenarios, 4 perturbed runs each (+-1e-09 m), 1 fragile (1 declared chaotic)\n");
}

class PerturbCommand : public TempDirTest {};

TEST_F(PerturbCommand, ReportsEachScenarioThenTheSummaryBeforeTheClosingLineAndFailsForFragile) {
  write("scenarios/steady.json", kSteady);
  write("scenarios/pillar.json", pillar());
  ASSERT_EQ(run("bless").code, 0);
  const RunResult steady = run("check --perturb 2");
  EXPECT_EQ(steady.code, 0) << steady.out << steady.err;
  EXPECT_CONTAINS(steady.out, "STEADY scenarios/pillar.json: 2 perturbed runs within the tolerances\n");
  EXPECT_CONTAINS(steady.out, "\nperturb: 2 scenarios, 2 perturbed runs each (+-1e-09 m), 0 fragile (0 declared "
                              "chaotic)\n2 passed, 0 failed\n");

  const RunResult fragile = run("check --perturb 2 --perturb-size 0.5 -j 2 --junit out.xml");
  EXPECT_EQ(fragile.code, 1) << fragile.out << fragile.err;
  EXPECT_CONTAINS(fragile.out, "FRAGILE scenarios/pillar.json: 2 of 2 perturbed runs leave the tolerances\n");
  EXPECT_CONTAINS(fragile.out, "fragile: scenarios/pillar.json scenarios/steady.json\n2 passed, 0 failed\n");
  EXPECT_CONTAINS(read("out.xml"), R"(classname="stepslide.perturb")");
}

TEST_F(PerturbCommand, RefusesExactNegativeRunsAndAnUnreasonableSize) {
  write("scenarios/steady.json", kSteady);
  for (const char* args : {"check --perturb 2 --exact", "check --perturb -1", "check --perturb 2 --perturb-size 0",
                           "check --perturb 2 --perturb-size 2", "check --perturb 2 --controller bullet"}) {
    const RunResult r = run(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out << r.err;
    EXPECT_CONTAINS(r.err, "--perturb");
  }
}

}  // namespace
}  // namespace stepslide
