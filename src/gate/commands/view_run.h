// `stepslide view` as one library call, so the command only declares its
// options and prints: reads the scenario and the reference, makes the page
// (view.h), writes it atomically and says what it did.
#pragma once

#include <string>

namespace stepslide {

struct ViewFileRequest {
  std::string scenario;
  std::string golden;  ///< reference given as --golden; "" when not given
  std::string other;   ///< reference given as --other; "" when not given (at most one of the two)
  std::string out;     ///< the page; "" for <scenario name>.view.html, "-" for stdout
  std::string ticks;   ///< "A..B"; "" for every tick
  bool trace = false;
};

struct ViewFileResult {
  std::string out;  ///< for stdout: the summary line, or the page itself with --out -
  std::string err;  ///< for stderr: errors, or the summary line with --out -
  int exit_code = 2;  ///< 0; 1 the page was written but the run differs or fails an expectation; 2 invalid input
};

/// Never throws; on invalid input writes nothing.
ViewFileResult view_scenario_file(const ViewFileRequest& request);

}  // namespace stepslide
