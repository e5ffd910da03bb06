// Per scenario, both controllers side by side:
//   scenario/<name>/stepslide and scenario/<name>/bullet: time per tick
//   (manual time: only the controllers' updates are timed, not building the
//   world, writing rows or checking expectations), sweeps, slide iterations.
//   pair/<name>: both controllers back to back in every iteration, the order
//   alternating: the median of the pairs' ratios (ours / Bullet's), steady
//   where the machine's speed drifts between two separate benchmarks.
//   breakdown/<name>: our controller only, with Bullet's profile zones hooked
//   to measure the share of a tick spent inside btCollisionWorld::convexSweepTest.
#include <LinearMath/btQuickprof.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "bench_support.h"

namespace stepslide::bench {

namespace {

void scenario_tick_cost(benchmark::State& state, const Scenario& scenario, ControllerKind controller) {
  RunTally tally;
  for (auto _ : state) {
    const SimulationResult result = run_and_tally(scenario, controller, &tally);
    benchmark::DoNotOptimize(result.trajectory.rows.data());
    state.SetIterationTime(result.update_seconds);
  }
  set_cost_counters(state, tally);
  state.SetItemsProcessed(tally.ticks);  // items_per_second = ticks per second
}

/// The median of `values` (not empty); the upper middle of an even count.
double median_of(std::vector<double> values) {
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

/// Both controllers on `scenario`, one run each per iteration, back to back
/// and in alternating order, so the two halves of a pair meet the same
/// machine (its clock, other processes). On a shared VM two separate
/// benchmarks of a 27-tick scenario gave ratios from 0.77 to 1.29; a pair's
/// ratio does not see the drift between them.
void paired_tick_cost(benchmark::State& state, const Scenario& scenario) {
  RunTally ours;
  RunTally bullet;
  std::vector<double> ratios;
  bool ours_first = true;
  for (auto _ : state) {
    double seconds[2] = {0.0, 0.0};  // ours, Bullet's
    for (const bool run_ours : {ours_first, !ours_first}) {
      const SimulationResult r = run_and_tally(scenario, run_ours ? ControllerKind::Stepslide : ControllerKind::Bullet,
                                               run_ours ? &ours : &bullet);
      benchmark::DoNotOptimize(r.trajectory.rows.data());
      seconds[run_ours ? 0 : 1] = r.update_seconds;
    }
    ours_first = !ours_first;
    if (seconds[1] > 0.0) ratios.push_back(seconds[0] / seconds[1]);
    state.SetIterationTime(seconds[0] + seconds[1]);
  }
  if (ratios.empty() || ours.ticks == 0 || bullet.ticks == 0) return;
  state.counters["ratio_median"] = median_of(ratios);
  state.counters["ours_us_per_tick"] = 1e6 * ours.update_seconds / static_cast<double>(ours.ticks);
  state.counters["bullet_us_per_tick"] = 1e6 * bullet.update_seconds / static_cast<double>(bullet.ticks);
}

// ---- Time inside Bullet's sweeps, from its profile zones ----------------------

using Clock = std::chrono::steady_clock;

/// Bullet opens a profile zone named "convexSweepTest" around every
/// btCollisionWorld::convexSweepTest (the only sweep our controller makes).
/// These hooks add up the time spent inside it; zones nest, so each enter
/// pushes whether it started a sweep.
struct SweepClock {
  static constexpr int kMaxDepth = 64;
  bool started_sweep[kMaxDepth] = {};
  int depth = 0;
  int in_sweep = 0;
  Clock::time_point start;
  double seconds = 0.0;
  std::int64_t zones = 0;
};
SweepClock g_sweep_clock;

void enter_zone(const char* name) {
  SweepClock& c = g_sweep_clock;
  const bool sweep = c.in_sweep == 0 && std::strcmp(name, "convexSweepTest") == 0;
  if (c.depth < SweepClock::kMaxDepth) c.started_sweep[c.depth] = sweep;
  ++c.depth;
  if (sweep) {
    ++c.in_sweep;
    ++c.zones;
    c.start = Clock::now();
  }
}

void leave_zone() {
  SweepClock& c = g_sweep_clock;
  if (c.depth == 0) return;
  --c.depth;
  if (c.depth < SweepClock::kMaxDepth && c.started_sweep[c.depth]) {
    c.seconds += std::chrono::duration<double>(Clock::now() - c.start).count();
    --c.in_sweep;
  }
}

void sweep_breakdown(benchmark::State& state, const Scenario& scenario) {
  btEnterProfileZoneFunc* previous_enter = btGetCurrentEnterProfileZoneFunc();
  btLeaveProfileZoneFunc* previous_leave = btGetCurrentLeaveProfileZoneFunc();
  g_sweep_clock = SweepClock{};
  btSetCustomEnterProfileZoneFunc(enter_zone);
  btSetCustomLeaveProfileZoneFunc(leave_zone);
  RunTally tally;
  for (auto _ : state) {
    const SimulationResult result = run_and_tally(scenario, ControllerKind::Stepslide, &tally);
    state.SetIterationTime(result.update_seconds);
  }
  btSetCustomEnterProfileZoneFunc(previous_enter);
  btSetCustomLeaveProfileZoneFunc(previous_leave);

  // Sweeps outside the updates (placing the character on row 0) are timed
  // too: one or two per run of hundreds of ticks, so the share is a hair high.
  const double sweep_share = tally.update_seconds > 0 ? g_sweep_clock.seconds / tally.update_seconds : 0.0;
  set_cost_counters(state, tally);
  state.counters["sweep_share"] = sweep_share;
  state.counters["outside_sweeps_share"] = 1.0 - sweep_share;
  state.counters["timed_sweeps_per_tick"] =
      tally.ticks > 0 ? static_cast<double>(g_sweep_clock.zones) / static_cast<double>(tally.ticks) : 0.0;
}

}  // namespace

void register_scenario_benchmarks(const std::vector<NamedScenario>& scenarios) {
  for (const NamedScenario& s : scenarios) {
    for (ControllerKind controller : {ControllerKind::Stepslide, ControllerKind::Bullet}) {
      const std::string name = "scenario/" + s.name + "/" + controller_name(controller);
      with_min_statistic(benchmark::RegisterBenchmark(name.c_str(), scenario_tick_cost, s.scenario, controller))
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
  for (const NamedScenario& s : scenarios) {
    const std::string name = "pair/" + s.name;
    benchmark::RegisterBenchmark(name.c_str(), paired_tick_cost, s.scenario)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
  for (const NamedScenario& s : scenarios) {
    const std::string name = "breakdown/" + s.name;
    with_min_statistic(benchmark::RegisterBenchmark(name.c_str(), sweep_breakdown, s.scenario))
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace stepslide::bench
