// `stepslide`: the list of subcommands and the shared app setup. Each
// subcommand's options and behaviour live in its own file (command.h).
#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <memory>
#include <vector>

#include "command.h"
#include "gate/core/exit_code.h"
#include "gate/core/fingerprint.h"
#include "options.h"

namespace {

using namespace stepslide::cli;

/// The subcommands, in the order help lists them.
std::vector<std::unique_ptr<Command>> all_commands() {
  std::vector<std::unique_ptr<Command>> commands;
  // Simulate and gate.
  commands.push_back(make_run_command());
  commands.push_back(make_check_command());
  commands.push_back(make_bless_command());
  commands.push_back(make_review_command());
  commands.push_back(make_accept_command());
  commands.push_back(make_reject_command());
  commands.push_back(make_list_command());
  commands.push_back(make_diff_command());
  commands.push_back(make_validate_command());
  commands.push_back(make_settings_command());
  // Look at a run.
  commands.push_back(make_trace_command());
  commands.push_back(make_plot_command());
  commands.push_back(make_view_command());
  // Bring a level in.
  commands.push_back(make_import_command());
  commands.push_back(make_probe_command());
  commands.push_back(make_map_command());
  // Look for bugs.
  commands.push_back(make_fuzz_command());
  return commands;
}

/// "stepslide 0.1.0\nbuild: <fingerprint>"
std::string version_text() {
  return "stepslide " + stepslide::build_info().version + "\nbuild: " + stepslide::build_fingerprint();
}

int dispatch(int argc, char** argv) {
  CLI::App app{"stepslide: a deterministic headless simulator and regression gate for a kinematic character "
               "controller on Bullet Physics.",
               "stepslide"};
  app.set_version_flag("--version", version_text());
  app.require_subcommand(1);
  app.footer(std::string(kExitCodes) + "\nRun 'stepslide COMMAND --help' for a command's options.");
  const std::vector<std::unique_ptr<Command>> commands = all_commands();
  std::vector<CLI::App*> subcommands;
  for (const auto& command : commands) subcommands.push_back(command->add_to(app));

  if (argc <= 1) {  // no command: show what there is, but as a usage error
    std::cerr << app.help();
    return stepslide::kExitInvalid;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help, version or the error
    return code == 0 ? stepslide::kExitOk : stepslide::kExitInvalid;
  }
  for (std::size_t i = 0; i < commands.size(); ++i) {
    if (subcommands[i]->parsed()) return commands[i]->run();
  }
  return stepslide::kExitInvalid;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return dispatch(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "error: internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "error: internal error\n";
  }
  return stepslide::kExitInvalid;
}
