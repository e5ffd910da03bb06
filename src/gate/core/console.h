// Terminal niceties with explicit inputs: whether to colour, whether to show
// a progress line, and the text of both. What is a terminal and what the
// environment says is decided by the caller (cli/), so this is testable.
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>

namespace stepslide {

enum class ColorMode { Auto, Always, Never };

/// "auto", "always", "never"; nullopt for anything else.
std::optional<ColorMode> parse_color_mode(const std::string& text);

/// What the process can see of where its output goes.
struct ConsoleFacts {
  bool is_terminal = false;  ///< isatty() of the stream in question
  bool no_color = false;     ///< NO_COLOR is set and not empty (no-color.org)
  bool ci = false;           ///< CI names a CI job (ci.h: not unset, empty, 0 or false)
  bool dumb_terminal = false;  ///< TERM is "dumb"
};

/// The facts for file descriptor `fd` (isatty) and this process's NO_COLOR,
/// CI and TERM.
ConsoleFacts read_console_facts(int fd);

/// Columns of the terminal on `fd`, or 80 when it does not say.
std::size_t terminal_columns(int fd);

/// never: no; always: yes (the command line beats NO_COLOR); auto: only on a
/// terminal that is not dumb, without NO_COLOR.
bool color_enabled(ColorMode mode, const ConsoleFacts& facts);

/// A progress line only on a terminal and never in CI logs.
bool progress_enabled(const ConsoleFacts& facts);

/// Each line of `report` that starts with "PASS" or "FAIL" gets that word in
/// bold green or bold red (ANSI); nothing else changes.
std::string colorize_verdicts(const std::string& report);

/// "[12/31] 1 failed | checking scenarios/stairs/up.json"; `next` may be "".
std::string progress_text(std::size_t done, std::size_t total, std::size_t failed, const std::string& next);

/// One line that is rewritten in place with '\r' and blanks (no escape
/// sequences, so it works on any terminal). Does nothing when disabled.
class ProgressLine {
 public:
  ProgressLine(std::ostream& out, bool enabled, std::size_t width);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// Replaces the line with `text`, cut to fit the width.
  void show(const std::string& text);
  /// Blanks the line and puts the cursor at its start, so ordinary output
  /// can follow.
  void clear();
  bool enabled() const { return enabled_; }

 private:
  std::ostream& out_;
  bool enabled_;
  std::size_t width_;
  std::size_t shown_ = 0;  ///< characters now on the line
};

}  // namespace stepslide
