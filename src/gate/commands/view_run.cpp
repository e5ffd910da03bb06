#include "gate/commands/view_run.h"

#include <optional>

#include "base/file_io.h"
#include "base/format.h"
#include "gate/core/csv.h"
#include "gate/core/diff.h"
#include "gate/core/exit_code.h"
#include "gate/core/scenario_file.h"
#include "gate/view/view.h"
#include "scenario/load/load.h"
#include "scenario/trajectory.h"

namespace stepslide {

namespace {

ViewFileResult invalid(const std::string& message) {
  ViewFileResult result;
  result.err = "error: " + message + "\n";
  result.exit_code = kExitInvalid;
  return result;
}

/// The first difference in one line.
std::string difference(const DiffResult& diff) {
  if (!diff.first) return diff.structural.empty() ? "" : diff.structural.front();
  const Divergence& d = *diff.first;
  return "first divergence at tick " + format_number(d.tick) + ", column " + d.column + ": expected " +
         (d.expected.empty() ? "(no row)" : d.expected) + ", got " + (d.actual.empty() ? "(no row)" : d.actual);
}

ViewFileResult view_file(const ViewFileRequest& args) {
  const LoadResult loaded = load_scenario_file(args.scenario);
  if (!loaded.scenario) {
    ViewFileResult result;
    for (const LoadError& e : loaded.errors) result.err += format_error(e) + "\n";
    result.exit_code = kExitInvalid;
    return result;
  }
  const Scenario& scenario = *loaded.scenario;
  ViewRequest request;
  request.scenario = &scenario;
  request.trace = args.trace;
  if (!args.ticks.empty()) {
    const auto range = parse_tick_range(args.ticks, scenario.ticks);
    if (!range) return invalid(range.error());
    request.first_tick = range->first;
    request.last_tick = range->second;
  }
  const std::string& reference_path = args.golden.empty() ? args.other : args.golden;
  std::optional<Trajectory> reference;
  if (!reference_path.empty()) {
    Expected<Trajectory> read = read_trajectory_file(reference_path);
    if (!read) return invalid(read.error());
    reference = read.take();
    request.reference = &*reference;
    request.reference_label = reference_path;
    request.reference_is_golden = !args.golden.empty();
  }
  const Expected<ViewResult> view = view_html(request);
  if (!view) return invalid(view.error());

  ViewFileResult result;
  const std::string out = args.out.empty() ? view_file_name(scenario.name) : args.out;
  const bool to_stdout = out == "-";
  if (to_stdout) {
    result.out = view->html;
  } else if (const Status apart = not_an_input(out, {args.scenario, args.golden, args.other}); !apart) {
    return invalid(apart.error());
  } else if (const Status written = write_file_atomic(out, view->html); !written) {
    return invalid("cannot write " + out + ": " + written.error());
  }
  std::string summary = "viewed " + args.scenario + (to_stdout ? "" : " -> " + out) + " (" +
                        std::to_string(view->html.size()) + " bytes)";
  const bool differs = view->diff && !view->diff->equal;
  if (view->diff && !differs) summary += "; matches " + reference_path;
  if (differs) summary += "; differs from " + reference_path + ": " + difference(*view->diff);
  summary += "\n" + format_expectation_failures(args.scenario, view->expectation_failures);
  (to_stdout ? result.err : result.out) += summary;
  result.exit_code = differs || !view->expectation_failures.empty() ? kExitFailure : kExitOk;
  return result;
}

}  // namespace

ViewFileResult view_scenario_file(const ViewFileRequest& request) {
  if (!request.golden.empty() && !request.other.empty()) return invalid("--golden and --other exclude each other");
  try {
    return view_file(request);
  } catch (const std::exception& e) {
    return invalid(request.scenario + ": " + e.what());
  }
}

}  // namespace stepslide
