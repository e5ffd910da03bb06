// The level as the top view draws it: every body's outline as polygons in the
// projection's plane, each with its height. Geometry comes from the Bullet
// world the runner builds (World), so what is drawn is what the character
// collided with. A mesh (a level, a yard, a corner) is cut open at the
// character: its floors are drawn up to the head of the run's nearest
// sample, what is higher only faintly beneath them (so a roof or an upper
// floor hides nothing), and its walls as lines where they cross the
// character's waist.
#pragma once

#include <string>
#include <vector>

#include "gate/plot/geometry.h"
#include "gate/plot/traces.h"
#include "scenario/load/world.h"
#include "scenario/scenario.h"

namespace stepslide::plot {

/// One filled polygon of the top view: a box, a stair step, a band of a ramp,
/// a mesh triangle or a heightfield cell.
struct Part {
  std::vector<P2> outline;  ///< convex, counter-clockwise
  double top = 0.0;         ///< highest point (a cut mesh's triangle: its middle), for shading and drawing order
  /// A mesh's surface above the head of the run's nearest sample: a roof,
  /// an upper floor, a stair overhead. Drawn faint, under the floors.
  bool overhead = false;
};

/// A line of the top view, e.g. where a wall crosses the character's waist.
struct Segment {
  P2 a, b;
};

struct BodyDrawing {
  std::string name;
  bool moving = false;
  std::vector<Part> start;  ///< at tick 0
  std::vector<Part> end;    ///< at the last tick (same as start for static bodies)
  /// A dynamic body's poses at rows sampled between the first and the last
  /// (body_marks.h), drawn faintly; empty for every other body.
  std::vector<std::vector<Part>> samples;
  double top = -kInf;       ///< highest point at the last tick
  /// A mesh cut open at the character (see above): `extent` outlines all
  /// its vertices, `walls` are where its steep triangles cross the waist of
  /// the run's nearest sample (at the last tick).
  bool cut = false;
  std::vector<P2> extent;
  std::vector<Segment> walls;
};

/// Where the top view cuts meshes: the runs' feet, each with its height.
struct CutSamples {
  std::vector<P2> plane;      ///< the feet in the plane
  std::vector<double> feet;   ///< their height along up
  double head = 0.0;          ///< the character's height: above feet + head is overhead
  double waist = 0.0;         ///< feet to the character's centre: walls are cut there
  bool empty() const { return plane.empty(); }
  /// The sample nearest to `p` in the plane (the first of equals); empty() must be false.
  std::size_t nearest(const P2& p) const;
};

/// The valid rows of every trace, at most `max_samples` of them (evenly
/// spaced), with the character's height and centre.
CutSamples cut_samples(const std::vector<TraceData>& traces, const ShapeDef& character, std::size_t max_samples);

/// Every body of `world` (built from `scenario`), lowest first: the order to
/// draw them in as seen from above. Each body's parts are lowest first too
/// (a cut mesh's overhead parts before its floors). Meshes are cut at
/// `cut` (drawn whole when it is empty), keeping only the triangles that
/// reach into `view` (all when it is empty).
std::vector<BodyDrawing> level_drawings(const Frame& f, const Scenario& scenario, const World& world,
                                        const CutSamples& cut, const Box& view);

/// The parts of a Bullet shape posed at `pose` (compound children one by
/// one, convex shapes by their points; others by their bounding box).
std::vector<Part> shape_parts(const Frame& f, const btCollisionShape* shape, const btTransform& pose);

/// Andrew's monotone chain; counter-clockwise, no repeated points.
std::vector<P2> convex_hull(std::vector<P2> points);

}  // namespace stepslide::plot
