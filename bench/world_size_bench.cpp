// Tick cost against world size: a scenario with N static boxes scattered
// around it, none within 3 m of the path its character takes, so every tick
// does the same work near the character and only the broadphase sees more
// bodies. world_size/<scenario>/<controller>/N for N = 10 .. 100 000 clutter
// boxes. Building a world of 100 000 bodies takes far longer than running its
// ticks, so these run a fixed number of iterations.
//
// world_load/N: what `stepslide run` does before the first tick, for the same
// scenario with N clutter boxes written into its JSON text: the loader
// (parsing and validation, from text in memory) and the runner's World.
// Counters: us_per_body (wall), load_share (the loader's part).
#include <chrono>
#include <memory>

#include "base/file_io.h"
#include "base/format.h"
#include "bench_support.h"
#include "scenario/load/load.h"
#include "scenario/load/world.h"

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

/// The base scenario's text with `clutter` written first into its world
/// array, one named body per line as a level exporter would write them.
std::string with_clutter(const std::string& base_text, const std::vector<BodyDef>& clutter) {
  std::string items;
  for (std::size_t i = 0; i < clutter.size(); ++i) {
    const BodyDef& b = clutter[i];
    const std::string half = format_number(b.shape.half_extents[0]);
    items += "\n    {\"name\": \"clutter/" + std::to_string(i) + "\", \"shape\": {\"type\": \"box\", " +
             "\"half_extents\": [" + half + ", " + half + ", " + half + "]}, \"position\": [" +
             format_number(b.position[0]) + ", " + format_number(b.position[1]) + ", " + format_number(b.position[2]) +
             "]},";
  }
  const std::string marker = "\"world\": [";
  std::string text = base_text;
  text.insert(text.find(marker) + marker.size(), items);
  return text;
}

void world_load_cost(benchmark::State& state, const std::shared_ptr<const std::string>& base_text,
                     const Area& keep_clear) {
  using Clock = std::chrono::steady_clock;
  const std::vector<BodyDef> clutter = scatter_boxes(static_cast<int>(state.range(0)), keep_clear);
  const std::string text = with_clutter(*base_text, clutter);
  double load_seconds = 0.0, total_seconds = 0.0;
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    const LoadResult load = load_scenario_text(text, scenario_dir() + "/clutter.json");
    const Clock::time_point loaded = Clock::now();
    if (!load.scenario) {
      state.SkipWithError(format_load_errors(load).c_str());
      return;
    }
    const World world(*load.scenario);
    benchmark::DoNotOptimize(world.bodies().data());
    const Clock::time_point built = Clock::now();
    load_seconds += std::chrono::duration<double>(loaded - start).count();
    total_seconds += std::chrono::duration<double>(built - start).count();
  }
  const double bodies = static_cast<double>(clutter.size()) + 3;
  state.counters["us_per_body"] = 1e6 * total_seconds / static_cast<double>(state.iterations()) / bodies;
  state.counters["load_share"] = total_seconds > 0 ? load_seconds / total_seconds : 0.0;
  state.counters["json_MB"] = static_cast<double>(text.size()) / 1e6;
}

}  // namespace

void register_world_size_benchmarks() {
  for (const char* name : kScenarios) {
    std::optional<Scenario> loaded = load_named(name);
    if (!loaded) continue;
    const auto base = std::make_shared<const Scenario>(std::move(*loaded));
    const Area keep_clear = path_area(simulate(*base).trajectory, kKeepClear);
    const Expected<std::string> base_text = read_file(scenario_dir() + "/" + name + ".json");
    if (base_text) {
      const auto text = std::make_shared<const std::string>(*base_text);
      with_min_statistic(benchmark::RegisterBenchmark("world_load", world_load_cost, text, keep_clear))
          ->Arg(10000)
          ->Arg(30000)
          ->Arg(100000)
          ->Unit(benchmark::kMillisecond);
    }
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
