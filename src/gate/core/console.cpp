#include "gate/core/console.h"

#include <cstdlib>
#include <sys/ioctl.h>
#include <unistd.h>

#include "gate/core/ci.h"

namespace stepslide {

namespace {

constexpr const char* kGreenBold = "\x1b[1;32m";
constexpr const char* kRedBold = "\x1b[1;31m";
constexpr const char* kReset = "\x1b[0m";

/// True when `line` starts with `word` followed by a space, ':' or its end.
bool starts_with_word(const std::string& line, const std::string& word) {
  if (line.compare(0, word.size(), word) != 0) return false;
  return line.size() == word.size() || line[word.size()] == ' ' || line[word.size()] == ':' ||
         line[word.size()] == '\n';
}

/// `text` cut to `columns` characters, counting a UTF-8 sequence as one and
/// stopping at a control character. `used` gets the count kept.
std::string fit(const std::string& text, std::size_t columns, std::size_t* used) {
  std::string out;
  std::size_t count = 0;
  for (std::size_t i = 0; i < text.size() && count < columns;) {
    const auto lead = static_cast<unsigned char>(text[i]);
    if (lead < 0x20 || lead == 0x7f) break;
    const std::size_t length = lead < 0x80 ? 1 : (lead >> 5) == 6 ? 2 : (lead >> 4) == 14 ? 3 : 4;
    out.append(text, i, length);
    i += length;
    ++count;
  }
  *used = count;
  return out;
}

bool env_set(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0';
}

}  // namespace

ConsoleFacts read_console_facts(int fd) {
  ConsoleFacts facts;
  facts.is_terminal = ::isatty(fd) == 1;
  facts.no_color = env_set("NO_COLOR");
  facts.ci = ci_value_means_ci(std::getenv("CI"));
  const char* term = std::getenv("TERM");
  facts.dumb_terminal = term != nullptr && std::string(term) == "dumb";
  return facts;
}

std::size_t terminal_columns(int fd) {
  winsize size{};
  if (::ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

std::optional<ColorMode> parse_color_mode(const std::string& text) {
  if (text == "auto") return ColorMode::Auto;
  if (text == "always") return ColorMode::Always;
  if (text == "never") return ColorMode::Never;
  return std::nullopt;
}

bool color_enabled(ColorMode mode, const ConsoleFacts& facts) {
  switch (mode) {
    case ColorMode::Never: return false;
    case ColorMode::Always: return true;
    case ColorMode::Auto: return facts.is_terminal && !facts.no_color && !facts.dumb_terminal;
  }
  return false;
}

bool progress_enabled(const ConsoleFacts& facts) { return facts.is_terminal && !facts.ci; }

std::string colorize_verdicts(const std::string& report) {
  std::string out;
  std::size_t start = 0;
  while (start < report.size()) {
    std::size_t end = report.find('\n', start);
    end = end == std::string::npos ? report.size() : end + 1;
    const std::string line = report.substr(start, end - start);
    if (starts_with_word(line, "PASS")) {
      out += std::string(kGreenBold) + "PASS" + kReset + line.substr(4);
    } else if (starts_with_word(line, "FAIL")) {
      out += std::string(kRedBold) + "FAIL" + kReset + line.substr(4);
    } else {
      out += line;
    }
    start = end;
  }
  return out;
}

std::string progress_text(std::size_t done, std::size_t total, std::size_t failed, const std::string& next) {
  std::string text = "[" + std::to_string(done) + "/" + std::to_string(total) + "]";
  if (failed > 0) text += " " + std::to_string(failed) + " failed";
  if (!next.empty()) text += (failed > 0 ? " | checking " : " checking ") + next;
  return text;
}

ProgressLine::ProgressLine(std::ostream& out, bool enabled, std::size_t width)
    : out_(out), enabled_(enabled), width_(width > 1 ? width - 1 : 1) {}

ProgressLine::~ProgressLine() { clear(); }

void ProgressLine::show(const std::string& text) {
  if (!enabled_) return;
  std::size_t used = 0;
  const std::string line = fit(text, width_, &used);
  // Blanks cover what is left of a longer previous line.
  out_ << '\r' << line << std::string(shown_ > used ? shown_ - used : 0, ' ');
  if (shown_ > used) out_ << '\r' << line;
  out_ << std::flush;
  shown_ = used;
}

void ProgressLine::clear() {
  if (!enabled_ || shown_ == 0) return;
  out_ << '\r' << std::string(shown_, ' ') << '\r' << std::flush;
  shown_ = 0;
}

}  // namespace stepslide
