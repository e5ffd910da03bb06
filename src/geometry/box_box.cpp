// Exact overlap of two boxes by separating axes (box_box.h). Computed
// in b's frame: b is the axis-aligned core [-hb, hb] there.
#include "geometry/box_box.h"

#include <cmath>
#include <limits>

namespace stepslide {

namespace {

/// Cross-product axes shorter than this come from parallel edges: the face
/// axes already cover them.
constexpr double kParallel = 1e-9;
/// An axis of `a` or an edge pair must separate by this much more than
/// `b`'s best face to be chosen: where they tie (a face resting on a face)
/// the world surface's normal is the answer the controller expects.
constexpr double kFaceBias = 1e-9;
/// Vertices within this of the deepest along the normal form the deepest feature.
constexpr double kSameDepth = 1e-9;

struct Boxes {
  btVector3 hb;
  btVector3 ha;
  btVector3 center;  ///< a's centre in b's frame
  btVector3 axis[3];  ///< a's axes in b's frame
};

/// Separation of the cores along unit `u` (b's frame), and the sign that
/// points from b toward a.
double separation_along(const Boxes& s, const btVector3& u, double* sign) {
  const double rb = s.hb.x() * std::fabs(u.x()) + s.hb.y() * std::fabs(u.y()) + s.hb.z() * std::fabs(u.z());
  const double ra = s.ha.x() * std::fabs(s.axis[0].dot(u)) + s.ha.y() * std::fabs(s.axis[1].dot(u)) +
                    s.ha.z() * std::fabs(s.axis[2].dot(u));
  const double d = s.center.dot(u);
  *sign = d >= 0.0 ? 1.0 : -1.0;
  return std::fabs(d) - ra - rb;
}

}  // namespace

ExactContact box_box_overlap(const btTransform& a, const btVector3& ha, double ra, const btTransform& b,
                             const btVector3& hb, double rb) {
  Boxes s;
  s.hb = hb;
  s.ha = ha;
  const btTransform relative = b.inverseTimes(a);
  s.center = relative.getOrigin();
  for (int i = 0; i < 3; ++i) s.axis[i] = relative.getBasis().getColumn(i);

  double best = -std::numeric_limits<double>::infinity();
  btVector3 normal(0, 1, 0);
  double sign = 1.0;
  for (int k = 0; k < 3; ++k) {  // b's faces first: they win ties
    btVector3 u(0, 0, 0);
    u[k] = 1.0;
    const double sep = separation_along(s, u, &sign);
    if (sep > best) {
      best = sep;
      normal = u * sign;
    }
  }
  const double face_best = best;
  for (int i = 0; i < 3; ++i) {
    const double sep = separation_along(s, s.axis[i], &sign);
    if (sep > face_best + kFaceBias && sep > best) {
      best = sep;
      normal = s.axis[i] * sign;
    }
  }
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < 3; ++i) {
      btVector3 unit(0, 0, 0);
      unit[k] = 1.0;
      btVector3 u = unit.cross(s.axis[i]);
      const double length = u.length();
      if (length <= kParallel) continue;
      u /= length;
      const double sep = separation_along(s, u, &sign);
      if (sep > face_best + kFaceBias && sep > best) {
        best = sep;
        normal = u * sign;
      }
    }
  }
  ExactContact overlap;
  if (best > 0.0) return overlap;  // cores apart
  overlap.answered = true;
  overlap.distance = best - ra - rb;
  // a's deepest feature toward b (its vertices least along the normal),
  // its middle carried onto b's core along the normal, then out by rb.
  double deepest = std::numeric_limits<double>::infinity();
  btVector3 vertices[8];
  for (int v = 0; v < 8; ++v) {
    vertices[v] = s.center + s.axis[0] * (v & 1 ? ha.x() : -ha.x()) + s.axis[1] * (v & 2 ? ha.y() : -ha.y()) +
                  s.axis[2] * (v & 4 ? ha.z() : -ha.z());
    deepest = std::min(deepest, vertices[v].dot(normal));
  }
  btVector3 sum(0, 0, 0);
  int count = 0;
  for (const btVector3& x : vertices) {
    if (x.dot(normal) > deepest + kSameDepth) continue;
    sum += x;
    ++count;
  }
  const btVector3 middle = sum / count;
  // b's support along the normal: its core's extent there.
  const double top = hb.x() * std::fabs(normal.x()) + hb.y() * std::fabs(normal.y()) + hb.z() * std::fabs(normal.z());
  const btVector3 on_b = middle + normal * (top - middle.dot(normal) + rb);
  overlap.normal = b.getBasis() * normal;
  overlap.point = b * on_b;
  return overlap;
}

}  // namespace stepslide
