// Hostile input, end to end: the real `stepslide` binary on every file of the
// bad-input corpus and on inputs too big to check in (generated here), plus
// the golden gate's trust checks (metadata, build note, --self-check).
// Every child runs under `timeout`, so a hang fails the test instead of CI.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "base/file_io.h"
#include "gate/commands/self_check.h"
#include "gate/core/fingerprint.h"
#include "gate/gate.h"
#include "support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using stepslide::test::contains;
using stepslide::test::quoted;
using stepslide::test::read_text;
using stepslide::test::RunResult;

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++count;
  return count;
}

/// A fresh temporary directory per test, and the binary run inside it.
class Robustness : public stepslide::test::TempDirTest {
 protected:
  /// True when `rel` does not exist or is an empty directory.
  bool nothing_in(const std::string& rel) const {
    std::error_code ec;
    return !fs::exists(path(rel), ec) || (fs::is_directory(path(rel), ec) && fs::is_empty(path(rel), ec));
  }
};

// ---------------------------------------------------------------------------
// The bad-input corpus, through the real binary

const fs::path kCorpus = fs::path(STEPSLIDE_SOURCE_DIR) / "tests" / "bad_input";

/// EXPECTED.txt: file name -> its error lines, "NAME: /path: message".
std::map<std::string, std::vector<std::string>> expected_errors() {
  std::map<std::string, std::vector<std::string>> expected;
  std::ifstream in(kCorpus / "EXPECTED.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    expected[line.substr(0, line.find(": "))].push_back(line);
  }
  return expected;
}

std::vector<std::string> corpus_files() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(kCorpus)) {
    if (entry.path().extension() == ".json") names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// The stderr `validate` and `run` must print for corpus file `name` given as
/// `shown`: its EXPECTED.txt lines with the name replaced by the path.
std::string expected_stderr(const std::vector<std::string>& lines, const std::string& name, const std::string& shown) {
  std::string text;
  for (const std::string& line : lines) text += shown + line.substr(name.size()) + "\n";
  return text;
}

TEST_F(Robustness, EveryCorpusFileExitsTwoNamingFileAndPathAndWritesNothing) {
  const std::map<std::string, std::vector<std::string>> expected = expected_errors();
  const std::vector<std::string> names = corpus_files();
  EXPECT_GE(names.size(), 60u);
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const auto listed = expected.find(name);
    ASSERT_NE(listed, expected.end()) << "not listed in EXPECTED.txt";
    const std::string file = (kCorpus / name).string();
    const std::string want = expected_stderr(listed->second, name, file);

    const RunResult validate = run("validate " + quoted(file));
    EXPECT_EQ(validate.code, 2) << "above 128: killed by a signal (a crash, or 137 for a hang)";
    EXPECT_EQ(validate.out, "");
    EXPECT_EQ(validate.err, want);

    const RunResult simulate = run("run " + quoted(file) + " --out-dir out");
    EXPECT_EQ(simulate.code, 2) << "above 128: killed by a signal (a crash, or 137 for a hang)";
    EXPECT_EQ(simulate.err, want);
    EXPECT_TRUE(nothing_in("out")) << "run left output behind";

    const RunResult single = run("run " + quoted(file) + " --out one.csv");
    EXPECT_EQ(single.code, 2);
    EXPECT_TRUE(nothing_in("one.csv"));
  }
}

TEST_F(Robustness, OneBadFileAmongGoodOnesIsNamedAndTheGoodOnesRun) {
  write("good.json", R"({"format": "stepslide/scenario@1", "ticks": 2})");
  const std::string bad = (kCorpus / "binary_garbage.json").string();
  const RunResult r = run("run good.json " + quoted(bad) + " --out-dir out");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, bad + ": invalid JSON");
  EXPECT_CONTAINS(r.err, "error: 1 invalid scenario not run; ran the 1 valid\n");
  EXPECT_TRUE(exists("out/good.csv"));
}

// ---------------------------------------------------------------------------
// Inputs too big to check in

/// A scenario padded with spaces to exactly `bytes` bytes: valid JSON, so
/// only its size can be wrong with it.
std::string padded_scenario(std::size_t bytes) {
  const std::string head = R"({"format": "stepslide/scenario@1", "ticks": 1})";
  return head + std::string(bytes - head.size(), ' ');
}

TEST_F(Robustness, FileJustOverTheSizeLimitIsRefusedUnread) {
  const std::size_t limit = 64u * 1024 * 1024;  // ScenarioLimits::max_file_bytes, as documented
  write("big.json", padded_scenario(limit + 1));
  ASSERT_EQ(fs::file_size(path("big.json")), limit + 1);
  const std::string want = "big.json: file too large: 67108865 bytes (limit 67108864)\n";
  RunResult r = run("validate big.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, want);
  r = run("run big.json --out-dir out");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, want);
  EXPECT_TRUE(nothing_in("out"));
}

TEST_F(Robustness, EndlessDeviceIsCutAtTheSizeLimit) {
  const RunResult r = run("validate /dev/zero");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "/dev/zero: file too large: ");
  EXPECT_CONTAINS(r.err, "(limit 67108864)");
}

TEST_F(Robustness, MillionLevelNestingIsOneErrorNotAStackOverflow) {
  const std::size_t depth = 1000000;
  write("deep.json", R"({"format": "stepslide/scenario@1", "ticks": 1, "description": )" + std::string(depth, '[') +
                         std::string(depth, ']') + "}");
  write("open.json", std::string(depth, '['));  // never closed
  for (const char* file : {"deep.json", "open.json"}) {
    const RunResult r = run(std::string("validate ") + file);
    EXPECT_EQ(r.code, 2) << file;
    EXPECT_EQ(count_of(r.err, "\n"), 1u) << r.err.substr(0, 300);
    EXPECT_CONTAINS(r.err, "expected at most 64 levels of nesting");
  }
}

TEST_F(Robustness, FiftyThousandErrorsAreCappedAndFast) {
  std::string input;
  for (int i = 0; i < 50000; ++i) input += std::string(i == 0 ? "" : ", ") + R"({"tick": 0})";
  write("noisy.json", R"({"format": "stepslide/scenario@1", "ticks": 1, "input": [)" + input + "]}");
  const RunResult r = run("validate noisy.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_LE(count_of(r.err, "\n"), 1001u);
  EXPECT_CONTAINS(r.err, "noisy.json: /input/1/tick: expected an integer > 0 (the previous keyframe's tick), got 0");
}

TEST_F(Robustness, FifoWithoutWriterDoesNotHang) {
  ASSERT_EQ(::mkfifo(path("pipe.json").c_str(), 0600), 0);
  const RunResult r = run("validate pipe.json");
  EXPECT_EQ(r.code, 2) << "137 is a hang";
  EXPECT_CONTAINS(r.err, "pipe.json: ");
}

TEST_F(Robustness, DirectoryNamedLikeAScenarioIsSearchedNotRead) {
  fs::create_directories(path("looks_like.json"));
  const RunResult r = run("validate looks_like.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "no scenarios (*.json) found in looks_like.json");
}

// ---------------------------------------------------------------------------
// Trustworthy goldens

TEST(Goldens, EachStartsWithFormatScenarioHashAndBuildOfItsScenario) {
  const std::string root = STEPSLIDE_SOURCE_DIR;
  const stepslide::ScenarioList list = stepslide::discover_scenarios({root + "/scenarios"});
  ASSERT_GE(list.files.size(), 30u);
  for (const std::string& scenario : list.files) {
    SCOPED_TRACE(scenario);
    const stepslide::LoadedScenario loaded = stepslide::load_scenario_keeping_bytes(scenario);
    ASSERT_TRUE(loaded.valid());
    const std::string golden = stepslide::golden_path_for(scenario, root + "/scenarios", root + "/golden").value();
    const stepslide::Expected<stepslide::Trajectory> t = stepslide::read_trajectory_file(golden);
    ASSERT_TRUE(t) << t.error();
    ASSERT_GE(t->metadata.size(), 3u);
    EXPECT_EQ(t->metadata[0], " stepslide trajectory 1");
    EXPECT_EQ(t->metadata[1].rfind(" scenario " + loaded.load.scenario->name + " fnv1a64:", 0), 0u) << t->metadata[1];
    // The scenario's bytes, or with includes the combined hash of every file it read (format.md §2.2).
    const std::string scenario_line =
        stepslide::trajectory_metadata(loaded.load.scenario->name, loaded.load.inputs, "").at(1);
    EXPECT_EQ(" scenario " + loaded.load.scenario->name + " " + stepslide::metadata_scenario_hash(*t).value_or(""),
              scenario_line)
        << "the scenario changed since its golden was blessed: run `stepslide bless " << scenario
        << "` (a metadata-only change when the trajectory is the same)";
    const std::optional<std::string> build = stepslide::metadata_value(*t, "build");
    ASSERT_TRUE(build);
    EXPECT_EQ(build->rfind("stepslide ", 0), 0u) << *build;
    EXPECT_NE(build->find("float64"), std::string::npos) << *build;
  }
}

/// A scenario whose golden will be tampered with: 10 ticks on a floor.
const char* const kFloor = R"({"format": "stepslide/scenario@1", "ticks": 10,
  "world": [{"shape": {"type": "box", "half_extents": [5, 0.5, 5]}, "position": [0, -0.5, 0]}],
  "input": [{"tick": 0, "move": [0, 1]}]})";

/// Rewrites a golden as if an older build had written it with `y` at row 5.
void pretend_older_build(const fs::path& golden, double y) {
  stepslide::Expected<stepslide::Trajectory> t = stepslide::read_trajectory_file(golden.string());
  ASSERT_TRUE(t) << t.error();
  for (std::string& line : t->metadata) {
    if (line.rfind(" build ", 0) == 0) line = " build stepslide 0.0.1; an older compiler";
  }
  if (!std::isnan(y)) t->rows.at(5).at(static_cast<std::size_t>(t->column_index("y"))) = y;
  ASSERT_EQ(stepslide::write_file_atomic(golden.string(), stepslide::to_csv(*t)).error(), "");
}

TEST_F(Robustness, BuildNoteComesOnceBeforeTheTickDiffsAndOnlyOnFailure) {
  write("scenarios/a.json", kFloor);
  write("scenarios/b.json", kFloor);
  ASSERT_EQ(run("bless").code, 0);
  pretend_older_build(path("golden/a.csv"), 0.5);
  pretend_older_build(path("golden/b.csv"), std::nan(""));  // same trajectory, other build

  const RunResult r = run("check");
  EXPECT_EQ(r.code, 1);
  const std::string note = "note: golden was written by a different build: stepslide 0.0.1; an older compiler (now: ";
  EXPECT_EQ(count_of(r.out, note), 1u) << r.out;
  const std::size_t fail = r.out.find("FAIL scenarios/a.json: trajectory differs from golden golden/a.csv\n");
  ASSERT_NE(fail, std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(note), r.out.find('\n', fail) + 1) << "the note must come right after the FAIL line";
  EXPECT_LT(r.out.find(note), r.out.find("first divergence at tick 5, column y")) << r.out;
  EXPECT_CONTAINS(r.out, "PASS scenarios/b.json\n");
  EXPECT_CONTAINS(r.out, "\n1 passed, 1 failed\n");
}

// ---------------------------------------------------------------------------
// check --self-check

TEST_F(Robustness, SelfCheckRunsEveryScenarioTwiceAndReportsApartFromRegressions) {
  write("scenarios/a.json", kFloor);
  write("scenarios/b.json", kFloor);
  ASSERT_EQ(run("bless").code, 0);
  pretend_older_build(path("golden/a.csv"), 0.5);  // a regression, which is not nondeterminism

  const RunResult r = run("check --self-check");
  EXPECT_EQ(r.code, 1);
  EXPECT_CONTAINS(r.out, "FAIL scenarios/a.json: trajectory differs");
  EXPECT_EQ(r.out.find("NONDETERMINISTIC"), std::string::npos) << r.out;
  EXPECT_CONTAINS(r.out, "\nself-check: 2 scenarios run twice in one process, 0 nondeterministic\n1 passed, 1 failed\n");

  ASSERT_EQ(run("bless scenarios/a.json").code, 0);
  const RunResult clean = run("check --self-check");
  EXPECT_EQ(clean.code, 0) << clean.out;
  EXPECT_CONTAINS(clean.out, "self-check: 2 scenarios run twice in one process, 0 nondeterministic\n2 passed, 0 failed\n");
}

TEST_F(Robustness, SelfCheckNamesTheScenarioAndRowThatDifferedBetweenRuns) {
  write("a.json", kFloor);
  write("b.json", kFloor);
  write("c.json", R"({"format": "stepslide/scenario@1"})");  // invalid: check reports it, self-check skips it
  std::vector<std::string> order;
  const stepslide::RunText flaky = [&order](const stepslide::LoadedScenario& s) {
    order.push_back(fs::path(s.path).filename().string());
    const bool second_run_of_b = order.size() > 2 && order.back() == "b.json";
    return std::string("tick,y\n0,0\n1,") + (second_run_of_b ? "0.25" : "0.5") + "\n";
  };
  const std::vector<stepslide::SelfCheckOutcome> outcomes =
      stepslide::self_check({path("a.json").string(), path("b.json").string(), path("c.json").string()}, flaky);
  EXPECT_EQ(order, (std::vector<std::string>{"a.json", "b.json", "b.json", "a.json"}));  // second pass reversed
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_TRUE(outcomes[0].deterministic);
  EXPECT_EQ(outcomes[0].report, "");
  EXPECT_FALSE(outcomes[1].deterministic);
  EXPECT_EQ(outcomes[1].report, "NONDETERMINISTIC " + path("b.json").string() +
                                    ": two runs in one process differ at row 1: '1,0.5' then '1,0.25'\n");
  EXPECT_EQ(stepslide::self_check_line(outcomes), "self-check: 2 scenarios run twice in one process, 1 nondeterministic");
}

}  // namespace
