// Exact distance of two separated boxes (box_distance.h). Computed in
// b's frame, where b is the axis-aligned core [-hb, hb].
#include "geometry/box_distance.h"

#include <algorithm>
#include <cmath>

#include "geometry/closest_points.h"

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

/// Corners within this of a box's nearest along the normal form its nearest feature.
constexpr double kSameFeature = 1e-9;

/// The corners of [-h, h] (as `corners`, in some frame) least along `n`:
/// a bit mask of their indices, and how many.
unsigned nearest_feature(const btVector3 corners[8], const btVector3& n, int* count) {
  double least = std::numeric_limits<double>::infinity();
  for (int v = 0; v < 8; ++v) least = std::min(least, corners[v].dot(n));
  unsigned mask = 0;
  *count = 0;
  for (int v = 0; v < 8; ++v) {
    if (corners[v].dot(n) > least + kSameFeature) continue;
    mask |= 1u << v;
    ++*count;
  }
  return mask;
}

/// The points of b's core (its frame) at the cores' distance `core`, summed.
struct PatchCorners {
  double within;  ///< core distance plus the feature tolerance
  btVector3 sum{0, 0, 0};
  int count = 0;
  void consider(const btVector3& on_a, const btVector3& on_b) {
    if ((on_a - on_b).length() > within) return;
    sum += on_b;
    ++count;
  }
};

}  // namespace

ExactContact box_box_distance(const btTransform& a, const btVector3& ha, double ra, const btTransform& b,
                              const btVector3& hb, double rb, double cutoff, double touching) {
  ExactContact result;
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
    result.answered = true;
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
  result.answered = true;
  result.distance = core - ra - rb;
  result.normal = b.getBasis() * normal;
  result.point = b * (best.on_b + normal * rb);
  return result;
}


btVector3 box_box_patch_middle(const btTransform& a, const btVector3& ha, const btTransform& b, const btVector3& hb,
                               double rb, const ExactContact& d) {
  const btTransform a_in_b = b.inverseTimes(a);
  const btVector3 n = b.getBasis().transpose() * d.normal;  // b's frame, from b toward a
  btVector3 va[8], vb[8];
  for (int v = 0; v < 8; ++v) {
    va[v] = a_in_b * box_corner(ha, v);
    vb[v] = box_corner(hb, v);
  }
  int count_a = 0, count_b = 0;
  const unsigned feature_a = nearest_feature(va, n, &count_a);
  const unsigned feature_b = nearest_feature(vb, -n, &count_b);
  if (count_a == 1 || count_b == 1) return d.point;
  const double core = n.dot(va[__builtin_ctz(feature_a)]) - n.dot(vb[__builtin_ctz(feature_b)]);
  PatchCorners patch{core + kSameFeature};
  const btTransform b_in_a = a.inverseTimes(b);
  for (int v = 0; v < 8; ++v) {
    if (feature_a & (1u << v)) patch.consider(va[v], clamp_to(va[v], hb));
    if (feature_b & (1u << v)) patch.consider(a_in_b * clamp_to(b_in_a * vb[v], ha), vb[v]);
  }
  // The features' edges: corner pairs of one feature one bit apart.
  for (int k = 0; k < 3; ++k) {
    for (int v = 0; v < 8; ++v) {
      const unsigned edge_a = (1u << v) | (1u << (v | (1 << k)));
      if ((v & (1 << k)) || (feature_a & edge_a) != edge_a) continue;
      for (int m = 0; m < 3; ++m) {
        for (int w = 0; w < 8; ++w) {
          const unsigned edge_b = (1u << w) | (1u << (w | (1 << m)));
          if ((w & (1 << m)) || (feature_b & edge_b) != edge_b) continue;
          btVector3 x, y;
          closest_on_segments(va[v], va[v | (1 << k)], vb[w], vb[w | (1 << m)], &x, &y);
          patch.consider(x, y);
        }
      }
    }
  }
  if (patch.count == 0) return d.point;
  return b * (patch.sum / patch.count + n * rb);
}

}  // namespace stepslide
