#include "gate/commands/check_run.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <system_error>

#include "base/file_io.h"
#include "base/format.h"
#include "gate/commands/project_settings.h"
#include "gate/commands/report.h"
#include "gate/core/check_scenarios.h"
#include "gate/core/command_hint.h"
#include "gate/core/command_inputs.h"
#include "gate/core/discovery.h"
#include "gate/core/filter.h"
#include "gate/core/pending.h"
#include "gate/core/run_hash.h"
#include "gate/core/stale_temps.h"
#include "gate/core/text.h"
#include "gate/core/tolerances.h"
#include "gate/view/view.h"

namespace stepslide {

namespace {

namespace fs = std::filesystem;

/// What a request comes to once its options are read: how to check, and what.
struct CheckPlan {
  GateOptions options;
  Shard shard;
  ChosenScenarios chosen;
  std::vector<std::string> mine;   ///< this shard's share of the scenarios the filters keep
};

Expected<CheckPlan> refuse(const std::string& text) { return Expected<CheckPlan>::failure(text); }

/// Touches the shard status file; a failure is only worth a warning.
void touch_status_file(const Shard& shard, const CheckListener& listener) {
  const Status touched = touch_shard_status_file(shard);
  if (!touched && listener.on_warning) {
    listener.on_warning("warning: cannot create the shard status file " + touched.error() + "\n");
  }
}

/// Temporaries an interrupted bless left in the golden root: a warning, not a
/// failure, since every golden itself is whole (docs/format.md §3.1).
void warn_stale_temporaries(const std::string& golden_dir, const CheckListener& listener) {
  const std::string warning = stale_temporaries_warning(golden_dir);
  if (!warning.empty() && listener.on_warning) listener.on_warning(warning);
}

/// Why --perturb cannot run as asked; "" when it can.
std::string perturb_option_problem(const CheckRequest& request, ControllerKind controller) {
  if (request.perturb < 0) return "--perturb " + std::to_string(request.perturb) + ": expected 1 or more runs";
  if (!(request.perturb_size > 0.0 && request.perturb_size <= 1.0)) {
    return "--perturb-size " + readable_number(request.perturb_size) + ": expected metres in (0, 1]";
  }
  if (request.perturb == 0) return "";
  // Every perturbed run moves the spawn point, so under --exact every scenario would be fragile.
  if (request.exact) return "--perturb compares perturbed runs under the tolerances; --exact makes every one fail";
  if (controller != ControllerKind::Stepslide) return "--perturb measures stepslide's controller only";
  return "";
}

/// Reads the options in the order the CLI always has, so the first problem
/// reported stays the same one.
Expected<CheckPlan> plan_check(const CheckRequest& request) {
  CheckPlan plan;
  Expected<ToleranceLayers> tolerances =
      make_tolerance_layers(request.exact, request.tolerances, request.project_tolerances);
  if (!tolerances) return refuse(error_line(tolerances.error()));
  if (request.jobs < 0) return refuse(error_line("-j " + std::to_string(request.jobs) + ": expected 0 (one per core) or more"));
  const Expected<ControllerKind> controller = controller_option(request.controller);
  if (!controller) return refuse(controller.error());
  const std::string perturb_problem = perturb_option_problem(request, *controller);
  if (!perturb_problem.empty()) return refuse(error_line(perturb_problem));
  Expected<Shard> shard = shard_from_env(request.env);
  if (!shard) return refuse(error_line(shard.error()));
  touch_status_file(*shard, request.listener);
  const Expected<PendingAction> pending = pending_action(request.update, request.force, request.env);
  if (!pending) return refuse(pending.error());
  Expected<ChosenScenarios> chosen = choose_scenarios(request.paths, request.scenario_root, request.filters);
  if (!chosen) return refuse(chosen.error());
  if (!chosen->warnings.empty() && request.listener.on_warning) request.listener.on_warning(chosen->warnings);

  plan.options.scenario_root = request.scenario_root;
  plan.options.golden_dir = request.golden_dir;
  plan.options.tolerances = tolerances.take();
  plan.options.fingerprint = request.fingerprint;
  plan.options.controller = *controller;
  plan.options.keep_failure_detail = !request.report_dir.empty();
  plan.options.hash = request.hash;
  // Only our controller's runs have goldens to stand in for.
  plan.options.pending = *controller == ControllerKind::Stepslide ? *pending : PendingAction::None;
  plan.shard = shard.take();
  plan.chosen = chosen.take();
  plan.mine = select_shard(plan.chosen.kept, plan.shard);
  return plan;
}

/// Orphans are only knowable among the goldens of folders whose every
/// scenario was seen (so not in a shard), and only matter when goldens are
/// compared.
bool orphans_count(const CheckPlan& plan) {
  return !plan.shard.active() && plan.options.controller == ControllerKind::Stepslide;
}

void add_orphans(const CheckRequest& request, const CheckPlan& plan, const CheckListener& listener,
                 std::vector<CheckOutcome>& outcomes) {
  const GateOptions& options = plan.options;
  for (const std::string& golden :
       selected_orphan_goldens(request.paths, plan.chosen.found, options.scenario_root, options.golden_dir,
                               plan.chosen.filter)) {
    outcomes.push_back(orphan_outcome(golden, options));
    if (listener.on_outcome) listener.on_outcome(outcomes.back());
  }
}

/// Writes DIR/index.html into `run`, or says why not.
void write_report(const std::string& dir, CheckRun& run) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  const std::string page = (fs::path(dir) / "index.html").lexically_normal().generic_string();
  ReportOptions options;
  const ViewPages views = ec ? ViewPages{} : write_view_pages(dir, run.outcomes);
  options.view_pages = views.files;
  options.view_note = views.error;
  if (!views.error.empty()) run.report_warning = "warning: report without 3D views: " + views.error + "\n";
  const std::string error = ec ? ec.message() : write_file_atomic(page, report_html(run.outcomes, options)).error();
  if (error.empty()) {
    run.report_page = page;
  } else {
    run.report_error = error_line("cannot write " + page + ": " + error);
  }
}

/// One hash line per scenario checked (orphan goldens have no run), then the
/// suite's.
std::string hash_block(const std::vector<CheckOutcome>& outcomes, const std::string& scenario_root) {
  std::vector<NamedHash> hashes;
  for (const CheckOutcome& o : outcomes) {
    if (!o.scenario.empty()) hashes.push_back({hash_name(o.scenario, scenario_root), o.hash});
  }
  std::string text;
  for (const NamedHash& h : hashes) text += hash_line(h);
  return text + suite_hash_line(hashes);
}

/// With --perturb, one testcase per perturbed scenario (classname
/// stepslide.perturb), failed when it is fragile and not declared chaotic.
void add_perturb_cases(const std::vector<PerturbOutcome>& outcomes, std::vector<JUnitCase>& cases) {
  for (const PerturbOutcome& o : outcomes) {
    JUnitCase c;
    c.name = o.scenario;
    c.classname = "stepslide.perturb";
    c.failed = o.fails();
    if (c.failed) {
      c.failure_message = "fragile: " + std::to_string(o.fragile_runs) + " of " + std::to_string(o.runs) +
                          " perturbed runs leave the tolerances";
      c.failure_text = o.report;
    }
    cases.push_back(std::move(c));
  }
}

void write_junit(const std::string& path, CheckRun& run) {
  std::vector<JUnitCase> cases = junit_cases(run.outcomes);
  add_perturb_cases(run.perturb, cases);
  const Status written = write_file_atomic(path, junit_xml("stepslide check", cases));
  if (!written) run.junit_error = error_line("cannot write " + path + ": " + written.error());
}

std::vector<std::string> golden_builds(const std::vector<CheckOutcome>& outcomes) {
  std::vector<std::string> builds;
  for (const CheckOutcome& o : outcomes) builds.push_back(o.golden_build);
  return builds;
}

PerturbOptions perturb_options(const CheckRequest& request, const GateOptions& gate) {
  PerturbOptions options;
  options.runs = request.perturb;
  options.size = request.perturb_size;
  options.jobs = request.jobs;
  options.scenario_root = gate.scenario_root;
  options.rules = gate.rules;
  options.tolerances = gate.tolerances;
  return options;
}

bool any_fragile(const std::vector<PerturbOutcome>& outcomes) {
  return std::any_of(outcomes.begin(), outcomes.end(), [](const PerturbOutcome& o) { return o.fails(); });
}

bool any_nondeterministic(const std::vector<SelfCheckOutcome>& outcomes) {
  return std::any_of(outcomes.begin(), outcomes.end(), [](const SelfCheckOutcome& o) { return !o.deterministic; });
}

/// The exit code once everything has run: an unwritable file is invalid use;
/// nondeterminism fails a run that otherwise passed.
int final_exit_code(const CheckRun& run) {
  int code = run.report_error.empty() ? exit_code_for(run.outcomes) : kExitInvalid;
  if (any_nondeterministic(run.self_check) && code == kExitOk) code = kExitFailure;
  if (any_fragile(run.perturb) && code == kExitOk) code = kExitFailure;
  return run.junit_error.empty() ? code : kExitInvalid;
}

/// Run from another folder, a check names its scenarios by paths outside the
/// scenario root it was given by default. When they all lie in one project —
/// under a folder named like the scenario root, with a golden root beside it
/// that exists — they are checked against that project's goldens, as from
/// its folder, instead of being called outside (and re-blessed).
CheckRequest with_roots_found(CheckRequest request) {
  namespace fs = std::filesystem;
  const ProjectGiven& given = request.project.given;
  if (given.scenario_root || given.golden_dir || request.paths.empty()) return request;
  std::optional<Roots> found;
  for (const std::string& path : request.paths) {
    if (is_inside(path, request.scenario_root)) return request;
    const Roots own = roots_of_their_own(path, {request.scenario_root, request.golden_dir});
    std::error_code ec;
    if (fs::path(own.scenario_root).filename() != fs::path(request.scenario_root).filename() ||
        !fs::is_directory(own.golden_dir, ec)) {
      return request;
    }
    if (found && (found->scenario_root != own.scenario_root || found->golden_dir != own.golden_dir)) return request;
    found = own;
  }
  request.scenario_root = found->scenario_root;
  request.golden_dir = found->golden_dir;
  return request;
}

}  // namespace

CheckRun run_check(const CheckRequest& as_given) {
  CheckRun run;
  const Expected<CheckRequest> with_file = with_project(as_given);
  const Expected<CheckRequest> with_roots =
      with_file ? Expected<CheckRequest>(with_roots_found(*with_file)) : with_file;
  const Expected<CheckPlan> plan = with_roots ? plan_check(*with_roots) : refuse(with_roots.error());
  if (!plan) {
    run.errors = plan.error();
    run.exit_code = kExitInvalid;
    return run;
  }
  const CheckRequest& request = *with_roots;
  const CheckListener& listener = request.listener;
  if (listener.on_start) listener.on_start(plan->mine);
  run.outcomes = check_scenarios(plan->mine, plan->options, request.jobs, listener.on_outcome);
  if (orphans_count(*plan)) add_orphans(request, *plan, listener, run.outcomes);
  run.build_note = build_difference_note(golden_builds(run.outcomes), request.fingerprint);
  if (request.hash) run.hashes = hash_block(run.outcomes, plan->options.scenario_root);
  warn_stale_temporaries(plan->options.golden_dir, listener);
  if (!request.report_dir.empty()) write_report(request.report_dir, run);
  // --self-check: nondeterminism is reported apart from regressions.
  run.self_checked = request.self_check;
  if (request.self_check) run.self_check = self_check(plan->mine);
  // --perturb: fragility is reported apart from regressions, like the self-check.
  run.perturbed = request.perturb > 0;
  if (run.perturbed) {
    const PerturbOptions options = perturb_options(request, plan->options);
    run.perturb = perturb_scenarios(plan->mine, options);
    run.perturb_summary = perturb_summary(run.perturb, options);
  }
  if (!request.junit.empty()) write_junit(request.junit, run);
  run.exit_code = final_exit_code(run);
  return run;
}

std::string closing_line(const std::vector<CheckOutcome>& outcomes) {
  const auto passed = std::count_if(outcomes.begin(), outcomes.end(),
                                    [](const CheckOutcome& o) { return o.verdict == Verdict::Pass; });
  const auto failed = static_cast<std::ptrdiff_t>(outcomes.size()) - passed;
  return std::to_string(passed) + " passed, " + std::to_string(failed) + " failed";
}

int exit_code_for(const std::vector<CheckOutcome>& outcomes) {
  int code = kExitOk;
  for (const CheckOutcome& outcome : outcomes) {
    if (outcome.internal_error) return kExitInternal;
  }
  for (const CheckOutcome& outcome : outcomes) {
    if (outcome.verdict == Verdict::Invalid || outcome.write_failed) return kExitInvalid;
    if (outcome.verdict == Verdict::Fail) code = kExitFailure;
  }
  return code;
}

std::vector<JUnitCase> junit_cases(const std::vector<CheckOutcome>& outcomes) {
  std::vector<JUnitCase> cases;
  for (const CheckOutcome& outcome : outcomes) {
    JUnitCase c;
    c.name = outcome.name;
    c.classname = outcome.scenario.empty() ? "stepslide.golden" : "stepslide.scenario";
    c.time_seconds = outcome.seconds;
    c.failed = outcome.verdict != Verdict::Pass;
    if (c.failed) {
      c.failure_message = outcome.summary;
      c.failure_text = outcome.report;
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace stepslide
