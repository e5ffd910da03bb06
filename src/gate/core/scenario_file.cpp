#include "gate/core/scenario_file.h"

#include <exception>
#include <utility>

#include "base/file_io.h"
#include "gate/core/metadata.h"

namespace stepslide {

namespace {

/// The run's trajectory with the `#` lines that say where it came from.
void attach_metadata(SimulationResult& result, const LoadedScenario& loaded, const std::string& fingerprint,
                     ControllerKind controller) {
  // The loader hashed every file it read (the scenario's text first): not hashed again here.
  result.trajectory.metadata = trajectory_metadata(loaded.load.scenario->name, loaded.load.inputs, fingerprint);
  if (controller != ControllerKind::Stepslide) {
    result.trajectory.metadata.push_back(std::string(" controller ") + controller_name(controller));
  }
}

}  // namespace

LoadedScenario load_scenario_keeping_bytes(const std::string& path, const LoadOptions& options) {
  LoadedScenario loaded;
  loaded.path = path;
  try {
    Expected<std::string> bytes = read_file(path, ScenarioLimits::max_file_bytes);
    if (!bytes) {
      loaded.load.errors.push_back(LoadError{path, "", bytes.error()});
      return loaded;
    }
    loaded.bytes = bytes.take();
    loaded.load = load_scenario_text(loaded.bytes, path, options);
  } catch (const std::exception& e) {
    loaded.load.scenario.reset();
    loaded.load.errors.push_back(LoadError{path, "", std::string("cannot load: ") + e.what()});
  }
  return loaded;
}

std::string format_expectation_failure(const ExpectationFailure& failure) {
  return failure.check + " at tick " + std::to_string(failure.tick) + ": " + failure.message;
}

std::string format_expectation_failures(const std::string& file, const std::vector<ExpectationFailure>& failures) {
  std::string text;
  for (const ExpectationFailure& failure : failures) text += file + ": " + format_expectation_failure(failure) + "\n";
  return text;
}

Expected<SimulationResult> simulate_with_metadata(const LoadedScenario& loaded, const std::string& fingerprint,
                                                  const SimulationOptions& options, bool* non_finite) {
  using Result = Expected<SimulationResult>;
  if (!loaded.valid()) return Result::failure(loaded.path + ": invalid scenario");
  try {
    SimulationResult result = simulate(*loaded.load.scenario, options);
    if (!result.error.empty()) {
      if (non_finite != nullptr) *non_finite = true;
      return Result::failure(loaded.path + ": internal error: " + result.error);
    }
    attach_metadata(result, loaded, fingerprint, options.controller);
    return result;
  } catch (const std::exception& e) {
    return Result::failure(loaded.path + ": simulation failed: " + e.what());
  } catch (...) {
    return Result::failure(loaded.path + ": simulation failed");
  }
}

}  // namespace stepslide
