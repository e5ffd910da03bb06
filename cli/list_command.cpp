// `stepslide list`: the scenarios and the state of their goldens, without
// simulating anything.
#include <iostream>

#include "command.h"
#include "filter_option.h"
#include "gate/commands/listing.h"
#include "options.h"

namespace stepslide::cli {

namespace {

class ListCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* list = app.add_subcommand("list", "List scenarios with the state of their goldens (ok, pending, "
                                                "missing, outside, orphan), without simulating.");
    list->add_option("PATH", request_.paths, "scenario files or directories (default: the scenario root)");
    add_root_options(list, &request_.scenario_root, &request_.golden_dir);
    add_filter_option(list, &request_.filters);
    list->footer(
        "One line per scenario: ok (golden present, nothing pending), pending (GOLDEN.csv.new waits for "
        "`stepslide review`; 'no golden yet' when there is none), missing (no golden), outside (outside the "
        "scenario root: no golden maps to it); then orphans: goldens and .new files with no scenario, among "
        "those the PATHs cover (as `check` counts them). Ends with 'N scenarios: a ok, b pending, c missing'. "
        "Scenarios are found, not loaded: listing is instant and an invalid scenario is listed like any other.\n" +
        std::string(kExitCodes) + " Whatever the states, list exits 0 unless its input is bad.");
    return list;
  }

  int run() override {
    const ListRun run = run_list(request_);
    std::cerr << run.errors << run.warnings;
    if (run.exit_code == kExitOk) std::cout << list_text(run.entries) << std::flush;
    return run.exit_code;
  }

 private:
  ListRequest request_;
};

}  // namespace

std::unique_ptr<Command> make_list_command() { return std::make_unique<ListCommand>(); }

}  // namespace stepslide::cli
