// `stepslide probe` as one library call: a scenario and a point in, the floors
// under it (scenario/load/floor_probe.h) as text out.
#pragma once

#include <string>

#include "gate/core/exit_code.h"

namespace stepslide {

struct ProbeRequest {
  std::string scenario;  ///< the scenario file, or a level or mesh file (gate/commands/level_source.h)
  std::string at;        ///< "X,Z"
  bool allow_outside = false;
};

struct ProbeResult {
  int exit_code = kExitOk;  ///< 2 for an invalid scenario or --at
  std::string errors;       ///< stderr text, with exit 2
  std::string text;         ///< the floors, for stdout
};

/// Loads the scenario (its levels and meshes, bodies at tick 0) and lists
/// every upward-facing surface under (X, Z), top to bottom:
///   "floors under x=1 z=-2 in walk.json, top to bottom:"
///   "  y 3.2  normal (0, 1, 0)  slope 0 deg  walkable  body house/Floor2"
/// or "  (none)". Exit 0 either way: an empty column is an answer.
ProbeResult probe_scenario_file(const ProbeRequest& request);

}  // namespace stepslide
