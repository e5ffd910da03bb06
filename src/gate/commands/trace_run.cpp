#include "gate/commands/trace_run.h"

#include <charconv>

#include "gate/core/scenario_file.h"
#include "gate/trace/trace.h"
#include "scenario/load/load.h"
#include "scenario/scenario.h"

namespace stepslide {

namespace {

TraceFileResult refused(std::string errors) {
  TraceFileResult result;
  result.exit_code = kExitInvalid;
  result.errors = std::move(errors);
  return result;
}

/// `text` as a tick: a whole number, or "end" for `end`.
Expected<std::int64_t> tick_value(const std::string& option, const std::string& text, std::int64_t end) {
  if (text == "end") return end;
  std::int64_t value = 0;
  const char* first = text.data();
  const char* last = first + text.size();
  const auto [stop, error] = std::from_chars(first, last, value);
  if (text.empty() || error != std::errc() || stop != last) {
    return Expected<std::int64_t>::failure(option + " " + text + ": expected a tick number or end");
  }
  return value;
}

}  // namespace

Expected<TraceRequest> trace_ticks(const TraceFileRequest& request, std::int64_t scenario_ticks) {
  using Result = Expected<TraceRequest>;
  const Expected<std::int64_t> first = tick_value("--tick", request.tick, scenario_ticks);
  if (!first) return Result::failure(first.error());
  const Expected<std::int64_t> last =
      request.to.empty() ? first : tick_value("--to", request.to, scenario_ticks);
  if (!last) return Result::failure(last.error());
  if (*first < 1 || *last > scenario_ticks || *first > *last) {
    return Result::failure("ticks to trace must satisfy 1 <= --tick <= --to <= " + std::to_string(scenario_ticks) +
                           " (the scenario's ticks; end is " + std::to_string(scenario_ticks) + "), got --tick " +
                           std::to_string(*first) + " --to " + std::to_string(*last));
  }
  TraceRequest ticks;
  ticks.first = *first;
  ticks.last = *last;
  ticks.json = request.json;
  return ticks;
}

TraceFileResult trace_scenario_file(const TraceFileRequest& request) {
  const LoadResult loaded = load_scenario_file(request.scenario);
  if (!loaded.scenario) return refused(format_load_errors(loaded));
  const Scenario& scenario = *loaded.scenario;
  const Expected<TraceRequest> ticks = trace_ticks(request, scenario.ticks);
  if (!ticks) return refused(request.scenario + ": " + ticks.error() + "\n");
  TraceFileResult result;
  std::string stopped;
  result.text = trace_scenario(scenario, *ticks, &stopped);
  if (!stopped.empty()) {
    // A NaN past the loader: a product bug (exit 3), never a trace.
    TraceFileResult internal = refused("error: " + request.scenario + ": internal error: " + stopped + "\n");
    internal.exit_code = kExitInternal;
    return internal;
  }
  return result;
}

}  // namespace stepslide
