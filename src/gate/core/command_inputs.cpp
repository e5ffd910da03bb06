#include "gate/core/command_inputs.h"

#include <filesystem>
#include <system_error>

#include "gate/core/discovery.h"
#include "gate/core/text.h"

namespace stepslide {

Expected<ControllerKind> controller_option(const std::string& name) {
  const std::optional<ControllerKind> kind = controller_from_name(name);
  if (!kind) return Expected<ControllerKind>::failure(error_line("--controller " + name + ": expected stepslide or bullet"));
  return *kind;
}

Expected<std::vector<std::string>> paths_or_root(const std::vector<std::string>& paths,
                                                 const std::string& scenario_root) {
  if (!paths.empty()) return paths;
  std::error_code ec;
  if (!std::filesystem::is_directory(scenario_root, ec)) {
    return Expected<std::vector<std::string>>::failure(
        error_line("scenario root '" + scenario_root +
                   "' is not a directory: run stepslide from the project directory, pass --scenario-root DIR, "
                   "or name scenario files"));
  }
  return std::vector<std::string>{scenario_root};
}

Expected<std::vector<std::string>> scenario_files(const std::vector<std::string>& paths) {
  const ScenarioList list = discover_scenarios(paths);
  std::string errors;
  for (const std::string& error : list.errors) errors += error_line(error);
  if (!errors.empty()) return Expected<std::vector<std::string>>::failure(errors);
  if (list.files.empty()) {
    std::string where;
    for (const std::string& path : paths) where += (where.empty() ? "" : ", ") + path;
    return Expected<std::vector<std::string>>::failure(error_line("no scenarios (*.json) found in " + where));
  }
  return list.files;
}

Expected<std::vector<LoadedScenario>> load_all(const std::vector<std::string>& files) {
  std::vector<LoadedScenario> loaded;
  std::string errors;
  bool all_valid = true;
  for (const std::string& file : files) {
    loaded.push_back(load_scenario_keeping_bytes(file));
    if (loaded.back().valid()) continue;
    errors += format_load_errors(loaded.back().load);
    all_valid = false;
  }
  if (!all_valid) return Expected<std::vector<LoadedScenario>>::failure(errors);
  return loaded;
}

}  // namespace stepslide
