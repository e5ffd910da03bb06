// `stepslide run`: simulate scenarios and write their trajectories as CSV,
// each with a one-line summary.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gate/core/exit_code.h"
#include "gate/core/fingerprint.h"
#include "gate/core/project.h"
#include "scenario/run/simulate.h"
#include "scenario/scenario.h"

namespace stepslide {

/// What one scenario's run produced, for the caller to print.
struct RunItem {
  std::string scenario;  ///< its path
  /// Stderr text when the run or the write failed; then nothing else is set.
  std::string error;
  /// The CSV, when it goes to stdout (`--out -`); "" when it went to a file.
  std::string csv;
  /// The summary line, the stats line and the failed expectations, for stdout,
  /// or for stderr when the CSV goes to stdout.
  std::string report;
  bool expectations_failed = false;
  /// With --stats: the wall time of the controller's updates in each run
  /// (RunRequest::repeat of them); empty otherwise.
  std::vector<double> update_seconds;
  /// The run stopped at a non-finite value (`error` says where): exit 3.
  bool internal_error = false;
  /// With RunRequest::hash: the run's trajectory_hash (run_hash.h), listed
  /// under hash_name (the path relative to the scenario root).
  std::string hash;
  std::string hash_name;
};

/// The `run` command's options, as given on the command line.
struct RunRequest {
  std::vector<std::string> scenarios;  ///< files, or directories searched for *.json; empty: the scenario root
  std::string out;                     ///< one file, or "-" for stdout; "" when not given
  std::string out_dir = "out";
  std::string controller = "stepslide";  ///< stepslide or bullet
  bool stats = false;                    ///< also give us/tick and sweeps/tick
  bool hash = false;                     ///< also give each run's determinism hash and the suite's
  /// With `stats`: how many times each scenario is run to time it (the first
  /// run's CSV is written; every run is the same, the program is deterministic).
  int repeat = 5;
  /// --filter GLOB / -GLOB (filter.h); names are relative to scenarios/.
  std::vector<std::string> filters;
  std::string fingerprint = build_fingerprint();
  /// Called with each scenario's run as soon as it is written, in file order.
  std::function<void(const RunItem&)> on_item;
  /// The project file to read for the scenario root (docs/format.md §4).
  ProjectUse project;
  std::string scenario_root = "scenarios";
};

struct RunResult {
  int exit_code = kExitOk;
  /// Why nothing ran (stderr text: a refused option, no scenarios, an
  /// invalid scenario, two scenarios writing one file); exit 2.
  std::string errors;
  std::string warnings;        ///< stderr text: a --filter that matched no scenario
  std::vector<RunItem> items;  ///< one per scenario, in file order
  /// With RunRequest::hash and every scenario run: the suite_hash_line
  /// (run_hash.h) over the items in file order; "" otherwise.
  std::string suite_hash;
};

/// Validates every scenario first (one invalid and nothing is written), then
/// simulates each and writes its CSV atomically, with metadata. Exit code: 3
/// when a run stopped at a non-finite value (nothing is written for it), else
/// 2 when a run or write fails, else 1 when an expectation fails, else 0.
/// An output path naming one of the scenarios read is refused before any run.
RunResult run_scenarios(const RunRequest& request);

/// "name: min 12.3 us/tick, median 12.7 us/tick over 5 runs, 2.05 sweeps/tick
/// (stepslide)": the cost of runs made with SimulationOptions::measure_time,
/// `update_seconds` holding each run's time (at least one). The minimum is
/// the least disturbed run, the median the typical one; one sample alone is
/// noise. Wall time: a report, never a result.
std::string run_stats_line(const Scenario& scenario, const std::vector<double>& update_seconds,
                           std::int64_t total_sweeps, ControllerKind controller);

/// "name: 240 ticks, feet (0, 1.2, -3), grounded 1, 1234 sweeps, expectations ok"
std::string run_summary_line(const Scenario& scenario, const SimulationResult& result);

}  // namespace stepslide
