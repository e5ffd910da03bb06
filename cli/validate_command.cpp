// `stepslide validate`: check scenario files without simulating them.
#include <iostream>

#include "command.h"
#include "gate/validate.h"
#include "options.h"

namespace stepslide::cli {

namespace {

class ValidateCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* validate = app.add_subcommand("validate", "Check scenario files without simulating them.");
    validate->add_option("SCENARIO", paths_, "scenario files, or directories searched for *.json")->required();
    validate->footer(
        "Prints 'ok FILE' per valid scenario; every error goes to stderr as 'FILE: /json/path: message'.\n" +
        std::string(kExitCodes) + " 2 when any scenario is invalid.");
    return validate;
  }

  int run() override {
    const ValidateResult result = validate_scenarios(paths_);
    std::cerr << result.errors;
    for (const ValidatedFile& file : result.files) {
      if (file.valid) {
        std::cout << "ok " << file.path << "\n";
      } else {
        std::cerr << file.errors;
      }
    }
    return result.exit_code;
  }

 private:
  std::vector<std::string> paths_;
};

}  // namespace

std::unique_ptr<Command> make_validate_command() { return std::make_unique<ValidateCommand>(); }

}  // namespace stepslide::cli
