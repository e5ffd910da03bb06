// `stepslide fuzz --replay`: the invariants checked again on scenario files,
// such as the findings a campaign saved.
#pragma once

#include <string>
#include <vector>

namespace stepslide {

struct ReplayResult {
  /// "ok FILE (N ticks)" or "VIOLATION FILE: kind at tick T: ..." lines, then
  /// "replayed N files: K ok, V with violations, I invalid".
  std::string report;
  std::string errors;  ///< load errors of invalid files, one per line
  bool any_invalid = false;
  bool any_violation = false;
};

/// Loads each file and checks its invariants, in the order given.
ReplayResult replay_scenarios(const std::vector<std::string>& files);

}  // namespace stepslide
