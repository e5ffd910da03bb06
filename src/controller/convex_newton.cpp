// Newton's method on the support function of two convex solids' difference
// (convex_distance_parts.h): the last steps of EPA and GJK between smooth
// curved surfaces, where their polytope and simplex close in only linearly.
#include <cmath>

#include "convex_distance_parts.h"

namespace stepslide::detail {

bool newton_minimum(const ConvexSolid& a, const ConvexSolid& b, btVector3 u, Vertex w, btVector3* u_out, Vertex* w_out,
                    int* evaluations) {
  constexpr int kMaxSteps = 8;
  double h = w.w.dot(u);
  for (int k = 0; k < kMaxSteps; ++k) {
    btVector3 t1;
    btVector3 t2;
    btPlaneSpace1(u, t1, t2);
    btVector3 a1;
    btVector3 a2;
    btVector3 b1;
    btVector3 b2;
    // b's point is taken along -u and subtracted: its derivative adds.
    if (!a.support_turns(u, t1, t2, &a1, &a2) || !b.support_turns(-u, t1, t2, &b1, &b2)) return false;
    const btVector3 j1 = a1 + b1;
    const btVector3 j2 = a2 + b2;
    const double g1 = w.w.dot(t1);
    const double g2 = w.w.dot(t2);
    const double h11 = t1.dot(j1) - h;
    const double h22 = t2.dot(j2) - h;
    const double h12 = 0.5 * (t1.dot(j2) + t2.dot(j1));
    const double det = h11 * h22 - h12 * h12;
    if (!(h11 > 0.0 && det > 0.0)) return false;  // not a minimum here (a flat face, an edge)
    const double d1 = -(h22 * g1 - h12 * g2) / det;
    const double d2 = -(h11 * g2 - h12 * g1) / det;
    const double step = std::sqrt(d1 * d1 + d2 * d2);
    if (step < 1e-12) break;
    const btVector3 next = (u + t1 * d1 + t2 * d2).normalized();
    const Vertex w_next = support_of(a, b, next);
    ++*evaluations;
    const double h_next = w_next.w.dot(next);
    if (!(h_next <= h)) {
      if (step < 1e-9) break;  // rounding: h is flat to 1e-18 m here
      return false;
    }
    u = next, w = w_next, h = h_next;
    if (k == kMaxSteps - 1) return false;
  }
  *u_out = u;
  *w_out = w;
  return true;
}

ConvexDistance smooth_answer(const btVector3& u, const Vertex& minimum, const ConvexSolid& a, const ConvexSolid& b,
                             int evaluations) {
  ConvexDistance d = answer(-u, minimum, minimum.a, minimum.b, a, b);
  d.smooth_minimum = true;
  d.evaluations = evaluations;
  return d;
}

}  // namespace stepslide::detail
