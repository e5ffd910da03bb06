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

/// True when `path` lies inside `root` (not the root itself). Tries the
/// spelling given, then the resolved one, so a symlinked root still matches.
bool is_inside(const std::string& path, const std::string& root);

/// `ROOT/a/b.json` -> `GOLDEN/a/b.csv`; nullopt for a scenario outside the
/// root, which has no golden: mapping it by file name alone put goldens where
/// no scenario under the root maps to them (orphans).
std::optional<std::string> golden_path_for(const std::string& scenario, const std::string& scenario_root,
                                           const std::string& golden_dir);

/// `GOLDEN/a/b.csv` -> `ROOT/a/b.json`: the scenario a golden inside the
/// golden root belongs to; nullopt for a golden outside it.
std::optional<std::string> scenario_path_for(const std::string& golden, const std::string& scenario_root,
                                             const std::string& golden_dir);

/// What `--filter` and `list` call a scenario: `ROOT/a/b.json` -> "a/b"; a
/// scenario outside the root is its path without ".json".
std::string scenario_name(const std::string& scenario, const std::string& scenario_root);

/// The golden directories that command-line `paths` cover, for the orphan
/// check: the golden root for no paths or the scenario root; `GOLDEN/a` for a
/// directory `ROOT/a`; nothing for a file or a directory outside the root.
std::vector<std::string> covered_golden_dirs(const std::vector<std::string>& paths, const std::string& scenario_root,
                                             const std::string& golden_dir);

/// Every `*.csv` below `golden_dir` that no file in `scenarios` maps to, sorted.
std::vector<std::string> find_orphan_goldens(const std::vector<std::string>& scenarios,
                                             const std::string& scenario_root, const std::string& golden_dir);

/// The same, looking only below `covered` (from covered_golden_dirs).
std::vector<std::string> find_orphan_goldens(const std::vector<std::string>& scenarios,
                                             const std::string& scenario_root, const std::string& golden_dir,
                                             const std::vector<std::string>& covered);

/// Every regular file below `dir` whose name ends in `suffix`, sorted,
/// skipping names that start with '.'; none when `dir` is not a directory.
std::vector<std::string> files_below(const std::string& dir, const std::string& suffix);

/// "scenarios/./a//b.json/" -> "scenarios/a/b.json"; "" -> ".".
std::string normal_path(const std::string& path);

/// Default `run` output file name for a scenario name: characters outside
/// [A-Za-z0-9._-] become '_', and a leading '.' is prefixed with '_', so a
/// name can never leave the output directory.
std::string output_file_name(const std::string& scenario_name);

}  // namespace stepslide
