// The work limits of docs/format.md §1.5 at their worst: what a
// run costs per million moving body-ticks, what building the largest world
// costs, and what one tick costs with everything piled under the feet. Each
// case is one whole simulate() (world build included) per iteration, timed
// on the wall clock, with counters:
//   s_per_M_body_ticks  seconds per million moving body-ticks (moving cases)
//   s_per_tick          seconds per tick, build excluded (pile cases)
//   build_s             seconds to build the world alone
//   cpu_*               the same in this process's CPU time, which other
//                       processes on a shared machine do not inflate
// limits/<what>/<placement>. Few, long iterations: run with
// --benchmark_filter=^limits/ and read the counters.
#include <chrono>
#include <functional>
#include <memory>
#include <time.h>

#include "bench_support.h"
#include "scenario/load/world.h"

namespace stepslide::bench {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// This process's CPU time: on a shared machine, wall time also counts the
/// time other processes had the core.
double cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

BodyDef box(Vec3 centre, Vec3 half) {
  BodyDef b;
  b.shape.type = ShapeType::Box;
  b.shape.half_extents = half;
  b.position = centre;
  return b;
}

/// `count` bodies with `motion`, all at one place (`together`) or on a 2 m grid
/// away from the character.
Scenario movers(int count, bool together, const MotionDef& motion, std::int64_t ticks) {
  Scenario s;
  s.ticks = ticks;
  s.world.push_back(floor_box(50));
  for (int i = 0; i < count; ++i) {
    const Vec3 at = together ? Vec3{10, 1, 10} : Vec3{10.0 + 2.0 * (i % 200), 1, 10.0 + 2.0 * (i / 200)};
    BodyDef b = box(at, {0.4, 0.4, 0.4});
    b.motion = motion;
    if (motion.type == MotionType::Keyframes) {
      for (MotionKey& key : b.motion.keys) key.position = {at[0] + key.position[0], at[1], at[2]};
    }
    s.world.push_back(b);
  }
  InputKey walk;
  walk.tick = 0;
  walk.move = Vec2{0, 1};
  s.input = {walk};
  return s;
}

MotionDef linear() {
  MotionDef m;
  m.type = MotionType::Linear;
  m.velocity = {0.5, 0, 0.25};
  return m;
}

MotionDef spin() {
  MotionDef m;
  m.type = MotionType::Spin;
  m.axis = {0, 1, 0};
  m.deg_per_s = 90;
  return m;
}

/// A keyframed path of `keys` keys, one every 2 ticks.
MotionDef keyframes(int keys) {
  MotionDef m;
  m.type = MotionType::Keyframes;
  for (int i = 0; i < keys; ++i) {
    MotionKey key;
    key.tick = 2 * (i + 1);
    key.position = {0.01 * (i % 50), 0, 0};
    key.rotation_deg = {0, 3.0 * i, 0};
    m.keys.push_back(key);
  }
  return m;
}

/// `count` copies of a box under the feet.
Scenario pile(int count) {
  Scenario s;
  s.ticks = 2;
  for (int i = 0; i < count; ++i) s.world.push_back(box({0, -0.5, 0}, {2, 0.5, 2}));
  return s;
}

/// One mesh of `count` distinct triangles stacked 1 um apart under the feet:
/// within the repeated-triangle rule, as dense as a mesh can be.
Scenario stacked_triangles(int count) {
  Scenario s;
  s.ticks = 2;
  BodyDef mesh;
  mesh.shape.type = ShapeType::Mesh;
  for (int i = 0; i < count; ++i) {
    const double y = -1e-6 * i;
    const auto base = static_cast<std::int32_t>(mesh.shape.vertices.size());
    mesh.shape.vertices.push_back({-2, y, -2});
    mesh.shape.vertices.push_back({2, y, -2});
    mesh.shape.vertices.push_back({0, y, 2});
    mesh.shape.triangles.push_back({base, base + 1, base + 2});
  }
  s.world.push_back(mesh);
  return s;
}

std::int64_t moving_body_ticks(const Scenario& s) {
  std::int64_t moving = 0;
  for (const BodyDef& b : s.world) moving += b.motion.type != MotionType::None ? 1 : 0;
  return moving * s.ticks;
}

/// Scenarios are made when their benchmark runs, not when it is registered:
/// together they hold gigabytes.
void run_case(benchmark::State& state, const std::function<Scenario()>& make) {
  const auto scenario = std::make_shared<const Scenario>(make());
  double build = 0.0, total = 0.0, cpu_build = 0.0, cpu_total = 0.0;
  std::int64_t runs = 0;
  for (auto _ : state) {
    const Clock::time_point built_from = Clock::now();
    const double cpu_built_from = cpu_seconds();
    { World world(*scenario); }
    build += seconds_since(built_from);
    cpu_build += cpu_seconds() - cpu_built_from;
    const Clock::time_point from = Clock::now();
    const double cpu_from = cpu_seconds();
    const SimulationResult result = simulate(*scenario);
    const double run_s = seconds_since(from);
    cpu_total += cpu_seconds() - cpu_from;
    benchmark::DoNotOptimize(result.trajectory.rows.data());
    state.SetIterationTime(run_s);
    total += run_s;
    ++runs;
  }
  if (runs == 0) return;
  const double n = static_cast<double>(runs);
  const double ticks = static_cast<double>(scenario->ticks);
  state.counters["build_s"] = build / n;
  state.counters["s_per_tick"] = (total - build) / n / ticks;
  state.counters["cpu_s_per_tick"] = (cpu_total - cpu_build) / n / ticks;
  const std::int64_t body_ticks = moving_body_ticks(*scenario);
  if (body_ticks > 0) {
    const double millions = static_cast<double>(body_ticks) / 1e6;
    state.counters["s_per_M_body_ticks"] = total / n / millions;
    state.counters["cpu_s_per_M_body_ticks"] = cpu_total / n / millions;
  }
  state.counters["bodies"] = static_cast<double>(scenario->world.size());
}

void add(const std::string& name, std::function<Scenario()> make) {
  benchmark::RegisterBenchmark(name.c_str(), run_case, std::move(make))
      ->Iterations(1)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

void register_limits_benchmarks() {
  // Moving bodies: 2 million body-ticks each.
  add("limits/moving/linear/together", [] { return movers(20000, true, linear(), 100); });
  add("limits/moving/linear/grid", [] { return movers(20000, false, linear(), 100); });
  add("limits/moving/spin/together", [] { return movers(20000, true, spin(), 100); });
  add("limits/moving/keyframes_1000/grid", [] { return movers(2000, false, keyframes(1000), 1000); });
  add("limits/moving/keyframes_1000/together", [] { return movers(2000, true, keyframes(1000), 1000); });
  // One body with about the most keys a 64 MiB file can hold.
  add("limits/moving/keyframes_1000000/one", [] { return movers(1, false, keyframes(1000000), 20000); });
  // The body limit piled under the feet: the build, and a tick among them all.
  add("limits/pile/boxes/200000", [] { return pile(200000); });
  // Distinct triangles stacked under the feet.
  add("limits/pile/triangles/100000", [] { return stacked_triangles(100000); });
  add("limits/pile/triangles/1000000", [] { return stacked_triangles(1000000); });
}

}  // namespace stepslide::bench
