// Shared pieces of the benchmark suite: finding scenarios, running one and
// turning what it cost into counters, and scattering static clutter.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scenario/run/simulate.h"
#include "scenario/scenario.h"

namespace stepslide::bench {

/// The scenario directory: --scenarios=DIR, else the source tree's.
const std::string& scenario_dir();
void set_scenario_dir(const std::string& dir);

struct NamedScenario {
  std::string name;  ///< path below the scenario directory, without ".json"
  Scenario scenario;
};

/// Every valid scenario below `dir`, sorted by name. Invalid files are
/// reported on stderr and skipped.
std::vector<NamedScenario> load_scenarios(const std::string& dir);

/// One scenario below the scenario directory by name ("walls/corner"), or
/// nullopt (after saying why on stderr).
std::optional<Scenario> load_named(const std::string& name);

/// What runs of a scenario cost, summed over runs.
struct RunTally {
  std::int64_t runs = 0;
  std::int64_t ticks = 0;
  std::int64_t sweeps = 0;
  std::int64_t slide_iters = 0;
  double update_seconds = 0.0;  ///< inside the controller's updates only
  std::size_t expectation_failures = 0;  ///< of the last run
};

/// Simulates `scenario` once with `controller`, timing the updates, and adds
/// it to `tally`. Returns the run.
SimulationResult run_and_tally(const Scenario& scenario, ControllerKind controller, RunTally* tally);

/// us_per_tick, sweeps_per_tick, ns_per_sweep, slide_iters_per_tick and
/// expectations_failed as user counters.
void set_cost_counters(benchmark::State& state, const RunTally& tally);

/// Adds a "min" statistic over repetitions (--benchmark_repetitions=N): on a
/// shared machine the fastest repetition is the one least disturbed.
benchmark::internal::Benchmark* with_min_statistic(benchmark::internal::Benchmark* bench);
double min_of(const std::vector<double>& values);

/// Sum of a column over every row.
double column_sum(const Trajectory& t, const std::string& column);

/// Axis-aligned rectangle in the XZ plane.
struct Area {
  double min_x = 0, min_z = 0, max_x = 0, max_z = 0;
  bool contains(double x, double z) const { return x >= min_x && x <= max_x && z >= min_z && z <= max_z; }
};

/// `count` static boxes (0.5 m cubes' half extents 0.25..0.75) on a jittered
/// 4 m grid around `keep_clear`, none inside it: constant density, so the
/// region grows with the count. Deterministic (fixed-seed generator).
std::vector<BodyDef> scatter_boxes(int count, const Area& keep_clear);

/// A static box named "floor" whose top face is the plane y = 0, reaching
/// `half_width` from the origin along x and z.
BodyDef floor_box(double half_width);

/// The XZ area the character's feet cover in `t`, grown by `margin`.
Area path_area(const Trajectory& t, double margin);

}  // namespace stepslide::bench
