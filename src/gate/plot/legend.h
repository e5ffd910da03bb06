// The legend beside the top view: what each line and mark means, the height
// scale of the level, and the run in numbers (ticks, steps, airborne rows,
// distance, the first divergence, the failed expectations).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gate/plot/svg_writer.h"
#include "gate/plot/traces.h"
#include "scenario/scenario.h"

namespace stepslide::plot {

/// What the legend describes besides the traces.
struct LegendFacts {
  std::int64_t interval = 1;  ///< ticks between tick marks
  double lo = 0, hi = 0;      ///< range of surface heights
  bool any_moving = false;    ///< some body moves
  bool any_still = false;     ///< the run stands still somewhere (still_stretches)
  bool any_walls = false;     ///< a mesh's walls are drawn as lines (outlines.h)
  bool any_overhead = false;  ///< a mesh has surfaces above the character's head
  std::vector<std::string> failures;  ///< FailureMark::text() of each failed expectation
  /// Further entries (symbol, text), e.g. body_marks.h's.
  std::vector<std::pair<std::string, std::string>> more;
};

/// The legend with its top-left corner at (x, y).
void draw_legend(Svg& svg, double x, double y, const Scenario& scenario, const std::vector<TraceData>& traces,
                 const std::optional<Divergence>& divergence, const LegendFacts& facts);

}  // namespace stepslide::plot
