// Process exit codes, the same for every command (SPEC §3).
#pragma once

namespace stepslide {

enum ExitCode : int {
  kExitOk = 0,       ///< success
  kExitFailure = 1,  ///< a regression, a failed expectation or a mismatch
  kExitInvalid = 2,  ///< invalid input or usage
};

}  // namespace stepslide
