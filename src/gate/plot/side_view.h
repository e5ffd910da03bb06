// The side view: height against distance travelled (or against time when the
// run stays put), the ground under the judged run's feet, the trajectories
// over it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "gate/plot/geometry.h"
#include "gate/plot/marks.h"
#include "gate/plot/svg_writer.h"
#include "gate/plot/traces.h"
#include "scenario/load/world.h"

namespace stepslide::plot {

struct SideView {
  bool against_time = false;  ///< the run moves too little horizontally to draw against distance
  std::vector<std::vector<double>> x;  ///< [trace][row]: distance travelled, or time
  /// (row, height of the ground) under the judged run's feet; NaN where nothing is below.
  std::vector<std::pair<std::size_t, double>> profile;
  Box world;  ///< (x, height) shown, with a margin
};

/// The side view of `traces` (traces[0] is the judged run). Casts rays in
/// `world`, posing it for the rows it samples.
SideView side_view(const Frame& f, World& world, const std::vector<TraceData>& traces);

/// The whole side view in `panel`.
void draw_side_view(Svg& svg, const Panel& panel, const Frame& f, const SideView& view,
                    const std::vector<TraceData>& traces, const std::optional<Divergence>& divergence,
                    const std::vector<StillStretch>& still, std::int64_t interval,
                    const std::vector<FailureMark>& failures = {});

}  // namespace stepslide::plot
