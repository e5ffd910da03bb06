// Trajectory CSV (SPEC §2) and the comparison the regression gate makes.
//
// Comparison rules (default_diff_rules; the README quotes this block)
// ---------------------------------------------------------------------
//   column                                   absolute tolerance
//   tick, grounded, sweeps, slide_iters,     0 (exact)
//   depen_iters
//   discrete extension columns:              0 (exact)
//   stuck, crushed, steps_up, steps_down,
//   jumped, landed, ceiling_hit, ground_body
//   time                                     1e-12 s
//   x, y, z, local_x, local_y, local_z       1e-6 m
//   vx, vy, vz                               1e-5 m/s
//   normal_x, normal_y, normal_z             1e-6
//   step_dy, camera_dy                       1e-6 m
//   any other extra column                   1e-9
//
// A cell mismatches when |expected - actual| > tolerance; with tolerance 0
// when expected != actual. NaN equals NaN; NaN against a number mismatches.
// +inf equals +inf. -0 equals 0. Metadata ('#' lines) is never compared.
// Columns are matched by name; a missing, extra or reordered column and a
// different row count are structural differences and fail the comparison.

#include "scenario/trajectory.h"

#include "base/format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>
#include <system_error>

namespace stepslide {

namespace {

/// Extra columns (beyond the fixed ones) that hold counts or flags, so any
/// difference at all is a behaviour change.
const char* const kDiscreteExtensionColumns[] = {
    "stuck", "crushed", "steps_up", "steps_down", "jumped", "landed", "ceiling_hit", "ground_body",
};

/// Column neighbours shown on each side of the divergent column in a report;
/// a full row of 17+ columns is too wide to read in a CI log.
constexpr int kReportNeighbourColumns = 4;

}  // namespace

const std::vector<std::string>& fixed_columns() {
  static const std::vector<std::string> columns = {
      "tick",     "time",     "x",        "y",       "z",         "vx",     "vy",          "vz",          "grounded",
      "normal_x", "normal_y", "normal_z", "step_dy", "camera_dy", "sweeps", "slide_iters", "depen_iters",
  };
  return columns;
}

int Trajectory::column_index(const std::string& name) const {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == name) return static_cast<int>(i);
  }
  return -1;
}

// ---------------------------------------------------------------------------
// Numbers

namespace {

/// Parses a whole cell; accepts what format_number writes plus anything
/// from_chars reads ("1e3", "-inf", "NaN"), but no leading '+' or spaces.
bool parse_number(std::string_view text, double* value) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  const std::from_chars_result result = std::from_chars(text.data(), end, *value);
  return result.ec == std::errc() && result.ptr == end;
}

}  // namespace

// ---------------------------------------------------------------------------
// CSV writing

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

// ---------------------------------------------------------------------------
// CSV parsing

namespace {

/// Walks the text line by line, tolerating CRLF and a missing final newline.
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
std::string check_header(const std::vector<std::string_view>& names, std::size_t line) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string_view name = names[i];
    const std::string where = " in header cell " + std::to_string(i + 1);
    if (name.empty()) return line_error(line, "expected a column name" + where + ", got an empty cell");
    double ignored = 0;
    if (parse_number(name, &ignored)) {
      return line_error(line, "expected a header of column names, got a number " + quoted(name) + where +
                                  " (the header line is missing)");
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (names[j] == name) {
        return line_error(line, "expected unique column names, got " + quoted(name) + " twice (cells " +
                                    std::to_string(j + 1) + " and " + std::to_string(i + 1) + ")");
      }
    }
  }
  return "";
}

std::string parse_row(const std::vector<std::string_view>& cells, const std::vector<std::string>& columns,
                      std::size_t line, std::vector<double>* row) {
  if (cells.size() != columns.size()) {
    return line_error(line,
                      "expected " + std::to_string(columns.size()) + " cells, got " + std::to_string(cells.size()));
  }
  row->resize(cells.size());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (!parse_number(cells[i], &(*row)[i])) {
      const std::string got = cells[i].empty() ? std::string("an empty cell") : quoted(cells[i]);
      return line_error(line, "expected a number in column " + columns[i] + ", got " + got);
    }
  }
  return "";
}

}  // namespace

std::optional<Trajectory> parse_csv(const std::string& text, std::string* error) {
  auto fail = [error](std::string message) -> std::optional<Trajectory> {
    if (error) *error = std::move(message);
    return std::nullopt;
  };

  Trajectory t;
  LineReader reader(text);
  std::string_view line;
  std::vector<std::string_view> cells;

  // Metadata, then the header.
  bool have_header = false;
  while (reader.next(&line)) {
    if (!line.empty() && line.front() == '#') {
      t.metadata.emplace_back(line.substr(1));
      continue;
    }
    if (is_blank(line)) return fail(line_error(reader.line_number(), "expected a header line, got an empty line"));
    split_cells(line, &cells);
    std::string problem = check_header(cells, reader.line_number());
    if (!problem.empty()) return fail(std::move(problem));
    t.columns.assign(cells.begin(), cells.end());
    have_header = true;
    break;
  }
  if (!have_header) return fail(line_error(reader.line_number() + 1, "expected a header line, got end of file"));

  // Rows; blank lines are allowed only at the very end.
  std::vector<double> row;
  while (reader.next(&line)) {
    if (is_blank(line)) {
      if (reader.only_blank_lines_remain()) break;
      return fail(line_error(reader.line_number(),
                             "expected " + std::to_string(t.columns.size()) + " cells, got an empty line"));
    }
    split_cells(line, &cells);
    std::string problem = parse_row(cells, t.columns, reader.line_number(), &row);
    if (!problem.empty()) return fail(std::move(problem));
    t.rows.push_back(row);
  }
  return t;
}

// ---------------------------------------------------------------------------
// Rules

double DiffRules::tolerance_for(const std::string& column) const {
  for (const ColumnRule& rule : rules) {
    if (rule.column == column) return rule.abs_tolerance;
  }
  return default_tolerance;
}

void DiffRules::set(const std::string& column, double abs_tolerance) {
  for (ColumnRule& rule : rules) {
    if (rule.column == column) {
      rule.abs_tolerance = abs_tolerance;
      return;
    }
  }
  rules.push_back({column, abs_tolerance});
}

DiffRules default_diff_rules() {
  DiffRules r;
  r.default_tolerance = 1e-9;
  for (const char* column : {"tick", "grounded", "sweeps", "slide_iters", "depen_iters"}) r.set(column, 0.0);
  for (const char* column : kDiscreteExtensionColumns) r.set(column, 0.0);
  r.set("time", 1e-12);
  for (const char* column : {"x", "y", "z", "local_x", "local_y", "local_z"}) r.set(column, 1e-6);
  for (const char* column : {"vx", "vy", "vz"}) r.set(column, 1e-5);
  for (const char* column : {"normal_x", "normal_y", "normal_z"}) r.set(column, 1e-6);
  for (const char* column : {"step_dy", "camera_dy"}) r.set(column, 1e-6);
  return r;
}

// ---------------------------------------------------------------------------
// Diff

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A cell, or NaN when a hand-built table has a short row.
double cell(const Trajectory& t, std::size_t row, int column) {
  if (column < 0 || row >= t.rows.size()) return kNaN;
  const std::vector<double>& cells = t.rows[row];
  return static_cast<std::size_t>(column) < cells.size() ? cells[static_cast<std::size_t>(column)] : kNaN;
}

/// The tick a row stands for: its tick column, else its index.
double tick_of(const Trajectory& t, std::size_t row) {
  const int column = t.column_index("tick");
  return column >= 0 ? cell(t, row, column) : static_cast<double>(row);
}

double tick_of_either(const Trajectory& expected, const Trajectory& actual, std::size_t row) {
  return row < expected.rows.size() ? tick_of(expected, row) : tick_of(actual, row);
}

/// |expected - actual|, with inf for a NaN on one side. Both NaN, and
/// equal values (including equal infinities), give 0.
double cell_error(double expected, double actual) {
  const bool expected_nan = std::isnan(expected);
  const bool actual_nan = std::isnan(actual);
  if (expected_nan || actual_nan) return expected_nan == actual_nan ? 0.0 : kInf;
  if (expected == actual) return 0.0;
  return std::fabs(expected - actual);
}

bool cell_mismatch(double error, double tolerance) { return tolerance == 0.0 ? error != 0.0 : error > tolerance; }

/// A column compared by name: its index on each side and its tolerance.
struct ComparedColumn {
  std::string name;
  int expected_index;
  int actual_index;
  double tolerance;
};

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i > 0 ? ", " : "") + names[i];
  return out;
}

/// Matches columns by name in expected's order; reports the differences.
std::vector<ComparedColumn> match_columns(const Trajectory& expected, const Trajectory& actual, const DiffRules& rules,
                                          std::vector<std::string>* structural) {
  std::vector<ComparedColumn> compared;
  std::vector<std::string> missing;
  std::vector<std::string> extra;
  for (std::size_t i = 0; i < expected.columns.size(); ++i) {
    const std::string& name = expected.columns[i];
    const int in_actual = actual.column_index(name);
    if (in_actual < 0) {
      missing.push_back(name);
      continue;
    }
    compared.push_back({name, static_cast<int>(i), in_actual, rules.tolerance_for(name)});
  }
  for (const std::string& name : actual.columns) {
    if (expected.column_index(name) < 0) extra.push_back(name);
  }
  if (!missing.empty()) structural->push_back("actual is missing column(s): " + join_names(missing));
  if (!extra.empty()) structural->push_back("actual has extra column(s): " + join_names(extra));

  bool same_order = true;
  for (std::size_t i = 1; i < compared.size(); ++i) {
    if (compared[i].actual_index < compared[i - 1].actual_index) same_order = false;
  }
  if (!same_order) {
    structural->push_back("columns are in a different order: expected " + join_names(expected.columns) + "; got " +
                          join_names(actual.columns));
  }
  return compared;
}

void note_mismatch(const ComparedColumn& column, std::size_t row, double tick, double e, double a, double error,
                   ColumnWorst* worst, DiffResult* result) {
  ++worst->mismatches;
  if (worst->mismatches == 1 || error > worst->worst_error) {
    worst->worst_error = error;
    worst->worst_tick = tick;
  }
  if (!result->first) {
    result->first = Divergence{row, tick, column.name, format_number(e), format_number(a), error, column.tolerance};
  }
}

void compare_rows(const Trajectory& expected, const Trajectory& actual, const std::vector<ComparedColumn>& columns,
                  DiffResult* result) {
  std::vector<ColumnWorst> worst(columns.size());
  const std::size_t common_rows = std::min(expected.rows.size(), actual.rows.size());
  for (std::size_t row = 0; row < common_rows; ++row) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const double e = cell(expected, row, columns[c].expected_index);
      const double a = cell(actual, row, columns[c].actual_index);
      const double error = cell_error(e, a);
      if (!cell_mismatch(error, columns[c].tolerance)) continue;
      note_mismatch(columns[c], row, tick_of(expected, row), e, a, error, &worst[c], result);
    }
  }
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (worst[c].mismatches == 0) continue;
    worst[c].column = columns[c].name;
    result->worst.push_back(worst[c]);
  }
}

/// Different row counts: a structural message, and the first missing row
/// as the divergence unless a value diverged earlier.
void compare_row_counts(const Trajectory& expected, const Trajectory& actual,
                        const std::vector<ComparedColumn>& columns, DiffResult* result) {
  const std::size_t expected_rows = expected.rows.size();
  const std::size_t actual_rows = actual.rows.size();
  if (expected_rows == actual_rows) return;
  result->structural.push_back("expected " + std::to_string(expected_rows) + " rows, got " +
                               std::to_string(actual_rows));
  if (result->first) return;

  const std::size_t row = std::min(expected_rows, actual_rows);
  Divergence d;
  d.row = row;
  d.tick = tick_of_either(expected, actual, row);
  d.error = kInf;
  if (!columns.empty()) {
    d.column = columns.front().name;
    d.tolerance = columns.front().tolerance;
    if (row < expected_rows) d.expected = format_number(cell(expected, row, columns.front().expected_index));
    if (row < actual_rows) d.actual = format_number(cell(actual, row, columns.front().actual_index));
  }
  result->first = d;
}

}  // namespace

DiffResult diff_trajectories(const Trajectory& expected, const Trajectory& actual, const DiffRules& rules) {
  DiffResult result;
  const std::vector<ComparedColumn> columns = match_columns(expected, actual, rules, &result.structural);
  compare_rows(expected, actual, columns, &result);
  compare_row_counts(expected, actual, columns, &result);
  result.equal = result.structural.empty() && !result.first;
  return result;
}

// ---------------------------------------------------------------------------
// Report

namespace {

/// The error shown next to its tolerance; more digits when rounding would
/// make it look no larger than the tolerance.
std::string format_error(double error, double tolerance) {
  std::string text = format_significant(error, 3);
  double shown = 0;
  if (parse_number(text, &shown) && shown <= tolerance) text = format_number(error);
  return text;
}

std::string headline(const Divergence& d) {
  std::string out = "first divergence at tick " + format_number(d.tick);
  if (d.actual.empty()) return out + ": row missing from actual (expected " + d.column + " " + d.expected + ")";
  if (d.expected.empty()) return out + ": extra row in actual (got " + d.column + " " + d.actual + ")";
  out += ", column " + d.column + ": expected " + d.expected + ", got " + d.actual;
  if (d.expected == "nan" || d.actual == "nan") return out + " (NaN on one side)";
  return out + " (error " + format_error(d.error, d.tolerance) + " > tolerance " + format_significant(d.tolerance, 3) + ")";
}

/// Which columns the context table shows: "tick", then a window around the
/// divergent column; -1 stands for elided columns ("...").
std::vector<int> report_columns(const Trajectory& expected, const std::string& divergent) {
  const int count = static_cast<int>(expected.columns.size());
  const int centre = std::max(0, expected.column_index(divergent));
  const int low = std::max(0, centre - kReportNeighbourColumns);
  const int high = std::min(count - 1, centre + kReportNeighbourColumns);
  std::vector<int> shown;
  const int tick = expected.column_index("tick");
  if (tick >= 0 && tick < low) {
    shown.push_back(tick);
    if (tick + 1 < low) shown.push_back(-1);
  } else if (low > 0) {
    shown.push_back(-1);
  }
  for (int i = low; i <= high; ++i) shown.push_back(i);
  if (high < count - 1) shown.push_back(-1);
  return shown;
}

/// One line of the context table: a label and one text per shown column.
struct ReportLine {
  std::string label;
  std::vector<std::string> cells;
};

ReportLine table_row(const char* label, const Trajectory& side, const Trajectory& expected, std::size_t row,
                     const std::vector<int>& shown, const Divergence& d, const std::string& own_divergent_text) {
  ReportLine line{label, {}};
  const bool missing = row >= side.rows.size();
  for (int column : shown) {
    if (column < 0) {
      line.cells.push_back("...");
      continue;
    }
    const std::string& name = expected.columns[static_cast<std::size_t>(column)];
    if (missing) {
      line.cells.push_back(name == d.column ? "(no row)" : "");
      continue;
    }
    const int index = side.column_index(name);
    if (row == d.row && name == d.column) {
      line.cells.push_back(own_divergent_text);
    } else {
      line.cells.push_back(index < 0 ? "(none)" : format_number(cell(side, row, index)));
    }
  }
  return line;
}

std::string render_table(const std::vector<ReportLine>& lines, std::size_t marker_line, std::size_t marker_cell) {
  std::size_t label_width = 0;
  std::vector<std::size_t> widths(lines.front().cells.size(), 0);
  for (const ReportLine& line : lines) {
    label_width = std::max(label_width, line.label.size());
    for (std::size_t i = 0; i < line.cells.size(); ++i) widths[i] = std::max(widths[i], line.cells[i].size());
  }
  std::string out;
  std::size_t marker_column = 0;
  for (std::size_t l = 0; l < lines.size(); ++l) {
    std::string text = lines[l].label + std::string(label_width - lines[l].label.size() + 2, ' ');
    for (std::size_t i = 0; i < lines[l].cells.size(); ++i) {
      if (l == marker_line && i == marker_cell) marker_column = text.size();
      text += lines[l].cells[i];
      if (i + 1 < lines[l].cells.size()) text += std::string(widths[i] - lines[l].cells[i].size() + 2, ' ');
    }
    out += text + '\n';
    if (l == marker_line) {
      const std::size_t marker_width = std::max<std::size_t>(1, lines[l].cells[marker_cell].size());
      out += std::string(marker_column, ' ') + '^' + std::string(marker_width - 1, '~') + '\n';
    }
  }
  return out;
}

std::string context_table(const Divergence& d, const Trajectory& expected, const Trajectory& actual, int context) {
  if (expected.columns.empty() || expected.column_index(d.column) < 0) return "";
  const std::vector<int> shown = report_columns(expected, d.column);
  std::vector<ReportLine> lines;
  ReportLine header{"", {}};
  for (int column : shown)
    header.cells.push_back(column < 0 ? "..." : expected.columns[static_cast<std::size_t>(column)]);
  lines.push_back(header);

  const std::size_t before = static_cast<std::size_t>(std::max(0, context));
  const std::size_t first_row = d.row > before ? d.row - before : 0;
  for (std::size_t row = first_row; row <= d.row; ++row) {
    lines.push_back(table_row("expected", expected, expected, row, shown, d, d.expected));
  }
  for (std::size_t row = first_row; row <= d.row; ++row) {
    lines.push_back(table_row("actual", actual, expected, row, shown, d, d.actual));
  }
  std::size_t marker_cell = 0;
  for (std::size_t i = 0; i < shown.size(); ++i) {
    if (shown[i] >= 0 && expected.columns[static_cast<std::size_t>(shown[i])] == d.column) marker_cell = i;
  }
  return render_table(lines, lines.size() - 1, marker_cell);
}

std::string worst_section(const std::vector<ColumnWorst>& worst) {
  if (worst.empty()) return "";
  std::size_t name_width = 0;
  for (const ColumnWorst& w : worst) name_width = std::max(name_width, w.column.size());
  std::string out = "worst error per column:\n";
  for (const ColumnWorst& w : worst) {
    out += "  " + w.column + std::string(name_width - w.column.size() + 2, ' ');
    out += format_significant(w.worst_error, 3) + " at tick " + format_number(w.worst_tick) + ", ";
    out += std::to_string(w.mismatches) + (w.mismatches == 1 ? " mismatching row\n" : " mismatching rows\n");
  }
  return out;
}

}  // namespace

std::string format_diff_report(const DiffResult& result, const Trajectory& expected, const Trajectory& actual,
                               int context) {
  if (result.equal) return "";
  std::string out;
  for (const std::string& problem : result.structural) out += problem + '\n';
  if (result.first) {
    out += headline(*result.first) + '\n';
    out += context_table(*result.first, expected, actual, context);
  }
  out += worst_section(result.worst);
  return out;
}

}  // namespace stepslide
