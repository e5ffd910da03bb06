// `stepslide fuzz`: generate random scenarios, check the invariants on every
// tick, shrink each violation and save it as an ordinary scenario file.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fuzz/invariants.h"
#include "fuzz/level_walk.h"
#include "fuzz/random_world.h"
#include "scenario/load/load.h"

namespace stepslide {

struct FuzzOptions {
  std::uint64_t seed = 1;  ///< scenario i uses seed + i, so any one can be rerun alone with --count 1
  std::int64_t count = 100;
  std::string out_dir = "fuzz-findings";
  bool shrink = true;
  bool keep_all = false;  ///< also save every generated scenario as <out_dir>/seed<seed>.json
  FuzzWorldOptions world;
  /// Walks on this level instead of random worlds (`fuzz --level`): read
  /// once by read_level_floors for walks in out_dir. Null: random worlds.
  const LevelFloors* level = nullptr;
  /// Worlds checked at once on threads (0: one per core). Each world is
  /// checked alone, and results are handed on in seed order, so the findings,
  /// files and summary are the same for every value.
  int jobs = 1;
  /// Called on every tick of every check before the invariants are checked,
  /// like InvariantOptions::before_check: lets tests break the controller on
  /// purpose to get findings. Must be safe to call from several threads.
  std::function<void(const TickView&)> before_check;
  /// Called before each scenario with how many are done, e.g. for a progress line.
  std::function<void(std::int64_t done)> on_progress;
};

struct FuzzFinding {
  std::uint64_t seed = 0;
  Violation violation;    ///< as seen in the saved (shrunk) scenario
  std::string file;       ///< where it was saved; "" when saving failed
  std::string save_error;
  std::string shrink_note;  ///< "bodies 9 -> 2, input keys 7 -> 1, ticks 360 -> 41 (118 runs)"
};

struct FuzzSummary {
  std::int64_t scenarios = 0;
  std::int64_t ticks = 0;  ///< ticks simulated and checked, over all scenarios (first runs only)
  std::vector<FuzzFinding> findings;
  std::vector<std::string> generator_errors;  ///< a generated scenario the loader refused: a fuzzer bug
  /// Level walks with no start the loader accepted (every drawn start point
  /// overlapped the level, e.g. under a low ceiling or beside a wall): skipped.
  std::int64_t unplaced = 0;
  /// For each kind of violation (invariant_name), how many scenarios showed
  /// it on some tick: all kinds seen, not only the first that was saved.
  std::map<std::string, std::int64_t> scenarios_by_kind;
};

/// Runs `options.count` scenarios. Saves each finding as
/// `<out_dir>/seed<seed>_<kind>.json` and calls `on_finding` and
/// `on_progress` on the calling thread, in seed order.
FuzzSummary run_fuzz(const FuzzOptions& options, const std::function<void(const FuzzFinding&)>& on_finding = {});

/// The document of a finding: the shrunk scenario with a description saying
/// what failed and how to replay it, and, where the loader has a matching
/// check (overlap: max_penetration; rise, and a fall through a floor:
/// y_between; launch: max_rise_gain; apex: max_jump_apex; speed: max_speed), an expectation
/// that makes `stepslide run` fail on it too.
/// `label` and `load_with` load it as the campaign did (a level walk's from
/// its findings' directory).
nlohmann::ordered_json finding_document(nlohmann::ordered_json scenario, std::uint64_t seed, const Violation& violation,
                                        const std::string& shrink_note, const std::string& label = "finding.json",
                                        const LoadOptions& load_with = {});

/// One line: "seed 17: overlap at tick 41: ... -> DIR/seed17_overlap.json (shrunk: ...)".
std::string format_finding(const FuzzFinding& finding);

}  // namespace stepslide
