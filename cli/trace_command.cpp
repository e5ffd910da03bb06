// `stepslide trace`: explain what the controller did on given ticks.
#include <cstdint>
#include <iostream>

#include "command.h"
#include "gate/exit_code.h"
#include "gate/trace.h"
#include "scenario/scenario.h"

namespace stepslide::cli {

namespace {

class TraceCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* trace =
        app.add_subcommand("trace", "Explain a tick: every query the controller issued and every decision.");
    trace->add_option("SCENARIO", scenario_, "scenario file")->required();
    trace->add_option("--tick", tick_, "first tick to trace: the step that produced row N of the trajectory")
        ->required();
    trace->add_option("--to", to_, "last tick to trace (default: --tick)");
    trace->add_flag("--json", json_, "one JSON object per tick, one per line");
    trace->footer(
        "For each tick: the row before, then in order the velocity update, depenetration (overlaps, normals, "
        "depths, correction per iteration), each slide sweep (from, to, hit fraction, normal, body, the plane or "
        "crease slid along), each step-up attempt with its sweeps and rays and the rule that accepted or refused "
        "it, the ground probe and snap, then the row after. The trace is recorded on the same code path as `run`.\n"
        "Exit codes: 0 success; 2 invalid input or usage.");
    return trace;
  }

  int run() override {
    const LoadResult loaded = load_scenario_file(scenario_);
    if (!loaded.scenario) {
      for (const LoadError& e : loaded.errors) std::cerr << format_error(e) << "\n";
      return kExitInvalid;
    }
    const Scenario& scenario = *loaded.scenario;
    TraceRequest request;
    request.first = tick_;
    request.last = to_ < 0 ? tick_ : to_;
    request.json = json_;
    if (request.first < 1 || request.last > scenario.ticks || request.first > request.last) {
      std::cerr << scenario_ << ": ticks to trace must satisfy 1 <= --tick <= --to <= " << scenario.ticks
                << " (the scenario's ticks), got --tick " << request.first << " --to " << request.last << "\n";
      return kExitInvalid;
    }
    std::cout << trace_scenario(scenario, request);
    return kExitOk;
  }

 private:
  std::string scenario_;
  std::int64_t tick_ = 1;
  std::int64_t to_ = -1;  ///< -1: same as --tick
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> make_trace_command() { return std::make_unique<TraceCommand>(); }

}  // namespace stepslide::cli
