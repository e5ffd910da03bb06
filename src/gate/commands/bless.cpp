#include "gate/commands/bless.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <system_error>

#include "base/file_io.h"
#include "gate/commands/project_settings.h"
#include "gate/core/ci.h"
#include "gate/core/command_hint.h"
#include "gate/core/command_inputs.h"
#include "gate/core/csv.h"
#include "gate/core/diff_report.h"
#include "gate/core/discovery.h"
#include "gate/core/filter.h"
#include "gate/core/pending.h"
#include "gate/core/stale_temps.h"
#include "gate/core/text.h"
#include "gate/core/tolerances.h"

namespace stepslide {

namespace {

/// How new golden text compares with the file there now, in words.
struct Change {
  GoldenChange kind;
  std::string detail;  ///< "new", "changed: <first difference>", ...; "" when unchanged
};

Change compare_with_golden(const std::string& golden, const std::string& text, const Trajectory& trajectory) {
  std::error_code ec;
  if (!std::filesystem::exists(golden, ec)) return {GoldenChange::New, "new"};
  const Expected<StoredTrajectory> old = read_stored_trajectory(golden);
  if (old && old->bytes == text) return {GoldenChange::Unchanged, ""};
  if (!old || !old->table) return {GoldenChange::Changed, "changed: the old file was unreadable"};
  // Any change at all is reported, however small.
  const DiffResult diff = diff_trajectories(*old->table, trajectory, exact_diff_rules());
  if (diff.equal) return {GoldenChange::MetadataOnly, "metadata only: same trajectory"};
  return {GoldenChange::Changed, "changed: " + diff_summary(diff)};
}

BlessOutcome refused(BlessOutcome outcome, const LoadedScenario& loaded,
                     const std::vector<ExpectationFailure>& failures) {
  outcome.verdict = Verdict::Fail;
  outcome.report = "not blessed " + outcome.golden + ": " + loaded.path + " fails " +
                   plural(failures.size(), "expectation") +
                   " (a golden must not record behaviour its own scenario rejects)\n" +
                   format_expectation_failures(loaded.path, failures);
  return outcome;
}

BlessOutcome invalid(BlessOutcome outcome, const std::string& report) {
  outcome.verdict = Verdict::Invalid;
  outcome.report = report;
  return outcome;
}

/// Writes `text` as the golden unless it is unchanged.
BlessOutcome write_golden(BlessOutcome outcome, const std::string& text, const Trajectory& trajectory) {
  const Status finite = check_finite_cells(trajectory, "a golden never records a non-finite value");
  if (!finite) return invalid(outcome, "not blessed " + outcome.golden + ": " + finite.error() + "\n");
  const Change change = compare_with_golden(outcome.golden, text, trajectory);
  outcome.change = change.kind;
  if (change.kind == GoldenChange::Unchanged) {
    drop_pending(outcome.golden);
    outcome.report = "blessed " + outcome.golden + " (unchanged)\n";
    return outcome;
  }
  const Status written = write_file_atomic(outcome.golden, text);
  if (!written) return invalid(outcome, "cannot write " + outcome.golden + ": " + written.error() + "\n");
  drop_pending(outcome.golden);  // the golden now holds this run
  outcome.report = "blessed " + outcome.golden + " (" + change.detail + ")\n";
  return outcome;
}

/// Refuses what must not be blessed, in the order the CLI always has.
Status check_request(const BlessRequest& request) {
  const Expected<ControllerKind> controller = controller_option(request.controller);
  if (!controller) return Status::failure(controller.error());
  if (*controller != ControllerKind::Stepslide) {
    const std::string name = controller_name(*controller);
    return Status::failure(error_line("bless --controller " + name +
                                      ": goldens record the stepslide controller only; use `check --controller " +
                                      name + "` to evaluate its expectations"));
  }
  if (running_in_ci(request.env) && !request.force) {
    return Status::failure(error_line("refusing to bless: the CI environment variable is set (" +
                                      ci_setting_text(request.env) +
                                      "); goldens are blessed by a person who has looked at the change, not by a "
                                      "CI job. Use --force to bless anyway."));
  }
  return Status();
}

/// True when `file` is `path` or lies below it.
bool named_by(const std::string& file, const std::string& path) {
  return normal_path(file) == normal_path(path) || is_inside(file, path);
}

/// The PATH arguments that brought in `outside` files, as advice: per set
/// of roots of their own, the bless command that would work.
std::string outside_advice(const BlessRequest& request, const std::vector<std::string>& outside) {
  const Roots current{request.scenario_root, request.golden_dir};
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> commands;
  std::string around;
  for (const std::string& path : request.paths) {
    if (std::none_of(outside.begin(), outside.end(), [&](const std::string& f) { return named_by(f, path); })) {
      continue;
    }
    if (holds_scenario_root(path, current)) {
      around += "  " + path + " holds the scenario root: name " + request.scenario_root +
                " or folders and files inside it instead\n";
      continue;
    }
    const Roots own = roots_of_their_own(path, current);
    commands[{own.scenario_root, own.golden_dir}].push_back(path);
  }
  std::string text;
  const bool one = outside.size() == 1;
  if (!commands.empty()) text += one ? "Bless it with roots of its own:\n" : "Bless them with roots of their own:\n";
  for (const auto& [roots, paths] : commands) {
    text += "  " + command_hint("bless", Roots{roots.first, roots.second}, paths) + "\n";
  }
  return text + around + (one ? "or move it under " : "or move them under ") + request.scenario_root + "/.\n";
}

/// Refuses scenarios outside the scenario root: they have no golden, and one
/// named after the file alone would be an orphan.
Status refuse_outside(const BlessRequest& request, const std::vector<std::string>& files) {
  std::vector<std::string> outside;
  for (const std::string& file : files) {
    if (!golden_path_for(file, request.scenario_root, request.golden_dir)) outside.push_back(file);
  }
  if (outside.empty()) return Status();
  constexpr std::size_t kListed = 5;
  std::string text = error_line(plural(outside.size(), "scenario") + " outside the scenario root '" +
                                request.scenario_root + "' (so no golden maps to " +
                                (outside.size() == 1 ? "it" : "them") + "); nothing was blessed:");
  for (std::size_t i = 0; i < outside.size() && i < kListed; ++i) text += "  " + outside[i] + "\n";
  if (outside.size() > kListed) text += "  and " + std::to_string(outside.size() - kListed) + " more\n";
  return Status::failure(text + outside_advice(request, outside));
}

/// The loaded scenarios to bless, and what was chosen.
struct BlessInputs {
  ChosenScenarios chosen;
  std::vector<LoadedScenario> loaded;  ///< what the filters kept
};

Expected<BlessInputs> bless_inputs(const BlessRequest& request) {
  using Result = Expected<BlessInputs>;
  if (const Status ok = check_request(request); !ok) return Result::failure(ok);
  Expected<ChosenScenarios> chosen = choose_scenarios(request.paths, request.scenario_root, request.filters);
  if (!chosen) return Result::failure(chosen.error());
  if (const Status inside = refuse_outside(request, chosen->kept); !inside) return Result::failure(inside);
  Expected<std::vector<LoadedScenario>> loaded = load_all(chosen->kept);
  if (!loaded) return Result::failure(loaded.error());
  return BlessInputs{chosen.take(), loaded.take()};
}

int worse(int code, const BlessOutcome& outcome) {
  if (outcome.internal_error || code == kExitInternal) return kExitInternal;
  const Verdict verdict = outcome.verdict;
  if (verdict == Verdict::Invalid) return kExitInvalid;
  if (verdict == Verdict::Fail && code == kExitOk) return kExitFailure;
  return code;
}

}  // namespace

BlessOutcome bless_scenario(const LoadedScenario& loaded, const GateOptions& options) {
  BlessOutcome outcome;
  const std::optional<std::string> golden = golden_path_for(loaded.path, options.scenario_root, options.golden_dir);
  if (!golden) {
    return invalid(outcome, error_line(loaded.path + " is outside the scenario root " + options.scenario_root +
                                       ", so no golden maps to it"));
  }
  outcome.golden = *golden;
  if (!loaded.valid()) return invalid(outcome, format_load_errors(loaded.load));
  bool non_finite = false;
  const Expected<SimulationResult> sim = simulate_with_metadata(loaded, options.fingerprint, {}, &non_finite);
  if (!sim) {
    outcome.internal_error = non_finite;
    return invalid(outcome, sim.error() + "\n");
  }
  if (!sim->expectation_failures.empty()) return refused(outcome, loaded, sim->expectation_failures);
  // Leftovers of an earlier, interrupted bless of this golden; the golden itself is whole.
  std::string removed;
  for (const std::string& stale : remove_stale_temporaries_of(outcome.golden)) {
    removed += "removed stale temporary " + stale + " (left by an interrupted write)\n";
  }
  BlessOutcome written = write_golden(outcome, to_csv(sim->trajectory), sim->trajectory);
  written.report = removed + written.report;
  return written;
}

BlessRun run_bless(const BlessRequest& as_given) {
  BlessRun run;
  const Expected<BlessRequest> with_file = with_project(as_given);
  const Expected<BlessInputs> inputs =
      with_file ? bless_inputs(*with_file) : Expected<BlessInputs>::failure(with_file.error());
  if (!inputs) {
    run.errors = inputs.error();
    run.exit_code = kExitInvalid;
    return run;
  }
  const BlessRequest& request = *with_file;
  run.warnings = inputs->chosen.warnings;
  GateOptions options;
  options.scenario_root = request.scenario_root;
  options.golden_dir = request.golden_dir;
  options.fingerprint = request.fingerprint;
  for (const LoadedScenario& scenario : inputs->loaded) {
    run.outcomes.push_back(bless_scenario(scenario, options));
    if (request.on_outcome) request.on_outcome(run.outcomes.back());
    run.exit_code = worse(run.exit_code, run.outcomes.back());
  }
  run.orphans = selected_orphan_goldens(request.paths, inputs->chosen.found, request.scenario_root,
                                        request.golden_dir, inputs->chosen.filter);
  return run;
}

std::string orphan_note(const std::string& golden) {
  return "note: " + golden + " has no scenario; `stepslide check` fails on it until it is deleted";
}

}  // namespace stepslide
