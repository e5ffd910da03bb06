// The verdict on one scenario (docs/format.md §3): load it, simulate it, check its
// expectations, compare the run with its golden. Library code: nothing here
// prints; every report is returned as text so the CLI prints it, and so that
// `check -j 4` prints exactly what `-j 1` prints.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gate/core/diff.h"
#include "gate/core/pending.h"
#include "gate/core/tolerances.h"
#include "scenario/run/simulate.h"
#include "scenario/scenario.h"
#include "scenario/trajectory.h"

namespace stepslide {

struct GateOptions {
  std::string scenario_root = "scenarios";
  std::string golden_dir = "golden";
  DiffRules rules = default_diff_rules();
  ToleranceLayers tolerances;  ///< over `rules`, with each scenario's own block (tolerances.h)
  std::string fingerprint;  ///< this build's; see build_fingerprint()
  int context_rows = 2;     ///< rows of context in diff reports
  bool keep_failure_detail = false;  ///< fill CheckOutcome::detail for failures (for check --report)
  /// Goldens record our controller only: with any other, a check evaluates
  /// the scenario's expectations and compares with no golden.
  ControllerKind controller = ControllerKind::Stepslide;
  /// What to do with the run of a scenario that fails against its golden
  /// (pending.h); None, the default, writes nothing.
  PendingAction pending = PendingAction::None;
  /// Fill CheckOutcome::hash with the run's determinism hash (run_hash.h).
  bool hash = false;
};

enum class Verdict {
  Pass,
  Fail,     ///< regression, failed expectation, missing or orphan golden, outside the root: exit 1
  Invalid,  ///< invalid scenario or unreadable golden: exit 2
};

/// The run and golden behind a failed check.
struct FailureDetail {
  Scenario scenario;
  Trajectory actual;
  std::optional<Trajectory> golden;  ///< absent when the golden is missing
  DiffResult diff;                   ///< against the golden; equal when there is none
  std::vector<ExpectationFailure> expectation_failures;
};

struct CheckOutcome {
  std::string name;        ///< what the report calls it: the scenario path (or golden path for an orphan)
  std::string scenario;    ///< scenario path, "" for an orphan
  std::string golden;      ///< golden path; "" for a scenario outside the scenario root, which has none
  std::string pending;     ///< the pending result (`GOLDEN.new`) this check wrote; "" when none
  bool write_failed = false;  ///< the pending result or golden could not be written (exit 2)
  Verdict verdict = Verdict::Pass;
  std::string report;      ///< the exact block to print, ending in '\n'
  std::string summary;     ///< one line for JUnit's failure message; "" when passing
  double seconds = 0.0;    ///< wall time, for JUnit only (never printed)
  std::string golden_build;  ///< the golden's recorded build fingerprint; "" when none was read
  /// Invalid because the run produced a non-finite value past the loader: exit 3.
  bool internal_error = false;
  /// With GateOptions::hash: the run's trajectory_hash (run_hash.h); "" when
  /// not asked or when the scenario did not run.
  std::string hash;
  /// What a failed check saw, for reports that draw it (report.h); set only
  /// for a Fail with a run to show, and only with GateOptions::keep_failure_detail.
  std::shared_ptr<const FailureDetail> detail;
};

/// Loads, simulates and checks expectations, then compares with the golden.
/// Never throws.
CheckOutcome check_scenario(const std::string& scenario, const GateOptions& options);

/// A failure for a golden that no scenario maps to.
CheckOutcome orphan_outcome(const std::string& golden, const GateOptions& options);

}  // namespace stepslide
