// The cost of dynamic bodies (docs/format.md §1.5 "dynamic body-ticks"): a
// character walking for 120 ticks among 0, 10, 100 or 1000 crates, either
// resting in a row ahead of it (near: it pushes into them) or on a grid far
// away (far: Bullet steps them, the character never meets them). Each
// iteration is one whole simulate(); counters:
//   us_per_tick           wall time per tick, world build included
//   us_per_body_tick      the same per dynamic body-tick (0 bodies: none)
// dynamic/<near|far>/<bodies>.
#include <chrono>
#include <memory>

#include "bench_support.h"

namespace stepslide::bench {

namespace {

constexpr std::int64_t kTicks = 120;

Scenario crates(int count, bool near) {
  Scenario s;
  s.ticks = kTicks;
  s.world.push_back(floor_box(200));
  for (int i = 0; i < count; ++i) {
    BodyDef b;
    b.name = "c" + std::to_string(i);
    b.shape.type = ShapeType::Box;
    b.shape.half_extents = {0.3, 0.3, 0.3};
    // Near: rows of 10 across the path, 0.7 m apart, starting 1 m ahead.
    // Far: a 1 m grid 50 m away.
    b.position = near ? Vec3{1.0 + 0.7 * (i / 10), 0.3, -3.15 + 0.7 * (i % 10)}
                      : Vec3{50.0 + (i % 40), 0.3, 50.0 + (i / 40)};
    b.dynamics.mass = 10;
    s.world.push_back(b);
  }
  InputKey walk;
  walk.wish_velocity = Vec2{2, 0};
  s.input.push_back(walk);
  return s;
}

void dynamic_cost(benchmark::State& state, bool near) {
  const int count = static_cast<int>(state.range(0));
  const Scenario scenario = crates(count, near);
  double seconds = 0.0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    SimulationResult result = simulate(scenario);
    benchmark::DoNotOptimize(result.trajectory.rows.data());
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  const double runs = static_cast<double>(state.iterations());
  state.counters["us_per_tick"] = 1e6 * seconds / runs / kTicks;
  if (count > 0) state.counters["us_per_body_tick"] = 1e6 * seconds / runs / kTicks / count;
}

}  // namespace

void register_dynamic_benchmarks() {
  for (const bool near : {true, false}) {
    const std::string name = std::string("dynamic/") + (near ? "near" : "far");
    benchmark::RegisterBenchmark(name.c_str(), dynamic_cost, near)
        ->Arg(0)
        ->Arg(10)
        ->Arg(100)
        ->Arg(1000)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace stepslide::bench
