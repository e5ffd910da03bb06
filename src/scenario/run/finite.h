// Finiteness of trajectory cells (docs/format.md §2.3): a NaN or an infinity
// in a row is never a result. The runner stops on the first one, `bless`
// refuses to record one and `check` fails a golden holding one.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "scenario/trajectory.h"

namespace stepslide {

/// Where a non-finite cell is and what it holds.
struct NonFiniteCell {
  std::size_t row = 0;  ///< index into rows
  std::string column;
  double value = 0.0;  ///< NaN, +inf or -inf
};

/// The first non-finite cell of `row` (columns named by `columns`), if any.
std::optional<NonFiniteCell> first_non_finite(const std::vector<double>& row, const std::vector<std::string>& columns,
                                              std::size_t row_index);

/// The first non-finite cell of `t` in row, then column order, if any.
std::optional<NonFiniteCell> first_non_finite(const Trajectory& t);

/// "nan", "inf" or "-inf".
std::string non_finite_text(double value);

}  // namespace stepslide
