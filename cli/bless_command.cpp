// `stepslide bless`: write goldens from the current build's trajectories.
#include <iostream>

#include "command.h"
#include "filter_option.h"
#include "gate/commands/bless.h"
#include "options.h"

namespace stepslide::cli {

namespace {

class BlessCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* bless = app.add_subcommand("bless", "Write goldens from the current build's trajectories.");
    bless->add_option("PATH", request_.paths, "scenario files or directories (default: the scenario root)");
    add_root_options(bless, &request_.scenario_root, &request_.golden_dir);
    add_project_options(bless, &request_.project);
    add_filter_option(bless, &request_.filters);
    bless->add_flag("--force", request_.force, "bless even in CI (the CI variable set to anything but '', 0 or false)");
    add_controller_option(bless, &request_.controller, "; goldens record stepslide only, so bullet is refused");
    bless->footer(
        "Goldens are written atomically and only when their bytes change; each is reported as new, changed "
        "(with the first difference), metadata only, or unchanged; blessing a golden removes its pending .new. "
        "Refuses to run in CI (use --force). Every scenario is validated first: if one is invalid, or lies "
        "outside the scenario root (it has no golden there; the refusal gives the exact command with roots of "
        "its own), nothing is written (exit 2). A scenario whose own expectations fail is not blessed (exit 1); "
        "the others still are. Goldens with no scenario, among those the PATHs cover, get a note.\n"
        "To look at each change first, let `check` write pending results and use `stepslide review`.\n" +
        std::string(kExitCodes));
    return bless;
  }

  int run() override {
    request_.env = process_env;
    request_.on_outcome = [](const BlessOutcome& outcome) {
      (outcome.verdict == Verdict::Pass ? std::cout : std::cerr) << outcome.report << std::flush;
    };
    const BlessRun run = run_bless(request_);
    std::cerr << run.errors << run.warnings;
    for (const std::string& golden : run.orphans) std::cout << orphan_note(golden) << "\n";
    return run.exit_code;
  }

 private:
  BlessRequest request_;
};

}  // namespace

std::unique_ptr<Command> make_bless_command() { return std::make_unique<BlessCommand>(); }

}  // namespace stepslide::cli
