// From the world to the page. The projection splits a world point into a
// point of the top view's plane (right, down) and a height along up; a panel
// maps a box of that plane (or of distance/time against height) to pixels.
#pragma once

#include <LinearMath/btVector3.h>

#include <algorithm>
#include <limits>
#include <string>

#include "gate/plot/svg_writer.h"
#include "scenario/scenario.h"

namespace stepslide::plot {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// The projection: `right` to the right of the page, `down` down the page, `up` out of it.
struct Frame {
  btVector3 up, right, down;
  std::string right_name, down_name, up_name;  ///< "x", "-z", ...; "" when not along an axis
};

/// Seen from above with Y up: x to the right, +z down the page, so forward
/// (-z, yaw 0) points up the page.
Frame make_frame(const Vec3& up_vector);

/// `p` in the top view's plane.
P2 plane_of(const Frame& f, const btVector3& p);

/// An axis-aligned box; empty until a point is added.
struct Box {
  double x0 = kInf, y0 = kInf, x1 = -kInf, y1 = -kInf;
  void add(double x, double y) {
    x0 = std::min(x0, x);
    y0 = std::min(y0, y);
    x1 = std::max(x1, x);
    y1 = std::max(y1, y);
  }
  bool empty() const { return !(x0 <= x1 && y0 <= y1); }
  double width() const { return x1 - x0; }
  double height() const { return y1 - y0; }
};

/// Pads `box` by `fraction` of its size, at least `min_pad`, then grows it to
/// at least `min_size` on each side. An empty box becomes [-1, 1]² first.
Box padded(Box box, double fraction, double min_pad, double min_size);

/// World units to pixels for one panel. `flip_y`: larger values go up the page.
struct Panel {
  double left = 0, top = 0, width = 0, height = 0;
  Box world;
  bool flip_y = false;
  P2 to_px(double x, double y) const {
    const double sx = width / world.width(), sy = height / world.height();
    return {left + (x - world.x0) * sx, flip_y ? top + (world.y1 - y) * sy : top + (y - world.y0) * sy};
  }
};

}  // namespace stepslide::plot
