// `stepslide fuzz -j N`: worlds checked on threads give the same findings,
// files, summary and order of calls as worlds checked one after another.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <sys/wait.h>
#include <vector>

#include "fuzz/campaign.h"
#include "scenario/load/world.h"
#include "stepslide/controller.h"
#include "support/temp_dir.h"

namespace stepslide {
namespace {

namespace fs = std::filesystem;
using TempDir = test::TempDirTest;

/// Everything a campaign hands back, in the order it was handed back.
struct Record {
  FuzzSummary summary;
  std::vector<std::int64_t> progress;
  std::vector<std::uint64_t> finding_seeds;
  std::map<std::string, std::string> files;  ///< file name -> contents
};

Record run_with(int jobs, const fs::path& dir, bool shrink) {
  FuzzOptions options;
  options.seed = 40;
  options.count = 9;
  options.out_dir = dir.string();
  options.shrink = shrink;
  options.keep_all = true;
  options.world.max_ticks = 120;
  options.jobs = jobs;
  // A controller broken on purpose in some worlds, so that there are
  // findings to order: in worlds with an even number of bodies it jumps
  // 2 m up on tick 7 (a rise, then a rerun that differs).
  options.before_check = [](const TickView& view) {
    if (view.tick == 7 && view.world.bodies().size() % 2 == 0) view.controller.state().position += btVector3(0, 2, 0);
  };
  Record record;
  options.on_progress = [&](std::int64_t done) { record.progress.push_back(done); };
  record.summary = run_fuzz(options, [&](const FuzzFinding& f) { record.finding_seeds.push_back(f.seed); });
  for (const auto& entry : fs::directory_iterator(dir)) {
    record.files[entry.path().filename().string()] = test::read_text(entry.path());
  }
  return record;
}

void expect_same(const Record& a, const Record& b, const fs::path& dir_a, const fs::path& dir_b) {
  EXPECT_EQ(a.summary.scenarios, b.summary.scenarios);
  EXPECT_EQ(a.summary.ticks, b.summary.ticks);
  EXPECT_EQ(a.summary.generator_errors, b.summary.generator_errors);
  EXPECT_EQ(a.progress, b.progress);
  EXPECT_EQ(a.finding_seeds, b.finding_seeds);
  ASSERT_EQ(a.summary.findings.size(), b.summary.findings.size());
  for (std::size_t i = 0; i < a.summary.findings.size(); ++i) {
    const FuzzFinding &x = a.summary.findings[i], &y = b.summary.findings[i];
    EXPECT_EQ(x.seed, y.seed);
    EXPECT_EQ(x.violation.kind, y.violation.kind);
    EXPECT_EQ(x.violation.tick, y.violation.tick);
    EXPECT_EQ(x.violation.message, y.violation.message);
    EXPECT_EQ(x.shrink_note, y.shrink_note);
    EXPECT_EQ(fs::path(x.file).lexically_relative(dir_a), fs::path(y.file).lexically_relative(dir_b));
  }
  EXPECT_EQ(a.files, b.files);
}

TEST_F(TempDir, ThreadsChangeNothingButTheTimeTaken) {
  const Record one = run_with(1, dir_ / "one", false);
  // The broken controller must give findings, in seed order, and clean worlds.
  ASSERT_GE(one.summary.findings.size(), 2u);
  EXPECT_LT(one.summary.findings.size(), 9u);
  EXPECT_TRUE(std::is_sorted(one.finding_seeds.begin(), one.finding_seeds.end()));
  EXPECT_EQ(one.progress, (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(one.summary.findings.front().violation.kind, InvariantKind::Rise);
  for (int jobs : {2, 3, 16}) {
    SCOPED_TRACE(jobs);
    const fs::path dir = dir_ / ("jobs" + std::to_string(jobs));
    expect_same(one, run_with(jobs, dir, false), dir_ / "one", dir);
  }
}

TEST_F(TempDir, ShrinkingOnThreadsGivesTheSameFindings) {
  const Record one = run_with(1, dir_ / "one", true);
  ASSERT_GE(one.summary.findings.size(), 2u);
  EXPECT_NE(one.summary.findings.front().shrink_note.find("shrunk: "), std::string::npos);
  expect_same(one, run_with(3, dir_ / "three", true), dir_ / "one", dir_ / "three");
}

struct Outcome {
  int code = -1;
  std::string out;
};

Outcome fuzz(const fs::path& dir, const std::string& args) {
  const std::string command = "cd '" + dir.string() + "' && timeout 120 '" STEPSLIDE_BINARY "' fuzz " + args +
                              " >.out 2>.err";
  const int status = std::system(command.c_str());
  return Outcome{WIFEXITED(status) ? WEXITSTATUS(status) : -1, test::read_text(dir / ".out")};
}

TEST_F(TempDir, CommandLineOutputDoesNotDependOnJobs) {
  const Outcome one = fuzz(dir_, "--seed 60 --count 6 --max-ticks 120 -j 1 --out-dir a");
  ASSERT_TRUE(one.code == 0 || one.code == 1) << one.out;
  EXPECT_NE(one.out.find("fuzz: 6 scenarios (seeds 60..65), "), std::string::npos) << one.out;
  for (const char* jobs : {"-j 2", "--jobs 0"}) {
    SCOPED_TRACE(jobs);
    const Outcome many = fuzz(dir_, std::string("--seed 60 --count 6 --max-ticks 120 --out-dir a ") + jobs);
    EXPECT_EQ(many.code, one.code);
    EXPECT_EQ(many.out, one.out);
  }
  EXPECT_EQ(fuzz(dir_, "-j -1").code, 2);
}

}  // namespace
}  // namespace stepslide
