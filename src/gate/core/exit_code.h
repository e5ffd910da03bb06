// Process exit codes, the same for every command (docs/format.md §3).
#pragma once

namespace stepslide {

enum ExitCode : int {
  kExitOk = 0,       ///< success
  kExitFailure = 1,  ///< a regression, a failed expectation or a mismatch
  kExitInvalid = 2,  ///< invalid input or usage
  /// A product bug: a run produced a NaN or an infinity that the loader's
  /// limits should have made impossible (SimulationResult::error).
  kExitInternal = 3,
};

}  // namespace stepslide
