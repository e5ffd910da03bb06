// `stepslide validate`: check scenario files without simulating them.
#include <iostream>

#include "command.h"
#include "gate/commands/validate.h"
#include "options.h"

namespace stepslide::cli {

namespace {

class ValidateCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* validate = app.add_subcommand("validate", "Check scenario files without simulating them.");
    validate->add_option("SCENARIO", paths_, "scenario files, or directories searched for *.json")->required();
    validate->add_flag("--allow-outside", options_.allow_outside,
                       "let level and mesh file paths leave the scenario's directory");
    validate->footer(
        "Prints 'ok FILE' per valid scenario, then a 'note:' line per mesh file it reads (triangles kept, "
        "degenerate and duplicate ones dropped, vertices welded); every error goes to stderr as "
        "'FILE: /json/path: message'.\n" +
        std::string(kExitCodes) + " 2 when any scenario is invalid.");
    return validate;
  }

  int run() override {
    const ValidateResult result = validate_scenarios(paths_, options_);
    std::cerr << result.errors;
    for (const ValidatedFile& file : result.files) {
      if (file.valid) {
        std::cout << "ok " << file.path << "\n" << file.notes;
      } else {
        std::cerr << file.errors;
      }
    }
    return result.exit_code;
  }

 private:
  std::vector<std::string> paths_;
  LoadOptions options_;
};

}  // namespace

std::unique_ptr<Command> make_validate_command() { return std::make_unique<ValidateCommand>(); }

}  // namespace stepslide::cli
