// `stepslide review` (gate/commands/review.h): the loop driven with scripted keys in
// this process, then the executable on a real pseudo-terminal (forkpty),
// where keys must work without Enter and the terminal must come back as it
// was.
#include "gate/commands/review.h"

#include <gtest/gtest.h>

#include <chrono>
#include <deque>
#include <filesystem>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "gate/commands/bless.h"
#include "gate/commands/check_run.h"
#include "support/temp_dir.h"

namespace stepslide {
namespace {

namespace fs = std::filesystem;

std::string floor_json(int ticks, const std::string& extra = "") {
  return R"({"format": "stepslide/scenario@1", "ticks": )" + std::to_string(ticks) +
         R"(, "world": [{"shape": {"type": "box", "half_extents": [5, 0.5, 5]}, "position": [0, -0.5, 0]}])" +
         (extra.empty() ? "" : ", " + extra) + "}";
}

/// What the loop showed, and the keys it is given, in order.
struct Script {
  std::deque<char> keys;
  std::string shown;
  ReviewIo io() {
    ReviewIo io;
    io.show = [this](const std::string& text) { shown += text; };
    io.read_key = [this]() -> std::optional<char> {
      if (keys.empty()) return std::nullopt;
      const char key = keys.front();
      keys.pop_front();
      return key;
    };
    return io;
  }
};

class Review : public test::WorkingDirTest {
 protected:
  /// a (changed), b (changed) and c (new): three pending results.
  void SetUp() override {
    WorkingDirTest::SetUp();
    write("scenarios/a.json", floor_json(3));
    write("scenarios/b.json", floor_json(3));
    BlessRequest bless;
    bless.fingerprint = "test build";
    ASSERT_EQ(run_bless(bless).exit_code, kExitOk);
    write("scenarios/a.json", floor_json(4));
    write("scenarios/b.json", floor_json(3, R"("input": [{"tick": 0, "move": [0, 1]}])"));
    write("scenarios/c.json", floor_json(2));
    CheckRequest check;
    check.fingerprint = "test build";
    ASSERT_EQ(run_check(check).exit_code, kExitFailure);
    ASSERT_TRUE(exists("golden/a.csv.new") && exists("golden/b.csv.new") && exists("golden/c.csv.new"));
  }
};

TEST_F(Review, KeysMap) {
  EXPECT_EQ(review_choice('a'), ReviewChoice::Accept);
  EXPECT_EQ(review_choice('R'), ReviewChoice::Reject);
  EXPECT_EQ(review_choice('s'), ReviewChoice::Skip);
  EXPECT_EQ(review_choice('q'), ReviewChoice::Quit);
  EXPECT_EQ(review_choice('y'), std::nullopt);
}

TEST_F(Review, EachResultIsShownThenAcceptedRejectedOrSkipped) {
  const std::string b_golden = read("golden/b.csv");
  const std::string a_pending = read("golden/a.csv.new");
  Script script{{'x', '\n', 'a', 'r', 's'}, ""};
  const ReviewRun run = run_review(ReviewRequest{}, script.io());
  EXPECT_EQ(run.exit_code, kExitOk);
  EXPECT_EQ(run.closing, "review: 1 accepted, 1 rejected, 1 skipped (still pending)");
  const std::string& shown = script.shown;
  EXPECT_EQ(shown.rfind("[1/3] a\nscenario scenarios/a.json\npending  golden/a.csv.new\n"
                        "note: the scenario file changed since the golden was blessed (fnv1a64:",
                        0),
            0u)
      << shown;
  EXPECT_CONTAINS(shown, "first divergence at tick 4: extra row in actual (got tick 4)\n");
  EXPECT_CONTAINS(shown, "picture  golden/a.csv.new.svg\naccept (a), reject (r), skip (s) or quit (q)? "
                         "x\npress a, r, s or q: accept\naccepted golden/a.csv (changed: ");
  EXPECT_CONTAINS(shown, "\n[2/3] b\n");
  EXPECT_CONTAINS(shown, "worst error per column:\n");
  EXPECT_CONTAINS(shown, "reject\nrejected golden/b.csv.new\n");
  EXPECT_CONTAINS(shown, "\n[3/3] c\nscenario scenarios/c.json\npending  golden/c.csv.new\nnew golden: 3 rows, "
                         "feet end at (0, 0, 0)\npicture  golden/c.csv.new.svg\n");
  EXPECT_TRUE(test::contains(shown, "skip\n"));
  EXPECT_EQ(read("golden/a.csv"), a_pending);
  EXPECT_FALSE(exists("golden/a.csv.new.svg")) << "accepting removes the picture";
  EXPECT_EQ(read("golden/b.csv"), b_golden);
  EXPECT_FALSE(exists("golden/b.csv.new"));
  EXPECT_FALSE(exists("golden/b.csv.new.svg"));
  EXPECT_TRUE(exists("golden/c.csv.new"));
  EXPECT_CONTAINS(read("golden/c.csv.new.svg"), "<svg") << "a skipped result keeps its picture to look at";
}

TEST_F(Review, QuitOrTheEndOfInputLeavesTheRest) {
  Script quit{{'s', 'q'}, ""};
  EXPECT_EQ(run_review(ReviewRequest{}, quit.io()).closing,
            "review: 0 accepted, 0 rejected, 3 skipped (still pending)");
  EXPECT_CONTAINS(quit.shown, "quit\n");
  EXPECT_FALSE(test::contains(quit.shown, "[3/3]"));
  Script end{{}, ""};
  EXPECT_EQ(run_review(ReviewRequest{}, end.io()).closing,
            "review: 0 accepted, 0 rejected, 3 skipped (still pending)");
  EXPECT_TRUE(exists("golden/a.csv.new") && exists("golden/b.csv.new") && exists("golden/c.csv.new"));
}

TEST_F(Review, PathsAndFiltersChooseWhatIsReviewed) {
  Script one{{'r'}, ""};
  ReviewRequest request;
  request.filters = {"-a", "-c"};
  EXPECT_EQ(run_review(request, one.io()).closing, "review: 0 accepted, 1 rejected, 0 skipped");
  EXPECT_CONTAINS(one.shown, "[1/1] b\n");
  Script two{{'r'}, ""};
  ReviewRequest by_path;
  by_path.paths = {"scenarios/c.json"};
  EXPECT_EQ(run_review(by_path, two.io()).closing, "review: 0 accepted, 1 rejected, 0 skipped");
  Script nothing{{}, ""};
  ReviewRequest none;
  none.filters = {"zzz"};
  EXPECT_EQ(run_review(none, nothing.io()).closing, "no pending results selected by the filters under golden");
  ReviewRequest bad;
  bad.paths = {"nowhere"};
  const ReviewRun refused = run_review(bad, nothing.io());
  EXPECT_EQ(refused.exit_code, kExitInvalid);
  EXPECT_EQ(refused.errors, "error: nowhere: no such file or directory\n");
}

TEST_F(Review, AResultThatCannotBeAcceptedSaysWhyAndOffersTheRest) {
  fs::remove("scenarios/a.json");
  Script script{{'a', 'r', 'q'}, ""};
  const ReviewRun run = run_review(ReviewRequest{}, script.io());
  EXPECT_CONTAINS(script.shown, "cannot accept: its scenario scenarios/a.json does not exist; reject it with "
                                "`stepslide reject golden/a.csv.new`\nreject (r), skip (s) or quit (q)? a\n"
                                "cannot accept: its scenario");
  EXPECT_CONTAINS(script.shown, "rejected golden/a.csv.new\n");
  EXPECT_EQ(run.rejected, 1u);
  EXPECT_EQ(run.accepted, 0u);
  EXPECT_FALSE(exists("golden/a.csv.new"));
}

// ---------------------------------------------------------------------------
// On a pseudo-terminal

/// `stepslide ARGS` on a fresh pseudo-terminal in `dir`: send keys, read what
/// it shows.
class Terminal {
 public:
  Terminal(const fs::path& dir, const std::string& args) {
    pid_ = ::forkpty(&master_, nullptr, nullptr, nullptr);
    if (pid_ == 0) {
      if (::chdir(dir.c_str()) != 0) ::_exit(126);
      for (const char* name : {"CI", "NO_COLOR", "STEPSLIDE_UPDATE"}) ::unsetenv(name);
      ::execl("/bin/sh", "sh", "-c", (std::string("exec '") + STEPSLIDE_BINARY + "' " + args).c_str(),
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
  }
  ~Terminal() {
    if (pid_ > 0 && !reaped_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (master_ >= 0) ::close(master_);
  }
  bool started() const { return pid_ > 0; }

  /// Reads until `text` has appeared since the last call (true), or 20 s pass.
  bool wait_for(const std::string& text) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    bool open = true;  // false once the child has closed the terminal
    while (seen_.find(text, mark_) == std::string::npos) {
      if (!open || std::chrono::steady_clock::now() > deadline) return false;
      open = read_some(100);
    }
    mark_ = seen_.find(text, mark_) + text.size();
    return true;
  }
  void send(const std::string& keys) { ASSERT_EQ(::write(master_, keys.data(), keys.size()), (ssize_t)keys.size()); }
  /// Reads to the end and returns the exit code; -1 when a signal ended it.
  int finish() {
    while (read_some(100)) {
    }
    int status = 0;
    ::waitpid(pid_, &status, 0);
    reaped_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  const std::string& seen() const { return seen_; }
  /// The terminal's current local modes, as the child left them.
  tcflag_t local_modes() const {
    termios t{};
    ::tcgetattr(master_, &t);
    return t.c_lflag;
  }

 private:
  /// Reads what is there within `ms`; false at the end of output.
  bool read_some(int ms) {
    pollfd p{master_, POLLIN, 0};
    if (::poll(&p, 1, ms) <= 0) return true;  // nothing yet
    char buffer[4096];
    const ssize_t n = ::read(master_, buffer, sizeof buffer);
    if (n <= 0) return false;  // EIO: the child closed the terminal
    seen_.append(buffer, static_cast<std::size_t>(n));
    return true;
  }

  int master_ = -1;
  pid_t pid_ = -1;
  bool reaped_ = false;
  std::string seen_;
  std::size_t mark_ = 0;
};

TEST_F(Review, OnATerminalOneKeyAnswersWithoutEnter) {
  Terminal terminal(dir_, "review");
  ASSERT_TRUE(terminal.started());
  const std::string prompt = "accept (a), reject (r), skip (s) or quit (q)? ";
  ASSERT_TRUE(terminal.wait_for("[1/3] a")) << terminal.seen();
  ASSERT_TRUE(terminal.wait_for(prompt)) << terminal.seen();
  EXPECT_EQ(terminal.local_modes() & (ICANON | ECHO), 0u) << "raw keys while asking";
  terminal.send("\x1b[A");  // an arrow key: its 'A' must not accept
  terminal.send("a");       // no Enter
  ASSERT_TRUE(terminal.wait_for("accepted golden/a.csv (changed: ")) << terminal.seen();
  ASSERT_TRUE(terminal.wait_for(prompt)) << terminal.seen();
  terminal.send("r");
  ASSERT_TRUE(terminal.wait_for("rejected golden/b.csv.new")) << terminal.seen();
  ASSERT_TRUE(terminal.wait_for(prompt)) << terminal.seen();
  terminal.send("q");
  ASSERT_TRUE(terminal.wait_for("review: 1 accepted, 1 rejected, 1 skipped (still pending)")) << terminal.seen();
  EXPECT_EQ(terminal.finish(), 0);
  EXPECT_EQ(terminal.local_modes() & (ICANON | ECHO), tcflag_t{ICANON | ECHO}) << "the terminal is restored";
  EXPECT_FALSE(test::contains(terminal.seen(), "press a, r, s or q")) << "the escape sequence was swallowed whole";
  EXPECT_FALSE(exists("golden/a.csv.new"));
  EXPECT_FALSE(exists("golden/b.csv.new"));
  EXPECT_TRUE(exists("golden/c.csv.new"));
}

TEST_F(Review, CtrlCRestoresTheTerminal) {
  Terminal terminal(dir_, "review");
  ASSERT_TRUE(terminal.started());
  ASSERT_TRUE(terminal.wait_for("or quit (q)? ")) << terminal.seen();
  EXPECT_EQ(terminal.local_modes() & (ICANON | ECHO), 0u);
  terminal.send("\x03");
  EXPECT_EQ(terminal.finish(), -1) << "killed by SIGINT, as without the handler";
  EXPECT_EQ(terminal.local_modes() & (ICANON | ECHO), tcflag_t{ICANON | ECHO}) << "the terminal is restored";
  EXPECT_TRUE(exists("golden/a.csv.new")) << "nothing was decided";
}

TEST_F(Review, FromAPipeEachCharacterIsAnAnswer) {
  write("no_keys", "");
  const test::RunResult r = run("review <no_keys");
  EXPECT_EQ(r.code, 0);
  EXPECT_CONTAINS(r.out, "review: 0 accepted, 0 rejected, 3 skipped (still pending)");
  write("keys", "a\nr\n");
  const test::RunResult piped = run("review <keys");
  EXPECT_EQ(piped.code, 0) << piped.err;
  EXPECT_CONTAINS(piped.out, "review: 1 accepted, 1 rejected, 1 skipped (still pending)");
}

}  // namespace
}  // namespace stepslide
