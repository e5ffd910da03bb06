// A scenario file as the gate uses it: loaded and validated, with its bytes
// kept, since every trajectory written from it records their hash; and its
// run, with that metadata attached.
#pragma once

#include <string>
#include <vector>

#include "scenario/load/load.h"
#include "scenario/run/simulate.h"
#include "scenario/scenario.h"
#include "stepslide/expected.h"

namespace stepslide {

struct LoadedScenario {
  std::string path;
  std::string bytes;  ///< the file as read, hashed into metadata
  LoadResult load;    ///< load.scenario set when valid
  bool valid() const { return load.scenario.has_value(); }
};

/// Reads and validates one scenario file like load_scenario_file (load.h),
/// keeping the bytes for the metadata hash. Never throws.
LoadedScenario load_scenario_keeping_bytes(const std::string& path, const LoadOptions& options = {});


/// "/expect/2 at tick 120: message"
std::string format_expectation_failure(const ExpectationFailure& failure);

/// "FILE: /expect/2 at tick 120: message\n" for each failure.
std::string format_expectation_failures(const std::string& file, const std::vector<ExpectationFailure>& failures);

/// Simulates a valid scenario and attaches metadata (plus " controller NAME"
/// when it is not ours). Catches anything the simulation throws; the reason
/// for a failure starts with the scenario's path. A run that stopped at a
/// non-finite value fails with "PATH: internal error: tick N: column x is
/// nan (...)" and sets `*non_finite` (for exit code 3).
Expected<SimulationResult> simulate_with_metadata(const LoadedScenario& loaded, const std::string& fingerprint,
                                                  const SimulationOptions& options = {}, bool* non_finite = nullptr);

}  // namespace stepslide
