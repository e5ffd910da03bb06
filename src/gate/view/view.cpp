#include "gate/view/view.h"

#include "gate/plot/run_events.h"

#include <cctype>
#include <cmath>
#include <exception>

#include "base/format.h"
#include "gate/core/discovery.h"
#include "gate/trace/trace.h"
#include "gate/view/data.h"
#include "gate/view/page.h"
#include "scenario/load/world.h"

namespace stepslide {

namespace {

/// A whole non-negative decimal number, or -1.
std::int64_t whole_number(const std::string& text) {
  if (text.empty() || text.size() > 12) return -1;
  std::int64_t value = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

/// The run to show and how it came about.
struct ShownRun {
  Trajectory trajectory;
  std::vector<ExpectationFailure> expectation_failures;
  std::vector<nlohmann::ordered_json> trace;  ///< events of ticks trace_first..
  std::int64_t trace_first = 1;
  /// The character's shape height on each row, when simulated here and
  /// the scenario has a crouch_shape (gate/plot/run_events.h); else empty.
  std::vector<double> stance;
};

ShownRun shown_run(const ViewRequest& r, std::int64_t first, std::int64_t last) {
  ShownRun shown;
  RunEventRecorder stance(*r.scenario);
  if (r.trace) {
    // Tick N is the step that produced row N, so row 0 has no trace.
    shown.trace_first = std::max<std::int64_t>(first, 1);
    TraceRecording recording = record_trace(*r.scenario, shown.trace_first, last, true, stance.options({}, false));
    shown.trajectory = std::move(recording.result.trajectory);
    shown.expectation_failures = std::move(recording.result.expectation_failures);
    shown.trace = std::move(recording.events);
  } else if (r.run == nullptr) {
    SimulationResult result = simulate(*r.scenario, stance.options({}, false));
    shown.trajectory = std::move(result.trajectory);
    shown.expectation_failures = std::move(result.expectation_failures);
  } else {
    shown.trajectory = *r.run;
    if (r.expectation_failures != nullptr) shown.expectation_failures = *r.expectation_failures;
  }
  shown.stance = stance.events().height;
  return shown;
}

Expected<ViewResult> make_view(const ViewRequest& r, const view::ThreeJs& three) {
  const Scenario& scenario = *r.scenario;
  const std::int64_t first = r.first_tick, last = r.last_tick < 0 ? scenario.ticks : r.last_tick;
  if (first < 0 || first > last || last > scenario.ticks) {
    return Expected<ViewResult>::failure("ticks " + std::to_string(first) + ".." + std::to_string(last) +
                                         ": expected A..B with 0 <= A <= B <= " + std::to_string(scenario.ticks) +
                                         " (the ticks of " + scenario.name + ")");
  }
  if (r.reference != nullptr) {
    const Status fits = check_view_reference(scenario, *r.reference, r.reference_label);
    if (!fits) return Expected<ViewResult>::failure(fits);
  }
  const ShownRun run = shown_run(r, first, last);
  const std::string run_label = r.run != nullptr && !r.trace ? "this run" : "this run (simulated by this build)";
  const Status run_fits = check_view_reference(scenario, run.trajectory, run_label);
  if (!run_fits) return Expected<ViewResult>::failure(run_fits);

  ViewResult result;
  result.expectation_failures = run.expectation_failures;
  World world(scenario);
  view::ViewDocument document;
  document.scenario = &scenario;
  document.world = &world;
  document.runs.push_back({"this run", "run", &run.trajectory});
  if (r.reference != nullptr) {
    result.diff = diff_trajectories(*r.reference, run.trajectory, default_diff_rules());
    document.runs.push_back({(r.reference_is_golden ? "golden: " : "other: ") + r.reference_label,
                             r.reference_is_golden ? "golden" : "other", r.reference});
    document.divergence = result.diff->first;
    document.structural = result.diff->structural;
  }
  document.expectation_failures = run.expectation_failures;
  document.first = first;
  document.last = last;
  if (!run.stance.empty()) document.stance = &run.stance;
  if (r.trace) {
    document.trace = &run.trace;
    document.trace_first = run.trace_first;
  }
  result.html = view::page_html(view::view_document(document), three);
  return result;
}

}  // namespace

Status check_view_reference(const Scenario& scenario, const Trajectory& t, const std::string& label) {
  std::string missing;
  for (const char* column : {"x", "y", "z"}) {
    if (t.column_index(column) < 0) missing += (missing.empty() ? "" : ", ") + std::string(column);
  }
  if (!missing.empty()) return Status::failure(label + ": expected columns x, y and z, missing " + missing);
  const auto expected_rows = static_cast<std::size_t>(scenario.ticks) + 1;
  if (t.rows.size() != expected_rows) {
    return Status::failure(label + ": has " + std::to_string(t.rows.size()) + " rows, expected " +
                           std::to_string(expected_rows) + " (ticks 0.." + std::to_string(scenario.ticks) + " of " +
                           scenario.name + "): not a run of this scenario");
  }
  const int tick = t.column_index("tick"), time = t.column_index("time");
  const double time_tolerance = default_diff_rules().tolerance_for("time");
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const double row_tick = tick < 0 ? static_cast<double>(i) : t.rows[i][static_cast<std::size_t>(tick)];
    if (row_tick != static_cast<double>(i)) {
      return Status::failure(label + ": row " + std::to_string(i) + " has tick " + format_number(row_tick) +
                             ", expected " + std::to_string(i) + ": not a run of this scenario");
    }
    const double expected_time = static_cast<double>(i) / scenario.tick_rate;
    if (time >= 0 && !(std::fabs(t.rows[i][static_cast<std::size_t>(time)] - expected_time) <= time_tolerance)) {
      return Status::failure(label + ": tick " + std::to_string(i) + " is at time " +
                             format_number(t.rows[i][static_cast<std::size_t>(time)]) + " s, expected " +
                             format_number(expected_time) + " s (" + scenario.name + " runs at " +
                             std::to_string(scenario.tick_rate) + " ticks per second): not a run of this scenario");
    }
  }
  return Status();
}

Expected<std::pair<std::int64_t, std::int64_t>> parse_tick_range(const std::string& text, std::int64_t ticks) {
  using Range = std::pair<std::int64_t, std::int64_t>;
  const std::size_t dots = text.find("..");
  const std::int64_t a = dots == std::string::npos ? -1 : whole_number(text.substr(0, dots));
  const std::int64_t b = dots == std::string::npos ? -1 : whole_number(text.substr(dots + 2));
  if (a < 0 || b < 0 || a > b || b > ticks) {
    return Expected<Range>::failure("--ticks " + text + ": expected A..B with 0 <= A <= B <= " +
                                    std::to_string(ticks) + " (the scenario's ticks), e.g. 0.." +
                                    std::to_string(ticks));
  }
  return Range{a, b};
}

std::string view_file_name(const std::string& scenario_name) {
  std::string name = output_file_name(scenario_name);  // "<safe name>.csv"
  name.resize(name.size() - 4);
  return name + ".view.html";
}

Expected<ViewResult> view_html(const ViewRequest& request) {
  if (request.scenario == nullptr) return Expected<ViewResult>::failure("view_html: no scenario");
  try {
    if (request.three != nullptr) return make_view(request, *request.three);
    const Expected<view::ThreeJs> three = view::load_three_js();
    if (!three) return Expected<ViewResult>::failure(three.error());
    return make_view(request, *three);
  } catch (const std::exception& e) {
    return Expected<ViewResult>::failure(request.scenario->source_path + ": cannot draw the run: " + e.what());
  }
}

}  // namespace stepslide
