// Colour and the progress line: the policy (terminal, NO_COLOR, CI, --color),
// the text, and `stepslide check` end to end, including on a real
// pseudo-terminal (util-linux `script`) where the progress line must appear;
// `stepslide fuzz` likewise.
#include "gate/core/console.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "support/temp_dir.h"

namespace stepslide {
namespace {

namespace fs = std::filesystem;

ConsoleFacts facts(bool terminal, bool no_color = false, bool ci = false, bool dumb = false) {
  ConsoleFacts f;
  f.is_terminal = terminal;
  f.no_color = no_color;
  f.ci = ci;
  f.dumb_terminal = dumb;
  return f;
}

TEST(Console, ColorModesParse) {
  EXPECT_EQ(parse_color_mode("auto"), ColorMode::Auto);
  EXPECT_EQ(parse_color_mode("always"), ColorMode::Always);
  EXPECT_EQ(parse_color_mode("never"), ColorMode::Never);
  EXPECT_EQ(parse_color_mode("yes"), std::nullopt);
  EXPECT_EQ(parse_color_mode(""), std::nullopt);
}

TEST(Console, AutoColoursOnlyATerminalWithoutNoColor) {
  EXPECT_TRUE(color_enabled(ColorMode::Auto, facts(true)));
  EXPECT_FALSE(color_enabled(ColorMode::Auto, facts(false)));
  EXPECT_FALSE(color_enabled(ColorMode::Auto, facts(true, /*no_color=*/true)));
  EXPECT_FALSE(color_enabled(ColorMode::Auto, facts(true, false, false, /*dumb=*/true)));
  EXPECT_TRUE(color_enabled(ColorMode::Auto, facts(true, false, /*ci=*/true))) << "CI alone does not stop colour";
}

TEST(Console, TheCommandLineBeatsTheEnvironment) {
  EXPECT_TRUE(color_enabled(ColorMode::Always, facts(false, true, true, true)));
  EXPECT_FALSE(color_enabled(ColorMode::Never, facts(true)));
}

TEST(Console, ProgressOnlyOnATerminalAndNeverInCi) {
  EXPECT_TRUE(progress_enabled(facts(true)));
  EXPECT_FALSE(progress_enabled(facts(false)));
  EXPECT_FALSE(progress_enabled(facts(true, false, /*ci=*/true)));
  EXPECT_TRUE(progress_enabled(facts(true, /*no_color=*/true))) << "NO_COLOR is about colour only";
}

TEST(Console, VerdictsAreColouredAtTheStartOfLinesOnly) {
  const std::string report =
      "PASS a.json\nFAIL b.json: trajectory differs\nnote: PASS here is not a verdict\nFAILED is not FAIL\n";
  EXPECT_EQ(colorize_verdicts(report),
            "\x1b[1;32mPASS\x1b[0m a.json\n\x1b[1;31mFAIL\x1b[0m b.json: trajectory differs\n"
            "note: PASS here is not a verdict\nFAILED is not FAIL\n");
  EXPECT_EQ(colorize_verdicts("3 passed, 1 failed\n"), "3 passed, 1 failed\n") << "the closing line stays plain";
  EXPECT_EQ(colorize_verdicts(""), "");
  EXPECT_EQ(colorize_verdicts("PASS"), "\x1b[1;32mPASS\x1b[0m");
}

TEST(Console, ProgressText) {
  EXPECT_EQ(progress_text(0, 31, 0, "scenarios/a.json"), "[0/31] checking scenarios/a.json");
  EXPECT_EQ(progress_text(12, 31, 2, "scenarios/b.json"), "[12/31] 2 failed | checking scenarios/b.json");
  EXPECT_EQ(progress_text(31, 31, 0, ""), "[31/31]");
}

TEST(Console, ProgressLineRewritesOneLineAndClearsIt) {
  std::ostringstream out;
  {
    ProgressLine line(out, true, 12);
    line.show("abcdefghijklmnop");  // cut to width - 1 = 11
    line.show("xyz");               // blanks cover the rest of the longer line
    line.clear();
    line.clear();                   // nothing left to clear
  }
  EXPECT_EQ(out.str(), "\rabcdefghijk\rxyz        \rxyz\r   \r");
}

TEST(Console, ProgressLineCutsWholeUtf8CharactersAndStopsAtControls) {
  std::ostringstream out;
  ProgressLine line(out, true, 4);
  line.show("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9");
  line.show("a\nb");
  line.clear();
  EXPECT_EQ(out.str(), "\r\xC3\xA9\xC3\xA9\xC3\xA9\ra  \ra\r \r");
}

TEST(Console, FactsComeFromTheDescriptorAndTheEnvironment) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const char* saved_no_color = std::getenv("NO_COLOR");
  const std::string kept = saved_no_color ? saved_no_color : "";
  ::setenv("NO_COLOR", "1", 1);
  ConsoleFacts f = read_console_facts(fds[1]);
  EXPECT_FALSE(f.is_terminal) << "a pipe is not a terminal";
  EXPECT_TRUE(f.no_color);
  ::setenv("NO_COLOR", "", 1);
  f = read_console_facts(fds[1]);
  EXPECT_FALSE(f.no_color) << "an empty NO_COLOR does not count (no-color.org)";
  EXPECT_EQ(terminal_columns(fds[1]), 80u) << "a pipe has no width: the default";
  if (saved_no_color) {
    ::setenv("NO_COLOR", kept.c_str(), 1);
  } else {
    ::unsetenv("NO_COLOR");
  }
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST(Console, DisabledProgressLineWritesNothing) {
  std::ostringstream out;
  {
    ProgressLine line(out, false, 80);
    line.show("[1/2]");
    line.clear();
  }
  EXPECT_EQ(out.str(), "");
}

// ---------------------------------------------------------------------------
// `stepslide check`, end to end

class ConsoleCli : public test::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    fs::create_directories(dir_ / "scenarios");
    fs::create_directories(dir_ / "golden");
    const std::string source = STEPSLIDE_SOURCE_DIR;
    for (const char* name : {"walk_flat", "jump", "fall_and_rest"}) {
      fs::copy_file(source + "/scenarios/basics/" + name + ".json", dir_ / "scenarios" / (std::string(name) + ".json"));
      fs::copy_file(source + "/golden/basics/" + name + ".csv", dir_ / "golden" / (std::string(name) + ".csv"));
    }
    fs::remove(dir_ / "golden/jump.csv");  // one failure: a missing golden
  }

  /// Runs `command` in the temp dir with CI, NO_COLOR and STEPSLIDE_UPDATE
  /// unset, then `env`.
  int shell(const std::string& command, const std::string& env = "") const {
    const std::string line =
        "cd '" + dir_.string() + "' && env -u CI -u NO_COLOR -u STEPSLIDE_UPDATE " + env + " " + command;
    const int status = std::system(line.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
};

const std::string kCheck = std::string("'") + STEPSLIDE_BINARY + "' check";

/// `text` without the once-per-run build note: a build other than the one
/// that blessed the goldens (the sanitizer build) prints it on stderr.
std::string without_build_note(const std::string& text) {
  std::string kept;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    end = end == std::string::npos ? text.size() : end + 1;
    const std::string line = text.substr(start, end - start);
    // On another architecture (tools/arm64-gate.sh --tests) a second line says so.
    const bool note = line.rfind("note: ", 0) == 0 && (line.find("written by a different build") != std::string::npos ||
                                                       line.rfind("note: the processor architecture differs", 0) == 0);
    if (!note) kept += line;
    start = end;
  }
  return kept;
}

TEST_F(ConsoleCli, PipedOutputHasNoColourAndNoProgress) {
  EXPECT_EQ(shell(kCheck + " >out.txt 2>err.txt"), 1);
  const std::string out = read("out.txt");
  EXPECT_NE(out.find("PASS scenarios/fall_and_rest.json\n"), std::string::npos) << out;
  EXPECT_NE(out.find("FAIL scenarios/jump.json: missing golden"), std::string::npos) << out;
  EXPECT_EQ(out.find('\x1b'), std::string::npos);
  EXPECT_EQ(without_build_note(read("err.txt")), "") << "no progress line when stderr is a file";
}

TEST_F(ConsoleCli, ColorAlwaysColoursVerdictsButNotTheClosingLine) {
  EXPECT_EQ(shell(kCheck + " --color=always >out.txt 2>err.txt", "NO_COLOR=1"), 1);
  const std::string out = read("out.txt");
  EXPECT_NE(out.find("\x1b[1;32mPASS\x1b[0m scenarios/fall_and_rest.json"), std::string::npos) << out;
  EXPECT_NE(out.find("\x1b[1;31mFAIL\x1b[0m scenarios/jump.json"), std::string::npos) << out;
  EXPECT_NE(out.find("\n2 passed, 1 failed\n"), std::string::npos) << out;
}

TEST_F(ConsoleCli, BadColorValueIsAUsageError) {
  EXPECT_EQ(shell(kCheck + " --color=sometimes >out.txt 2>err.txt"), 2);
  EXPECT_NE(read("err.txt").find("--color"), std::string::npos) << read("err.txt");
}

/// Runs `check` on a pseudo-terminal with util-linux `script`; false when unavailable.
bool script_available() { return std::system("script --version >/dev/null 2>&1") == 0; }

TEST_F(ConsoleCli, OnATerminalAProgressLineAndColourAppear) {
  if (!script_available()) GTEST_SKIP() << "util-linux `script` is not installed: cannot make a pseudo-terminal";
  EXPECT_EQ(shell("script -qefc \"" + kCheck + "\" /dev/null >tty.txt 2>&1 </dev/null", "TERM=xterm"), 1);
  const std::string tty = read("tty.txt");
  EXPECT_NE(tty.find("\r[0/3] checking scenarios/fall_and_rest.json"), std::string::npos) << tty;
  EXPECT_NE(tty.find("[2/3] 1 failed | checking scenarios/walk_flat.json"), std::string::npos) << tty;
  EXPECT_NE(tty.find("\x1b[1;32mPASS"), std::string::npos) << "auto colours a terminal";
  EXPECT_NE(tty.find("2 passed, 1 failed"), std::string::npos) << tty;
}

TEST_F(ConsoleCli, OnATerminalInCiOrWithNoColorThereIsNone) {
  if (!script_available()) GTEST_SKIP() << "util-linux `script` is not installed: cannot make a pseudo-terminal";
  EXPECT_EQ(shell("script -qefc \"" + kCheck + "\" /dev/null >ci.txt 2>&1 </dev/null", "TERM=xterm CI=true"), 1);
  const std::string ci = read("ci.txt");
  EXPECT_EQ(ci.find("checking scenarios/"), std::string::npos) << "no progress in CI logs:\n" << ci;
  EXPECT_NE(ci.find("\x1b[1;32mPASS"), std::string::npos) << "colour still follows the terminal";
  EXPECT_EQ(shell("script -qefc \"" + kCheck + "\" /dev/null >nc.txt 2>&1 </dev/null", "TERM=xterm NO_COLOR=1"), 1);
  const std::string nc = read("nc.txt");
  EXPECT_EQ(nc.find('\x1b'), std::string::npos) << nc;
  EXPECT_NE(nc.find("checking scenarios/"), std::string::npos) << "NO_COLOR keeps the progress line";
  EXPECT_EQ(shell("script -qefc \"" + kCheck + " --color=never\" /dev/null >never.txt 2>&1 </dev/null", "TERM=xterm"),
            1);
  EXPECT_EQ(read("never.txt").find('\x1b'), std::string::npos);
}

TEST_F(ConsoleCli, FuzzShowsProgressOnATerminalOnly) {
  const std::string fuzz = std::string("'") + STEPSLIDE_BINARY + "' fuzz --count 3 --out-dir findings";
  EXPECT_EQ(shell(fuzz + " >out.txt 2>err.txt"), 0);
  EXPECT_EQ(without_build_note(read("err.txt")), "") << "no progress line when stderr is a file";
  EXPECT_NE(read("out.txt").find("fuzz: 3 scenarios"), std::string::npos) << read("out.txt");
  if (!script_available()) GTEST_SKIP() << "util-linux `script` is not installed: cannot make a pseudo-terminal";
  EXPECT_EQ(shell("script -qefc \"" + fuzz + "\" /dev/null >tty.txt 2>&1 </dev/null", "TERM=xterm"), 0);
  const std::string tty = read("tty.txt");
  EXPECT_NE(tty.find("\r[0/3] seed 1"), std::string::npos) << tty;
  EXPECT_NE(tty.find("\r[2/3] seed 3"), std::string::npos) << tty;
  EXPECT_NE(tty.find("fuzz: 3 scenarios"), std::string::npos) << tty;
  EXPECT_EQ(shell("script -qefc \"" + fuzz + "\" /dev/null >ci.txt 2>&1 </dev/null", "TERM=xterm CI=1"), 0);
  EXPECT_EQ(read("ci.txt").find("[0/3]"), std::string::npos) << read("ci.txt");
}

}  // namespace
}  // namespace stepslide
