#include "gate/plot/geometry.h"

#include <cmath>

namespace stepslide::plot {

namespace {

/// "x", "-y", ... when `v` lies along a world axis, else "".
std::string axis_name(const btVector3& v) {
  const char* names[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    if (std::fabs(v[i] - 1.0) < 1e-9) return names[i];
    if (std::fabs(v[i] + 1.0) < 1e-9) return std::string("-") + names[i];
  }
  return "";
}

}  // namespace

Frame make_frame(const Vec3& up_vector) {
  Frame f;
  f.up = btVector3(up_vector[0], up_vector[1], up_vector[2]).normalized();
  const btVector3 x(1, 0, 0), z(0, 0, 1);
  const btVector3 seed = std::fabs(f.up.dot(x)) < 0.9 ? x : z;
  f.right = (seed - f.up * seed.dot(f.up)).normalized();
  f.down = f.right.cross(f.up);
  f.right_name = axis_name(f.right);
  f.down_name = axis_name(f.down);
  f.up_name = axis_name(f.up);
  return f;
}

P2 plane_of(const Frame& f, const btVector3& p) { return {p.dot(f.right), p.dot(f.down)}; }

Box padded(Box box, double fraction, double min_pad, double min_size) {
  if (box.empty()) box = Box{-1, -1, 1, 1};
  const double pad_x = std::max(min_pad, fraction * box.width());
  const double pad_y = std::max(min_pad, fraction * box.height());
  box = Box{box.x0 - pad_x, box.y0 - pad_y, box.x1 + pad_x, box.y1 + pad_y};
  const double grow_x = std::max(0.0, min_size - box.width()) / 2, grow_y = std::max(0.0, min_size - box.height()) / 2;
  return Box{box.x0 - grow_x, box.y0 - grow_y, box.x1 + grow_x, box.y1 + grow_y};
}

}  // namespace stepslide::plot
