// The regression gate (SPEC §3): which scenarios to run, where their goldens
// live, how a run is sharded, and the verdict and report for each scenario.
// Library code: nothing here prints; every report is returned as text so the
// CLI prints it, and so that `check -j 4` prints exactly what `-j 1` prints.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gate/junit.h"
#include "scenario/load.h"
#include "scenario/scenario.h"
#include "scenario/simulate.h"
#include "scenario/trajectory.h"

namespace stepslide {

/// Process exit codes, the same for every command (SPEC §3).
enum ExitCode : int {
  kExitOk = 0,       ///< success
  kExitFailure = 1,  ///< a regression, a failed expectation or a mismatch
  kExitInvalid = 2,  ///< invalid input or usage
};

// ---------------------------------------------------------------------------
// Discovery and golden paths

/// Scenario files named by command-line paths.
struct ScenarioList {
  std::vector<std::string> files;   ///< normalised, sorted, without duplicates
  std::vector<std::string> errors;  ///< "PATH: no such file or directory", ...
};

/// A file is taken as given, whatever its extension; a directory contributes
/// every `*.json` below it, recursively, skipping names that start with '.'
/// (editor lock files, hidden folders). The whole list is sorted bytewise, so
/// the order, and thus sharding, does not depend on the file system.
ScenarioList discover_scenarios(const std::vector<std::string>& paths);

/// True when `paths` name exactly the scenario root (or are empty, meaning it):
/// only then is a golden without a scenario an orphan.
bool names_whole_root(const std::vector<std::string>& paths, const std::string& scenario_root);

/// `ROOT/a/b.json` ↔ `GOLDEN/a/b.csv`. A scenario outside the root maps to
/// `GOLDEN/<file name>.csv`.
std::string golden_path_for(const std::string& scenario, const std::string& scenario_root,
                            const std::string& golden_dir);

/// Every `*.csv` below `golden_dir` that no file in `scenarios` maps to, sorted.
std::vector<std::string> find_orphan_goldens(const std::vector<std::string>& scenarios,
                                             const std::string& scenario_root, const std::string& golden_dir);

// ---------------------------------------------------------------------------
// Sharding (GoogleTest's and Bazel's environment protocol)

struct Shard {
  int index = 0;
  int total = 1;
  std::string status_file;  ///< TEST_SHARD_STATUS_FILE, touched to tell Bazel we shard
  bool active() const { return total > 1; }
};

/// Returns the value of an environment variable, or null when unset.
using EnvLookup = std::function<const char*(const char*)>;

/// Reads GTEST_TOTAL_SHARDS/GTEST_SHARD_INDEX or Bazel's TEST_TOTAL_SHARDS/
/// TEST_SHARD_INDEX (empty counts as unset; when both pairs are set they must
/// agree). nullopt with `error` set when a value is not an integer, only one of
/// a pair is set, total < 1, or index is outside [0, total).
std::optional<Shard> shard_from_env(const EnvLookup& env, std::string* error);

/// The files of this shard: those at sorted index i with i % total == index.
std::vector<std::string> select_shard(const std::vector<std::string>& files, const Shard& shard);

/// Creates (or updates) `shard.status_file` when set. "" on success, else why not.
std::string touch_shard_status_file(const Shard& shard);

// ---------------------------------------------------------------------------
// Trajectory metadata

/// The `#` lines written before the header by `run` and `bless` (without '#'):
///   " stepslide trajectory 1", " scenario <name> fnv1a64:<hex>", " build <fingerprint>".
std::vector<std::string> trajectory_metadata(const std::string& scenario_name, const std::string& scenario_bytes,
                                             const std::string& fingerprint);

/// The text after `key` in the first metadata line "<key> <text>", or nullopt.
std::optional<std::string> metadata_value(const Trajectory& t, const std::string& key);

/// The scenario hash ("fnv1a64:...") recorded by `trajectory_metadata`, or nullopt.
std::optional<std::string> metadata_scenario_hash(const Trajectory& t);

/// "note: golden was written by a different build: <old> (now: <new>)\n" when
/// the golden records a build and it differs from `fingerprint`; else "".
std::string build_change_note(const Trajectory& golden, const std::string& fingerprint);

// ---------------------------------------------------------------------------
// Comparison options

/// Default rules, then `--exact` (every tolerance 0), then each `--tol
/// COLUMN=ABS` in order. nullopt with `error` set for a malformed option, an
/// unknown column or a tolerance that is negative or not finite.
std::optional<DiffRules> make_diff_rules(bool exact, const std::vector<std::string>& tolerances, std::string* error);

/// One line summing up a format_diff_report: its "first divergence at tick
/// 12, column y: expected 1, got 1.5 (...)" line when there is one, else its
/// first line (a structural problem). "" for an empty report.
std::string diff_summary(const std::string& report);

// ---------------------------------------------------------------------------
// Loading and simulating one scenario

struct LoadedScenario {
  std::string path;
  std::string bytes;  ///< the file as read, hashed into metadata
  LoadResult load;    ///< load.scenario set when valid
  bool valid() const { return load.scenario.has_value(); }
};

/// Reads and validates one scenario file; never throws.
LoadedScenario load_scenario(const std::string& path);

/// Every error as "file: /json/path: message" lines.
std::string format_load_errors(const LoadResult& load);

/// "FILE: /expect/2 at tick 120: message\n" for each failure.
std::string format_expectation_failures(const std::string& file, const std::vector<ExpectationFailure>& failures);

/// Simulates and attaches metadata (plus " controller NAME" when it is not
/// ours). Catches anything the simulation throws: on failure returns nullopt
/// with `error` set.
std::optional<SimulationResult> simulate_with_metadata(const LoadedScenario& loaded, const std::string& fingerprint,
                                                       std::string* error, const SimulationOptions& options = {});

/// "name: 12.3 us/tick, 2.05 sweeps/tick (stepslide)": the cost of a run made
/// with SimulationOptions::measure_time. Wall time: a report, never a result.
std::string run_stats_line(const Scenario& scenario, const SimulationResult& result, ControllerKind controller);

/// "name: 240 ticks, feet (0, 1.2, -3), grounded 1, 1234 sweeps, expectations ok"
std::string run_summary_line(const Scenario& scenario, const SimulationResult& result);

/// Default `run` output file name for a scenario name: characters outside
/// [A-Za-z0-9._-] become '_', and a leading '.' is prefixed with '_', so a
/// name can never leave the output directory.
std::string output_file_name(const std::string& scenario_name);

// ---------------------------------------------------------------------------
// check

struct GateOptions {
  std::string scenario_root = "scenarios";
  std::string golden_dir = "golden";
  DiffRules rules = default_diff_rules();
  std::string fingerprint;  ///< this build's; see build_fingerprint()
  int context_rows = 2;     ///< rows of context in diff reports
  bool keep_failure_detail = false;  ///< fill CheckOutcome::detail for failures (for check --report)
  /// Goldens record our controller only: with any other, a check evaluates
  /// the scenario's expectations and compares with no golden.
  ControllerKind controller = ControllerKind::Stepslide;
};

enum class Verdict {
  Pass,
  Fail,     ///< regression, failed expectation, missing or orphan golden: exit 1
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
  std::string golden;      ///< golden path
  Verdict verdict = Verdict::Pass;
  std::string report;      ///< the exact block to print, ending in '\n'
  std::string summary;     ///< one line for JUnit's failure message; "" when passing
  double seconds = 0.0;    ///< wall time, for JUnit only (never printed)
  /// What a failed check saw, for reports that draw it (report.h); set only
  /// for a Fail with a run to show, and only with GateOptions::keep_failure_detail.
  std::shared_ptr<const FailureDetail> detail;
};

/// Loads, simulates and checks expectations, then compares with the golden.
/// Never throws.
CheckOutcome check_scenario(const std::string& scenario, const GateOptions& options);

/// A failure for a golden that no scenario maps to.
CheckOutcome orphan_outcome(const std::string& golden, const GateOptions& options);

/// Checks `scenarios` on `jobs` threads (jobs < 1: one per core). `on_ready`
/// is called on the calling thread, once per scenario, in input order, as soon
/// as that scenario and every one before it are done. Returns all outcomes in
/// input order.
std::vector<CheckOutcome> check_scenarios(const std::vector<std::string>& scenarios, const GateOptions& options,
                                          int jobs, const std::function<void(const CheckOutcome&)>& on_ready);

/// "N passed, N failed"
std::string closing_line(const std::vector<CheckOutcome>& outcomes);

/// 2 if any outcome is Invalid, else 1 if any failed, else 0.
int exit_code_for(const std::vector<CheckOutcome>& outcomes);

/// One JUnit testcase per outcome.
std::vector<JUnitCase> junit_cases(const std::vector<CheckOutcome>& outcomes);

// ---------------------------------------------------------------------------
// bless

enum class GoldenChange { New, Changed, MetadataOnly, Unchanged };

struct BlessOutcome {
  std::string golden;
  Verdict verdict = Verdict::Pass;  ///< Fail: expectations failed, nothing written
  GoldenChange change = GoldenChange::New;
  std::string report;  ///< the exact block to print, ending in '\n'
};

/// Simulates a valid scenario and writes its golden atomically, unless its
/// expectations fail (a golden must never record behaviour the scenario itself
/// calls wrong). Writes nothing when the file's bytes would not change.
BlessOutcome bless_scenario(const LoadedScenario& loaded, const GateOptions& options);

}  // namespace stepslide
