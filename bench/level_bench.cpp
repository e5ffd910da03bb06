// Bringing a level in: a 100 000-triangle glTF binary (a 224 x 224 grid,
// 100 352 triangles, written at start into a temporary directory) through
//   level/import_glb:        Assimp + node transforms + welding + cleaning (mesh_import.h);
//   level/load_scenario:     the whole loader on a scenario that references the
//                            file, with "place": "on_floor" (builds a world to drop into);
//   level/load_and_world:    that, plus the World the runner builds: everything
//                            `stepslide run` does before its first tick.
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "bench_support.h"
#include "scenario/load.h"
#include "scenario/mesh_import.h"
#include "scenario/world.h"
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

}  // namespace

}  // namespace stepslide::bench
