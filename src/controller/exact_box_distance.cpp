// Exact distance of two separated boxes (exact_box_distance.h). Computed in
// b's frame, where b is the axis-aligned core [-hb, hb].
#include "stepslide/exact_box_distance.h"

#include <algorithm>
#include <cmath>

#include "closest_points.h"

namespace stepslide {

namespace {

using detail::box_corner;
using detail::closest_on_segments;

btVector3 clamp_to(const btVector3& x, const btVector3& h) {
  return btVector3(std::clamp(x.x(), -h.x(), h.x()), std::clamp(x.y(), -h.y(), h.y()),
                   std::clamp(x.z(), -h.z(), h.z()));
}



/// Squared distance of the bounds of points p and q from the box [-h, h]: a
/// lower bound on the squared distance of anything between them from it.
double bounds_gap2(const btVector3& p, const btVector3& q, const btVector3& h) {
  double sum = 0.0;
  for (int k = 0; k < 3; ++k) {
    const double lo = std::min(p[k], q[k]), hi = std::max(p[k], q[k]);
    const double gap = std::max({0.0, lo - h[k], -h[k] - hi});
    sum += gap * gap;
  }
  return sum;
}

/// The closest pair found so far (in b's frame) and its squared distance.
struct Closest {
  double d2 = std::numeric_limits<double>::infinity();
  btVector3 on_a{0, 0, 0};
  btVector3 on_b{0, 0, 0};
  void consider(const btVector3& x, const btVector3& y) {
    const double d = (x - y).length2();
    if (d < d2) {
      d2 = d;
      on_a = x;
      on_b = y;
    }
  }
};

}  // namespace

BoxBoxDistance box_box_distance(const btTransform& a, const btVector3& ha, double ra, const btTransform& b,
                                const btVector3& hb, double rb, double cutoff, double touching) {
  BoxBoxDistance result;
  const btTransform a_in_b = b.inverseTimes(a);
  btVector3 va[8];
  for (int v = 0; v < 8; ++v) va[v] = a_in_b * box_corner(ha, v);
  // The bounds of a in b's frame against b: a lower bound on the distance.
  btVector3 low = va[0], high = va[0];
  for (int v = 1; v < 8; ++v) {
    low.setMin(va[v]);
    high.setMax(va[v]);
  }
  const double bound = std::sqrt(bounds_gap2(low, high, hb));
  if (bound - ra - rb > cutoff) {
    result.beyond = true;
    result.distance = bound - ra - rb;
    return result;
  }
  // b's vertices in a's frame, for a's solid.
  const btTransform b_in_a = a.inverseTimes(b);
  Closest best;
  for (int v = 0; v < 8; ++v) best.consider(va[v], clamp_to(va[v], hb));
  for (int v = 0; v < 8; ++v) {
    const btVector3 vb = b_in_a * box_corner(hb, v);
    const btVector3 on_a = clamp_to(vb, ha);
    if ((vb - on_a).length2() < best.d2) best.consider(a_in_b * on_a, box_corner(hb, v));
  }
  // Edge pairs, each edge once from its low corner; an edge of a whose
  // bounds are no nearer b than the best found cannot improve on it.
  for (int k = 0; k < 3; ++k) {
    for (int v = 0; v < 8; ++v) {
      if (v & (1 << k)) continue;
      const btVector3& p = va[v];
      const btVector3& q = va[v | (1 << k)];
      if (bounds_gap2(p, q, hb) >= best.d2) continue;
      for (int m = 0; m < 3; ++m) {
        for (int w = 0; w < 8; ++w) {
          if (w & (1 << m)) continue;
          btVector3 x, y;
          closest_on_segments(p, q, box_corner(hb, w), box_corner(hb, w | (1 << m)), &x, &y);
          best.consider(x, y);
        }
      }
    }
  }
  const double core = std::sqrt(best.d2);
  if (!(core > touching)) return result;
  const btVector3 normal = (best.on_a - best.on_b) / core;
  result.separated = true;
  result.distance = core - ra - rb;
  result.normal = b.getBasis() * normal;
  result.point = b * (best.on_b + normal * rb);
  return result;
}

}  // namespace stepslide
