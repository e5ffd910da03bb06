// Tick cost against world size: a scenario with N static boxes scattered
// around it, none within 3 m of the path its character takes, so every tick
// does the same work near the character and only the broadphase sees more
// bodies. world_size/<scenario>/<controller>/N for N = 10 .. 100 000 clutter
// boxes. Building a world of 100 000 bodies takes far longer than running its
// ticks, so these run a fixed number of iterations.
#include <memory>

#include "bench_support.h"

namespace stepslide::bench {

namespace {

const char* const kScenarios[] = {"stairs/up_straight"};
constexpr double kKeepClear = 3.0;
constexpr int kIterations = 5;

void world_size_cost(benchmark::State& state, const std::shared_ptr<const Scenario>& base, const Area& keep_clear,
                     ControllerKind controller) {
  Scenario scenario = *base;
  const std::vector<BodyDef> clutter = scatter_boxes(static_cast<int>(state.range(0)), keep_clear);
  scenario.world.insert(scenario.world.end(), clutter.begin(), clutter.end());
  RunTally tally;
  for (auto _ : state) {
    const SimulationResult result = run_and_tally(scenario, controller, &tally);
    benchmark::DoNotOptimize(result.trajectory.rows.data());
    state.SetIterationTime(result.update_seconds);
  }
  set_cost_counters(state, tally);
  state.counters["bodies"] = static_cast<double>(scenario.world.size());
}

}  // namespace

void register_world_size_benchmarks() {
  for (const char* name : kScenarios) {
    std::optional<Scenario> loaded = load_named(name);
    if (!loaded) continue;
    const auto base = std::make_shared<const Scenario>(std::move(*loaded));
    const Area keep_clear = path_area(simulate(*base).trajectory, kKeepClear);
    for (ControllerKind controller : {ControllerKind::Stepslide, ControllerKind::Bullet}) {
      const std::string bench = "world_size/" + std::string(name) + "/" + controller_name(controller);
      with_min_statistic(benchmark::RegisterBenchmark(bench.c_str(), world_size_cost, base, keep_clear, controller))
          ->Arg(10)
          ->Arg(1000)
          ->Arg(10000)
          ->Arg(100000)
          ->Iterations(kIterations)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
}

}  // namespace stepslide::bench
