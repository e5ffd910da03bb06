#include "gate/core/csv.h"

#include <algorithm>
#include <charconv>
#include <system_error>
#include <utility>
#include <vector>

#include "base/file_io.h"
#include "base/format.h"
#include "scenario/columns.h"
#include "scenario/scenario.h"

namespace stepslide {

bool parse_cell(std::string_view text, double* value) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  const std::from_chars_result result = std::from_chars(text.data(), end, *value);
  return result.ec == std::errc() && result.ptr == end;
}

std::string to_csv(const Trajectory& t) {
  std::string out;
  const std::size_t width = t.columns.empty() ? 1 : t.columns.size();
  out.reserve(64 + t.rows.size() * width * 12);
  for (const std::string& line : t.metadata) {
    out += '#';
    // A line break inside metadata would end the comment and corrupt the file.
    for (char c : line) out += (c == '\n' || c == '\r') ? ' ' : c;
    out += '\n';
  }
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    if (i > 0) out += ',';
    out += t.columns[i];
  }
  out += '\n';
  for (const std::vector<double>& row : t.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i > 0) out += ',';
      out += format_number(row[i]);
    }
    out += '\n';
  }
  return out;
}

namespace {

/// Walks the text line by line, tolerating CRLF (parse_csv wants the final newline).
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}

  bool next(std::string_view* line) {
    if (position_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', position_);
    if (end == std::string_view::npos) end = text_.size();
    std::string_view current = text_.substr(position_, end - position_);
    if (!current.empty() && current.back() == '\r') current.remove_suffix(1);
    position_ = end + 1;
    ++number_;
    *line = current;
    return true;
  }

  std::size_t line_number() const { return number_; }

  /// True when nothing but blank lines is left.
  bool only_blank_lines_remain() const {
    for (std::size_t i = position_; i < text_.size(); ++i) {
      const char c = text_[i];
      if (c != '\n' && c != '\r' && c != ' ' && c != '\t') return false;
    }
    return true;
  }

 private:
  std::string_view text_;
  std::size_t position_ = 0;
  std::size_t number_ = 0;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool is_blank(std::string_view line) { return trim(line).empty(); }

/// Splits on ',' without copying; cells are trimmed of spaces and tabs.
void split_cells(std::string_view line, std::vector<std::string_view>* cells) {
  cells->clear();
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    if (comma == std::string_view::npos) {
      cells->push_back(trim(line.substr(start)));
      return;
    }
    cells->push_back(trim(line.substr(start, comma - start)));
    start = comma + 1;
  }
}

/// Quoted for error messages, cut short so a garbage line can't flood them.
std::string quoted(std::string_view text) {
  constexpr std::size_t kMaxShown = 40;
  std::string out = "\"";
  out.append(text.substr(0, kMaxShown));
  if (text.size() > kMaxShown) out += "...";
  out += '"';
  return out;
}

std::string line_error(std::size_t line, const std::string& what) {
  return "line " + std::to_string(line) + ": " + what;
}

/// Header checks: names present, unique, and not numbers (a number means
/// the header line is missing and this is already a data row).
Status check_header(const std::vector<std::string_view>& names, std::size_t line) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string_view name = names[i];
    const std::string where = " in header cell " + std::to_string(i + 1);
    if (name.empty()) return Status::failure(line_error(line, "expected a column name" + where + ", got an empty cell"));
    double ignored = 0;
    if (parse_cell(name, &ignored)) {
      return Status::failure(line_error(line, "expected a header of column names, got a number " + quoted(name) +
                                                  where + " (the header line is missing)"));
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (names[j] != name) continue;
      return Status::failure(line_error(line, "expected unique column names, got " + quoted(name) + " twice (cells " +
                                                  std::to_string(j + 1) + " and " + std::to_string(i + 1) + ")"));
    }
  }
  return Status();
}

Status parse_row(const std::vector<std::string_view>& cells, const std::vector<std::string>& columns,
                 std::size_t line, std::vector<double>* row) {
  if (cells.size() != columns.size()) {
    return Status::failure(line_error(
        line, "expected " + std::to_string(columns.size()) + " cells, got " + std::to_string(cells.size())));
  }
  row->resize(cells.size());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (parse_cell(cells[i], &(*row)[i])) continue;
    const std::string got = cells[i].empty() ? std::string("an empty cell") : quoted(cells[i]);
    return Status::failure(line_error(line, "expected a number in column " + columns[i] + ", got " + got));
  }
  return Status();
}

/// Metadata lines, then the header, into `t`.
Status read_head(LineReader& reader, Trajectory& t) {
  std::string_view line;
  std::vector<std::string_view> cells;
  while (reader.next(&line)) {
    if (!line.empty() && line.front() == '#') {
      t.metadata.emplace_back(line.substr(1));
      continue;
    }
    if (is_blank(line)) {
      return Status::failure(line_error(reader.line_number(), "expected a header line, got an empty line"));
    }
    split_cells(line, &cells);
    const Status header = check_header(cells, reader.line_number());
    if (header) t.columns.assign(cells.begin(), cells.end());
    return header;
  }
  return Status::failure(line_error(reader.line_number() + 1, "expected a header line, got end of file"));
}

/// The rows after the header; blank lines are allowed only at the very end.
Status read_rows(LineReader& reader, Trajectory& t) {
  std::string_view line;
  std::vector<std::string_view> cells;
  std::vector<double> row;
  while (reader.next(&line)) {
    if (is_blank(line)) {
      if (reader.only_blank_lines_remain()) break;
      return Status::failure(line_error(reader.line_number(),
                                        "expected " + std::to_string(t.columns.size()) + " cells, got an empty line"));
    }
    split_cells(line, &cells);
    const Status parsed = parse_row(cells, t.columns, reader.line_number(), &row);
    if (!parsed) return parsed;
    t.rows.push_back(row);
  }
  return Status();
}

}  // namespace

/// Every line, the last included, ends with a newline: a file cut inside its
/// last number still parses as numbers, so the missing newline is the only
/// sign that it was cut.
Status check_final_newline(const std::string& text) {
  if (text.empty() || text.back() == '\n') return Status();
  const std::size_t last_line = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  return Status::failure(line_error(last_line, "expected a newline at the end of the file, got end of file "
                                               "(the file is cut short)"));
}

Expected<Trajectory> parse_csv(const std::string& text) {
  Trajectory t;
  LineReader reader(text);
  if (const Status head = read_head(reader, t); !head) return Expected<Trajectory>::failure(head);
  if (const Status rows = read_rows(reader, t); !rows) return Expected<Trajectory>::failure(rows);
  if (const Status end = check_final_newline(text); !end) return Expected<Trajectory>::failure(end);
  return t;
}

std::int64_t max_trajectory_bytes() {
  // A cell is at most 24 characters ("-2.2250738585072014e-308") plus its
  // separator; metadata holds at most a scenario's name, bounded by its file.
  constexpr std::int64_t kCellBytes = 25;
  const std::int64_t columns = static_cast<std::int64_t>(trajectory_columns().size());
  return (ScenarioLimits::max_ticks + 1) * columns * kCellBytes + ScenarioLimits::max_file_bytes + 65536;
}

Status check_finite_cells(const Trajectory& t, const std::string& why) {
  const std::optional<NonFiniteCell> bad = first_non_finite(t);
  if (!bad) return Status();
  const std::size_t line = t.metadata.size() + 2 + bad->row;
  return Status::failure(line_error(line, "column " + bad->column + " is " + non_finite_text(bad->value) + " (row " +
                                              std::to_string(bad->row) + "); " + why));
}

Expected<StoredTrajectory> read_stored_trajectory(const std::string& path) {
  Expected<std::string> bytes = read_regular_file(path, max_trajectory_bytes());
  if (!bytes) return Expected<StoredTrajectory>::failure(bytes.error());
  Expected<Trajectory> table = parse_csv(*bytes);
  return StoredTrajectory{bytes.take(), std::move(table)};
}

Expected<Trajectory> read_trajectory_file(const std::string& path) {
  Expected<StoredTrajectory> stored = read_stored_trajectory(path);
  if (!stored) return Expected<Trajectory>::failure(path + ": " + stored.error());
  if (!stored->table) return Expected<Trajectory>::failure(path + ": " + stored->table.error());
  return stored->table.take();
}

}  // namespace stepslide
