#include "view_command.h"

#include <iostream>
#include <optional>

#include "base/file_io.h"
#include "base/format.h"
#include "gate/gate.h"
#include "gate/view.h"
#include "scenario/load.h"
#include "scenario/trajectory.h"

namespace stepslide::cli {

namespace {

int view_error(const std::string& message) {
  std::cerr << "error: " << message << "\n";
  return kExitInvalid;
}

/// The first difference in one line.
std::string difference(const DiffResult& diff) {
  if (!diff.first) return diff.structural.empty() ? "" : diff.structural.front();
  const Divergence& d = *diff.first;
  return "first divergence at tick " + format_number(d.tick) + ", column " + d.column + ": expected " +
         (d.expected.empty() ? "(no row)" : d.expected) + ", got " + (d.actual.empty() ? "(no row)" : d.actual);
}

}  // namespace

CLI::App* add_view(CLI::App& app, ViewArgs& args) {
  CLI::App* view = app.add_subcommand("view", "Replay a run in 3D: one self-contained HTML page (three.js inlined).");
  view->add_option("SCENARIO", args.scenario, "the scenario file")->required();
  CLI::Option* golden =
      view->add_option("--golden", args.golden, "also show this golden trajectory as a ghost and mark the first tick "
                                                "where the run differs from it (the gate's default tolerances)");
  view->add_option("--other", args.other, "like --golden, for any other trajectory CSV (e.g. another build's)")
      ->excludes(golden);
  view->add_option("--out", args.out, "the page to write (default: <scenario name>.view.html); '-' is stdout");
  view->add_option("--ticks", args.ticks, "only ticks A..B, e.g. 100..200 (default: every tick)")->type_name("A..B");
  view->add_flag("--trace", args.trace,
                 "also record every query of the ticks shown and draw the tick's queries in the scene, listed in "
                 "the words of `stepslide trace` (a larger page: narrow it with --ticks)");
  view->footer(
      "The page shows the level in 3D (moving bodies at their pose for the tick shown), the character's shape, its "
      "path coloured grounded / airborne / stepping, the reference's path and shape as a ghost and the first "
      "divergence; a timeline (play, speed, arrow keys, slider) whose tick is in the URL (view.html#tick=120); an "
      "orbit camera with top and side views that can follow the character; and the tick's trajectory row and step "
      "events. three.js and OrbitControls are read from Debian's libjs-three (/usr/share/javascript/three, or "
      "STEPSLIDE_THREE_DIR) and inlined: the page loads nothing else. Written atomically; nothing is written when "
      "an input is wrong.\n"
      "Exit codes: 0 success; 1 the page was written but the run differs from the reference or fails an "
      "expectation; 2 invalid input or usage (a trajectory that is not a run of the scenario, libjs-three "
      "missing).");
  return view;
}

int view_command(const ViewArgs& args) {
  const LoadResult loaded = load_scenario_file(args.scenario);
  if (!loaded.scenario) {
    for (const LoadError& e : loaded.errors) std::cerr << format_error(e) << "\n";
    return kExitInvalid;
  }
  const Scenario& scenario = *loaded.scenario;
  ViewRequest request;
  request.scenario = &scenario;
  request.trace = args.trace;
  if (!args.ticks.empty()) {
    const auto range = parse_tick_range(args.ticks, scenario.ticks);
    if (!range) return view_error(range.error());
    request.first_tick = range->first;
    request.last_tick = range->second;
  }
  const std::string& reference_path = args.golden.empty() ? args.other : args.golden;
  std::optional<Trajectory> reference;
  if (!reference_path.empty()) {
    const Expected<std::string> text = read_file(reference_path);
    std::string error = text.error();
    if (text) reference = parse_csv(*text, &error);
    if (!reference) return view_error(reference_path + ": " + error);
    request.reference = &*reference;
    request.reference_label = reference_path;
    request.reference_is_golden = !args.golden.empty();
  }
  const Expected<ViewResult> view = view_html(request);
  if (!view) return view_error(view.error());

  const std::string out = args.out.empty() ? view_file_name(scenario.name) : args.out;
  const bool to_stdout = out == "-";
  if (to_stdout) {
    std::cout << view->html << std::flush;
  } else if (const Status written = write_file_atomic(out, view->html); !written) {
    return view_error("cannot write " + out + ": " + written.error());
  }
  std::ostream& report = to_stdout ? std::cerr : std::cout;
  report << "viewed " << args.scenario << (to_stdout ? "" : " -> " + out) << " (" << view->html.size() << " bytes)";
  const bool differs = view->diff && !view->diff->equal;
  if (view->diff && !differs) report << "; matches " << reference_path;
  if (differs) report << "; differs from " << reference_path << ": " << difference(*view->diff);
  report << "\n" << format_expectation_failures(args.scenario, view->expectation_failures) << std::flush;
  return differs || !view->expectation_failures.empty() ? kExitFailure : kExitOk;
}

}  // namespace stepslide::cli
