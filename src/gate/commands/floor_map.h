// `stepslide map` as one library call: a level or a scenario in, an SVG floor
// map out — the walkable floors seen from above, coloured by height, their
// edges (walls and drops), the risers between them labelled with their
// heights, a coordinate grid, the level's spawn points, and the scenario's
// start and steering targets.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gate/commands/floor_survey.h"
#include "gate/core/exit_code.h"

namespace stepslide {

struct MapRequest {
  std::string source;  ///< a scenario, a level file or a mesh file
  std::string out;     ///< the SVG to write; "": LEVEL's name with .svg beside it
  double pitch = 0.0;  ///< cell size, metres; 0: automatic
  std::optional<double> below, above;  ///< keep only the floors in this band
  bool allow_outside = false;
};

struct MapResult {
  int exit_code = kExitOk;
  std::string errors;  ///< stderr text, with exit 2
  std::string text;    ///< what was written and what the level holds, for stdout
};

/// A point to mark on the map.
struct MapMarker {
  double x = 0, z = 0;
  std::string label;  ///< "start", "target 1", a spawn point's name, ...
  bool spawn = false; ///< a spawn point the level file names: a green diamond, not a red dot
};

/// The SVG: +X to the right, +Z down (looking down on the level from above).
/// Floors are filled by height (lowest blue to highest yellow); a floor with
/// another floor under it in the same cell is drawn over it half transparent,
/// so the floor beneath shows through; edges are dark lines, risers orange
/// with their height in metres. Markers: red dots (start, targets), green
/// diamonds (spawn points), each labelled with its name and (x, z).
std::string floor_map_svg(const FloorSurvey& survey, const std::vector<MapMarker>& markers, const std::string& title);

/// "floors (walkable, y: area): -0.51 m: 220 m², 0 m: 120 m²" lines and the risers, for stdout.
std::string survey_report(const FloorSurvey& survey);

MapResult map_level(const MapRequest& request);

}  // namespace stepslide
