// A command's request with its project file applied (docs/format.md §4.3):
// each run_* function calls with_project first, so the CLI keeps filling one
// request and making one call. A setting the command line gave
// (ProjectUse::given) stays; one it left out comes from the file, if the file
// has it; the file's tolerances go to the request's own layer for them, below
// `--exact` and `--tol`.
#pragma once

#include "gate/commands/bless.h"
#include "gate/commands/check_run.h"
#include "gate/commands/compare_files.h"
#include "gate/commands/plot_run.h"
#include "gate/commands/run.h"
#include "stepslide/expected.h"

namespace stepslide {

/// Roots, `-j`, the report directory and tolerances.
Expected<CheckRequest> with_project(const CheckRequest& request);
/// Roots.
Expected<BlessRequest> with_project(const BlessRequest& request);
/// The scenario root, run when no scenario is named.
Expected<RunRequest> with_project(const RunRequest& request);
/// The top-level tolerances; `diff` compares files, not scenarios, so no
/// directory entry applies.
Expected<CompareRequest> with_project(const CompareRequest& request);
/// Tolerances, and the scenario root their directory entries are relative to.
Expected<PlotRequest> with_project(const PlotRequest& request);

}  // namespace stepslide
