// `stepslide trace`: every query the controller issued and every decision it
// took on the ticks asked for, recorded through the controller's observer on
// the same code path as `run`, so a trace can never disagree with the
// trajectory.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "scenario/run/simulate.h"
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
/// `*stopped` (when given) receives SimulationResult::error: set when the run
/// stopped at a non-finite value, so the ticks after it have no trace.
std::string trace_scenario(const Scenario& scenario, const TraceRequest& request, std::string* stopped = nullptr);

/// A run with the events of some of its ticks, as `trace --json` writes them.
struct TraceRecording {
  SimulationResult result;
  /// events[i]: the events of tick first + i, in order.
  std::vector<nlohmann::ordered_json> events;
  /// inputs[i]: the input tick first + i was stepped with (gate/trace/input.h).
  std::vector<nlohmann::ordered_json> inputs;
};

/// Runs `scenario`, recording the events of ticks [first, last] (within
/// [1, scenario.ticks]). `sweep_points`: sweeps that hit also record their
/// world contact point as "point" (`trace` itself does not print it).
/// `base`: options whose own on_tick is called first on every row (it must
/// not attach an observer: the trace's own is attached after it).
TraceRecording record_trace(const Scenario& scenario, std::int64_t first, std::int64_t last,
                            bool sweep_points = false, SimulationOptions base = {});

/// The line `trace` prints for one recorded event, without its indentation.
std::string trace_event_text(const nlohmann::ordered_json& event);

}  // namespace stepslide
