// `stepslide bless`: write goldens from the current build's trajectories.
#include <iostream>

#include "command.h"
#include "gate/bless.h"
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
    bless->add_flag("--force", request_.force, "bless even when the CI environment variable is set");
    add_controller_option(bless, &request_.controller, "; goldens record stepslide only, so bullet is refused");
    bless->footer(
        "Goldens are written atomically and only when their bytes change; each is reported as new, changed "
        "(with the first difference), metadata only, or unchanged. Refuses to run when CI is set (use --force). "
        "Every scenario is validated first: if one is invalid, nothing is written (exit 2). A scenario whose "
        "own expectations fail is not blessed (exit 1); the others still are.\n" +
        std::string(kExitCodes));
    return bless;
  }

  int run() override {
    request_.env = process_env;
    request_.on_outcome = [](const BlessOutcome& outcome) {
      (outcome.verdict == Verdict::Pass ? std::cout : std::cerr) << outcome.report << std::flush;
    };
    const BlessRun run = run_bless(request_);
    std::cerr << run.errors;
    for (const std::string& golden : run.orphans) std::cout << orphan_note(golden) << "\n";
    return run.exit_code;
  }

 private:
  BlessRequest request_;
};

}  // namespace

std::unique_ptr<Command> make_bless_command() { return std::make_unique<BlessCommand>(); }

}  // namespace stepslide::cli
