// The FileCheck-style text of a trajectory diff, as `check`, `bless` and
// `diff` print it: structural problems, the first divergence with context
// rows from both sides and a marker under the divergent cell, then the worst
// error per column.
#pragma once

#include <string>

#include "gate/core/diff.h"
#include "scenario/trajectory.h"

namespace stepslide {

/// The report: the first divergence with `context` rows before it from both
/// sides, a marker under the divergent column, then the worst error per
/// column. Empty when `result.equal`.
std::string format_diff_report(const DiffResult& result, const Trajectory& expected, const Trajectory& actual,
                               int context = 2);

/// A divergence's two values as people read them: six significant digits
/// each, or every digit of both when six would read the same (so a last-bit
/// difference still shows); "" for a missing row, as in Divergence.
struct DivergenceValues {
  std::string expected, actual;
};
DivergenceValues readable_values(const Divergence& d);

/// One line summing a diff up, for a JUnit message or a bless line: "first
/// divergence at tick 12, column y: expected 1, got 1.5 (...)" when there is
/// a divergence, else the first structural problem; "" when equal.
std::string diff_summary(const DiffResult& result);

}  // namespace stepslide
