// The trajectory columns (docs/format.md §2 and stepslide's extensions): the one place
// the layout is defined. The runner fills a row by reading every column from
// the tick; the gate takes its default tolerances and its list of known
// column names from here. A new column is one new row of the table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stepslide/controller.h"

namespace stepslide {

/// What one row of a trajectory is read from: the character after a tick and
/// what that tick did, plus what the runner works out from the world.
struct TickSample {
  std::int64_t tick = 0;
  int tick_rate = 60;
  const CharacterState& state;
  const TickReport& report;
  int ground_body = -1;               ///< index into the scenario's world, -1 when not grounded on one
  btVector3 local_feet{0, 0, 0};      ///< feet in that body's frame at this tick; zero without one
};

/// One trajectory column.
struct Column {
  const char* name;
  const char* unit;         ///< "" when it has none
  const char* description;  ///< one line, for help text and docs
  /// The gate's default absolute tolerance (`check`, `diff`); --tol overrides it.
  double tolerance;
  /// A count, flag or index: any difference is a behaviour change, so it is
  /// compared exactly (tolerance 0).
  bool discrete;
  /// One of docs/format.md §2's contract columns, which every trajectory starts with;
  /// false for stepslide's extensions that follow them.
  bool fixed;
  double (*read)(const TickSample&);
};

/// Every column the runner writes, in the order it writes them: the fixed
/// ones first, then the extensions.
const std::vector<Column>& trajectory_columns();

/// The names of trajectory_columns(), in order.
const std::vector<std::string>& column_names();

/// The fixed columns of docs/format.md §2, in order. More may follow in a trajectory.
const std::vector<std::string>& fixed_columns();

/// The column called `name`, or null when there is none.
const Column* find_column(const std::string& name);

/// One row: every column read from `sample`, in table order.
std::vector<double> read_row(const TickSample& sample);

}  // namespace stepslide
