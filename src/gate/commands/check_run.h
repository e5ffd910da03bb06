// `stepslide check` as one library call: the policy around checking
// scenarios (which scenarios, sharding, orphans, the self-check, the HTML
// report, JUnit and the exit code), so the CLI only prints.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gate/commands/perturb.h"
#include "gate/commands/self_check.h"
#include "gate/core/check.h"
#include "gate/core/exit_code.h"
#include "gate/core/fingerprint.h"
#include "gate/core/junit.h"
#include "gate/core/project.h"
#include "gate/core/sharding.h"

namespace stepslide {

/// What run_check reports while it runs, so that output streams in input
/// order instead of arriving at the end. Every callback is optional.
struct CheckListener {
  /// Before the first check: the scenarios this shard checks, in order.
  std::function<void(const std::vector<std::string>& scenarios)> on_start;
  /// Each outcome as soon as it and every one before it are known:
  /// scenarios in input order, then orphan goldens.
  std::function<void(const CheckOutcome&)> on_outcome;
  /// A problem that does not stop the run, as stderr text, when it happens.
  std::function<void(const std::string& text)> on_warning;
};

/// The `check` command's options, as given on the command line.
struct CheckRequest {
  std::vector<std::string> paths;  ///< empty: the scenario root
  std::string scenario_root = "scenarios";
  std::string golden_dir = "golden";
  std::string junit;               ///< write a JUnit XML report here; "" for none
  int jobs = 1;                    ///< scenarios checked at once; 0: one per core
  std::vector<std::string> tolerances;  ///< --tol, in order
  bool exact = false;
  bool self_check = false;         ///< also run each scenario twice in this process
  bool hash = false;               ///< --hash: give each run's determinism hash and the suite's (run_hash.h)
  /// --perturb N: also run each scenario N more times, perturbed (perturb.h); 0: not at all.
  int perturb = 0;
  double perturb_size = kDefaultPerturbation;  ///< --perturb-size, metres
  std::string controller = "stepslide";  ///< bullet: expectations only, no goldens
  std::string report_dir;          ///< write DIR/index.html; "" for none
  std::vector<std::string> filters;  ///< --filter GLOB / -GLOB (filter.h)
  std::string update;              ///< --update MODE; "" for STEPSLIDE_UPDATE, else auto (pending.h)
  bool force = false;              ///< allow the update mode always in CI
  std::string fingerprint = build_fingerprint();
  /// The environment, for the sharding variables, CI and STEPSLIDE_UPDATE;
  /// none by default (so the update mode is auto, outside CI).
  EnvLookup env = [](const char*) -> const char* { return nullptr; };
  CheckListener listener;
  /// The project file to read (docs/format.md §4); its settings fill what the
  /// command line did not give, and its tolerances land in project_tolerances.
  ProjectUse project;
  ProjectTolerances project_tolerances;
};

/// What a check found, for the caller to print after the outcomes.
struct CheckRun {
  int exit_code = kExitOk;
  /// Why the check could not start (stderr text: a bad option, bad sharding
  /// variables, no scenarios); exit 2 and nothing else is set.
  std::string errors;
  std::vector<CheckOutcome> outcomes;  ///< scenarios in input order, then orphan goldens
  std::string report_page;   ///< the HTML page written for report_dir; "" when none was written
  std::string report_error;  ///< stderr text when the page could not be written
  std::string report_warning;  ///< stderr text when the 3D view pages (view.h) could not be written
  bool self_checked = false;
  std::vector<SelfCheckOutcome> self_check;  ///< with self_checked
  bool perturbed = false;                    ///< --perturb was given
  std::vector<PerturbOutcome> perturb;       ///< with perturbed, scenarios in input order
  std::string perturb_summary;               ///< with perturbed: perturb_summary()
  std::string junit_error;   ///< stderr text when the JUnit file could not be written
  /// Once per run, stderr text: the goldens written by another build and what
  /// differs (build_difference_note); "" when every golden matches this build.
  std::string build_note;
  /// With --hash, stdout text: one hash_line per scenario checked, in input
  /// order, then the suite_hash_line; "" otherwise.
  std::string hashes;
};

/// Checks the scenarios `request` names (and its filters keep) against their
/// goldens, writing pending results as the update mode says. Orphan goldens
/// fail when unsharded with our controller, among the goldens the paths
/// cover (discovery.h covered_golden_dirs) that the filters keep. Exit code:
/// 2 for any invalid scenario or unwritable report or pending result, else 1
/// for any failure, nondeterminism or fragile scenario not declared chaotic
/// (--perturb), else 0.
CheckRun run_check(const CheckRequest& request);

/// "N passed, N failed"
std::string closing_line(const std::vector<CheckOutcome>& outcomes);

/// 2 if any outcome is Invalid or could not write its result, else 1 if any
/// failed, else 0.
int exit_code_for(const std::vector<CheckOutcome>& outcomes);

/// One JUnit testcase per outcome.
std::vector<JUnitCase> junit_cases(const std::vector<CheckOutcome>& outcomes);

}  // namespace stepslide
