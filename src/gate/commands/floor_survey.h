// A level's floors on a grid, seen from above (`stepslide map`, `import`):
// every walkable upward-facing surface under each cell's centre, the edges
// where a floor ends (a wall or a ledge) and the risers between floors a
// step apart. Built from vertical rays (scenario/load/floor_probe.h), so it
// reads any body the scenario has, meshes and primitives alike, and surfaces
// facing down (a ceiling, the back of a roof) are never floors.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace stepslide {

class World;

/// Cells no finer than this by default, metres.
inline constexpr double kSurveyMinPitch = 0.25;
/// By default the longer side of the level gets at most this many cells.
inline constexpr int kSurveyMaxCells = 480;
/// Height jumps between neighbouring floors up to this are risers (steps,
/// ledges one could climb with a larger max_step_height); larger ones are walls.
inline constexpr double kSurveyMaxRiser = 1.0;

struct SurveyOptions {
  double pitch = 0.0;            ///< cell size, metres; 0: automatic
  std::optional<double> below;   ///< floors higher than this are left out
  std::optional<double> above;   ///< floors lower than this are left out
};

/// Where one floor meets a neighbouring cell without going on: a riser down
/// to a lower floor (`step`), or the floor's edge (a wall or a drop).
struct SurveyEdge {
  double x0 = 0, z0 = 0, x1 = 0, z1 = 0;  ///< the shared side of the two cells
  double y = 0;                           ///< the floor that ends here
  double riser = 0;                       ///< step: how far down the next floor is
  bool step = false;
};

struct SurveyFloor {
  double y = 0;          ///< height where the cell's centre line meets it
  double slope_deg = 0;  ///< within the character's max_slope_deg
};

struct FloorSurvey {
  double x0 = 0, z0 = 0;  ///< the corner of cell (0, 0)
  double pitch = 0;
  int nx = 0, nz = 0;
  /// Per cell (index j * nx + i, centre x0 + (i + 0.5) pitch, z0 + (j + 0.5) pitch):
  /// the walkable floors, lowest first.
  std::vector<std::vector<SurveyFloor>> floors;
  std::vector<SurveyEdge> edges;  ///< row by row, in cell order
  /// Riser heights to the millimetre -> how many cell sides show one.
  std::map<std::int64_t, std::int64_t> risers;
  double max_step_height = 0;  ///< the scenario character's
  double max_slope_deg = 0;
  double lowest = 0, highest = 0;  ///< of the floors kept; both 0 when there are none

  double centre_x(int i) const { return x0 + (i + 0.5) * pitch; }
  double centre_z(int j) const { return z0 + (j + 0.5) * pitch; }
};

/// Samples the world (bodies at tick 0) over its extent on X and Z.
FloorSurvey survey_floors(World& world, const Scenario& scenario, const SurveyOptions& options = {});

/// A floor height rounded to the centimetre and the area at it, square metres.
struct FloorLevel {
  double y = 0;
  double area = 0;
};

/// The floor heights covering at least `min_area` m², lowest first.
std::vector<FloorLevel> floor_levels(const FloorSurvey& survey, double min_area = 1.0);

/// "0.256 m ×40, 0.512 m ×12" (cell sides), highest count first, at most `most` of them; "none".
std::string riser_summary(const FloorSurvey& survey, std::size_t most = 6);

/// The riser height (metres) above max_step_height seen on the most cell
/// sides, when there is one: what max_step_height would have to be to climb it.
std::optional<double> common_riser_over_step(const FloorSurvey& survey);

/// A connected floor: cells whose floors go on into each other (no riser,
/// no edge between them), as (cell index, floor height) pairs.
struct FloorRegion {
  std::vector<std::pair<std::int64_t, double>> cells;
  double area = 0;
};

/// The connected floors, largest first (ties: the one met first, row by row).
std::vector<FloorRegion> floor_regions(const FloorSurvey& survey);

}  // namespace stepslide
