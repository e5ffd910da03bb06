// Trajectories (SPEC §2): the per-tick table the runner writes, the CSV form
// it is stored in, and the comparison the regression gate makes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/format.h"

namespace stepslide {

/// The fixed columns, in order (SPEC §2). More may follow in a trajectory.
const std::vector<std::string>& fixed_columns();

/// A trajectory in memory: every cell a double (integers and flags are exact
/// in a double). `metadata` holds the `#` lines before the header, without
/// the leading '#'.
struct Trajectory {
  std::vector<std::string> metadata;
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;

  /// Index of `name` in `columns`, or -1.
  int column_index(const std::string& name) const;
};

/// CSV text: metadata lines ("#" + line), the header, one line per row, "\n" endings.
std::string to_csv(const Trajectory& t);

/// Parses CSV text written by to_csv (or by hand). On failure returns nullopt
/// and sets `error` to "line N: what was expected".
std::optional<Trajectory> parse_csv(const std::string& text, std::string* error);

/// How closely a column must match. Discrete columns are compared exactly.
struct ColumnRule {
  std::string column;
  double abs_tolerance = 0.0;
};

struct DiffRules {
  std::vector<ColumnRule> rules;     ///< per column; columns not listed use `default_tolerance`
  double default_tolerance = 1e-9;   ///< for extra columns not in `rules`
  double tolerance_for(const std::string& column) const;
  /// Sets (or adds) the rule for `column`.
  void set(const std::string& column, double abs_tolerance);
};

/// The documented defaults: see README "Comparison rules".
DiffRules default_diff_rules();

struct Divergence {
  std::size_t row = 0;       ///< index into rows (= tick for runner output)
  double tick = 0;           ///< value of the tick column of that row
  std::string column;
  std::string expected;      ///< as text, "" when the row is missing
  std::string actual;
  double error = 0.0;        ///< |expected - actual| (inf when a side is missing or NaN)
  double tolerance = 0.0;
};

struct ColumnWorst {
  std::string column;
  double worst_error = 0.0;  ///< largest |expected - actual|
  double worst_tick = 0;     ///< tick where it occurred
  std::size_t mismatches = 0;  ///< rows beyond tolerance
};

struct DiffResult {
  bool equal = true;
  /// Header or shape problems (different columns, different row counts);
  /// empty when the tables line up. Row-count differences also set `first`.
  std::vector<std::string> structural;
  std::optional<Divergence> first;  ///< first (lowest row, then column order) mismatch
  std::vector<ColumnWorst> worst;   ///< one per compared column that mismatched, table order
};

/// Compares `actual` against `expected` (the golden). Metadata is ignored.
DiffResult diff_trajectories(const Trajectory& expected, const Trajectory& actual, const DiffRules& rules);

/// FileCheck-style text: the first divergence with `context` rows before it
/// from both sides, a marker under the divergent column, then the worst
/// error per column. Empty when `result.equal`.
std::string format_diff_report(const DiffResult& result, const Trajectory& expected, const Trajectory& actual,
                               int context = 2);

}  // namespace stepslide
