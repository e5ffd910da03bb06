// The trajectory columns (docs/format.md §2 and stepslide's extensions): the one place
// the layout is defined. The runner fills a row by reading every column from
// the tick; the gate takes its default tolerances and its list of known
// column names from here. A new column is one new row of the table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stepslide/controller.h"

namespace stepslide {

/// One entity's state after a tick, for its group of columns (a dynamic body
/// today; another character later): pose and velocities in world frame.
struct EntitySample {
  btVector3 position{0, 0, 0};  ///< the body's origin (its centre of mass)
  btQuaternion rotation = btQuaternion::getIdentity();
  btVector3 velocity{0, 0, 0};
  btVector3 angular_velocity{0, 0, 0};
};

/// What one row of a trajectory is read from: the character after a tick and
/// what that tick did, plus what the runner works out from the world.
struct TickSample {
  std::int64_t tick = 0;
  int tick_rate = 60;
  const CharacterState& state;
  const TickReport& report;
  int ground_body = -1;               ///< index into the scenario's world, -1 when not grounded on one
  btVector3 local_feet{0, 0, 0};      ///< feet in that body's frame at this tick; zero without one
  /// The entities whose column groups follow the character's, in column order; null: none.
  const std::vector<EntitySample>* entities = nullptr;
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

/// One column of the per-entity group: every entity of a scenario (each
/// dynamic body, by its name) has one column per row of this table, named
/// "<entity>.<suffix>" (`crate.x`), after the character's columns, entity by
/// entity in the scenario's order.
struct EntityColumn {
  const char* suffix;
  const char* unit;
  const char* description;
  double tolerance;  ///< the gate's default absolute tolerance
  double (*read)(const EntitySample&);
};

/// Every column the runner writes for the character, in the order it writes
/// them: the fixed ones first, then the extensions. Entity groups follow.
const std::vector<Column>& trajectory_columns();

/// The per-entity column group, in order.
const std::vector<EntityColumn>& entity_columns();

/// The entity column `name` ("crate.qw") belongs to, or null when it is not
/// one: a non-empty entity before the last '.', a suffix of entity_columns() after it.
const EntityColumn* find_entity_column(const std::string& name);

/// The character column another character's column is (`b.grounded`: the
/// column `grounded`), or null: a non-empty name before the last '.', a
/// name of trajectory_columns() after it. Every character but the first
/// has the whole table as its group, prefixed with its name
/// (docs/format.md §1.7), after the first's columns.
const Column* find_character_group_column(const std::string& name);

/// The gate's default absolute tolerance of a grouped column (an entity's,
/// else another character's), or null when `name` is neither.
std::optional<double> group_column_tolerance(const std::string& name);

/// True when `pattern` (a column glob) can match an entity's or another
/// character's column: a non-empty part before its last '.', and a part
/// after it matching a suffix of either group.
bool entity_pattern(const std::string& pattern);

/// The names of trajectory_columns(), in order.
const std::vector<std::string>& column_names();

/// The names of a trajectory's columns: column_names(), then each other
/// character's group (by its name, in file order), then each entity's group.
std::vector<std::string> column_names_with(const std::vector<std::string>& entities,
                                           const std::vector<std::string>& characters = {});

/// The fixed columns of docs/format.md §2, in order. More may follow in a trajectory.
const std::vector<std::string>& fixed_columns();

/// The column called `name`, or null when there is none.
const Column* find_column(const std::string& name);

/// One row: every column read from `sample`, in table order, then each
/// of `others` (the other characters, in column order) read the same way,
/// then each entity's group (sample.entities).
std::vector<double> read_row(const TickSample& sample, const std::vector<TickSample>& others = {});

}  // namespace stepslide
