// `stepslide review`: walk the pending results and accept, reject or skip
// each with one key, as `cargo insta review` does. The loop is the library's
// (gate/commands/review.h); this file owns the terminal: single keys without Enter
// and without echo, restored on every way out, Ctrl-C included.
#include <cerrno>
#include <csignal>
#include <iostream>
#include <optional>
#include <termios.h>
#include <unistd.h>

#include "command.h"
#include "filter_option.h"
#include "gate/commands/review.h"
#include "options.h"

namespace stepslide::cli {

namespace {

/// The terminal settings to restore; read by the signal handler.
termios g_saved_terminal{};
volatile sig_atomic_t g_terminal_changed = 0;

extern "C" void restore_and_reraise(int signal_number) {
  if (g_terminal_changed) ::tcsetattr(STDIN_FILENO, TCSANOW, &g_saved_terminal);  // async-signal-safe
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

/// Keys from stdin: on a terminal one at a time without Enter or echo
/// (ISIG stays on, so Ctrl-C still interrupts); from a pipe, one byte at a
/// time with blanks skipped, so a script can drive a review too.
class Keys {
 public:
  Keys() : terminal_(::isatty(STDIN_FILENO) == 1) {
    if (!terminal_ || ::tcgetattr(STDIN_FILENO, &g_saved_terminal) != 0) return;
    termios raw = g_saved_terminal;
    raw.c_lflag &= static_cast<tcflag_t>(~(ICANON | ECHO));
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) std::signal(s, restore_and_reraise);
    // TCSANOW, not TCSAFLUSH: keys typed ahead are answers too.
    if (::tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0) g_terminal_changed = 1;
  }
  ~Keys() {
    if (g_terminal_changed) ::tcsetattr(STDIN_FILENO, TCSANOW, &g_saved_terminal);
    g_terminal_changed = 0;
  }
  Keys(const Keys&) = delete;
  Keys& operator=(const Keys&) = delete;

  /// The next key; nullopt at the end of input or Ctrl-D.
  std::optional<char> next() const {
    while (true) {
      char key = 0;
      const ssize_t n = ::read(STDIN_FILENO, &key, 1);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0 || key == 4) return std::nullopt;
      if (key == 0x1b && terminal_) drain_escape_sequence();
      return key;  // the loop ignores blanks and control keys
    }
  }

 private:
  /// An arrow or function key sends ESC and more bytes; left in the queue,
  /// "ESC [ A" would read as the answer 'A'. Reads the rest of one sequence
  /// (CSI: '[', parameters, a final byte in @..~; SS3: 'O' and one byte;
  /// Alt+key: one byte), waiting at most a tenth of a second for each byte,
  /// and drops it, leaving any key typed after it.
  void drain_escape_sequence() const {
    termios quick{};
    if (::tcgetattr(STDIN_FILENO, &quick) != 0) return;
    const termios blocking = quick;
    quick.c_cc[VMIN] = 0;
    quick.c_cc[VTIME] = 1;
    ::tcsetattr(STDIN_FILENO, TCSANOW, &quick);
    const auto next_byte = [] {
      char byte = 0;
      return ::read(STDIN_FILENO, &byte, 1) == 1 ? static_cast<int>(static_cast<unsigned char>(byte)) : -1;
    };
    const int kind = next_byte();
    if (kind == '[') {
      for (int b = next_byte(); b >= 0 && !(b >= 0x40 && b <= 0x7e); b = next_byte()) {
      }
    } else if (kind == 'O') {
      next_byte();
    }
    ::tcsetattr(STDIN_FILENO, TCSANOW, &blocking);
  }

  bool terminal_;
};

class ReviewCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* review = app.add_subcommand("review", "Look at each pending result (GOLDEN.csv.new, written by a failing "
                                                    "check) and accept, reject or skip it with one key.");
    review->add_option("PATH", request_.paths,
                       "pending results (.csv.new), their goldens, scenario files, or folders of either (default: "
                       "every pending result under the golden root)");
    add_root_options(review, &request_.scenario_root, &request_.golden_dir);
    add_filter_option(review, &request_.filters);
    review->footer(
        "For each pending result, in path order: its scenario, what accepting it changes (the first divergence "
        "with context rows and the worst error per column, or that the golden is new) and a picture of it over "
        "its golden, written beside it as GOLDEN.csv.new.svg; then a key: a accepts (the .new replaces the "
        "golden in one atomic rename), r rejects (deletes the .new), s skips (keeps it), q quits (the rest stay "
        "pending). A result whose scenario is gone, invalid or changed since the check cannot be accepted. On a "
        "terminal keys need no Enter; from a pipe each character is an answer (blanks skipped). Ends with "
        "'review: N accepted, N rejected, N skipped'. Non-interactive: `stepslide accept` / `reject`.\n" +
        std::string(kExitCodes) + " Skipped results are not a failure: review exits 0 unless a file could not be "
                                  "moved or removed (2).");
    return review;
  }

  int run() override {
    Keys keys;
    ReviewIo io;
    io.show = [](const std::string& text) { std::cout << text << std::flush; };
    io.read_key = [&keys] { return keys.next(); };
    const ReviewRun run = run_review(request_, io);
    std::cerr << run.errors;
    if (!run.closing.empty()) std::cout << run.closing << "\n" << std::flush;
    return run.exit_code;
  }

 private:
  ReviewRequest request_;
};

}  // namespace

std::unique_ptr<Command> make_review_command() { return std::make_unique<ReviewCommand>(); }

}  // namespace stepslide::cli
