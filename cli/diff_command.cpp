// `stepslide diff`: compare two trajectory CSV files with the rules of check.
#include <iostream>

#include "command.h"
#include "gate/commands/compare_files.h"
#include "options.h"

namespace stepslide::cli {

namespace {

class DiffCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* diff = app.add_subcommand("diff", "Compare two trajectory CSV files with the rules of check.");
    diff->add_option("EXPECTED", request_.expected, "the reference trajectory, e.g. a golden")->required();
    diff->add_option("ACTUAL", request_.actual, "the trajectory compared with it")->required();
    add_tolerance_options(diff, &request_.tolerances, &request_.exact);
    add_project_options(diff, &request_.project);
    diff->footer("Metadata ('#' lines) is not compared.\n" + std::string(kExitCodes) +
                 " 0: equal within tolerance; 1: different; 2: a file cannot be read or parsed.");
    return diff;
  }

  int run() override {
    const CompareResult result = compare_trajectory_files(request_);
    std::cerr << result.errors;
    std::cout << result.text;
    return result.exit_code;
  }

 private:
  CompareRequest request_;
};

}  // namespace

std::unique_ptr<Command> make_diff_command() { return std::make_unique<DiffCommand>(); }

}  // namespace stepslide::cli
