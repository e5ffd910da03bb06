// What the top view shows of dynamic bodies, pushes, one-way platforms and
// the character's stance:
// - a dynamic body is drawn from its trajectory columns (`crate.x` ...
//   `crate.qw`), not from the world (which holds only its starting pose):
//   dashed at row 0, faint outlines at rows sampled along the run, solid
//   at the last row, an arrow from the first to the last;
// - each stretch of pushes (run_events.h) is an arrow at the push point along
//   the impulse (or, pushed by a body, along how far the character was moved),
//   titled with the body, the ticks and the total;
// - a one-way body is outlined in blue with a mark of its blocking side
//   (a dot: blocks from above, a cross: from below, an arrow: the side it
//   faces when that is level);
// - the rows where the character was crouched are a wide violet band under
//   the run's line.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gate/plot/geometry.h"
#include "gate/plot/outlines.h"
#include "gate/plot/run_events.h"
#include "gate/plot/svg_writer.h"
#include "gate/plot/traces.h"
#include "scenario/load/world.h"
#include "scenario/trajectory.h"

namespace stepslide::plot {

/// Rows sampled between the first and the last for a dynamic body's faint outlines.
constexpr int kBodySamples = 6;

/// A dynamic body's pose (its centre of mass) at `row` from its columns
/// `<name>.x` ... `<name>.qw`; nullopt when the trajectory lacks them or the row.
std::optional<btTransform> column_pose(const Trajectory& t, const std::string& name, std::size_t row);

/// Redraws every dynamic body of `bodies` (level_drawings) from `run`'s
/// columns: start, samples and end as the header says.
void pose_dynamic_bodies(const Frame& f, const Scenario& scenario, const World& world, const Trajectory& run,
                         std::vector<BodyDrawing>& bodies);

/// The legend's entries for what draw_run_marks draws: (symbol, text).
std::vector<std::pair<std::string, std::string>> run_mark_legend(const Scenario& scenario, const RunEvents& events);

/// Pushes, one-way bodies and crouched rows over the top view (inside its clip).
void draw_run_marks(Svg& svg, const Panel& panel, const Frame& f, const Scenario& scenario, const World& world,
                    const TraceData& run, const std::vector<P2>& px, const RunEvents& events);

}  // namespace stepslide::plot
