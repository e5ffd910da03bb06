// `stepslide accept` and `stepslide reject`: act on pending results
// (GOLDEN.csv.new, written by a failing `check`) without asking.
#include <iostream>

#include "command.h"
#include "filter_option.h"
#include "gate/commands/accept.h"
#include "options.h"

namespace stepslide::cli {

namespace {

class AcceptCommand final : public Command {
 public:
  explicit AcceptCommand(bool reject) { request_.reject = reject; }

  CLI::App* add_to(CLI::App& app) override {
    const bool reject = request_.reject;
    CLI::App* command = app.add_subcommand(
        reject ? "reject" : "accept",
        reject ? "Delete pending results (GOLDEN.csv.new) without looking at them."
               : "Move pending results (GOLDEN.csv.new) over their goldens without looking at them.");
    command->add_option("PATH", request_.paths,
                        "pending results (.csv.new), their goldens (.csv), scenario files, or folders of either");
    command->add_flag("--all", request_.all, "every pending result under the golden root");
    add_root_options(command, &request_.scenario_root, &request_.golden_dir);
    add_filter_option(command, &request_.filters);
    command->footer(
        std::string(reject ? "Each pending result is deleted with its review picture: 'rejected PENDING'. "
                           : "Each pending result replaces its golden in one atomic rename, and its review picture "
                             "is removed: 'accepted GOLDEN (new | changed: <first difference> | metadata only: same "
                             "trajectory)'. A result whose scenario no longer exists, is invalid, or changed since "
                             "`check` wrote it is not accepted ('not accepted PENDING: why', exit 1); check again "
                             "or reject it. ") +
        "Give PATH... or --all. A folder inside the golden root takes the pending results below it; a folder "
        "inside the scenario root, those below its golden folder. To look at each first: `stepslide review`.\n" +
        std::string(kExitCodes));
    return command;
  }

  int run() override {
    request_.on_item = [](const std::string& text, bool ok) { (ok ? std::cout : std::cerr) << text << std::flush; };
    const AcceptRun run = run_accept(request_);
    std::cerr << run.errors;
    if (!run.closing.empty()) std::cout << run.closing << "\n";
    return run.exit_code;
  }

 private:
  AcceptRequest request_;
};

}  // namespace

std::unique_ptr<Command> make_accept_command() { return std::make_unique<AcceptCommand>(false); }
std::unique_ptr<Command> make_reject_command() { return std::make_unique<AcceptCommand>(true); }

}  // namespace stepslide::cli
