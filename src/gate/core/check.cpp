#include "gate/core/check.h"

#include <chrono>
#include <exception>
#include <filesystem>
#include <system_error>

#include "gate/core/command_hint.h"
#include "gate/core/csv.h"
#include "gate/core/diff_report.h"
#include "gate/core/discovery.h"
#include "gate/core/metadata.h"
#include "gate/core/run_hash.h"
#include "gate/core/scenario_file.h"
#include "gate/core/text.h"

namespace stepslide {

namespace {

namespace fs = std::filesystem;

Roots roots_of(const GateOptions& options) { return Roots{options.scenario_root, options.golden_dir}; }

/// The command that blesses `scenario` into the same golden this check used.
std::string bless_command(const std::string& scenario, const GateOptions& options) {
  return command_hint("bless", roots_of(options), {scenario});
}

CheckOutcome invalid_outcome(CheckOutcome outcome, const std::string& headline, const std::string& details) {
  outcome.verdict = Verdict::Invalid;
  outcome.summary = headline;
  outcome.report = "FAIL " + outcome.name + ": " + headline + "\n" + ensure_newline(details);
  return outcome;
}

/// The golden, or the headline of an Invalid outcome: a file that cannot be
/// read is worded apart from one that is not a trajectory (a merge conflict).
Expected<Trajectory> read_golden(const std::string& golden) {
  Expected<StoredTrajectory> stored = read_stored_trajectory(golden);
  if (!stored) return Expected<Trajectory>::failure("cannot read golden " + golden + ": " + stored.error());
  if (!stored->table) {
    return Expected<Trajectory>::failure(golden + ": " + stored->table.error() + " (not a trajectory file)");
  }
  // A NaN golden would fail every diff; said here once, with its place.
  const Status finite = check_finite_cells(*stored->table, "a golden never holds a non-finite value; re-bless it");
  if (!finite) return Expected<Trajectory>::failure(golden + ": " + finite.error());
  return stored->table.take();
}

/// What one check saw, passed around while judging it.
struct Run {
  const Scenario& scenario;
  const SimulationResult& sim;
  const GateOptions& options;
};

/// Keeps what a failed check saw, when a report is going to draw it.
void keep_detail(CheckOutcome* outcome, const Run& run, const Trajectory* golden, const DiffResult& diff) {
  if (!run.options.keep_failure_detail) return;
  auto detail = std::make_shared<FailureDetail>();
  detail->scenario = run.scenario;
  detail->actual = run.sim.trajectory;
  if (golden) detail->golden = *golden;
  detail->diff = diff;
  detail->expectation_failures = run.sim.expectation_failures;
  outcome->detail = std::move(detail);
}

void judge_missing_golden(CheckOutcome* outcome, const Run& run) {
  const std::string& path = outcome->scenario;
  const std::string missing =
      "missing golden " + outcome->golden + " (run `" + bless_command(path, run.options) + "`)";
  outcome->verdict = Verdict::Fail;
  outcome->summary = missing;
  outcome->report =
      "FAIL " + path + ": " + missing + "\n" + format_expectation_failures(path, run.sim.expectation_failures);
  keep_detail(outcome, run, nullptr, DiffResult{});
}

/// "FAIL path: trajectory differs from golden G; 2 expectations failed\n"
std::string fail_line(const std::string& path, const std::string& golden, bool differs, std::size_t failed) {
  std::vector<std::string> problems;
  if (differs) problems.push_back("trajectory differs from golden " + golden);
  if (failed > 0) problems.push_back(plural(failed, "expectation") + " failed");
  return "FAIL " + path + ": " + problems.front() + (problems.size() > 1 ? "; " + problems[1] : "") + "\n";
}

/// The notes, the diff report and, when only the trajectory moved, how to
/// bless the change.
std::string divergence_text(const std::string& path, const Trajectory& golden, const DiffResult& diff,
                            const Run& run) {
  std::string text = build_change_note(golden, run.options.fingerprint);
  text += scenario_change_note(golden, run.sim.trajectory);
  text += ensure_newline(format_diff_report(diff, golden, run.sim.trajectory, run.options.context_rows));
  // With a pending result written, its line says how to take the change.
  if (run.sim.expectation_failures.empty() && run.options.pending == PendingAction::None) {
    text += "hint: if this change is intended, run `" + bless_command(path, run.options) + "`\n";
  }
  return text;
}

void judge_against(CheckOutcome* outcome, const Trajectory& golden, const Run& run) {
  const std::string& path = outcome->scenario;
  const std::vector<ExpectationFailure>& failed = run.sim.expectation_failures;
  const DiffRules rules = rules_for(run.options.rules, run.options.tolerances,
                                    scenario_directory(path, run.options.scenario_root), run.scenario.tolerance);
  const DiffResult diff = diff_trajectories(golden, run.sim.trajectory, rules);
  if (diff.equal && failed.empty()) {
    outcome->verdict = Verdict::Pass;
    outcome->report = "PASS " + path + "\n";
    return;
  }
  std::string report = fail_line(path, outcome->golden, !diff.equal, failed.size());
  if (!diff.equal) report += divergence_text(path, golden, diff, run);
  report += format_expectation_failures(path, failed);
  outcome->verdict = Verdict::Fail;
  outcome->summary = diff.equal ? format_expectation_failure(failed.front()) : diff_summary(diff);
  outcome->report = report;
  keep_detail(outcome, run, &golden, diff);
}

/// Fills in a check of a scenario that has loaded and simulated: against its
/// golden, or as missing one.
void judge(CheckOutcome* outcome, const Run& run) {
  std::error_code ec;
  if (!fs::exists(outcome->golden, ec)) return judge_missing_golden(outcome, run);
  const Expected<Trajectory> golden = read_golden(outcome->golden);
  if (!golden) {
    *outcome = invalid_outcome(*outcome, golden.error(), "");
    return;
  }
  outcome->golden_build = metadata_value(*golden, "build").value_or("");
  judge_against(outcome, *golden, run);
}

/// A scenario outside the scenario root has no golden: say which roots
/// would give it one, since a golden named after the file alone would be an
/// orphan of the project's golden root.
void judge_outside_root(CheckOutcome* outcome, const Run& run) {
  const std::string& path = outcome->scenario;
  const Roots own = roots_of_their_own(path, roots_of(run.options));
  const std::string headline = "outside the scenario root '" + run.options.scenario_root + "', so no golden maps to it";
  outcome->verdict = Verdict::Fail;
  outcome->summary = headline;
  outcome->report = "FAIL " + path + ": " + headline + "\nhint: give it roots of its own: `" +
                    command_hint("bless", own, {path}) + "`, then `" + command_hint("check", own, {path}) +
                    "`; or move it under " + run.options.scenario_root + "/\n" +
                    format_expectation_failures(path, run.sim.expectation_failures);
}

/// Writes (or removes) the scenario's pending result as the update mode says:
/// the run's trajectory when only the golden stands against it, and never a
/// run its own expectations reject.
void settle_pending(CheckOutcome* outcome, const Run& run) {
  const PendingAction action = run.options.pending;
  if (action == PendingAction::None || outcome->golden.empty()) return;
  const bool recordable = outcome->verdict != Verdict::Pass && run.sim.expectation_failures.empty();
  if (!recordable) return drop_pending(outcome->golden);
  const Recorded recorded = record_result(action, outcome->golden, to_csv(run.sim.trajectory), roots_of(run.options));
  outcome->report += recorded.line;
  outcome->pending = recorded.pending;
  outcome->write_failed = recorded.failed;
}

/// A check of another controller than ours: its scenario's expectations only,
/// since goldens record ours.
void judge_expectations_only(CheckOutcome* outcome, const SimulationResult& sim, ControllerKind controller) {
  const std::string& path = outcome->scenario;
  const std::vector<ExpectationFailure>& failed = sim.expectation_failures;
  const std::string mode = std::string("controller ") + controller_name(controller) + ", expectations only";
  if (failed.empty()) {
    outcome->verdict = Verdict::Pass;
    outcome->report = "PASS " + path + " (" + mode + ")\n";
    return;
  }
  outcome->verdict = Verdict::Fail;
  outcome->summary = format_expectation_failure(failed.front());
  outcome->report = "FAIL " + path + ": " + plural(failed.size(), "expectation") + " failed (" + mode + ")\n" +
                    format_expectation_failures(path, failed);
}

void check_into(CheckOutcome* outcome, const GateOptions& options) {
  const LoadedScenario loaded = load_scenario_keeping_bytes(outcome->scenario);
  if (!loaded.valid()) {
    const std::string first = loaded.load.errors.empty() ? "invalid" : format_error(loaded.load.errors.front());
    *outcome = invalid_outcome(*outcome, "invalid scenario", format_load_errors(loaded.load));
    outcome->summary = first;
    return;
  }
  SimulationOptions simulation;
  simulation.controller = options.controller;
  bool non_finite = false;
  const Expected<SimulationResult> sim = simulate_with_metadata(loaded, options.fingerprint, simulation, &non_finite);
  if (!sim) {
    *outcome = invalid_outcome(*outcome, sim.error(), "");
    outcome->internal_error = non_finite;
    return;
  }
  if (options.hash) outcome->hash = trajectory_hash(sim->trajectory);
  if (options.controller != ControllerKind::Stepslide) {
    judge_expectations_only(outcome, *sim, options.controller);
    return;
  }
  const Run run{*loaded.load.scenario, *sim, options};
  if (outcome->golden.empty()) return judge_outside_root(outcome, run);
  judge(outcome, run);
  settle_pending(outcome, run);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

CheckOutcome check_scenario(const std::string& scenario, const GateOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  CheckOutcome outcome;
  outcome.name = scenario;
  outcome.scenario = scenario;
  try {
    outcome.golden = golden_path_for(scenario, options.scenario_root, options.golden_dir).value_or("");
    check_into(&outcome, options);
  } catch (const std::exception& e) {
    outcome = invalid_outcome(outcome, std::string("internal error: ") + e.what(), "");
  }
  outcome.seconds = seconds_since(start);
  return outcome;
}

CheckOutcome orphan_outcome(const std::string& golden, const GateOptions& options) {
  CheckOutcome outcome;
  outcome.name = golden;
  outcome.golden = golden;
  outcome.verdict = Verdict::Fail;
  const std::optional<std::string> scenario = scenario_path_for(golden, options.scenario_root, options.golden_dir);
  const std::string expected_scenario = scenario ? " (expected " + *scenario + ")" : "";
  outcome.summary = "orphan golden: no scenario maps to it" + expected_scenario;
  outcome.report = "FAIL " + golden + ": " + outcome.summary + "; delete it or restore its scenario\n";
  return outcome;
}

}  // namespace stepslide
