// Closest-point helpers the exact box queries share (box-box distance and
// box-triangle contacts): segment against segment, and a box core's corners.
#pragma once

#include <LinearMath/btVector3.h>

#include <algorithm>

namespace stepslide::detail {

/// Closest points `c1` on segment p1q1 and `c2` on p2q2 (Ericson, Real-Time
/// Collision Detection 5.1.9), degenerate (point) segments included.
inline void closest_on_segments(const btVector3& p1, const btVector3& q1, const btVector3& p2, const btVector3& q2,
                                btVector3* c1, btVector3* c2) {
  const btVector3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.length2(), e = d2.length2(), f = d2.dot(r);
  constexpr double kTiny = 1e-30;
  double s = 0.0, t = 0.0;
  if (a <= kTiny && e <= kTiny) {
    *c1 = p1;
    *c2 = p2;
    return;
  }
  if (a <= kTiny) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e <= kTiny) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2);
      const double denominator = a * e - b * b;
      s = denominator > kTiny * a * e ? std::clamp((b * f - c * e) / denominator, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1.0) {
        t = 1.0;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  *c1 = p1 + d1 * s;
  *c2 = p2 + d2 * t;
}

/// Corner `index` (0..7, bit k set: +h along axis k) of the box [-h, h].
inline btVector3 box_corner(const btVector3& h, int index) {
  return btVector3(index & 1 ? h.x() : -h.x(), index & 2 ? h.y() : -h.y(), index & 4 ? h.z() : -h.z());
}

}  // namespace stepslide::detail
