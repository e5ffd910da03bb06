// `stepslide trace`: explain what the controller did on given ticks.
#include <iostream>

#include "command.h"
#include "gate/commands/trace_run.h"

namespace stepslide::cli {

namespace {

class TraceCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* trace =
        app.add_subcommand("trace", "Explain a tick: every query the controller issued and every decision.");
    trace->add_option("SCENARIO", request_.scenario, "scenario file")->required();
    trace->add_option("--tick", request_.tick,
                      "first tick to trace: the step that produced row N of the trajectory; 'end' is the last tick")
        ->type_name("N|end")
        ->required();
    trace->add_option("--to", request_.to, "last tick to trace, a number or 'end' (default: --tick)")
        ->type_name("N|end");
    trace->add_flag("--json", request_.json, "one JSON object per tick, one per line");
    trace->footer(
        "For each tick: the row before; the input the runner fed the controller (stick or wish_velocity, yaw, "
        "jump; under move_to/waypoints the target aimed at, its distance and the stick steering worked out); then, "
        "in the order the controller works: riding (the body stood on, how far it "
        "carried the feet, its velocity there); depenetration (overlaps, normals, depths, correction per "
        "iteration); the velocity update; each slide sweep (from, to, hit fraction, normal, body, the plane or "
        "crease slid along); each step-up attempt with its sweeps and rays and the rule that accepted or refused "
        "it; the ground probe and snap; leaving a ridden body (the velocity it hands over); then the row after. "
        "The trace is recorded on the same code path as `run`. With --json, one object per tick (tick, before, "
        "input, events, after); counts, flags and indices are JSON integers.\n"
        "Exit codes: 0 success; 2 invalid input or usage.");
    return trace;
  }

  int run() override {
    const TraceFileResult result = trace_scenario_file(request_);
    std::cerr << result.errors;
    std::cout << result.text;
    return result.exit_code;
  }

 private:
  TraceFileRequest request_;
};

}  // namespace

std::unique_ptr<Command> make_trace_command() { return std::make_unique<TraceCommand>(); }

}  // namespace stepslide::cli
