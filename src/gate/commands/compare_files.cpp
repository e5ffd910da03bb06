#include "gate/commands/compare_files.h"

#include <optional>

#include "gate/commands/project_settings.h"
#include "gate/core/csv.h"
#include "gate/core/diff_report.h"
#include "gate/core/metadata.h"
#include "gate/core/text.h"
#include "gate/core/tolerances.h"

namespace stepslide {

namespace {

CompareResult refused(const std::string& message) {
  CompareResult result;
  result.exit_code = kExitInvalid;
  result.errors = error_line(message);
  return result;
}

/// "note: the files were written by different builds: ..." when both record
/// a build and they differ; else "".
std::string build_note(const Trajectory& expected, const Trajectory& actual, const CompareRequest& request) {
  const std::optional<std::string> build_a = metadata_value(expected, "build");
  const std::optional<std::string> build_b = metadata_value(actual, "build");
  if (!build_a || !build_b || *build_a == *build_b) return "";
  return "note: the files were written by different builds: " + *build_a + " (" + request.expected + ") and " +
         *build_b + " (" + request.actual + ")\n";
}

}  // namespace

CompareResult compare_trajectory_files(const CompareRequest& as_given) {
  const Expected<CompareRequest> with_file = with_project(as_given);
  if (!with_file) return CompareResult{kExitInvalid, with_file.error(), ""};
  const CompareRequest& request = *with_file;
  const Expected<ToleranceLayers> layers =
      make_tolerance_layers(request.exact, request.tolerances, request.project_tolerances);
  if (!layers) return refused(layers.error());
  const DiffRules rules = rules_for(default_diff_rules(), *layers, "", {});
  const Expected<Trajectory> expected = read_trajectory_file(request.expected);
  if (!expected) return refused(expected.error());
  const Expected<Trajectory> actual = read_trajectory_file(request.actual);
  if (!actual) return refused(actual.error());

  CompareResult result;
  const DiffResult diff = diff_trajectories(*expected, *actual, rules);
  if (diff.equal) {
    result.text = "no differences: " + request.actual + " matches " + request.expected + "\n";
    return result;
  }
  result.exit_code = kExitFailure;
  result.text = request.actual + " differs from " + request.expected + "\n" + build_note(*expected, *actual, request) +
                ensure_newline(format_diff_report(diff, *expected, *actual));
  return result;
}

}  // namespace stepslide
