// Per scenario, both controllers side by side:
//   scenario/<name>/stepslide and scenario/<name>/bullet: time per tick
//   (manual time: only the controllers' updates are timed, not building the
//   world, writing rows or checking expectations), sweeps, slide iterations.
//   breakdown/<name>: our controller only, with Bullet's profile zones hooked
//   to measure the share of a tick spent inside btCollisionWorld::convexSweepTest.
#include <LinearMath/btQuickprof.h>

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
    const std::string name = "breakdown/" + s.name;
    with_min_statistic(benchmark::RegisterBenchmark(name.c_str(), sweep_breakdown, s.scenario))
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace stepslide::bench
