// Comparing two trajectories column by column (docs/format.md §3), as `check`, `bless`,
// `diff` and `plot` do. The rules:
//
// A cell mismatches when |expected - actual| > tolerance, where tolerance =
// max(abs, rel * |expected|) (the rel term only for a finite expected value);
// with tolerance 0 when expected != actual. A NaN on either side always mismatches,
// even against NaN and in --exact mode (a NaN is never a result).
// +inf equals +inf. -0 equals 0. Metadata ('#' lines) is never compared.
// Columns are matched by name; a missing, extra or reordered column and a
// different row count are structural differences and fail the comparison.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "scenario/trajectory.h"

namespace stepslide {

/// How closely a column must match: a cell passes when |expected - actual|
/// <= max(abs_tolerance, rel_tolerance * |expected|).
struct ColumnRule {
  std::string column;
  double abs_tolerance = 0.0;
  double rel_tolerance = 0.0;  ///< a fraction of |expected|; 0: absolute only
};

struct DiffRules {
  std::vector<ColumnRule> rules;     ///< per column; columns not listed use `default_tolerance`
  double default_tolerance = 1e-9;   ///< for extra columns not in `rules` (absolute)
  /// The absolute tolerance of `column`.
  double tolerance_for(const std::string& column) const;
  /// The whole rule of `column` (`default_tolerance`, absolute, when none).
  ColumnRule rule_for(const std::string& column) const;
  /// Sets (or adds) the rule for `column`.
  void set(const std::string& column, double abs_tolerance, double rel_tolerance = 0.0);
  /// Columns of the per-entity group ("crate.x", scenario/columns.h), whose
  /// names depend on the scenario, are not listed in `rules`: each takes its
  /// group's tolerance (0 when `entities_exact`), then, layer by layer, the
  /// most specific entry of the layer that matches it.
  std::vector<std::vector<ColumnTolerance>> entity_layers;
  bool entities_exact = false;
};

/// One rule per trajectory column with its tolerance from the column table
/// (scenario/columns.h; discrete columns exact); 1e-9 for any other column.
DiffRules default_diff_rules();

struct Divergence {
  std::size_t row = 0;       ///< index into rows (= tick for runner output)
  double tick = 0;           ///< value of the tick column of that row
  std::string column;
  std::string expected;      ///< as text, "" when the row is missing
  std::string actual;
  double error = 0.0;        ///< |expected - actual| (inf when a side is missing or NaN)
  double tolerance = 0.0;    ///< what the error was held to here: max(abs, rel * |expected|)
  double abs_tolerance = 0.0;  ///< the column's rule
  double rel_tolerance = 0.0;
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

}  // namespace stepslide
