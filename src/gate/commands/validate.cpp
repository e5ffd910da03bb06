#include "gate/commands/validate.h"

#include <set>

#include "gate/core/command_inputs.h"
#include "gate/core/scenario_file.h"

namespace stepslide {

ValidateResult validate_scenarios(const std::vector<std::string>& paths, const LoadOptions& options) {
  ValidateResult result;
  const Expected<std::vector<std::string>> files = scenario_files(paths);
  if (!files) {
    result.errors = files.error();
    result.exit_code = kExitInvalid;
    return result;
  }
  std::set<std::string> noted;  // a level many scenarios include is described once
  for (const std::string& file : *files) {
    const LoadedScenario loaded = load_scenario_keeping_bytes(file, options);
    std::string notes;
    for (const std::string& note : loaded.load.notes) {
      // "walk.json: levels/house.json#/world/0/shape/file: ...": the same after the scenario's name.
      const std::size_t colon = note.find(": ");
      if (noted.insert(colon == std::string::npos ? note : note.substr(colon + 2)).second) {
        notes += "note: " + note + "\n";
      }
    }
    result.files.push_back({file, loaded.valid(), format_load_errors(loaded.load), notes});
    if (!loaded.valid()) result.exit_code = kExitInvalid;
  }
  return result;
}

}  // namespace stepslide
