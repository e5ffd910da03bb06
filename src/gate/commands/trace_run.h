// `stepslide trace` as one library call: a scenario file and a tick range in,
// the trace (trace.h) or why there is none out.
#pragma once

#include <cstdint>
#include <string>

#include "gate/core/exit_code.h"
#include "gate/trace/trace.h"
#include "stepslide/expected.h"

namespace stepslide {

/// The `trace` command's options, as given on the command line.
struct TraceFileRequest {
  std::string scenario;  ///< the scenario file
  /// First tick traced, the step that produced row `tick`: a number, or
  /// "end" for the scenario's last tick (as in expectations).
  std::string tick = "1";
  std::string to;      ///< last tick traced, a number or "end"; "": same as `tick`
  bool json = false;   ///< one JSON object per tick, one per line
};

struct TraceFileResult {
  int exit_code = kExitOk;  ///< 2 for an invalid scenario or ticks outside it
  std::string errors;       ///< stderr text, with exit 2
  std::string text;         ///< the trace, for stdout
};

/// The ticks `request` names in a scenario of `scenario_ticks` ticks, or why
/// they are not ticks of it ("--tick x: expected a tick number or end", ...).
Expected<TraceRequest> trace_ticks(const TraceFileRequest& request, std::int64_t scenario_ticks);

/// Loads the scenario, reads the ticks ("end" is its last), checks that
/// 1 <= tick <= to <= its ticks, and traces.
TraceFileResult trace_scenario_file(const TraceFileRequest& request);

}  // namespace stepslide
