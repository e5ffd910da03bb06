// stepslide_bench: Google Benchmark's main, plus --scenarios=DIR and the
// benchmarks registered at run time from the scenarios found there.
#include <benchmark/benchmark.h>

#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "bench_support.h"

namespace stepslide::bench {
void register_scenario_benchmarks(const std::vector<NamedScenario>& scenarios);
void register_iteration_benchmarks();
void register_world_size_benchmarks();
void register_limits_benchmarks();
void register_level_benchmarks();
void register_dynamic_benchmarks();
void register_characters_benchmarks();
}  // namespace stepslide::bench

namespace {

constexpr const char* kScenariosFlag = "--scenarios=";

/// Takes --scenarios=DIR out of argv (Google Benchmark rejects flags it does
/// not know) and returns it, or "" when absent.
std::string take_scenarios_flag(int* argc, char** argv) {
  std::string dir;
  int kept = 0;
  for (int i = 0; i < *argc; ++i) {
    if (i > 0 && std::strncmp(argv[i], kScenariosFlag, std::strlen(kScenariosFlag)) == 0) {
      dir = argv[i] + std::strlen(kScenariosFlag);
    } else {
      argv[kept++] = argv[i];
    }
  }
  *argc = kept;
  return dir;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace stepslide::bench;
  const std::string dir = take_scenarios_flag(&argc, argv);
  if (!dir.empty()) set_scenario_dir(dir);

  // Kept alive for the whole run: the registered benchmarks refer to them.
  static const std::vector<NamedScenario> scenarios = load_scenarios(scenario_dir());
  if (scenarios.empty()) std::cerr << "stepslide_bench: no scenarios found in " << scenario_dir() << "\n";
  register_scenario_benchmarks(scenarios);
  register_iteration_benchmarks();
  register_world_size_benchmarks();
  register_limits_benchmarks();
  register_level_benchmarks();
  register_dynamic_benchmarks();
  register_characters_benchmarks();

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
    std::cerr << "stepslide_bench: also accepts " << kScenariosFlag << "DIR (default " << STEPSLIDE_SCENARIO_DIR
              << ")\n";
    return 2;
  }
  benchmark::AddCustomContext("scenarios", scenario_dir());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
