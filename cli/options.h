// Option declarations and help text that several subcommands share.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace stepslide::cli {

/// The last line of every help text.
extern const char* const kExitCodes;

/// --tol and --exact, shared by `check`, `diff` and `plot`.
void add_tolerance_options(CLI::App* command, std::vector<std::string>* tolerances, bool* exact);

/// --scenario-root and --golden-dir, shared by `check` and `bless`.
void add_root_options(CLI::App* command, std::string* scenario_root, std::string* golden_dir);

/// --controller: ours, or Bullet's btKinematicCharacterController as the
/// reference; `what` ends the help text with what it means for the command.
void add_controller_option(CLI::App* command, std::string* controller, const std::string& what);

/// The environment of this process, for the library's EnvLookup.
const char* process_env(const char* name);

}  // namespace stepslide::cli
