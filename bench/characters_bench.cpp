// The cost of several characters in one world (docs/format.md §1.7): 1, 10
// or 100 capsules on a 1 m grid on a box floor, every one walking at
// 1.5 m/s toward the grid's centre for 120 ticks, so that they meet, block
// and push each other the whole run (characters/N); and, for comparison, on
// a 3 m grid all walking the same way, never meeting (characters_apart/N). Each iteration is one whole simulate();
// counters (controller updates only, SimulationOptions::measure_time):
//   us_per_tick            every character's update of one tick
//   us_per_character_tick  the same per character
//   sweeps_per_character_tick  the casts each character's update made
// characters/<count>.
#include <cmath>

#include "bench_support.h"

namespace stepslide::bench {

namespace {

constexpr std::int64_t kTicks = 120;

Scenario crowd(int count, bool meet) {
  Scenario s;
  s.ticks = kTicks;
  s.world.push_back(floor_box(100));
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(count))));
  const double middle = 0.5 * (side - 1);
  const double spacing = meet ? 1.0 : 3.0;
  for (int i = 0; i < count; ++i) {
    const double x = spacing * ((i % side) - middle), z = spacing * ((i / side) - middle);
    CharacterDef def;
    def.position = {x, 0, z};
    def.name = "c" + std::to_string(i);
    InputKey walk;
    const double length = std::hypot(x, z);
    walk.wish_velocity = meet && length > 0 ? Vec2{-1.5 * x / length, -1.5 * z / length} : Vec2{1.5, 0};
    if (i == 0) {
      s.character = def;
      s.input = {walk};
    } else {
      s.others.push_back(OtherCharacter{def, {walk}});
    }
  }
  return s;
}

void characters_cost(benchmark::State& state, bool meet) {
  const int count = static_cast<int>(state.range(0));
  const Scenario scenario = crowd(count, meet);
  SimulationOptions options;
  options.measure_time = true;
  double seconds = 0.0;
  double sweeps = 0.0;
  for (auto _ : state) {
    SimulationResult result = simulate(scenario, options);
    benchmark::DoNotOptimize(result.trajectory.rows.data());
    seconds += result.update_seconds;
    sweeps = static_cast<double>(result.total_sweeps);
  }
  const double runs = static_cast<double>(state.iterations());
  state.counters["us_per_tick"] = 1e6 * seconds / runs / kTicks;
  state.counters["us_per_character_tick"] = 1e6 * seconds / runs / kTicks / count;
  state.counters["sweeps_per_character_tick"] = sweeps / kTicks / count;
}

}  // namespace

void register_characters_benchmarks() {
  for (const bool meet : {true, false}) {
    benchmark::RegisterBenchmark(meet ? "characters" : "characters_apart", characters_cost, meet)
        ->Arg(1)
        ->Arg(10)
        ->Arg(100)
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace stepslide::bench
