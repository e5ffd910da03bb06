// A fresh temporary directory per test, removed afterwards, with helpers to
// write and read files in it and to run the `stepslide` binary inside it.
#pragma once

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace stepslide::test {

namespace fs = std::filesystem;

/// Whole file as text ("" when it cannot be read).
inline std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

#define EXPECT_CONTAINS(text, part) \
  EXPECT_TRUE(::stepslide::test::contains(text, part)) << "missing: " << (part) << "\nin:\n" << (text)

/// What a run of the binary did.
struct RunResult {
  int code = -1;  ///< exit code; 128 + N when killed by signal N (as a shell says)
  std::string out;
  std::string err;
};

/// `word` in single quotes for the shell.
inline std::string quoted(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// Every child run gets at most this long: a hang fails the test, not CI.
constexpr int kChildTimeoutSeconds = 120;

/// Base fixture: `dir_` is `<tmp>/stepslide_<suite>_<test>_<pid>`, empty at
/// the start of each test.
class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("stepslide_" + std::string(info->test_suite_name()) + "_" +
                                        std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  fs::path path(const std::string& rel) const { return dir_ / rel; }
  void write(const std::string& rel, const std::string& text) const {
    const fs::path file = dir_ / rel;
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
  }
  std::string read(const std::string& rel) const { return read_text(dir_ / rel); }
  bool exists(const std::string& rel) const { return fs::exists(dir_ / rel); }

  /// Runs `stepslide ARGS` in the directory through the shell, killed after
  /// kChildTimeoutSeconds. `env` is prepended (e.g. "CI=1"). CI, colour,
  /// update-mode and sharding variables of the test's own environment are
  /// removed, so the child sees only what the test sets.
  RunResult run(const std::string& args, const std::string& env = "") const {
    const std::string command = "cd " + quoted(dir_.string()) +
                                " && env -u CI -u NO_COLOR -u STEPSLIDE_UPDATE -u GTEST_TOTAL_SHARDS "
                                "-u GTEST_SHARD_INDEX -u TEST_TOTAL_SHARDS -u TEST_SHARD_INDEX "
                                "-u TEST_SHARD_STATUS_FILE " +
                                env + " timeout -s KILL " + std::to_string(kChildTimeoutSeconds) + " " +
                                quoted(STEPSLIDE_BINARY) + " " + args + " >.stdout 2>.stderr";
    const int status = std::system(command.c_str());
    RunResult result;
    if (WIFEXITED(status)) result.code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.code = 128 + WTERMSIG(status);
    result.out = read(".stdout");
    result.err = read(".stderr");
    fs::remove(dir_ / ".stdout");
    fs::remove(dir_ / ".stderr");
    return result;
  }

  fs::path dir_;
};

/// A TempDirTest whose process works inside the directory (for library calls
/// that take relative paths, as the CLI does).
class WorkingDirTest : public TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    old_cwd_ = fs::current_path();
    fs::current_path(dir_);
  }
  void TearDown() override {
    fs::current_path(old_cwd_);
    TempDirTest::TearDown();
  }

 private:
  fs::path old_cwd_;
};

}  // namespace stepslide::test
