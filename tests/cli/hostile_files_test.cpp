// Hostile files, end to end (the file side of robustness_test.cpp):
// NaN never passes, a cut golden is malformed, golden reads are bounded, and
// outputs replace only regular files that are not inputs. Each test names
// what the binary did before the fix.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using stepslide::test::RunResult;

constexpr const char* kFall = R"({
  "format": "stepslide/scenario@1",
  "ticks": 5,
  "character": {"position": [0, 2, 0]},
  "world": [{"name": "floor", "shape": {"type": "box", "half_extents": [20, 0.5, 20]}, "position": [0, -0.5, 0]}]
}
)";

/// Turns every position cell NaN from tick 1 unless the loader refuses the yaw.
constexpr const char* kHugeYaw = R"({
  "format": "stepslide/scenario@1",
  "ticks": 5,
  "character": {"position": [0, 2, 0]},
  "world": [{"name": "floor", "shape": {"type": "box", "half_extents": [20, 0.5, 20]}, "position": [0, -0.5, 0]}],
  "input": [{"tick": 0, "yaw_deg": 1e308, "move": [0, 1]}]
}
)";

class HostileFiles : public stepslide::test::TempDirTest {
 protected:
  /// scenarios/fall.json blessed into golden/fall.csv.
  void bless_fall() {
    write("scenarios/fall.json", kFall);
    const RunResult r = run("bless");
    ASSERT_EQ(r.code, 0) << r.err;
  }
  /// The golden's text with `from` replaced by `to` once.
  void edit_golden(const std::string& from, const std::string& to) {
    std::string text = read("golden/fall.csv");
    const std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos);
    write("golden/fall.csv", text.replace(at, from.size(), to));
  }
};

// Before: a scenario whose run is all NaN printed "expectations ok", exit 0,
// and wrote the NaN trajectory; bless recorded it and check passed it.
TEST_F(HostileFiles, ARunThatOverflowsWritesNothingAndNeverPasses) {
  write("scenarios/yaw.json", kHugeYaw);
  RunResult r = run("run scenarios/yaw.json --out out.csv");
  EXPECT_FALSE(exists("out.csv")) << "nothing partial";
  EXPECT_EQ(r.out.find("expectations ok"), std::string::npos) << r.out;
  // 3 while the loader lets the yaw through; 2 once its limits refuse it.
  if (r.code == 3) {
    EXPECT_EQ(r.err, "error: scenarios/yaw.json: internal error: tick 1: column x is nan (the controller's state "
                     "overflowed)\n");
  } else {
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_CONTAINS(r.err, "scenarios/yaw.json: /input/0/yaw_deg: ");
  }
  const int stopped = r.code;  // 3, or 2 once the loader refuses the yaw
  r = run("bless");
  EXPECT_EQ(r.code, stopped) << r.err;
  EXPECT_FALSE(exists("golden/yaw.csv"));
  if (stopped == 3) {
    EXPECT_CONTAINS(r.err, "scenarios/yaw.json: internal error: tick 1: column x is nan");
  }
  write("golden/yaw.csv", "tick\n0\n");
  r = run("check");
  EXPECT_EQ(r.code, stopped) << r.out << r.err;
  if (stopped == 3) {
    EXPECT_CONTAINS(r.out, "scenarios/yaw.json: internal error: tick 1: column x is nan");
  }
  r = run("plot scenarios/yaw.json --out yaw.svg");
  EXPECT_EQ(r.code, stopped) << r.err;
  EXPECT_FALSE(exists("yaw.svg"));
  // Before: trace printed nothing for ticks past the stop and exited 0.
  r = run("trace scenarios/yaw.json --tick 3");
  EXPECT_EQ(r.code, stopped) << r.out << r.err;
  if (stopped == 3) {
    EXPECT_EQ(r.err, "error: scenarios/yaw.json: internal error: tick 1: column x is nan (the controller's state "
                     "overflowed)\n");
  }
}

// Before: `diff` of two identical files holding NaN said "no differences", exit 0.
TEST_F(HostileFiles, NaNNeverMatchesNaNInDiff) {
  write("a.csv", "tick,y\n0,nan\n");
  write("b.csv", "tick,y\n0,nan\n");
  for (const char* mode : {"", " --exact"}) {
    const RunResult r = run(std::string("diff a.csv b.csv") + mode);
    EXPECT_EQ(r.code, 1) << mode << r.out << r.err;
    EXPECT_CONTAINS(r.out + r.err, "a NaN never matches");
  }
}

// Before: a golden holding NaN was compared cell by cell and, against a NaN
// run, passed. Now the golden itself is refused, naming row and column.
TEST_F(HostileFiles, AGoldenHoldingNaNFailsCheckNamingLineAndColumn) {
  bless_fall();
  const std::string text = read("golden/fall.csv");
  const std::size_t row2 = text.find("\n2,");
  ASSERT_NE(row2, std::string::npos);
  std::size_t line = 1;
  for (std::size_t i = 0; i <= row2; ++i) line += text[i] == '\n';
  // Row 2 reads "2,TIME,X,...": replace X.
  const std::size_t x_start = text.find(',', text.find(',', row2 + 1) + 1) + 1;
  const std::size_t x_end = text.find(',', x_start);
  write("golden/fall.csv", text.substr(0, x_start) + "nan" + text.substr(x_end));
  const RunResult r = run("check");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_CONTAINS(r.out + r.err, "golden/fall.csv: line " + std::to_string(line) +
                                     ": column x is nan (row 2); a golden never holds a non-finite value; re-bless it");
}

// Before: a golden cut inside its last number ("0.1" of "0.125") or just
// before its final newline passed, exit 0. This golden's last cells are
// "0", so the cut is made inside a number written there.
TEST_F(HostileFiles, AGoldenCutInsideItsLastNumberIsMalformed) {
  bless_fall();
  std::string text = read("golden/fall.csv");
  write("golden/fall.csv", text.substr(0, text.size() - 1));  // the same table, newline gone: passed before
  EXPECT_EQ(run("check").code, 2);
  ASSERT_EQ(text.substr(text.size() - 2), "0\n");
  text.replace(text.size() - 2, 1, "0.125");  // a golden whose last number is 0.125 ...
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n';
  for (std::size_t cut : {1, 3}) {  // ... cut before its newline, then to "0.1"
    write("golden/fall.csv", text.substr(0, text.size() - cut));
    const RunResult r = run("check");
    EXPECT_EQ(r.code, 2) << cut << r.out << r.err;
    EXPECT_CONTAINS(r.out + r.err, "golden/fall.csv: line " + std::to_string(lines) +
                                       ": expected a newline at the end of the file, got end of file (the file is "
                                       "cut short)");
  }
}

// Before: check and bless read /dev/zero until allocation failed.
TEST_F(HostileFiles, AGoldenThatIsAnEndlessDeviceIsRefusedUnread) {
  write("scenarios/fall.json", kFall);
  fs::create_directories(path("golden"));
  for (const char* device : {"/dev/zero", "/dev/urandom"}) {
    fs::remove(path("golden/fall.csv"));
    fs::create_symlink(device, path("golden/fall.csv"));
    RunResult r = run("check");
    EXPECT_EQ(r.code, 2) << device << r.out << r.err;
    EXPECT_CONTAINS(r.out + r.err, "cannot read golden golden/fall.csv: cannot read: it is a character device, "
                                   "not a regular file");
    r = run("bless");
    EXPECT_EQ(r.code, 2) << device << r.out << r.err;
    EXPECT_TRUE(fs::is_symlink(path("golden/fall.csv"))) << "bless replaces only regular files";
  }
}

// Before: a 5 GB sparse golden was read whole (the limit was 1 TiB).
TEST_F(HostileFiles, AGoldenLargerThanAnyTrajectoryIsRefusedUnread) {
  write("scenarios/fall.json", kFall);
  write("golden/fall.csv", "");
  fs::resize_file(path("golden/fall.csv"), 5ull << 30);  // sparse: no disk used
  const RunResult r = run("check");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_CONTAINS(r.out + r.err, "cannot read golden golden/fall.csv: file too large: 5368709120 bytes (limit ");
}

// Before: --out replaced a FIFO and a symlink to /dev/null with regular files,
// and `run x.json --out x.json` overwrote the scenario.
TEST_F(HostileFiles, RunOutputReplacesOnlyRegularFilesThatAreNotInputs) {
  write("fall.json", kFall);
  ASSERT_EQ(::mkfifo(path("pipe.csv").c_str(), 0600), 0);
  fs::create_symlink("/dev/null", path("null.csv"));
  fs::create_directories(path("dir.csv"));
  RunResult r = run("run fall.json --out pipe.csv");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "error: cannot write pipe.csv: it is a FIFO; only regular files are written or replaced\n");
  EXPECT_TRUE(fs::is_fifo(path("pipe.csv")));
  r = run("run fall.json --out null.csv");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "error: cannot write null.csv: it is a symbolic link; only regular files are written or replaced\n");
  EXPECT_TRUE(fs::is_symlink(path("null.csv")));
  r = run("run fall.json --out dir.csv");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(fs::is_directory(path("dir.csv")));
  r = run("run fall.json --out ./fall.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "error: cannot write ./fall.json: it is the input fall.json (an output never replaces a file the "
                   "command reads)\n");
  EXPECT_EQ(read("fall.json"), kFall);
  r = run("run fall.json --out -");
  EXPECT_EQ(r.code, 0) << "stdout stays stdout" << r.err;
}

TEST_F(HostileFiles, JunitAndReportReplaceOnlyRegularFiles) {
  bless_fall();
  ASSERT_EQ(::mkfifo(path("junit.xml").c_str(), 0600), 0);
  RunResult r = run("check --junit junit.xml");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "cannot write junit.xml: it is a FIFO; only regular files are written or replaced");
  EXPECT_TRUE(fs::is_fifo(path("junit.xml")));
  fs::create_directories(path("report"));
  fs::create_symlink("/dev/null", path("report/index.html"));
  r = run("check --report report");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "it is a symbolic link; only regular files are written or replaced");
  EXPECT_TRUE(fs::is_symlink(path("report/index.html")));
}

/// The pid of a process that has exited.
long dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  return child;
}

// Before: the temporaries a `kill -9`ed bless left were never mentioned, and
// stayed forever.
TEST_F(HostileFiles, CheckWarnsAboutStaleTemporariesAndBlessRemovesThem) {
  bless_fall();
  const std::string stale = "golden/.fall.csv.tmp." + std::to_string(dead_pid());
  write(stale, "# stepslide traj");
  RunResult r = run("check");
  EXPECT_EQ(r.code, 0) << "a warning, not a failure: the golden itself is whole";
  EXPECT_CONTAINS(r.err, "warning: stale temporary file " + stale + " left by an interrupted write");
  r = run("bless");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "removed stale temporary " + stale + " (left by an interrupted write)");
  EXPECT_FALSE(exists(stale));
  r = run("check");
  EXPECT_EQ(r.err.find("stale"), std::string::npos) << r.err;
}

}  // namespace

namespace {

// Before: `plot x.json --out x.json` and `view x.json --out x.json` replaced the scenario with a picture.
TEST_F(HostileFiles, PlotAndViewNeverReplaceTheirScenario) {
  write("fall.json", kFall);
  for (const char* command : {"plot", "view"}) {
    const RunResult r = run(std::string(command) + " fall.json --out fall.json");
    EXPECT_EQ(r.code, 2) << command << r.err;
    EXPECT_CONTAINS(r.err, "cannot write fall.json: it is the input fall.json");
    EXPECT_EQ(read("fall.json"), kFall) << command;
  }
}

}  // namespace
