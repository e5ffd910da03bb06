// The top view: the level seen from above, every body's outline shaded by its
// height (moving bodies at their first and last pose), the trajectories over it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gate/plot/geometry.h"
#include "gate/plot/marks.h"
#include "gate/plot/outlines.h"
#include "gate/plot/svg_writer.h"
#include "gate/plot/traces.h"

namespace stepslide::plot {

/// The part of the plane to show: every trace with a margin, on one scale for
/// both axes; a very long, thin run is widened so the level beside it shows too.
Box top_view_box(const std::vector<TraceData>& traces);

/// Light for low surfaces, dark for high ones: `top` within [lo, hi] as "#rrggbb".
std::string height_colour(double top, double lo, double hi);

/// The whole top view in `panel`. [lo, hi] is the range of surface heights;
/// `still` the run's still stretches.
void draw_top_view(Svg& svg, const Panel& panel, const Frame& f, const std::vector<BodyDrawing>& bodies,
                   const std::vector<TraceData>& traces, const std::optional<Divergence>& divergence,
                   const std::vector<StillStretch>& still, std::int64_t interval, double lo, double hi,
                   const std::vector<FailureMark>& failures = {});

}  // namespace stepslide::plot
