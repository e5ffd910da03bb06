#include "gate/commands/plot_run.h"

#include <optional>

#include "base/file_io.h"
#include "gate/commands/project_settings.h"
#include "gate/core/csv.h"
#include "gate/core/diff_report.h"
#include "gate/core/scenario_file.h"
#include "gate/core/text.h"
#include "gate/core/tolerances.h"
#include "gate/plot/plot.h"

namespace stepslide {

namespace {

PlotResult refused(const std::string& errors) {
  PlotResult result;
  result.exit_code = kExitInvalid;
  result.errors = errors;
  return result;
}

const std::string& reference_path(const PlotRequest& request) {
  return request.golden.empty() ? request.against : request.golden;
}

/// The reference trajectory, when one is given; refused when it cannot be
/// read or lacks a column the picture needs.
Expected<std::optional<Trajectory>> read_reference(const std::string& path) {
  using Result = Expected<std::optional<Trajectory>>;
  if (path.empty()) return std::optional<Trajectory>();
  Expected<Trajectory> reference = read_trajectory_file(path);
  if (!reference) return Result::failure(error_line(reference.error()));
  const std::vector<std::string> missing = missing_plot_columns(*reference);
  if (missing.empty()) return std::optional<Trajectory>(reference.take());
  std::string names;
  for (const std::string& name : missing) names += (names.empty() ? "" : ", ") + name;
  return Result::failure(error_line(path + ": expected columns x, y and z to plot, missing " + names));
}

/// "; matches REF", "; differs from REF: <first difference>" or "".
std::string comparison_text(const std::optional<DiffResult>& diff, const std::string& reference) {
  if (!diff) return "";
  if (diff->equal) return "; matches " + reference;
  return "; differs from " + reference + ": " + diff_summary(*diff);
}

/// The SVG of the run, over the reference when there is one.
std::string picture(const LoadedScenario& loaded, const SimulationResult& sim, const RunEvents& events,
                    const std::optional<Trajectory>& reference, const std::optional<DiffResult>& diff,
                    const PlotRequest& request) {
  std::vector<PlotTrace> traces{{"this run", &sim.trajectory}};
  if (reference) {
    traces.push_back({(request.golden.empty() ? "reference: " : "golden: ") + reference_path(request), &*reference});
  }
  PlotOptions options;
  options.expectation_failures = sim.expectation_failures;
  options.events = &events;
  return plot_svg(*loaded.load.scenario, traces, diff ? diff->first : std::nullopt, options);
}

/// Writes the picture, or hands it back for stdout; then says what was drawn.
PlotResult deliver(const std::string& svg, const LoadedScenario& loaded, const SimulationResult& sim,
                   const std::optional<DiffResult>& diff, const PlotRequest& request) {
  PlotResult result;
  const bool to_stdout = request.out == "-";
  if (to_stdout) {
    result.svg = svg;
  } else if (const Status apart = not_an_input(request.out, {request.scenario, request.golden, request.against});
             !apart) {
    return refused(error_line(apart.error()));
  } else if (const Status written = write_file_atomic(request.out, svg); !written) {
    return refused(error_line("cannot write " + request.out + ": " + written.error()));
  }
  result.report = "plotted " + loaded.path + (to_stdout ? "" : " -> " + request.out) +
                  comparison_text(diff, reference_path(request)) + "\n" +
                  format_expectation_failures(loaded.path, sim.expectation_failures);
  const bool failed = (diff && !diff->equal) || !sim.expectation_failures.empty();
  result.exit_code = failed ? kExitFailure : kExitOk;
  return result;
}

}  // namespace

PlotResult plot_scenario_file(const PlotRequest& as_given) {
  const Expected<PlotRequest> with_file = with_project(as_given);
  if (!with_file) return refused(with_file.error());
  const PlotRequest& request = *with_file;
  const Expected<ToleranceLayers> layers =
      make_tolerance_layers(request.exact, request.tolerances, request.project_tolerances);
  if (!layers) return refused(error_line(layers.error()));
  const LoadedScenario loaded = load_scenario_keeping_bytes(request.scenario);
  if (!loaded.valid()) return refused(format_load_errors(loaded.load));
  const Expected<std::optional<Trajectory>> reference = read_reference(reference_path(request));
  if (!reference) return refused(reference.error());
  bool non_finite = false;
  RunEventRecorder recorder(*loaded.load.scenario);
  const Expected<SimulationResult> sim =
      simulate_with_metadata(loaded, request.fingerprint, recorder.options(), &non_finite);
  if (!sim) {
    PlotResult stopped = refused(error_line(sim.error()));
    if (non_finite) stopped.exit_code = kExitInternal;  // a NaN past the loader: a product bug
    return stopped;
  }

  std::optional<DiffResult> diff;
  const DiffRules rules = rules_for(default_diff_rules(), *layers, scenario_directory(loaded.path, request.scenario_root),
                                    loaded.load.scenario->tolerance);
  if (*reference) diff = diff_trajectories(**reference, sim->trajectory, rules);
  return deliver(picture(loaded, *sim, recorder.events(), *reference, diff, request), loaded, *sim, diff, request);
}

}  // namespace stepslide
