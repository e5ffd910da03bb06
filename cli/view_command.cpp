// `stepslide view`: its options; the work is one library call (gate/commands/view_run.h).
#include <iostream>

#include "command.h"
#include "gate/commands/view_run.h"

namespace stepslide::cli {

namespace {

class ViewCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* view = app.add_subcommand("view", "Replay a run in 3D: one self-contained HTML page (three.js inlined).");
    view->add_option("SCENARIO", request_.scenario, "the scenario file")->required();
    CLI::Option* golden =
        view->add_option("--golden", request_.golden, "also show this golden trajectory as a ghost and mark the first tick "
                                                  "where the run differs from it (the gate's default tolerances)");
    view->add_option("--other", request_.other, "like --golden, for any other trajectory CSV (e.g. another build's)")
        ->excludes(golden);
    view->add_option("--out", request_.out, "the page to write (default: <scenario name>.view.html); '-' is stdout");
    view->add_option("--ticks", request_.ticks, "only ticks A..B, e.g. 100..200 (default: every tick)")->type_name("A..B");
    view->add_flag("--trace", request_.trace,
                   "also record every query of the ticks shown and draw the tick's queries in the scene, listed in "
                   "the words of `stepslide trace` (a larger page: narrow it with --ticks)");
    view->footer(
        "The page shows the level in 3D (moving bodies at their pose for the tick shown), the character's shape, its "
        "path coloured grounded / airborne / stepping, the reference's path and shape as a ghost and the first "
        "divergence; a timeline (play, speed, arrow keys, slider) whose tick is in the URL (view.html#tick=120); an "
        "orbit camera with top and side views that can follow the character; and the tick's trajectory row and step "
        "events. three.js and OrbitControls are read from Debian's libjs-three (/usr/share/javascript/three, or "
        "STEPSLIDE_THREE_DIR) and inlined: the page loads nothing else. Written atomically; nothing is written when "
        "an input is wrong.\n"
        "Exit codes: 0 success; 1 the page was written but the run differs from the reference or fails an "
        "expectation; 2 invalid input or usage (a trajectory that is not a run of the scenario, libjs-three "
        "missing).");
    return view;
  }

  int run() override {
    const ViewFileResult result = view_scenario_file(request_);
    std::cerr << result.err;
    std::cout << result.out << std::flush;
    return result.exit_code;
  }

 private:
  ViewFileRequest request_;
};

}  // namespace

std::unique_ptr<Command> make_view_command() { return std::make_unique<ViewCommand>(); }

}  // namespace stepslide::cli
