// `stepslide trace`: every query the controller issued and every decision it
// took on the ticks asked for, recorded through the controller's observer on
// the same code path as `run`, so a trace can never disagree with the
// trajectory.
#pragma once

#include <cstdint>
#include <string>

#include "scenario/scenario.h"

namespace stepslide {

struct TraceRequest {
  /// Ticks traced, inclusive. Tick N is the step that produced row N of the
  /// trajectory (from row N - 1), so N >= 1.
  std::int64_t first = 1;
  std::int64_t last = 1;
  bool json = false;  ///< one JSON object per tick, one per line
};

/// Runs `scenario` and returns the trace of the requested ticks, human-readable
/// or as JSON lines. The request must be within [1, scenario.ticks].
std::string trace_scenario(const Scenario& scenario, const TraceRequest& request);

}  // namespace stepslide
