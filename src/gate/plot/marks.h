// The trajectories drawn over a view: one line per trace with its airborne
// stretches dashed, tick marks, step events, start and end, the first
// divergence and the failed expectations. The same marks in both views; only
// where rows land differs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gate/plot/svg_writer.h"
#include "gate/plot/traces.h"
#include "scenario/expect/expectations.h"

namespace stepslide::plot {

/// Where each row of each trace lands in one view, in pixels: [trace][row].
/// Rows that are not valid are never read.
using TracePixels = std::vector<std::vector<P2>>;

/// Tick marks go on every `tick_interval(ticks)` ticks: about a dozen per run.
std::int64_t tick_interval(std::int64_t ticks);

/// Upward triangle for a step up, downward for a step down, centred on `p`;
/// `title` shows on hover.
std::string step_marker(const P2& p, bool up, const char* trace_colour, const std::string& title = "");

/// Every trace, the reference first so the judged run is drawn on top.
void draw_traces(Svg& svg, const std::vector<TraceData>& traces, const TracePixels& px, std::int64_t interval);

/// Where the run stood still (see still_stretches): a ring and "stalled N
/// ticks (a-b)" beside it, so that a pile of tick marks on one spot reads as
/// a stall.
void draw_still_marks(Svg& svg, const TraceData& run, const std::vector<P2>& px, const std::vector<StillStretch>& still);

/// A ring at each trace's position at the divergent row, joined by a line.
void draw_divergence(Svg& svg, const std::vector<TraceData>& traces, const Divergence& d, const TracePixels& px);

/// A failed expectation as every view marks it: "E1", "E2", ... in the
/// order the checks failed, at the run's row for the failure's tick.
struct FailureMark {
  std::string label;    ///< "E1"
  std::size_t row = 0;  ///< of the judged run; past its rows when the tick is not one of them
  ExpectationFailure failure;
  std::string text() const;  ///< "E1 /expect/2 at tick 104: <message>"
};
std::vector<FailureMark> failure_marks(const TraceData& run, const std::vector<ExpectationFailure>& failures);

/// A red cross with its label at the run's position at each mark's row.
void draw_failure_marks(Svg& svg, const TraceData& run, const std::vector<P2>& px,
                        const std::vector<FailureMark>& marks);

}  // namespace stepslide::plot
