// Option declarations and help text that several subcommands share.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "gate/core/project.h"

namespace stepslide::cli {

/// The last line of every help text.
extern const char* const kExitCodes;

/// --tol and --exact, shared by `check`, `diff` and `plot`.
void add_tolerance_options(CLI::App* command, std::vector<std::string>* tolerances, bool* exact);

/// --scenario-root and --golden-dir, shared by `check` and `bless`.
void add_root_options(CLI::App* command, std::string* scenario_root, std::string* golden_dir);

/// --project FILE and --no-project, for the commands that read the project
/// file (`check`, `bless`, `run`, `diff`, `plot`). Once the command line is
/// parsed, `use` also says which of the file's settings it gave itself
/// (--scenario-root, --golden-dir, -j, --report), so the file fills only the rest.
void add_project_options(CLI::App* command, ProjectUse* use);

/// --controller: ours, or Bullet's btKinematicCharacterController as the
/// reference; `what` ends the help text with what it means for the command.
void add_controller_option(CLI::App* command, std::string* controller, const std::string& what);

/// The environment of this process, for the library's EnvLookup.
const char* process_env(const char* name);

}  // namespace stepslide::cli
