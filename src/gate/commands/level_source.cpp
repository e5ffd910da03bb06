#include "gate/commands/level_source.h"

#include <nlohmann/json.hpp>

#include <filesystem>

#include "scenario/load/level_include.h"
#include "scenario/load/mesh_import.h"

namespace stepslide {

bool is_level_source(const std::string& path) { return mesh_format_name(path) != nullptr || is_level_file(path); }

LoadResult load_level_or_scenario(const std::string& path, const LoadOptions& options) {
  if (!is_level_source(path)) return load_scenario_file(path, options);
  using Json = nlohmann::ordered_json;
  const std::string name = std::filesystem::path(path).filename().generic_string();
  Json item = mesh_format_name(path) != nullptr
                  ? Json{{"name", "level"}, {"shape", {{"type", "mesh"}, {"file", name}}}}
                  : Json{{"include", name}};
  const Json doc = {{"format", kScenarioFormat}, {"ticks", 1}, {"world", Json::array({item})}};
  // Named beside the level, so its paths start from the level's directory, and
  // not as the level itself, which would include itself.
  return load_scenario_text(doc.dump(), path + "#scenario", options);
}

}  // namespace stepslide
