#include "trace_command.h"

#include <iostream>

#include "scenario/load.h"
#include "scenario/scenario.h"
#include "gate/trace.h"

namespace stepslide::cli {

CLI::App* add_trace(CLI::App& app, TraceArgs& args) {
  CLI::App* trace = app.add_subcommand("trace", "Explain a tick: every query the controller issued and every decision.");
  trace->add_option("SCENARIO", args.scenario, "scenario file")->required();
  trace->add_option("--tick", args.tick, "first tick to trace: the step that produced row N of the trajectory")
      ->required();
  trace->add_option("--to", args.to, "last tick to trace (default: --tick)");
  trace->add_flag("--json", args.json, "one JSON object per tick, one per line");
  trace->footer(
      "For each tick: the row before, then in order the velocity update, depenetration (overlaps, normals, depths, "
      "correction per iteration), each slide sweep (from, to, hit fraction, normal, body, the plane or crease slid "
      "along), each step-up attempt with its sweeps and rays and the rule that accepted or refused it, the ground "
      "probe and snap, then the row after. The trace is recorded on the same code path as `run`.\n"
      "Exit codes: 0 success; 2 invalid input or usage.");
  return trace;
}

int trace_command(const TraceArgs& args) {
  const LoadResult loaded = load_scenario_file(args.scenario);
  if (!loaded.scenario) {
    for (const LoadError& e : loaded.errors) std::cerr << format_error(e) << "\n";
    return 2;
  }
  const Scenario& scenario = *loaded.scenario;
  TraceRequest request;
  request.first = args.tick;
  request.last = args.to < 0 ? args.tick : args.to;
  request.json = args.json;
  if (request.first < 1 || request.last > scenario.ticks || request.first > request.last) {
    std::cerr << args.scenario << ": ticks to trace must satisfy 1 <= --tick <= --to <= " << scenario.ticks
              << " (the scenario's ticks), got --tick " << request.first << " --to " << request.last << "\n";
    return 2;
  }
  std::cout << trace_scenario(scenario, request);
  return 0;
}

}  // namespace stepslide::cli
