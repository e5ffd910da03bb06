#include "gate/trace_run.h"

#include "gate/scenario_file.h"
#include "gate/trace.h"
#include "scenario/load.h"
#include "scenario/scenario.h"

namespace stepslide {

namespace {

TraceFileResult refused(std::string errors) {
  TraceFileResult result;
  result.exit_code = kExitInvalid;
  result.errors = std::move(errors);
  return result;
}

}  // namespace

TraceFileResult trace_scenario_file(const TraceFileRequest& request) {
  const LoadResult loaded = load_scenario_file(request.scenario);
  if (!loaded.scenario) return refused(format_load_errors(loaded));
  const Scenario& scenario = *loaded.scenario;
  TraceRequest ticks;
  ticks.first = request.tick;
  ticks.last = request.to < 0 ? request.tick : request.to;
  ticks.json = request.json;
  if (ticks.first < 1 || ticks.last > scenario.ticks || ticks.first > ticks.last) {
    return refused(request.scenario + ": ticks to trace must satisfy 1 <= --tick <= --to <= " +
                   std::to_string(scenario.ticks) + " (the scenario's ticks), got --tick " +
                   std::to_string(ticks.first) + " --to " + std::to_string(ticks.last) + "\n");
  }
  TraceFileResult result;
  std::string stopped;
  result.text = trace_scenario(scenario, ticks, &stopped);
  if (!stopped.empty()) {
    // A NaN past the loader: a product bug (exit 3), never a trace.
    TraceFileResult internal = refused("error: " + request.scenario + ": internal error: " + stopped + "\n");
    internal.exit_code = kExitInternal;
    return internal;
  }
  return result;
}

}  // namespace stepslide
