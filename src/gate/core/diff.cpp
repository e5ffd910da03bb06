#include "gate/core/diff.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/format.h"
#include "base/glob.h"
#include "scenario/columns.h"
#include "scenario/load/column_pattern.h"

namespace stepslide {

double DiffRules::tolerance_for(const std::string& column) const { return rule_for(column).abs_tolerance; }

ColumnRule DiffRules::rule_for(const std::string& column) const {
  for (const ColumnRule& rule : rules) {
    if (rule.column == column) return rule;
  }
  if (const std::optional<double> group = group_column_tolerance(column)) {
    ColumnRule rule{column, entities_exact ? 0.0 : *group, 0.0};
    for (const std::vector<ColumnTolerance>& layer : entity_layers) {
      const ColumnTolerance* best = nullptr;
      for (const ColumnTolerance& entry : layer) {
        if (!glob_match(entry.pattern, column)) continue;
        if (best == nullptr || compare_specificity(entry.pattern, best->pattern) >= 0) best = &entry;
      }
      if (best != nullptr) rule = ColumnRule{column, best->abs, best->rel};
    }
    return rule;
  }
  return ColumnRule{column, default_tolerance, 0.0};
}

void DiffRules::set(const std::string& column, double abs_tolerance, double rel_tolerance) {
  for (ColumnRule& rule : rules) {
    if (rule.column == column) {
      rule.abs_tolerance = abs_tolerance;
      rule.rel_tolerance = rel_tolerance;
      return;
    }
  }
  rules.push_back({column, abs_tolerance, rel_tolerance});
}

DiffRules default_diff_rules() {
  DiffRules r;
  r.default_tolerance = 1e-9;
  for (const Column& column : trajectory_columns()) r.set(column.name, column.tolerance);
  return r;
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double cell(const Trajectory& t, std::size_t row, int column) { return t.cell(row, column); }

/// The tick a row stands for: its tick column, else its index.
double tick_of(const Trajectory& t, std::size_t row) {
  const int column = t.column_index("tick");
  return column >= 0 ? cell(t, row, column) : static_cast<double>(row);
}

double tick_of_either(const Trajectory& expected, const Trajectory& actual, std::size_t row) {
  return row < expected.rows.size() ? tick_of(expected, row) : tick_of(actual, row);
}

/// |expected - actual|, with inf for a NaN on either side: a NaN is never a
/// result, so it never matches, not even another NaN. Equal values
/// (including equal infinities) give 0.
double cell_error(double expected, double actual) {
  if (std::isnan(expected) || std::isnan(actual)) return kInf;
  if (expected == actual) return 0.0;
  return std::fabs(expected - actual);
}

/// What `error` is held to at a cell whose expected value is `expected`. The
/// relative term needs a finite expected value: rel * inf would pass anything.
double cell_tolerance(const ColumnRule& rule, double expected) {
  const double relative = std::isfinite(expected) ? rule.rel_tolerance * std::fabs(expected) : 0.0;
  return std::max(rule.abs_tolerance, relative);
}

/// Whether a cell fails; a NaN fails whatever the tolerance (even an infinite one).
bool cell_mismatch(double expected, double actual, double error, double tolerance) {
  if (std::isnan(expected) || std::isnan(actual)) return true;
  return tolerance == 0.0 ? error != 0.0 : error > tolerance;
}

/// A column compared by name: its index on each side and its rule.
struct ComparedColumn {
  std::string name;
  int expected_index;
  int actual_index;
  ColumnRule rule;
};

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i > 0 ? ", " : "") + names[i];
  return out;
}

/// The names in `names` that `other` lacks, joined.
std::string names_missing_from(const std::vector<std::string>& names, const Trajectory& other) {
  std::vector<std::string> missing;
  for (const std::string& name : names) {
    if (other.column_index(name) < 0) missing.push_back(name);
  }
  return join_names(missing);
}

bool in_same_order(const std::vector<ComparedColumn>& compared) {
  for (std::size_t i = 1; i < compared.size(); ++i) {
    if (compared[i].actual_index < compared[i - 1].actual_index) return false;
  }
  return true;
}

/// Matches columns by name in expected's order; reports the differences.
std::vector<ComparedColumn> match_columns(const Trajectory& expected, const Trajectory& actual, const DiffRules& rules,
                                          std::vector<std::string>* structural) {
  std::vector<ComparedColumn> compared;
  for (std::size_t i = 0; i < expected.columns.size(); ++i) {
    const std::string& name = expected.columns[i];
    const int in_actual = actual.column_index(name);
    if (in_actual >= 0) compared.push_back({name, static_cast<int>(i), in_actual, rules.rule_for(name)});
  }
  const std::string missing = names_missing_from(expected.columns, actual);
  const std::string extra = names_missing_from(actual.columns, expected);
  if (!missing.empty()) structural->push_back("actual is missing column(s): " + missing);
  if (!extra.empty()) structural->push_back("actual has extra column(s): " + extra);
  if (!in_same_order(compared)) {
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
    result->first = Divergence{row, tick, column.name, format_number(e), format_number(a), error,
                               cell_tolerance(column.rule, e), column.rule.abs_tolerance, column.rule.rel_tolerance};
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
      if (!cell_mismatch(e, a, error, cell_tolerance(columns[c].rule, e))) continue;
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
    const ComparedColumn& column = columns.front();
    d.column = column.name;
    d.abs_tolerance = column.rule.abs_tolerance;
    d.rel_tolerance = column.rule.rel_tolerance;
    d.tolerance = column.rule.abs_tolerance;
    if (row < expected_rows) {
      const double e = cell(expected, row, column.expected_index);
      d.expected = format_number(e);
      d.tolerance = cell_tolerance(column.rule, e);
    }
    if (row < actual_rows) d.actual = format_number(cell(actual, row, column.actual_index));
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

}  // namespace stepslide
