// The tolerances `check`, `diff` and `plot` compare with (docs/format.md §4.2),
// built in layers, each over the ones before it:
//   1. the built-in defaults (the column table, scenario/columns.h);
//   2. the project file's "tolerances";
//   3. its "directories" entries that contain the scenario, shorter first;
//   4. the scenario's own "tolerance" block;
//   5. `--exact`, which sets every tolerance to 0 and drops layers 2 to 4;
//   6. the `--tol` options.
// A layer sets every column one of its keys matches, and only those; within
// a layer the most specific key wins (scenario/load/column_pattern.h).
#pragma once

#include <string>
#include <vector>

#include "gate/core/diff.h"
#include "scenario/scenario.h"
#include "stepslide/expected.h"

namespace stepslide {

/// One "directories" entry of a project file.
struct DirectoryTolerances {
  std::string directory;  ///< relative to the scenario root, normalised, ending in '/': "terrain/"
  std::vector<ColumnTolerance> tolerances;
};

/// What a project file says about tolerances.
struct ProjectTolerances {
  std::vector<ColumnTolerance> tolerances;        ///< for every scenario
  std::vector<DirectoryTolerances> directories;   ///< for the scenarios under one directory
};

/// Every layer but the defaults and the scenario's own block.
struct ToleranceLayers {
  ProjectTolerances project;
  bool exact = false;                          ///< --exact
  std::vector<ColumnTolerance> command_line;   ///< --tol, in order
};

/// One `--tol` option: `COLUMN=ABS` or `COLUMN=abs:A,rel:R` (either part may
/// be left out; a left-out one is 0), COLUMN a column name or glob. Fails for
/// a malformed option, a column the runner does not write or a glob matching
/// none (the reason lists those it does), or a tolerance that is negative or
/// not finite; every reason starts with "--tol '<option>': ".
Expected<ColumnTolerance> parse_tol_option(const std::string& option);

/// The layers from `--exact`, the `--tol` options and the project file's
/// tolerances; fails on the first bad `--tol`.
Expected<ToleranceLayers> make_tolerance_layers(bool exact, const std::vector<std::string>& tolerances,
                                                ProjectTolerances project = {});

/// Sets, for every column of the table that an entry of `layer` matches, the
/// rule of the most specific such entry; of equally specific ones, the later.
void apply_tolerances(const std::vector<ColumnTolerance>& layer, DiffRules& rules);

/// The rules for a scenario at `directory` ("terrain/steep/", or "" at the
/// root or outside it) with its own `tolerance` block, over `base`.
DiffRules rules_for(const DiffRules& base, const ToleranceLayers& layers, const std::string& directory,
                    const std::vector<ColumnTolerance>& own);

/// Where `scenario` lies under `scenario_root`: "terrain/steep/" for
/// ROOT/terrain/steep/x.json; "" for a file directly in the root or outside it.
std::string scenario_directory(const std::string& scenario, const std::string& scenario_root);

/// The rules of a comparison that involves no scenario: the defaults, then
/// `--exact`, then each `--tol` (see make_tolerance_layers).
Expected<DiffRules> make_diff_rules(bool exact, const std::vector<std::string>& tolerances);

/// Every tolerance 0, for bless, which reports any change at all.
DiffRules exact_diff_rules();

}  // namespace stepslide
