// `stepslide diff`: two trajectory files compared with the rules of check.
#pragma once

#include <string>
#include <vector>

#include "gate/core/exit_code.h"
#include "gate/core/project.h"

namespace stepslide {

/// The `diff` command's options, as given on the command line.
struct CompareRequest {
  std::string expected;  ///< the reference trajectory, e.g. a golden
  std::string actual;    ///< the trajectory compared with it
  std::vector<std::string> tolerances;  ///< --tol, in order
  bool exact = false;
  /// The project file to read for tolerances (docs/format.md §4); its
  /// top-level "tolerances" land in project_tolerances.
  ProjectUse project;
  ProjectTolerances project_tolerances;
};

struct CompareResult {
  int exit_code = kExitOk;  ///< 0 equal within tolerance, 1 different, 2 unreadable or bad options
  std::string errors;       ///< stderr text, with exit 2
  std::string text;         ///< stdout text: "no differences: ..." or the report
};

/// Reads both files and compares them; metadata is not compared, but a note
/// says when the files were written by different builds.
CompareResult compare_trajectory_files(const CompareRequest& request);

}  // namespace stepslide
