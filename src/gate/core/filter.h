// `--filter GLOB`: choosing scenarios by name. A scenario's name is its path
// relative to the scenario root without ".json" ("stairs/up_straight"); a
// filter matches when it matches the name or the path ("scenarios/stairs/
// up_straight.json"), whole, not a part of it.
//
// Globs: `*` is any run of characters except '/', `?` one character except
// '/', `**` any run of characters including '/', and `**/` zero or more whole
// folders ("**/up_*" matches "up_a" and "stairs/up_a"). Every other character
// stands for itself. A filter starting with '-' excludes what the rest
// matches. A scenario is selected when no include filter is given or one
// matches, and no exclude filter matches.
#pragma once

#include <string>
#include <vector>

#include "stepslide/expected.h"

namespace stepslide {

struct ScenarioFilter {
  std::vector<std::string> include;  ///< globs; empty: everything
  std::vector<std::string> exclude;  ///< globs given with a '-' prefix, without it
  bool empty() const { return include.empty() && exclude.empty(); }
};

/// The --filter arguments as given; refused when one is empty or only "-".
Expected<ScenarioFilter> parse_filters(const std::vector<std::string>& arguments);

/// True when `pattern` matches all of `text` (see above).
bool path_glob_match(const std::string& pattern, const std::string& text);

/// True when `filter` selects the item called `name` at `path`.
bool filter_selects(const ScenarioFilter& filter, const std::string& name, const std::string& path);

/// Scenario files after a filter: what is kept, and a warning line per
/// include filter that matched none of them.
struct FilteredFiles {
  std::vector<std::string> files;
  std::string warnings;  ///< "warning: --filter 'x' matches no scenario\n" lines
};

/// Keeps the files `filter` selects, naming each relative to `scenario_root`.
FilteredFiles filter_scenario_files(const std::vector<std::string>& files, const std::string& scenario_root,
                                    const ScenarioFilter& filter);

/// The same, refused (a usage error) when a non-empty filter keeps none of
/// the files, so a typo can never make a gate pass by checking nothing.
Expected<FilteredFiles> select_scenario_files(const std::vector<std::string>& files, const std::string& scenario_root,
                                              const ScenarioFilter& filter);

/// What a command works on once its PATHs and filters are read.
struct ChosenScenarios {
  std::vector<std::string> found;  ///< every scenario the PATHs name (the orphan check needs them all)
  ScenarioFilter filter;
  std::vector<std::string> kept;   ///< those the filter keeps
  std::string warnings;            ///< filters that matched nothing
};

/// The scenarios PATHs name (the scenario root for none; command_inputs.h)
/// and `filters` keep. Refused (stderr text) for a bad filter, a bad PATH,
/// no scenario found, or, unless `allow_none`, a filter that keeps none.
Expected<ChosenScenarios> choose_scenarios(const std::vector<std::string>& paths, const std::string& scenario_root,
                                           const std::vector<std::string>& filters, bool allow_none = false);

/// The orphan goldens (discovery.h) among those `paths` cover, kept by
/// `filter`, which names a golden like the scenario it lacks ("a/b" for
/// `GOLDEN/a/b.csv`). `scenarios` are every scenario the paths name,
/// before filtering.
std::vector<std::string> selected_orphan_goldens(const std::vector<std::string>& paths,
                                                 const std::vector<std::string>& scenarios,
                                                 const std::string& scenario_root, const std::string& golden_dir,
                                                 const ScenarioFilter& filter);

}  // namespace stepslide
