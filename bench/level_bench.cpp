// Bringing a level in: a 100 000-triangle glTF binary (a 224 x 224 grid,
// 100 352 triangles, written at start into a temporary directory) through
//   level/import_glb:        Assimp + node transforms + welding + cleaning (mesh_import.h);
//   level/load_scenario:     the whole loader on a scenario that references the
//                            file, with "place": "on_floor" (builds a world to drop into);
//   level/load_and_world:    that, plus the World the runner builds: everything
//                            `stepslide run` does before its first tick.
// And ticking on a real level (the level budget: median tick <= 10x the flat
// tick, worst <= 10x the median), for every level under scenarios/levels/:
//   level/ticks/<level>/<walk>: one walk's ticks;
//   level/ticks/<level>:        all its walks' ticks together (the budget's figures);
//   level/ticks/flat:           basics/walk_flat timed the same way, the reference.
// A tick's time is the wall time between two observer calls of the runner
// (input, world, the controller's update, the row), the minimum over the
// benchmark's runs for each tick (the least disturbed on a shared machine);
// counters give the median and the worst over ticks, and their ratios.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <unistd.h>

#include "bench_support.h"
#include "scenario/load/load.h"
#include "scenario/load/mesh_import.h"
#include "scenario/load/world.h"
#include "scenario/run/simulate.h"
#include "support/gltf_writer.h"

namespace stepslide::bench {

namespace {

namespace fs = std::filesystem;

constexpr int kCells = 224;  // 2 * 224^2 = 100 352 triangles

/// The level and a scenario that references it, written once per process.
struct LevelFiles {
  fs::path dir;
  fs::path glb;
  fs::path scenario;

  LevelFiles() {
    dir = fs::temp_directory_path() / ("stepslide_level_bench_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    glb = dir / "level.glb";
    scenario = dir / "walk.json";
    std::ofstream(glb, std::ios::binary) << stepslide::testing::make_glb(
        {stepslide::testing::grid_node("Level", kCells, 0.5f * kCells)});
    std::ofstream(scenario) << R"({"format": "stepslide/scenario@1", "ticks": 60,
        "character": {"position": [0.3, 3, 0.3], "place": "on_floor"},
        "world": [{"name": "level", "shape": {"type": "mesh", "file": "level.glb"}}]})";
  }
  ~LevelFiles() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

const LevelFiles& level_files() {
  static const LevelFiles files;
  return files;
}

void BM_ImportGlb(benchmark::State& state) {
  const LevelFiles& files = level_files();
  MeshImportOptions options;
  options.paths.root_dir = files.dir.string();
  std::int64_t triangles = 0;
  for (auto _ : state) {
    Expected<ImportedMesh> mesh = import_mesh_file(files.glb.string(), options);
    if (!mesh) {
      state.SkipWithError(mesh.error().c_str());
      return;
    }
    triangles = mesh->stats.triangles;
    benchmark::DoNotOptimize(mesh->parts.data());
  }
  state.counters["triangles"] = static_cast<double>(triangles);
}

void BM_LoadScenario(benchmark::State& state, bool build_world) {
  const LevelFiles& files = level_files();
  for (auto _ : state) {
    LoadResult load = load_scenario_file(files.scenario.string());
    if (!load.scenario) {
      state.SkipWithError(format_load_errors(load).c_str());
      return;
    }
    if (build_world) {
      World world(*load.scenario);
      benchmark::DoNotOptimize(world.collision_world());
    }
    benchmark::DoNotOptimize(load.scenario->character.position);
  }
}

BENCHMARK(BM_ImportGlb)->Name("level/import_glb/100k")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LoadScenario, load, false)->Name("level/load_scenario/100k")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LoadScenario, world, true)->Name("level/load_and_world/100k")->Unit(benchmark::kMillisecond);

// ---- Ticks on a real level ----------------------------------------------------

using Clock = std::chrono::steady_clock;

/// Each tick's wall time in one run of `scenario` (tick k: from the observer
/// call after row k-1 to the one after row k).
std::vector<double> tick_seconds(const Scenario& scenario) {
  std::vector<double> ticks;
  ticks.reserve(static_cast<std::size_t>(scenario.ticks));
  Clock::time_point last;
  SimulationOptions options;
  options.on_tick = [&](const TickView& view) {
    const Clock::time_point now = Clock::now();
    if (view.tick > 0) ticks.push_back(std::chrono::duration<double>(now - last).count());
    last = now;
  };
  const SimulationResult result = simulate(scenario, options);
  benchmark::DoNotOptimize(result.trajectory.rows.data());
  return ticks;
}

/// Per-tick minimum over runs of several scenarios, concatenated.
class TickTimes {
 public:
  explicit TickTimes(const std::vector<const Scenario*>& scenarios) : scenarios_(scenarios) {}

  /// Runs every scenario once; returns the run's total time.
  double run() {
    double total = 0.0;
    std::size_t at = 0;
    for (const Scenario* scenario : scenarios_) {
      const std::vector<double> ticks = tick_seconds(*scenario);
      if (best_.size() < at + ticks.size()) best_.resize(at + ticks.size(), std::numeric_limits<double>::infinity());
      for (std::size_t i = 0; i < ticks.size(); ++i) {
        best_[at + i] = std::min(best_[at + i], ticks[i]);
        total += ticks[i];
      }
      at += ticks.size();
    }
    return total;
  }

  double median() const { return quantile(0.5); }
  double worst() const { return best_.empty() ? 0.0 : *std::max_element(best_.begin(), best_.end()); }
  std::size_t ticks() const { return best_.size(); }

 private:
  double quantile(double q) const {
    if (best_.empty()) return 0.0;
    std::vector<double> sorted = best_;
    const auto k = static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1));
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(k), sorted.end());
    return sorted[k];
  }

  std::vector<const Scenario*> scenarios_;
  std::vector<double> best_;
};

/// The flat-ground tick (basics/walk_flat), median of per-tick minima over 20
/// runs: measured once per process, the reference for every level's ratios.
double flat_median_seconds() {
  static const double median = [] {
    static const std::optional<Scenario> flat = load_named("basics/walk_flat");
    if (!flat) return 0.0;
    TickTimes times({&*flat});
    for (int i = 0; i < 20; ++i) times.run();
    return times.median();
  }();
  return median;
}

void BM_LevelTicks(benchmark::State& state, std::vector<const Scenario*> scenarios) {
  TickTimes times(scenarios);
  for (auto _ : state) state.SetIterationTime(times.run());
  const double median = times.median();
  const double worst = times.worst();
  const double flat = flat_median_seconds();
  state.counters["ticks"] = static_cast<double>(times.ticks());
  state.counters["tick_median_us"] = median * 1e6;
  state.counters["tick_worst_us"] = worst * 1e6;
  state.counters["worst_over_median"] = median > 0 ? worst / median : 0.0;
  state.counters["median_over_flat"] = flat > 0 ? median / flat : 0.0;
  state.counters["flat_median_us"] = flat * 1e6;
}

}  // namespace

void register_level_benchmarks() {
  // Kept alive for the whole run: the registered benchmarks point into it.
  static const std::vector<NamedScenario> walks = load_scenarios((fs::path(scenario_dir()) / "levels").string());
  static const std::optional<Scenario> flat = load_named("basics/walk_flat");
  std::map<std::string, std::vector<const Scenario*>> by_level;
  for (const NamedScenario& walk : walks) {
    const std::string level = fs::path(walk.name).parent_path().generic_string();
    by_level[level].push_back(&walk.scenario);
    const std::string name = "level/ticks/" + walk.name;
    benchmark::RegisterBenchmark(name.c_str(), BM_LevelTicks, std::vector<const Scenario*>{&walk.scenario})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
  for (const auto& [level, scenarios] : by_level) {
    const std::string name = "level/ticks/" + level;
    benchmark::RegisterBenchmark(name.c_str(), BM_LevelTicks, scenarios)->UseManualTime()->Unit(benchmark::kMillisecond);
  }
  if (flat) {
    benchmark::RegisterBenchmark("level/ticks/flat", BM_LevelTicks, std::vector<const Scenario*>{&*flat})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace stepslide::bench
