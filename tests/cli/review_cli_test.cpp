// What a new user meets, through the executable: pending results
// and accept/reject/list, the update modes, CI values, --filter, scenarios
// outside the root, and orphans when paths are given.
#include <gtest/gtest.h>

#include <filesystem>

#include "support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using stepslide::test::contains;
using stepslide::test::RunResult;

std::string floor_scenario(int ticks) {
  return R"({"format": "stepslide/scenario@1", "ticks": )" + std::to_string(ticks) +
         R"(, "world": [{"shape": {"type": "box", "half_extents": [5, 0.5, 5]}, "position": [0, -0.5, 0]}]})";
}

class Gate14 : public stepslide::test::TempDirTest {
 protected:
  /// stairs/a, stairs/b and walls/c, blessed.
  void project() {
    for (const char* name : {"stairs/a", "stairs/b", "walls/c"}) {
      write(std::string("scenarios/") + name + ".json", floor_scenario(3));
    }
    ASSERT_EQ(run("bless").code, 0);
  }
};

// ---------------------------------------------------------------------------
// Outside the scenario root (the issue: `bless /tmp/elsewhere/bugs/` wrote
// golden/corner_80deg.csv, and the next full check failed on orphans)

TEST_F(Gate14, BlessOutsideTheRootRefusesWithTheCommandThatWorks) {
  project();
  const std::string bugs = (dir_ / "elsewhere/bugs").string();
  write("elsewhere/bugs/corner_80deg.json", floor_scenario(2));
  write("elsewhere/bugs/stuck.json", floor_scenario(2));
  const std::string command = "stepslide bless --scenario-root " + (dir_ / "elsewhere").string() + " --golden-dir " +
                              (dir_ / "elsewhere/golden").string() + " " + bugs + "/";
  RunResult r = run("bless " + bugs + "/");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "error: 2 scenarios outside the scenario root 'scenarios' (so no golden maps to them); nothing "
                   "was blessed:\n  " + bugs + "/corner_80deg.json\n  " + bugs + "/stuck.json\n"
                   "Bless them with roots of their own:\n  " + command + "\nor move them under scenarios/.\n");
  EXPECT_FALSE(exists("golden/corner_80deg.csv"));
  EXPECT_EQ(run("bless scenarios/stairs/a.json " + bugs + "/stuck.json").code, 2) << "one outside: none blessed";

  r = run(command.substr(std::string("stepslide ").size()));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "blessed " + (dir_ / "elsewhere/golden/bugs/corner_80deg.csv").string() + " (new)");
  EXPECT_EQ(run("check").out,
            "PASS scenarios/stairs/a.json\nPASS scenarios/stairs/b.json\nPASS scenarios/walls/c.json\n"
            "3 passed, 0 failed\n")
      << "nothing landed in the project's golden root";
}

TEST_F(Gate14, CheckOutsideTheRootSaysTheSameInsteadOfTheWrongBless) {
  project();
  const std::string x = (dir_ / "elsewhere/bugs/x.json").string();
  write("elsewhere/bugs/x.json", floor_scenario(2));
  const std::string roots = " --scenario-root " + (dir_ / "elsewhere").string() + " --golden-dir " +
                            (dir_ / "elsewhere/golden").string() + " " + x;
  const RunResult r = run("check " + x);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "FAIL " + x + ": outside the scenario root 'scenarios', so no golden maps to it\n"
                   "hint: give it roots of its own: `stepslide bless" + roots + "`, then `stepslide check" + roots +
                   "`; or move it under scenarios/\n0 passed, 1 failed\n");
  EXPECT_EQ(run("bless" + roots).code, 0);
  EXPECT_EQ(run("check" + roots).code, 0);
}

TEST_F(Gate14, ASiblingProjectGetsItsOwnScenarioAndGoldenRoots) {
  project();
  write("other/scenarios/deep/y.json", floor_scenario(2));
  const RunResult r = run("check other/scenarios/deep/y.json");
  EXPECT_CONTAINS(r.out, "`stepslide bless --scenario-root other/scenarios --golden-dir other/golden "
                         "other/scenarios/deep/y.json`");
}

// ---------------------------------------------------------------------------
// Orphans when paths are given

TEST_F(Gate14, APathChecksTheOrphansOfItsGoldenFolderOnly) {
  project();
  write("golden/stairs/removed.csv", read("golden/stairs/a.csv"));
  write("golden/walls/removed.csv", read("golden/walls/c.csv"));
  RunResult r = run("check scenarios/stairs");
  EXPECT_EQ(r.code, 1);
  EXPECT_CONTAINS(r.out, "FAIL golden/stairs/removed.csv: orphan golden");
  EXPECT_FALSE(contains(r.out, "golden/walls/removed.csv"));
  EXPECT_CONTAINS(r.out, "2 passed, 1 failed");
  r = run("check scenarios/stairs/a.json");
  EXPECT_EQ(r.code, 0) << "a file covers no other golden";
  r = run("bless scenarios/walls");
  EXPECT_EQ(r.out, "blessed golden/walls/c.csv (unchanged)\nnote: golden/walls/removed.csv has no scenario; "
                   "`stepslide check` fails on it until it is deleted\n");
}

// ---------------------------------------------------------------------------
// --filter

TEST_F(Gate14, FilterIncludesExcludesAndRefusesToSelectNothing) {
  project();
  RunResult r = run("check --filter 'stairs/*' --filter -stairs/b");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "PASS scenarios/stairs/a.json\n1 passed, 0 failed\n");
  r = run("check --filter '**/c' --filter 'nope/*'");
  EXPECT_EQ(r.out, "PASS scenarios/walls/c.json\n1 passed, 0 failed\n");
  EXPECT_EQ(r.err, "warning: --filter 'nope/*' matches no scenario\n");
  r = run("check --filter 'stiars/*'");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "error: no scenario is selected by --filter 'stiars/*' (of 3 scenarios found)\n");
  r = run("check --filter=");
  EXPECT_EQ(r.code, 2);
  r = run("bless --filter 'walls/*'");
  EXPECT_EQ(r.out, "blessed golden/walls/c.csv (unchanged)\n");
  r = run("run scenarios --filter 'stairs/?' --filter -stairs/a --out-dir out");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(exists("out/b.csv"));
  EXPECT_FALSE(exists("out/a.csv"));
  EXPECT_FALSE(exists("out/c.csv"));
}

TEST_F(Gate14, FilterMatchesTheOrphansByTheScenarioTheyLack) {
  project();
  write("golden/stairs/removed.csv", read("golden/stairs/a.csv"));
  write("golden/walls/removed.csv", read("golden/walls/c.csv"));
  const RunResult r = run("check --filter 'walls/*'");
  EXPECT_EQ(r.out,
            "PASS scenarios/walls/c.json\nFAIL golden/walls/removed.csv: orphan golden: no scenario maps to it "
            "(expected scenarios/walls/removed.json); delete it or restore its scenario\n1 passed, 1 failed\n");
}

// ---------------------------------------------------------------------------
// Pending results, list, accept, reject

TEST_F(Gate14, CheckListAcceptReject) {
  project();
  write("scenarios/stairs/a.json", floor_scenario(4));
  write("scenarios/walls/c.json", floor_scenario(5));
  write("scenarios/walls/d.json", floor_scenario(2));
  RunResult r = run("check");
  EXPECT_EQ(r.code, 1);
  EXPECT_CONTAINS(r.out, "pending golden/stairs/a.csv.new: if the change is intended, run `stepslide accept "
                         "golden/stairs/a.csv.new`, or `stepslide review` to look first\n");
  r = run("list");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "pending  scenarios/stairs/a.json  golden/stairs/a.csv.new\n"
                   "ok       scenarios/stairs/b.json\n"
                   "pending  scenarios/walls/c.json   golden/walls/c.csv.new\n"
                   "pending  scenarios/walls/d.json   golden/walls/d.csv.new (no golden yet)\n"
                   "4 scenarios: 1 ok, 3 pending, 0 missing\n");
  r = run("accept scenarios/stairs");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "accepted golden/stairs/a.csv (changed: first divergence at tick 4: extra row in actual (got "
                   "tick 4))\n1 accepted, 0 not accepted\n");
  r = run("reject --all --filter 'walls/c'");
  EXPECT_EQ(r.out, "rejected golden/walls/c.csv.new\n1 rejected\n");
  r = run("accept --all");
  EXPECT_EQ(r.out, "accepted golden/walls/d.csv (new)\n1 accepted, 0 not accepted\n");
  r = run("check");
  EXPECT_EQ(r.code, 1) << "walls/c was rejected";
  EXPECT_CONTAINS(r.out, "3 passed, 1 failed");
  EXPECT_EQ(run("accept").code, 2) << "PATH or --all";
}

// A scenario that reads a mesh file records the hash of all it read; accept
// compared the scenario file's own hash with it and refused every such result
// ("changed since `check` wrote it") until fixed.
TEST_F(Gate14, AcceptTakesAScenarioThatReadsAMeshFile) {
  write("scenarios/level/floor.obj", "v -5 0 -5\nv 5 0 -5\nv 5 0 5\nv -5 0 5\nf 1 3 2\nf 1 4 3\n");
  const std::string scenario = R"({"format": "stepslide/scenario@1", "ticks": TICKS,
    "world": [{"shape": {"type": "mesh", "file": "floor.obj"}}],
    "input": [{"tick": 0, "move_to": [1, -1]}]})";
  auto with_ticks = [&](const char* ticks) { return scenario.substr(0, scenario.find("TICKS")) + ticks +
                                                    scenario.substr(scenario.find("TICKS") + 5); };
  write("scenarios/level/walk.json", with_ticks("3"));
  ASSERT_EQ(run("bless").code, 0);
  write("scenarios/level/walk.json", with_ticks("4"));
  EXPECT_EQ(run("check").code, 1);
  ASSERT_TRUE(exists("golden/level/walk.csv.new"));
  const RunResult r = run("accept --all");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(run("check").code, 0);
}

TEST_F(Gate14, UpdateModesAndCi) {
  project();
  write("scenarios/stairs/a.json", floor_scenario(4));
  const std::string golden = read("golden/stairs/a.csv");
  EXPECT_EQ(run("check", "STEPSLIDE_UPDATE=no").code, 1);
  EXPECT_FALSE(exists("golden/stairs/a.csv.new"));
  EXPECT_EQ(run("check", "CI=true").code, 1);
  EXPECT_FALSE(exists("golden/stairs/a.csv.new")) << "auto writes nothing in CI";
  EXPECT_EQ(run("check", "CI=false").code, 1);
  EXPECT_TRUE(exists("golden/stairs/a.csv.new")) << "CI=false is not CI";
  fs::remove(dir_ / "golden/stairs/a.csv.new");
  EXPECT_EQ(run("check --update new", "CI=1").code, 1);
  EXPECT_TRUE(exists("golden/stairs/a.csv.new"));
  RunResult r = run("check", "CI=1 STEPSLIDE_UPDATE=always");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "refusing STEPSLIDE_UPDATE=always: the CI environment variable is set (CI=1)");
  EXPECT_EQ(read("golden/stairs/a.csv"), golden);
  r = run("check --update always");
  EXPECT_EQ(r.code, 1);
  EXPECT_CONTAINS(r.out, "updated golden/stairs/a.csv with this run (update mode always)\n");
  EXPECT_FALSE(exists("golden/stairs/a.csv.new"));
  EXPECT_EQ(run("check").code, 0);
  EXPECT_EQ(run("check --update sometimes").code, 2);
  EXPECT_EQ(run("check", "STEPSLIDE_UPDATE=sometimes").err,
            "error: STEPSLIDE_UPDATE=sometimes: expected auto, new, always or no\n");
}

TEST_F(Gate14, BlessTakesCiZeroAndFalseAsNotCi) {
  write("scenarios/a.json", floor_scenario(2));
  for (const char* value : {"CI=0", "CI=false", "CI=FALSE", "CI="}) {
    const RunResult r = run("bless", value);
    EXPECT_EQ(r.code, 0) << value << "\n" << r.err;
  }
  for (const char* value : {"CI=1", "CI=true", "CI=yes"}) {
    const RunResult r = run("bless", value);
    EXPECT_EQ(r.code, 2) << value;
    EXPECT_CONTAINS(r.err, std::string("(") + value + ")");
  }
}

// ---------------------------------------------------------------------------
// Help and the repository

TEST_F(Gate14, HelpNamesTheNewCommandsAndTheUpdateMode) {
  const RunResult top = run("--help");
  for (const char* name : {"review", "accept", "reject", "list"}) EXPECT_CONTAINS(top.out, name);
  EXPECT_CONTAINS(run("check --help").out, "STEPSLIDE_UPDATE");
  EXPECT_CONTAINS(run("check --help").out, "--filter");
  EXPECT_CONTAINS(run("review --help").out, "a accepts");
  EXPECT_CONTAINS(run("accept --help").out, "--all");
  EXPECT_CONTAINS(run("reject --help").out, "--all");
  EXPECT_CONTAINS(run("list --help").out, "without simulating");
  EXPECT_CONTAINS(run("run --help").out, "--filter");
  EXPECT_CONTAINS(run("bless --help").out, "--filter");
}

TEST(Gate14Repository, PendingResultsAreIgnoredByGit) {
  const std::string ignore = stepslide::test::read_text(std::string(STEPSLIDE_SOURCE_DIR) + "/.gitignore");
  EXPECT_CONTAINS(ignore, "\n*.csv.new\n");
  EXPECT_CONTAINS(ignore, "\n*.csv.new.svg\n");
}

}  // namespace
