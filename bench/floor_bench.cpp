// The floor cost: one capsule sweep, the unit everything else is made of, as
// the world grows. Two sweeps, through the same adapter our controller uses
// (CollisionQueries::sweep), with the default capsule 2 mm above a floor:
//   walk:  5 cm along the floor; touches nothing (a walking step on flat ground);
//   probe: 0.37 m down; hits the floor after 2 mm (the ground probe).
// Against:
//   sweep_floor/<kind>/bodies/N: a floor box plus N-1 static boxes scattered
//   around (constant density, so the world's extent grows with N);
//   sweep_floor/<kind>/mesh_triangles/T: a floor of T triangles (0.5 m cells;
//   the mesh grows, the cells under the capsule do not).
#include <memory>

#include "bench_support.h"
#include "scenario/load/world.h"
#include "stepslide/collision.h"

namespace stepslide::bench {

namespace {

constexpr double kClearance = 0.002;

enum class SweepKind { Walk, Probe };

/// n x n cells of 0.5 m, centred on the origin at height 0.
BodyDef floor_mesh(int cells) {
  BodyDef mesh;
  mesh.shape.type = ShapeType::Mesh;
  const double size = 0.5, half = 0.5 * size * cells;
  for (int i = 0; i <= cells; ++i) {
    for (int j = 0; j <= cells; ++j) mesh.shape.vertices.push_back({i * size - half, 0.0, j * size - half});
  }
  auto index = [cells](int i, int j) { return static_cast<std::int32_t>(i * (cells + 1) + j); };
  for (int i = 0; i < cells; ++i) {
    for (int j = 0; j < cells; ++j) {
      mesh.shape.triangles.push_back({index(i, j), index(i, j + 1), index(i + 1, j + 1)});
      mesh.shape.triangles.push_back({index(i, j), index(i + 1, j + 1), index(i + 1, j)});
    }
  }
  return mesh;
}

/// Times one sweep of the default capsule from 2 mm above height 0 at (0.1, 0.1).
void time_sweep(benchmark::State& state, const Scenario& scenario, SweepKind kind) {
  World world(scenario);
  CollisionQueries queries(world.collision_world(), nullptr);
  btCapsuleShape capsule(0.3, 1.2);
  const btTransform from(btQuaternion::getIdentity(), btVector3(0.1, 0.9 + kClearance, 0.1));
  const btVector3 motion = kind == SweepKind::Walk ? btVector3(0.05, 0, 0) : btVector3(0, -0.37, 0);
  const btVector3 to = from.getOrigin() + motion;
  const bool hits = queries.sweep(&capsule, from, to).hit;
  if (hits != (kind == SweepKind::Probe)) state.SkipWithError("the sweep does not do what it should");
  for (auto _ : state) {
    SweepHit hit = queries.sweep(&capsule, from, to);
    benchmark::DoNotOptimize(hit);
  }
  state.counters["bodies"] = static_cast<double>(world.bodies().size());
}

void BM_SweepFloorBodies(benchmark::State& state, SweepKind kind) {
  Scenario scenario;
  scenario.world.push_back(floor_box(10));
  const std::vector<BodyDef> clutter =
      scatter_boxes(static_cast<int>(state.range(0)) - 1, Area{-12, -12, 12, 12});
  scenario.world.insert(scenario.world.end(), clutter.begin(), clutter.end());
  time_sweep(state, scenario, kind);
}

void BM_SweepFloorMesh(benchmark::State& state, SweepKind kind) {
  // range(0) is the triangle count: 2 per cell.
  int cells = 1;
  while (2 * cells * cells < state.range(0)) ++cells;
  Scenario scenario;
  scenario.world.push_back(floor_mesh(cells));
  state.counters["triangles"] = static_cast<double>(2 * cells * cells);
  time_sweep(state, scenario, kind);
}

}  // namespace

BENCHMARK_CAPTURE(BM_SweepFloorBodies, walk, SweepKind::Walk)
    ->Name("sweep_floor/walk/bodies")
    ->Arg(10)->Arg(1000)->Arg(10000)->Arg(100000)
    ->ComputeStatistics("min", min_of);
BENCHMARK_CAPTURE(BM_SweepFloorBodies, probe, SweepKind::Probe)
    ->Name("sweep_floor/probe/bodies")
    ->Arg(10)->Arg(1000)->Arg(10000)->Arg(100000)
    ->ComputeStatistics("min", min_of);
BENCHMARK_CAPTURE(BM_SweepFloorMesh, walk, SweepKind::Walk)
    ->Name("sweep_floor/walk/mesh_triangles")
    ->Arg(128)->Arg(2048)->Arg(32768)->Arg(524288)
    ->ComputeStatistics("min", min_of);
BENCHMARK_CAPTURE(BM_SweepFloorMesh, probe, SweepKind::Probe)
    ->Name("sweep_floor/probe/mesh_triangles")
    ->Arg(128)->Arg(2048)->Arg(32768)->Arg(524288)
    ->ComputeStatistics("min", min_of);

}  // namespace stepslide::bench
