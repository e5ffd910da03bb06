// `stepslide plot`: draw a scenario's run as an SVG.
#include <iostream>

#include "command.h"
#include "gate/commands/plot_run.h"
#include "options.h"

namespace stepslide::cli {

namespace {

class PlotCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* plot = app.add_subcommand("plot", "Draw a scenario's run as an SVG: top and side views of the level "
                                                "and the trajectory, and a time view against tick.");
    plot->add_option("SCENARIO", request_.scenario, "the scenario file")->required();
    CLI::Option* golden = plot->add_option("--golden", request_.golden,
                                           "also draw this golden trajectory and mark the first tick where the run "
                                           "differs from it");
    plot->add_option("--against", request_.against,
                     "like --golden, for any other trajectory CSV (e.g. another build's)")
        ->excludes(golden);
    plot->add_option("--out", request_.out, "the SVG file to write; '-' is stdout")->required();
    add_tolerance_options(plot, &request_.tolerances, &request_.exact);
    add_project_options(plot, &request_.project);
    plot->footer(
        "The top view shows every body's outline seen from above, shaded by height (moving bodies dashed at tick 0 "
        "and solid at the end); the side view shows the height of the feet against the horizontal distance "
        "travelled (against time when the run barely moves), over the ground found under the feet. Both mark a "
        "tick every few ticks, steps up and down, and airborne stretches (dashed). The time view below stacks "
        "strips against one tick axis: height with step events, horizontal speed of the feet, camera offset, and "
        "lanes for grounded and stuck; against a reference the first divergence is one line through every strip. "
        "Where the feet stay put for 0.5 s or more it says 'stalled' (the stick was pushed) or 'still'. The file "
        "is self-contained and written atomically.\n" +
        std::string(kExitCodes) + " 1: the picture was written but the run differs from the reference or fails "
                                  "an expectation.");
    return plot;
  }

  int run() override {
    const PlotResult result = plot_scenario_file(request_);
    std::cerr << result.errors;
    if (!result.errors.empty()) return result.exit_code;
    const bool to_stdout = request_.out == "-";
    if (to_stdout) std::cout << result.svg << std::flush;
    (to_stdout ? std::cerr : std::cout) << result.report << std::flush;
    return result.exit_code;
  }

 private:
  PlotRequest request_;
};

}  // namespace

std::unique_ptr<Command> make_plot_command() { return std::make_unique<PlotCommand>(); }

}  // namespace stepslide::cli
