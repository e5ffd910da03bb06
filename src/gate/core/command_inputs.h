// What the commands share in turning a request into the things they work on:
// the controller, the scenario files, the loaded scenarios. A refusal's reason
// is the exact text for stderr (complete lines, "error: ..." for a usage
// problem, the loader's "FILE: /json/path: message" lines for a bad scenario),
// because a command prints every problem, not only the first.
#pragma once

#include <string>
#include <vector>

#include "gate/core/scenario_file.h"
#include "scenario/run/simulate.h"
#include "stepslide/expected.h"

namespace stepslide {

/// The controller named by `--controller NAME`.
Expected<ControllerKind> controller_option(const std::string& name);

/// PATH arguments, or the scenario root when there are none; refused when that
/// root is not a directory, which usually means the wrong working directory.
Expected<std::vector<std::string>> paths_or_root(const std::vector<std::string>& paths,
                                                 const std::string& scenario_root);

/// The scenario files `paths` name (discover_scenarios); refused when a path
/// is bad (one line per bad path) or nothing was found.
Expected<std::vector<std::string>> scenario_files(const std::vector<std::string>& paths);

/// Every scenario loaded, so that one invalid file stops a command before
/// anything is written; refused with every error of every invalid file.
Expected<std::vector<LoadedScenario>> load_all(const std::vector<std::string>& files);

}  // namespace stepslide
