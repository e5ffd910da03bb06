// Which scenario files a command works on, and where their goldens live:
// `ROOT/a/b.json` <-> `GOLDEN/a/b.csv`.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace stepslide {

/// Scenario files named by command-line paths.
struct ScenarioList {
  std::vector<std::string> files;   ///< normalised, sorted, without duplicates
  std::vector<std::string> errors;  ///< "PATH: no such file or directory", ...
};

/// A file is taken as given, whatever its extension; a directory contributes
/// every `*.json` below it, recursively, skipping names that start with '.'
/// (editor lock files, hidden folders) and level files (`"format":
/// "stepslide/level@1"`, which scenarios include). The whole list is sorted bytewise, so
/// the order, and thus sharding, does not depend on the file system.
ScenarioList discover_scenarios(const std::vector<std::string>& paths);

/// True when `paths` name exactly the scenario root (or are empty, meaning it):
/// only then is a golden without a scenario an orphan.
bool names_whole_root(const std::vector<std::string>& paths, const std::string& scenario_root);

/// `ROOT/a/b.json` -> `GOLDEN/a/b.csv`. A scenario outside the root maps to
/// `GOLDEN/<file name>.csv`.
std::string golden_path_for(const std::string& scenario, const std::string& scenario_root,
                            const std::string& golden_dir);

/// `GOLDEN/a/b.csv` -> `ROOT/a/b.json`: the scenario a golden inside the
/// golden root belongs to; nullopt for a golden outside it.
std::optional<std::string> scenario_path_for(const std::string& golden, const std::string& scenario_root,
                                             const std::string& golden_dir);

/// Every `*.csv` below `golden_dir` that no file in `scenarios` maps to, sorted.
std::vector<std::string> find_orphan_goldens(const std::vector<std::string>& scenarios,
                                             const std::string& scenario_root, const std::string& golden_dir);

/// "scenarios/./a//b.json/" -> "scenarios/a/b.json"; "" -> ".".
std::string normal_path(const std::string& path);

}  // namespace stepslide
