// The level as the top view draws it: every body's outline as polygons in the
// projection's plane, each with its height. Geometry comes from the Bullet
// world the runner builds (World), so what is drawn is what the character
// collided with.
#pragma once

#include <string>
#include <vector>

#include "gate/plot/geometry.h"
#include "scenario/load/world.h"
#include "scenario/scenario.h"

namespace stepslide::plot {

/// One filled polygon of the top view: a box, a stair step, a band of a ramp,
/// a mesh triangle or a heightfield cell.
struct Part {
  std::vector<P2> outline;  ///< convex, counter-clockwise
  double top = 0.0;         ///< highest point, for shading and drawing order
};

struct BodyDrawing {
  std::string name;
  bool moving = false;
  std::vector<Part> start;  ///< at tick 0
  std::vector<Part> end;    ///< at the last tick (same as start for static bodies)
  double top = -kInf;       ///< highest point at the last tick
};

/// Every body of `world` (built from `scenario`), lowest first: the order to
/// draw them in as seen from above. Each body's parts are lowest first too.
std::vector<BodyDrawing> level_drawings(const Frame& f, const Scenario& scenario, const World& world);

/// Andrew's monotone chain; counter-clockwise, no repeated points.
std::vector<P2> convex_hull(std::vector<P2> points);

}  // namespace stepslide::plot
