// A trajectory as the pictures read it: each row projected, the distance
// travelled, airborne rows and step events, whatever columns it has beyond
// x, y and z.
#pragma once

#include <LinearMath/btVector3.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "gate/plot/geometry.h"
#include "gate/plot/plot.h"
#include "scenario/scenario.h"

namespace stepslide::plot {

struct TraceData {
  std::string label;
  std::vector<btVector3> feet;    ///< the row's position
  std::vector<P2> plane;          ///< (right, down) per row
  std::vector<double> height;     ///< along up
  std::vector<double> distance;   ///< horizontal distance travelled up to the row
  std::vector<double> time;       ///< the time column, or tick / tick rate
  std::vector<double> tick;       ///< the tick column, or the row index
  std::vector<bool> valid;        ///< position finite
  std::vector<bool> airborne;     ///< grounded == 0 (false when the column is absent)
  int airborne_rows = 0;
  /// Horizontal speed of the feet from their positions (m/s): the distance
  /// over the ground since the row before over the time between them; NaN
  /// on the first row and next to a row that is not valid.
  std::vector<double> speed;
  std::vector<double> camera;     ///< camera_dy; NaN when the column is absent
  std::vector<bool> stuck;        ///< stuck != 0 (false when the column is absent)
  bool has_grounded = false, has_camera = false, has_stuck = false;  ///< which of those columns it has
  /// A step: consecutive rows whose step_dy has the same sign (a capsule
  /// rolls over a stair edge in several small steps).
  struct Step {
    std::size_t first = 0, last = 0;
    double total = 0.0;
  };
  std::vector<Step> steps;
  std::size_t steps_up() const;
};

/// `trace` projected with `f`. `tick_rate` gives the time of rows without a
/// time column.
TraceData trace_data(const Frame& f, const PlotTrace& trace, int tick_rate);

/// Rows [first, last] of the run over which the feet did not move over the
/// ground (horizontal speed below kStillSpeed), lasting at least half a second.
struct StillStretch {
  std::size_t first = 0, last = 0;
  /// The stick (or wish velocity) asked to move on every tick of it: a stall,
  /// not a rest.
  bool pushed = false;
};

/// Horizontal speed (m/s) below which the feet count as still: the
/// controller's default stop_speed.
constexpr double kStillSpeed = 0.01;

/// Per row of `run`: whether the input that produced it (the input of tick
/// `tick - 1`, keys holding their values) moved the stick or wished a velocity.
std::vector<bool> stick_pushed(const Scenario& scenario, const TraceData& run);

/// The run's still stretches; `pushed` is stick_pushed() of the run.
std::vector<StillStretch> still_stretches(const TraceData& run, const std::vector<bool>& pushed);

/// Row ranges [first, last] covering each airborne stretch together with the
/// rows that leave and reach the ground; stretches that share a row are one.
std::vector<std::pair<std::size_t, std::size_t>> airborne_stretches(const TraceData& t);

}  // namespace stepslide::plot
