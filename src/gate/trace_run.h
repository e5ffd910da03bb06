// `stepslide trace` as one library call: a scenario file and a tick range in,
// the trace (trace.h) or why there is none out.
#pragma once

#include <cstdint>
#include <string>

#include "gate/exit_code.h"

namespace stepslide {

/// The `trace` command's options, as given on the command line.
struct TraceFileRequest {
  std::string scenario;   ///< the scenario file
  std::int64_t tick = 1;  ///< first tick traced: the step that produced row `tick`
  std::int64_t to = -1;   ///< last tick traced; -1: same as `tick`
  bool json = false;      ///< one JSON object per tick, one per line
};

struct TraceFileResult {
  int exit_code = kExitOk;  ///< 2 for an invalid scenario or ticks outside it
  std::string errors;       ///< stderr text, with exit 2
  std::string text;         ///< the trace, for stdout
};

/// Loads the scenario, checks that 1 <= tick <= to <= its ticks, and traces.
TraceFileResult trace_scenario_file(const TraceFileRequest& request);

}  // namespace stepslide
