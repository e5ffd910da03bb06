// The time view: what the top and side views cannot show, against tick.
// Stacked strips share one tick axis: height, horizontal speed (from the
// positions), camera offset, then lanes for grounded and stuck; step events
// sit on the height line; the first divergence, and each failed expectation,
// is one line through every strip. A run that is only late or early, or that stands still for a second
// while the stick is pushed, is visible here at a glance.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "gate/core/diff.h"
#include "gate/plot/marks.h"
#include "gate/plot/svg_writer.h"
#include "gate/plot/traces.h"

namespace stepslide::plot {

/// The height of the time view drawn for `trace_count` traces, from the top
/// of its title to the bottom of its tick axis's name.
double time_view_height(std::size_t trace_count);

/// The time view of `traces` (traces[0] the judged run, on top), its title at
/// `top`, `width` pixels wide from `left`.
void draw_time_view(Svg& svg, double left, double top, double width, const std::vector<TraceData>& traces,
                    const std::vector<StillStretch>& still, const std::optional<Divergence>& divergence,
                    const std::vector<FailureMark>& failures = {});

}  // namespace stepslide::plot
