// A trajectory as the pictures read it: each row projected, the distance
// travelled, airborne rows and step events, whatever columns it has beyond
// x, y and z.
#pragma once

#include <LinearMath/btVector3.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "gate/plot.h"
#include "gate/plot_geometry.h"

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

/// Row ranges [first, last] covering each airborne stretch together with the
/// rows that leave and reach the ground.
std::vector<std::pair<std::size_t, std::size_t>> airborne_stretches(const TraceData& t);

}  // namespace stepslide::plot
