#include "gate/core/diff_report.h"

#include <algorithm>

#include "base/format.h"
#include "gate/core/csv.h"

namespace stepslide {

namespace {

/// Column neighbours shown on each side of the divergent column in a report;
/// a full row of 17+ columns is too wide to read in a CI log.
constexpr int kReportNeighbourColumns = 4;

/// The error shown next to its tolerance; more digits when rounding would
/// make it look no larger than the tolerance.
std::string format_error(double error, double tolerance) {
  std::string text = format_significant(error, 3);
  double shown = 0;
  if (parse_cell(text, &shown) && shown <= tolerance) text = format_number(error);
  return text;
}

/// "1e-06", or with a relative tolerance the rule that gave the number:
/// "0.00015 = max(abs 0.0001, rel 0.0001 * |expected|)".
std::string tolerance_text(const Divergence& d) {
  const std::string value = format_significant(d.tolerance, 3);
  if (d.rel_tolerance == 0.0) return value;
  return value + " = max(abs " + format_significant(d.abs_tolerance, 3) + ", rel " +
         format_significant(d.rel_tolerance, 3) + " * |expected|)";
}

/// A cell's text as people read it, or as it is when it is not a number.
std::string readable_cell(const std::string& text) {
  double value = 0;
  return parse_cell(text, &value) ? readable_number(value) : text;
}

std::string headline(const Divergence& d) {
  const DivergenceValues v = readable_values(d);
  std::string out = "first divergence at tick " + readable_number(d.tick);
  if (d.actual.empty()) return out + ": row missing from actual (expected " + d.column + " " + v.expected + ")";
  if (d.expected.empty()) return out + ": extra row in actual (got " + d.column + " " + v.actual + ")";
  out += ", column " + d.column + ": expected " + v.expected + ", got " + v.actual;
  if (d.expected == "nan" && d.actual == "nan") return out + " (a NaN never matches, not even another NaN)";
  if (d.expected == "nan" || d.actual == "nan") return out + " (NaN on one side)";
  return out + " (error " + format_error(d.error, d.tolerance) + " > tolerance " + tolerance_text(d) + ")";
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
      line.cells.push_back(index < 0 ? "(none)" : format_number(side.cell(row, index)));
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
    out += format_significant(w.worst_error, 3) + " at tick " + readable_number(w.worst_tick) + ", ";
    out += std::to_string(w.mismatches) + (w.mismatches == 1 ? " mismatching row\n" : " mismatching rows\n");
  }
  return out;
}

}  // namespace

DivergenceValues readable_values(const Divergence& d) {
  DivergenceValues v{readable_cell(d.expected), readable_cell(d.actual)};
  if (v.expected == v.actual && d.expected != d.actual) v = {d.expected, d.actual};
  return v;
}

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

std::string diff_summary(const DiffResult& result) {
  if (result.equal) return "";
  if (result.first) return headline(*result.first);
  return result.structural.empty() ? "" : result.structural.front();
}

}  // namespace stepslide
