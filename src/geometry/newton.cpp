// Newton's method on the support function of two convex solids' difference
// (gjk_parts.h): the last steps of EPA and GJK between smooth
// curved surfaces, where their polytope and simplex close in only linearly.
#include <cmath>

#include "geometry/gjk_parts.h"

namespace stepslide::detail {

namespace {

/// Newton's step on the unit sphere from u (its support point w, h = w·u)
/// in the plane of t1 and t2 across u: the gradient is w's part along each,
/// the Hessian t·J·t' - h where J·t (j1, j2) is how the support point moves
/// as u turns toward t. False where the Hessian is not positive definite:
/// not a minimum here (a flat face, an edge).
bool step_across(const btVector3& w, double h, const btVector3& t1, const btVector3& t2, const btVector3& j1,
                 const btVector3& j2, double* d1, double* d2) {
  const double g1 = w.dot(t1);
  const double g2 = w.dot(t2);
  const double h11 = t1.dot(j1) - h;
  const double h22 = t2.dot(j2) - h;
  const double h12 = 0.5 * (t1.dot(j2) + t2.dot(j1));
  const double det = h11 * h22 - h12 * h12;
  if (!(h11 > 0.0 && det > 0.0)) return false;
  *d1 = -(h22 * g1 - h12 * g2) / det;
  *d2 = -(h11 * g2 - h12 * g1) / det;
  return true;
}

/// The same step along t1 alone: on the great circle through u and t1.
bool step_along(const btVector3& w, double h, const btVector3& t1, const btVector3& j1, double* d1) {
  const double h11 = t1.dot(j1) - h;
  if (!(h11 > 0.0)) return false;
  *d1 = -w.dot(t1) / h11;
  return true;
}

}  // namespace

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
    double d1 = 0.0;
    double d2 = 0.0;
    if (!step_across(w.w, h, t1, t2, a1 + b1, a2 + b2, &d1, &d2)) return false;
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

bool tied_minimum(const ConvexSolid& a, const ConvexSolid& b, const Tie& tie, btVector3 u, Vertex w, btVector3* u_out,
                  Vertex* w_out, int* evaluations) {
  constexpr int kMaxSteps = 8;
  const ConvexSolid& curved = tie.on_b ? a : b;
  const btVector3& c0 = tie.corner[0];
  if (tie.count >= 3) {  // a face: the one direction that keeps it
    btVector3 normal = (tie.corner[1] - c0).cross(tie.corner[2] - c0);
    if (!(normal.length2() > 1e-24)) return false;
    normal.normalize();
    *u_out = normal.dot(u) >= 0.0 ? normal : -normal;
    *w_out = support_of(a, b, *u_out);
    ++*evaluations;
    return true;
  }
  // An edge: the directions across it, the great circle through u.
  btVector3 edge(0, 0, 0);
  if (tie.count == 2) {
    edge = tie.corner[1] - c0;
    if (!(edge.length2() > 1e-24)) return false;
    edge.normalize();
    u -= edge * edge.dot(u);
    if (!(u.length2() > 1e-24)) return false;
    u.normalize();
    w = support_of(a, b, u);
    ++*evaluations;
  }
  double h = w.w.dot(u);
  for (int k = 0; k < kMaxSteps; ++k) {
    btVector3 t1;
    btVector3 t2;
    if (tie.count == 2) {
      t1 = edge.cross(u);  // unit: both are, and across each other
      t2 = edge;
    } else {
      btPlaneSpace1(u, t1, t2);
    }
    // Only the curved solid's point turns (b's, taken along -u and
    // subtracted, adds as in newton_minimum); the polytope's stays put.
    btVector3 j1;
    btVector3 j2;
    if (!curved.support_turns(tie.on_b ? u : -u, t1, t2, &j1, &j2)) return false;
    double d1 = 0.0;
    double d2 = 0.0;
    if (!(tie.count == 2 ? step_along(w.w, h, t1, j1, &d1) : step_across(w.w, h, t1, t2, j1, j2, &d1, &d2))) {
      return false;
    }
    const double step = std::sqrt(d1 * d1 + d2 * d2);
    if (step < 1e-12) break;
    btVector3 next = u + t1 * d1 + t2 * d2;
    if (tie.count == 2) next -= edge * edge.dot(next);  // rounding: back onto the circle
    next.normalize();
    const Vertex w_next = support_of(a, b, next);
    ++*evaluations;
    const double h_next = w_next.w.dot(next);
    // Where the decrease the model promises is below h's rounding, h
    // cannot confirm it: the step is taken on the model's word, and is the
    // last (the next would be its square). The point on the rim moves by
    // the step times the rim's turn (up to ~10 m/rad): stopping short, the
    // line between the closest points stayed up to 2e-7 rad off the normal.
    const double promised = -0.5 * (w.w.dot(t1) * d1 + w.w.dot(t2) * d2);
    const bool below_rounding = promised <= 1e-15 * (1.0 + w.a.length() + w.b.length());
    if (!(h_next <= h) && !below_rounding) return false;
    u = next, w = w_next, h = h_next;
    if (below_rounding) break;
    if (k == kMaxSteps - 1) return false;
  }
  *u_out = u;
  *w_out = w;
  return true;
}

ExactContact smooth_answer(const btVector3& u, const Vertex& minimum, const ConvexSolid& a, const ConvexSolid& b,
                           int evaluations, ConvexDetail* detail) {
  detail->smooth_minimum = true;
  detail->evaluations = evaluations;
  return answer(-u, minimum, minimum.a, minimum.b, a, b, detail);
}

}  // namespace stepslide::detail
