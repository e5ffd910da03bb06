#include "bench_support.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>

#include "gate/core/discovery.h"
#include "scenario/load/load.h"

namespace stepslide::bench {

namespace fs = std::filesystem;

namespace {

std::string& scenario_dir_storage() {
  static std::string dir = STEPSLIDE_SCENARIO_DIR;
  return dir;
}

std::optional<Scenario> load_reporting(const std::string& path) {
  LoadResult load = load_scenario_file(path);
  for (const LoadError& error : load.errors) std::cerr << "stepslide_bench: " << format_error(error) << "\n";
  return std::move(load.scenario);
}

/// A small fixed-seed generator (SplitMix64): the same clutter on every machine.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  /// Uniform in [0, 1).
  double next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53;
  }

 private:
  std::uint64_t state_;
};

}  // namespace

const std::string& scenario_dir() { return scenario_dir_storage(); }
void set_scenario_dir(const std::string& dir) { scenario_dir_storage() = dir; }

std::vector<NamedScenario> load_scenarios(const std::string& dir) {
  // The gate's own discovery: sorted, and level files (which scenarios include) skipped.
  const ScenarioList list = discover_scenarios({dir});
  for (const std::string& error : list.errors) std::cerr << "stepslide_bench: " << error << "\n";
  std::vector<NamedScenario> scenarios;
  for (const std::string& file : list.files) {
    std::optional<Scenario> scenario = load_reporting(file);
    if (!scenario) continue;
    std::string name = fs::path(file).lexically_relative(dir).replace_extension().generic_string();
    scenarios.push_back({std::move(name), std::move(*scenario)});
  }
  return scenarios;
}

std::optional<Scenario> load_named(const std::string& name) {
  const fs::path path = fs::path(scenario_dir()) / (name + ".json");
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    std::cerr << "stepslide_bench: " << path.generic_string() << " not found; its benchmarks are skipped\n";
    return std::nullopt;
  }
  return load_reporting(path.generic_string());
}

SimulationResult run_and_tally(const Scenario& scenario, ControllerKind controller, RunTally* tally) {
  SimulationOptions options;
  options.controller = controller;
  options.measure_time = true;
  SimulationResult result = simulate(scenario, options);
  ++tally->runs;
  tally->ticks += scenario.ticks;
  tally->sweeps += result.total_sweeps;
  tally->slide_iters += static_cast<std::int64_t>(column_sum(result.trajectory, "slide_iters"));
  tally->update_seconds += result.update_seconds;
  tally->expectation_failures = result.expectation_failures.size();
  return result;
}

void set_cost_counters(benchmark::State& state, const RunTally& tally) {
  if (tally.ticks == 0) return;
  const double ticks = static_cast<double>(tally.ticks);
  state.counters["us_per_tick"] = tally.update_seconds * 1e6 / ticks;
  state.counters["sweeps_per_tick"] = static_cast<double>(tally.sweeps) / ticks;
  state.counters["ns_per_sweep"] =
      tally.sweeps > 0 ? tally.update_seconds * 1e9 / static_cast<double>(tally.sweeps) : 0.0;
  state.counters["slide_iters_per_tick"] = static_cast<double>(tally.slide_iters) / ticks;
  state.counters["expectations_failed"] = static_cast<double>(tally.expectation_failures);
}

double min_of(const std::vector<double>& values) {
  return values.empty() ? 0.0 : *std::min_element(values.begin(), values.end());
}

benchmark::internal::Benchmark* with_min_statistic(benchmark::internal::Benchmark* bench) {
  return bench->ComputeStatistics("min", min_of);
}

double column_sum(const Trajectory& t, const std::string& column) {
  const int index = t.column_index(column);
  if (index < 0) return 0.0;
  double sum = 0.0;
  for (const auto& row : t.rows) sum += row[static_cast<std::size_t>(index)];
  return sum;
}

std::vector<BodyDef> scatter_boxes(int count, const Area& keep_clear) {
  constexpr double kSpacing = 4.0;
  // Grid cells in square rings around the kept area until `count` fit.
  const double cx = 0.5 * (keep_clear.min_x + keep_clear.max_x);
  const double cz = 0.5 * (keep_clear.min_z + keep_clear.max_z);
  Random random(0x5EED0F5CA77E12ull);
  std::vector<BodyDef> boxes;
  boxes.reserve(static_cast<std::size_t>(std::max(count, 0)));
  for (int ring = 0; static_cast<int>(boxes.size()) < count; ++ring) {
    for (int i = -ring; i <= ring && static_cast<int>(boxes.size()) < count; ++i) {
      for (int j = -ring; j <= ring && static_cast<int>(boxes.size()) < count; ++j) {
        if (std::max(std::abs(i), std::abs(j)) != ring) continue;  // this ring's cells only
        const double half = 0.25 + 0.5 * random.next();
        const double x = cx + kSpacing * i + (random.next() - 0.5) * (kSpacing - 2 * half);
        const double z = cz + kSpacing * j + (random.next() - 0.5) * (kSpacing - 2 * half);
        const Area box_area{x - half, z - half, x + half, z + half};
        const bool overlaps = box_area.max_x >= keep_clear.min_x && box_area.min_x <= keep_clear.max_x &&
                              box_area.max_z >= keep_clear.min_z && box_area.min_z <= keep_clear.max_z;
        if (overlaps) continue;
        BodyDef body;
        body.shape.type = ShapeType::Box;
        body.shape.half_extents = {half, half, half};
        body.position = {x, half, z};
        body.json_path = "/bench/clutter/" + std::to_string(boxes.size());
        boxes.push_back(std::move(body));
      }
    }
  }
  return boxes;
}

BodyDef floor_box(double half_width) {
  BodyDef floor;
  floor.name = "floor";
  floor.shape.type = ShapeType::Box;
  floor.shape.half_extents = {half_width, 0.5, half_width};
  floor.position = {0, -0.5, 0};
  return floor;
}

Area path_area(const Trajectory& t, double margin) {
  const int x = t.column_index("x"), z = t.column_index("z");
  Area area{1e300, 1e300, -1e300, -1e300};
  for (const auto& row : t.rows) {
    area.min_x = std::min(area.min_x, row[static_cast<std::size_t>(x)]);
    area.max_x = std::max(area.max_x, row[static_cast<std::size_t>(x)]);
    area.min_z = std::min(area.min_z, row[static_cast<std::size_t>(z)]);
    area.max_z = std::max(area.max_z, row[static_cast<std::size_t>(z)]);
  }
  area.min_x -= margin;
  area.min_z -= margin;
  area.max_x += margin;
  area.max_z += margin;
  return area;
}

}  // namespace stepslide::bench
