// `stepslide plot`: a scenario's run drawn as an SVG (plot.h), over a
// reference trajectory when one is given.
#pragma once

#include <string>
#include <vector>

#include "gate/core/exit_code.h"
#include "gate/core/fingerprint.h"
#include "gate/core/project.h"

namespace stepslide {

/// The `plot` command's options, as given on the command line.
struct PlotRequest {
  std::string scenario;
  std::string golden;   ///< reference trajectory given as --golden; "" when not given
  std::string against;  ///< reference trajectory given as --against; "" when not given
  std::string out;      ///< SVG file, or "-" for stdout
  std::vector<std::string> tolerances;  ///< --tol, in order
  bool exact = false;
  std::string fingerprint = build_fingerprint();
  /// The project file to read for tolerances (docs/format.md §4), and the
  /// scenario root its "directories" are relative to.
  ProjectUse project;
  ProjectTolerances project_tolerances;
  std::string scenario_root = "scenarios";
};

struct PlotResult {
  /// 0; 1 when the picture was written but the run differs from the
  /// reference or fails an expectation; 2 when nothing was drawn.
  int exit_code = kExitOk;
  std::string errors;  ///< stderr text, with exit 2; nothing else is set then
  std::string svg;     ///< the picture, when it goes to stdout (`--out -`)
  /// "plotted SCENARIO -> OUT; matches REF" and any failed expectations: for
  /// stdout, or for stderr when the SVG goes to stdout.
  std::string report;
};

/// Simulates the scenario, compares it with the reference when there is one,
/// and writes the SVG atomically (or hands it back for stdout).
PlotResult plot_scenario_file(const PlotRequest& request);

}  // namespace stepslide
