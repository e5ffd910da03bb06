// The data of a view page: everything the page's script draws, as one JSON
// document (format "stepslide/view@1") built from the scenario, the world,
// the runs and the trace. Numbers are packed as gate/view/encoding.h says; keys
// keep their insertion order, so the same inputs give the same text.
//
//   scenario   name, description, source, tick_rate, ticks, up (6 digits)
//   ticks      [first, last] shown
//   character  shape kind, mesh (feet at the origin, axis along up), centre
//              (feet to centre along up, 4 digits)
//   characters the other characters of "characters", each as `character`
//              plus name and run (its columns of the run shown, unprefixed)
//   bodies     per body: name, shape, moving; mesh in world coordinates when
//              static, in the body's frame with one pose per tick shown
//              (x, y, z, qx, qy, qz, qw) when moving
//   runs       [run, reference]: label, role ("run", "golden", "other"),
//              columns (every column but tick and time, rows first..last),
//              steps (consecutive rows stepping the same way, at least
//              1 mm in all: smaller ones are a capsule rolling over bumps)
//   divergence the gate's first divergence, or null; structural: why the
//              tables do not line up; expectations: failed expectations
//   trace      null, or {"first": tick, "ticks": [[event, ...], ...]}
//              (gate/view/overlay.h)
//   stance     null, or, when the scenario has a crouch_shape and the run
//              was simulated here: {"mesh", "centre", "digits"} of the
//              crouch shape (as character's) and "crouched" (1 on the rows
//              shown where the character was crouched, else 0)
//   bodies     a one-way body also has "one_way": the side it blocks from
//              (its local +Y in the world, 6 digits)
//   level      null, or, when the run starts inside a level (gate/view/level.h),
//              {"cut_above_feet", "character_height", "digits"} (lengths in
//              10^-digits m): the page then
//              cuts the level open above the head and follows the character
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gate/core/diff.h"
#include "gate/view/encoding.h"
#include "scenario/load/world.h"
#include "scenario/run/simulate.h"
#include "scenario/scenario.h"
#include "scenario/trajectory.h"

namespace stepslide::view {

struct ViewRun {
  std::string label;
  std::string role;  ///< "run", "golden" or "other"
  const Trajectory* trajectory = nullptr;
};

struct ViewDocument {
  const Scenario* scenario = nullptr;
  const World* world = nullptr;  ///< built from `scenario`
  std::vector<ViewRun> runs;     ///< the run first, then the reference if any
  std::optional<Divergence> divergence;
  std::vector<std::string> structural;
  std::vector<ExpectationFailure> expectation_failures;
  std::int64_t first = 0, last = 0;  ///< ticks shown
  /// Recorded events (record_trace) of ticks trace_first, trace_first + 1, ...; null for none.
  const std::vector<Json>* trace = nullptr;
  std::int64_t trace_first = 1;
  /// The run's character shape height per row (0..ticks), when known and
  /// the scenario has a crouch_shape; null: no stance shown.
  const std::vector<double>* stance = nullptr;
};

Json view_document(const ViewDocument& document);

/// The name of a shape kind as the scenario format spells it ("box", "convex_hull", ...).
const char* shape_kind_name(ShapeType type);

}  // namespace stepslide::view
