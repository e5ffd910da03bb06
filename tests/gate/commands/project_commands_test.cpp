// The project file through the `stepslide` executable, as a user meets it:
// found from a subfolder, named with --project, ignored with --no-project;
// the command line over the file over the defaults; tolerances from the
// file, a directory and the scenario itself deciding check, diff and plot;
// a broken file stopping every command before it writes anything.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <vector>

#include "support/temp_dir.h"

namespace stepslide {
namespace {

using test::RunResult;

std::string floor_scenario(int ticks, const std::string& extra = "") {
  return R"({"format": "stepslide/scenario@1", "ticks": )" + std::to_string(ticks) +
         R"(, "world": [{"shape": {"type": "box", "half_extents": [5, 0.5, 5]}, "position": [0, -0.5, 0]}])" +
         (extra.empty() ? "" : ", " + extra) + "}";
}

class ProjectCommands : public test::TempDirTest {
 protected:
  /// Sets `column` of data row `row` in a trajectory file to `value`.
  void set_cell(const std::string& file, int row, const std::string& column, const std::string& value) {
    std::istringstream in(read(file));
    std::string line, out;
    int data_row = -2;  // the header is row -1
    int index = -1;
    while (std::getline(in, line)) {
      if (!line.empty() && line[0] != '#') ++data_row;
      std::vector<std::string> cells;
      std::stringstream fields(line);
      for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
      if (data_row == -1) {
        for (std::size_t i = 0; i < cells.size(); ++i) index = cells[i] == column ? static_cast<int>(i) : index;
      }
      if (data_row == row) {
        cells.at(static_cast<std::size_t>(index)) = value;
        line.clear();
        for (std::size_t i = 0; i < cells.size(); ++i) line += (i ? "," : "") + cells[i];
      }
      out += line + "\n";
    }
    write(file, out);
  }
  /// A project with its scenarios under cases/ and goldens under gold/: one
  /// flat scenario and one in cases/terrain/, both blessed, then each
  /// golden's y at tick 2 moved by 1e-3 (the floor is at y = 0).
  void make_project(const std::string& members) {
    write("stepslide.json", R"({"format": "stepslide/project@1", "scenario_root": "cases", "golden_dir": "gold")" +
                                (members.empty() ? "" : ", " + members) + "}");
    write("cases/flat.json", floor_scenario(4));
    write("cases/terrain/bumpy.json", floor_scenario(4));
    write("work/here/.keep", "");
    ASSERT_EQ(run("bless").code, 0);
    set_cell("gold/flat.csv", 2, "y", "0.001");
    set_cell("gold/terrain/bumpy.csv", 2, "y", "0.001");
  }
};

// ---------------------------------------------------------------------------
// Finding the file

TEST_F(ProjectCommands, TheSearchGoesUpFromTheWorkingDirectory) {
  make_project(R"("tolerances": {"y": 0.01})");
  EXPECT_TRUE(exists("gold/flat.csv")) << "bless wrote to the project's golden_dir";
  // run() works in the test's folder; a shell changes into a subfolder first.
  const std::string check_in_sub = std::string("sh -c 'cd work/here && exec \"$0\" check' ") +
                                   test::quoted(STEPSLIDE_BINARY);
  const std::string command = "cd " + test::quoted(dir_.string()) + " && " + check_in_sub + " >.out 2>.err";
  ASSERT_EQ(std::system(command.c_str()), 0) << read(".err");
  EXPECT_EQ(read(".out"), "PASS ../../cases/flat.json\nPASS ../../cases/terrain/bumpy.json\n2 passed, 0 failed\n");
}

TEST_F(ProjectCommands, NoProjectAndProjectChooseTheFile) {
  make_project(R"("tolerances": {"y": 0.01})");
  RunResult r = run("check --no-project");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "scenario root 'scenarios' is not a directory");
  r = run("check --no-project --scenario-root cases --golden-dir gold");
  EXPECT_EQ(r.code, 1) << "without the file, y is held to the default 1e-6";
  EXPECT_CONTAINS(r.out, "(error 0.001 > tolerance 1e-06)");

  write("strict/p.json", R"({"format": "stepslide/project@1", "scenario_root": "../cases",
                             "golden_dir": "../gold", "tolerances": {"y": 1e-4}})");
  r = run("check --project strict/p.json");
  EXPECT_EQ(r.code, 1);
  EXPECT_CONTAINS(r.out, "FAIL cases/flat.json: trajectory differs from golden gold/flat.csv");
  EXPECT_CONTAINS(r.out, "(error 0.001 > tolerance 0.0001)");
  r = run("check --project strict/missing.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "strict/missing.json: cannot open: No such file or directory\n");
  EXPECT_EQ(run("check --project strict/p.json --no-project").code, 2) << "the two exclude each other";
}

// ---------------------------------------------------------------------------
// Order: command line, then file, then defaults

TEST_F(ProjectCommands, TheCommandLineWinsOverTheFile) {
  make_project(R"("tolerances": {"y": 0.01}, "report_dir": "out/report", "jobs": 2)");
  RunResult r = run("check");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_CONTAINS(r.out, "report: out/report/index.html\n");
  EXPECT_TRUE(exists("out/report/index.html"));
  r = run("check --report elsewhere -j 1");
  EXPECT_CONTAINS(r.out, "report: elsewhere/index.html\n");

  r = run("check --tol y=1e-4");
  EXPECT_EQ(r.code, 1) << "--tol over the file";
  EXPECT_CONTAINS(r.out, "(error 0.001 > tolerance 0.0001)");
  r = run("check --exact");
  EXPECT_EQ(r.code, 1) << "--exact drops the file's tolerances";
  EXPECT_CONTAINS(r.out, "(error 0.001 > tolerance 0)");
  EXPECT_EQ(run("check --exact --tol 'y=abs:0.01'").code, 0) << "then --tol applies";

  r = run("check -j -1");
  EXPECT_EQ(r.code, 2) << "-j on the command line, even a bad one, is not replaced by the file's";
  EXPECT_EQ(r.err, "error: -j -1: expected 0 (one per core) or more\n");
  r = run("check --golden-dir elsewhere cases/flat.json");
  EXPECT_EQ(r.code, 1);
  EXPECT_CONTAINS(r.out, "missing golden elsewhere/flat.csv");

  write("cases2/flat.json", floor_scenario(4));
  r = run("check --scenario-root cases2 cases2/flat.json");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_CONTAINS(r.out, "PASS cases2/flat.json\n") << "--scenario-root over the file; golden_dir still the file's";
}

// ---------------------------------------------------------------------------
// Tolerances from every layer

TEST_F(ProjectCommands, ADirectoryEntryAppliesUnderItsDirectoryOnly) {
  make_project(R"("directories": {"terrain/": {"tolerances": {"y": 0.01}}})");
  const RunResult r = run("check");
  EXPECT_EQ(r.code, 1);
  EXPECT_CONTAINS(r.out, "FAIL cases/flat.json: trajectory differs");
  EXPECT_CONTAINS(r.out, "PASS cases/terrain/bumpy.json\n");
}

TEST_F(ProjectCommands, AScenariosOwnBlockGoesOverTheProjects) {
  make_project(R"("tolerances": {"*": 0.01})");
  write("cases/flat.json", floor_scenario(4, R"("tolerance": {"y": 1e-5})"));
  ASSERT_EQ(run("check").code, 1);  // the scenario's bytes changed: a note, and y is tight again
  const RunResult r = run("check cases/terrain/bumpy.json");
  EXPECT_EQ(r.code, 0) << r.out;
  const RunResult flat = run("check cases/flat.json");
  EXPECT_CONTAINS(flat.out, "(error 0.001 > tolerance 1e-05)");
}

TEST_F(ProjectCommands, RelativeToleranceScalesWithTheGolden) {
  // local_y is 0.5 (the feet in the floor's frame); 0.5004 is 4e-4 away.
  make_project(R"("tolerances": {"y": 0.01, "local_?": {"rel": 1e-3}})");
  set_cell("gold/flat.csv", 2, "local_y", "0.5004");
  EXPECT_EQ(run("check cases/flat.json").code, 0) << "4e-4 <= 1e-3 * 0.5";
  const RunResult r = run("check cases/flat.json --tol 'local_*=rel:1e-4'");
  EXPECT_EQ(r.code, 1);
  EXPECT_CONTAINS(r.out, "column local_y: expected 0.5004, got 0.5 (error 0.0004 > tolerance 5e-05 = max(abs 0, "
                         "rel 0.0001 * |expected|))");
}

TEST_F(ProjectCommands, DiffAndPlotReadTheTolerancesToo) {
  make_project(R"("tolerances": {"y": 0.01}, "directories": {"terrain/": {"tolerances": {"y": 1e-4}}})");
  run("run cases/flat.json --out-dir fresh");
  EXPECT_EQ(run("diff gold/flat.csv fresh/flat.csv").code, 0);
  EXPECT_EQ(run("diff gold/flat.csv fresh/flat.csv --no-project").code, 1);
  EXPECT_EQ(run("plot cases/flat.json --golden gold/flat.csv --out p.svg").code, 0);
  const RunResult r = run("plot cases/terrain/bumpy.json --golden gold/terrain/bumpy.csv --out p.svg");
  EXPECT_EQ(r.code, 1) << "the directory entry applies to plot: " << r.out;
}

TEST_F(ProjectCommands, RunWithoutScenariosRunsTheProjectsRoot) {
  make_project("");
  const RunResult r = run("run --out-dir fresh");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(exists("fresh/flat.csv"));
  EXPECT_TRUE(exists("fresh/bumpy.csv"));
}

// ---------------------------------------------------------------------------
// A broken file

TEST_F(ProjectCommands, ABrokenFileStopsEveryCommandBeforeItWrites) {
  write("cases/flat.json", floor_scenario(4));
  write("stepslide.json", R"({"format": "stepslide/project@1", "scenario_root": "cases",
                              "tolerances": {"foo": 1, "y": -1}})");
  const std::string errors =
      "stepslide.json: /tolerances/foo: unknown column \"foo\" (known: camera_dy, depen_iters, ground_body, "
      "grounded, local_x, local_y, local_z, normal_x, normal_y, normal_z, slide_iters, step_dy, stuck, sweeps, tick, "
      "time, vx, vy, vz, x, y, z)\n"
      "stepslide.json: /tolerances/y: expected a number >= 0, got -1\n";
  for (const char* command : {"check", "bless", "run", "diff a.csv b.csv", "plot cases/flat.json --out p.svg"}) {
    const RunResult r = run(command);
    EXPECT_EQ(r.code, 2) << command;
    EXPECT_EQ(r.out, "") << command;
    EXPECT_EQ(r.err, errors) << command;
  }
  EXPECT_FALSE(exists("golden"));
  EXPECT_FALSE(exists("out"));
  EXPECT_FALSE(exists("p.svg"));
  EXPECT_EQ(run("bless --no-project --scenario-root cases").code, 0) << "--no-project gets past it";
}

TEST_F(ProjectCommands, HelpTextsExplainTheFileAndTheTolSyntax) {
  for (const char* command : {"check", "bless", "run", "diff", "plot"}) {
    const RunResult r = run(std::string(command) + " --help");
    EXPECT_EQ(r.code, 0) << command;
    EXPECT_CONTAINS(r.out, "--project");
    EXPECT_CONTAINS(r.out, "--no-project");
  }
  const RunResult r = run("check --help");
  EXPECT_CONTAINS(r.out, "COLUMN=abs:A,rel:R");
  EXPECT_CONTAINS(r.out, "glob");
}

}  // namespace
}  // namespace stepslide
