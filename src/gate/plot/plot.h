// Pictures of a run: one self-contained SVG with a top view of the level
// (every body's outline, shaded by height; a mesh cut open at the character,
// so that its floors show rather than its roof) and a side view (height
// against distance travelled), the trajectory drawn over both, with tick
// marks, step events, airborne stretches, failed expectations and, against a
// reference, the first divergence.
// Library code: returns text, writes nothing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gate/core/diff.h"
#include "gate/plot/run_events.h"
#include "scenario/expect/expectations.h"
#include "scenario/scenario.h"

namespace stepslide {

/// One trajectory to draw. Needs columns x, y, z; grounded and step_dy are
/// drawn when present.
struct PlotTrace {
  std::string label;                        ///< legend text, e.g. "this build" or a file name
  const Trajectory* trajectory = nullptr;  ///< not owned
};

struct PlotOptions {
  std::string title;                 ///< "" uses the scenario's name
  std::string id_prefix = "plot";    ///< prefix of element ids, unique per SVG when several share a page
  /// The judged run's failed expectations: marked on every view at their
  /// tick and listed in the legend.
  std::vector<ExpectationFailure> expectation_failures;
  /// What the judged run did beyond its columns (pushes, stance;
  /// run_events.h), marked in the top view; null: nothing to mark.
  const RunEvents* events = nullptr;
};

/// The columns a trajectory lacks to be plotted ("x", "y", "z"); empty when it can be.
std::vector<std::string> missing_plot_columns(const Trajectory& trajectory);

/// An `<svg>` element (no XML declaration, no scripts, no external references)
/// for `scenario` and `traces`. traces[0] is the run being judged and is drawn
/// on top; traces[1], when given, is the reference (golden or other file).
/// `divergence` (from diff_trajectories(reference, run)) marks its row in both.
/// Deterministic: the same inputs give the same bytes. Throws
/// std::invalid_argument when a trace lacks a column (see missing_plot_columns).
std::string plot_svg(const Scenario& scenario, const std::vector<PlotTrace>& traces,
                     const std::optional<Divergence>& divergence, const PlotOptions& options = {});

}  // namespace stepslide
