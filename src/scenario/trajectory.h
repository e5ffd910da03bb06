// A trajectory in memory (docs/format.md §2): the per-tick table the runner
// (simulate.h) produces. Its columns are defined in columns.h; its CSV form is
// gate/core/csv.h and its comparison gate/core/diff.h, since only the gate reads and
// compares stored trajectories.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace stepslide {

/// Every cell a double (integers and flags are exact in a double).
/// `metadata` holds the `#` lines before the header, without the leading '#'.
struct Trajectory {
  std::vector<std::string> metadata;
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;

  /// Index of `name` in `columns`, or -1.
  int column_index(const std::string& name) const;
  /// The cell at `row` and `column`; NaN when there is none (a column of -1,
  /// a missing row, or a short row of a hand-built table).
  double cell(std::size_t row, int column) const;
};

/// The columns of `t` that start with `prefix` ("b." for another character,
/// docs/format.md §1.7), with the prefix taken off, over every row: another
/// character's trajectory, read as the first's.
Trajectory columns_of(const Trajectory& t, const std::string& prefix);

}  // namespace stepslide
