// libFuzzer target: scenario text in, the loader's contract checked, and a
// valid scenario simulated for a few ticks. Built only with STEPSLIDE_FUZZ=ON
// and clang (fuzz/CMakeLists.txt); run by tools/fuzz-loader.sh.
//
// The contract, from scenario/load/load.h and docs/format.md §3: the loader never throws or
// crashes; it returns a scenario or errors, never both; every error names the
// file and a JSON Pointer ("" or starting with '/') and says something. A
// valid scenario must simulate to finite numbers.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "scenario/load/load.h"
#include "scenario/run/simulate.h"
#include "scenario/scenario.h"

namespace {

constexpr const char* kLabel = "fuzz.json";
/// Valid inputs are simulated this far: enough to build the world, move
/// kinematic bodies and run every controller stage, short enough to keep
/// thousands of executions a second.
constexpr std::int64_t kTicks = 4;

[[noreturn]] void broken(const std::string& what) {
  std::fprintf(stderr, "contract broken: %s\n", what.c_str());
  std::abort();
}

void check_errors(const stepslide::LoadResult& result) {
  if (result.scenario.has_value() == !result.errors.empty()) broken("a scenario and errors, or neither");
  for (const stepslide::LoadError& e : result.errors) {
    if (e.file != kLabel) broken("error names file '" + e.file + "'");
    if (e.message.empty()) broken("empty message at '" + e.json_path + "'");
    if (!e.json_path.empty() && e.json_path[0] != '/') broken("not a JSON Pointer: '" + e.json_path + "'");
    if (stepslide::format_error(e).rfind(std::string(kLabel) + ": ", 0) != 0) broken("format_error lost the file");
  }
}

void simulate_briefly(stepslide::Scenario scenario) {
  scenario.ticks = std::min(scenario.ticks, kTicks);
  scenario.expect.clear();  // their ticks may lie past the shortened run
  const stepslide::SimulationResult result = stepslide::simulate(scenario);
  // The runner stops at the first non-finite row and says so in `error`.
  if (!result.error.empty()) broken("a valid scenario simulated to a non-finite number: " + result.error);
  for (const auto& row : result.trajectory.rows) {
    for (double value : row) {
      if (!std::isfinite(value)) broken("a valid scenario simulated to a non-finite number");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  stepslide::LoadResult result;
  try {
    result = stepslide::load_scenario_text(text, kLabel);
  } catch (...) {
    broken("load_scenario_text threw");
  }
  check_errors(result);
  if (result.scenario) simulate_briefly(*result.scenario);
  return 0;
}
