// Hostile input, end to end: the real `stepslide` binary on every file of the
// bad-input corpus and on inputs too big to check in (generated here), plus
// the golden gate's trust checks (metadata, build note, --self-check).
// Every child runs under `timeout`, so a hang fails the test instead of CI.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

/// A child that runs longer than this has hung.
constexpr int kTimeoutSeconds = 60;
/// `timeout` exits with this when it had to stop the child.
constexpr int kTimedOut = 124;

struct Result {
  int code = -1;  ///< exit code; 128+N when the child died of signal N
  std::string out;
  std::string err;
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string quoted(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++count;
  return count;
}

#define EXPECT_CONTAINS(text, part) EXPECT_TRUE(contains(text, part)) << "missing: " << (part) << "\nin:\n" << (text)

/// A fresh temporary directory per test, and the binary run inside it.
class Robustness : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("stepslide_robust_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  fs::path path(const std::string& rel) const { return dir_ / rel; }
  void write(const std::string& rel, const std::string& text) const {
    fs::create_directories(path(rel).parent_path());
    std::ofstream(path(rel), std::ios::binary) << text;
  }

  /// `stepslide ARGS` in the temp dir, with CI and sharding variables removed.
  Result run(const std::string& args) const {
    const std::string command = "cd " + quoted(dir_.string()) +
                                " && env -u CI -u GTEST_TOTAL_SHARDS -u GTEST_SHARD_INDEX -u TEST_TOTAL_SHARDS "
                                "-u TEST_SHARD_INDEX timeout -s KILL " +
                                std::to_string(kTimeoutSeconds) + " " + quoted(STEPSLIDE_BINARY) + " " + args +
                                " >.stdout 2>.stderr";
    const int status = std::system(command.c_str());
    Result result;
    if (WIFEXITED(status)) result.code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.code = 128 + WTERMSIG(status);
    result.out = read_text(path(".stdout"));
    result.err = read_text(path(".stderr"));
    fs::remove(path(".stdout"));
    fs::remove(path(".stderr"));
    return result;
  }

  /// True when `rel` does not exist or is an empty directory.
  bool nothing_in(const std::string& rel) const {
    std::error_code ec;
    return !fs::exists(path(rel), ec) || (fs::is_directory(path(rel), ec) && fs::is_empty(path(rel), ec));
  }

  fs::path dir_;
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

    const Result validate = run("validate " + quoted(file));
    EXPECT_EQ(validate.code, 2) << "124 is a hang, above 128 a crash";
    EXPECT_EQ(validate.out, "");
    EXPECT_EQ(validate.err, want);

    const Result simulate = run("run " + quoted(file) + " --out-dir out");
    EXPECT_EQ(simulate.code, 2) << "124 is a hang, above 128 a crash";
    EXPECT_EQ(simulate.err, want);
    EXPECT_TRUE(nothing_in("out")) << "run left output behind";

    const Result single = run("run " + quoted(file) + " --out one.csv");
    EXPECT_EQ(single.code, 2);
    EXPECT_TRUE(nothing_in("one.csv"));
  }
}

TEST_F(Robustness, OneBadFileAmongGoodOnesStopsTheWholeRun) {
  write("good.json", R"({"format": "stepslide/scenario@1", "ticks": 2})");
  const std::string bad = (kCorpus / "binary_garbage.json").string();
  const Result r = run("run good.json " + quoted(bad) + " --out-dir out");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, bad + ": invalid JSON");
  EXPECT_TRUE(nothing_in("out"));
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
  Result r = run("validate big.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, want);
  r = run("run big.json --out-dir out");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, want);
  EXPECT_TRUE(nothing_in("out"));
}

TEST_F(Robustness, EndlessDeviceIsCutAtTheSizeLimit) {
  const Result r = run("validate /dev/zero");
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
    const Result r = run(std::string("validate ") + file);
    EXPECT_EQ(r.code, 2) << file;
    EXPECT_EQ(count_of(r.err, "\n"), 1u) << r.err.substr(0, 300);
    EXPECT_CONTAINS(r.err, "expected at most 64 levels of nesting");
  }
}

TEST_F(Robustness, FiftyThousandErrorsAreCappedAndFast) {
  std::string input;
  for (int i = 0; i < 50000; ++i) input += std::string(i == 0 ? "" : ", ") + R"({"tick": 0})";
  write("noisy.json", R"({"format": "stepslide/scenario@1", "ticks": 1, "input": [)" + input + "]}");
  const Result r = run("validate noisy.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_LE(count_of(r.err, "\n"), 1001u);
  EXPECT_CONTAINS(r.err, "noisy.json: /input/1/tick: expected an integer > 0 (the previous keyframe's tick), got 0");
}

TEST_F(Robustness, FifoWithoutWriterDoesNotHang) {
  ASSERT_EQ(::mkfifo(path("pipe.json").c_str(), 0600), 0);
  const Result r = run("validate pipe.json");
  EXPECT_EQ(r.code, 2) << "124 is a hang";
  EXPECT_CONTAINS(r.err, "pipe.json: ");
}

TEST_F(Robustness, DirectoryNamedLikeAScenarioIsSearchedNotRead) {
  fs::create_directories(path("looks_like.json"));
  const Result r = run("validate looks_like.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "no scenarios (*.json) found in looks_like.json");
}

}  // namespace
