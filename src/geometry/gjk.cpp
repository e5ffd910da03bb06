// The signed distance of two convex solids (gjk.h): GJK on their
// cores while they are apart, EPA on the same exact support functions once
// the cores overlap. Both keep a lower and an upper bound on the cores'
// distance (or depth) and stop when they meet within the tolerance; the
// answer is always the separation along a direction actually measured, so
// it can be too deep by the tolerance but never too shallow.
#include "geometry/gjk.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "base/portable_math.h"
#include "geometry/gjk_parts.h"

namespace stepslide::detail {

namespace {

/// The point of segment p0 p1 nearest the origin, as weights of its ends.
void nearest_on_segment(const btVector3& p0, const btVector3& p1, double weight[2]) {
  const btVector3 d = p1 - p0;
  const double t = -p0.dot(d);
  const double length2 = d.length2();
  if (t <= 0.0 || !(length2 > 0.0)) {
    weight[0] = 1.0, weight[1] = 0.0;
  } else if (t >= length2) {
    weight[0] = 0.0, weight[1] = 1.0;
  } else {
    weight[1] = t / length2;
    weight[0] = 1.0 - weight[1];
  }
}

}  // namespace

void nearest_on_triangle(const btVector3& a, const btVector3& b, const btVector3& c, double weight[3]) {
  const btVector3 ab = b - a;
  const btVector3 ac = c - a;
  const double d1 = -ab.dot(a);
  const double d2 = -ac.dot(a);
  weight[0] = weight[1] = weight[2] = 0.0;
  if (d1 <= 0.0 && d2 <= 0.0) return void(weight[0] = 1.0);
  const double d3 = -ab.dot(b);
  const double d4 = -ac.dot(b);
  if (d3 >= 0.0 && d4 <= d3) return void(weight[1] = 1.0);
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    weight[1] = d1 / (d1 - d3);
    weight[0] = 1.0 - weight[1];
    return;
  }
  const double d5 = -ab.dot(c);
  const double d6 = -ac.dot(c);
  if (d6 >= 0.0 && d5 <= d6) return void(weight[2] = 1.0);
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    weight[2] = d2 / (d2 - d6);
    weight[0] = 1.0 - weight[2];
    return;
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
    weight[2] = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    weight[1] = 1.0 - weight[2];
    return;
  }
  const double sum = va + vb + vc;
  if (!(std::fabs(sum) > 0.0)) {  // degenerate (a line): its nearest edge
    double best = BT_LARGE_FLOAT;
    const btVector3* p[3] = {&a, &b, &c};
    for (int i = 0; i < 3; ++i) {
      double w[2];
      nearest_on_segment(*p[i], *p[(i + 1) % 3], w);
      const btVector3 q = *p[i] * w[0] + *p[(i + 1) % 3] * w[1];
      if (q.length2() < best) {
        best = q.length2();
        weight[0] = weight[1] = weight[2] = 0.0;
        weight[i] = w[0];
        weight[(i + 1) % 3] = w[1];
      }
    }
    return;
  }
  weight[1] = vb / sum;
  weight[2] = vc / sum;
  weight[0] = 1.0 - weight[1] - weight[2];
}

namespace {

/// GJK's simplex: the point of the hull of its points nearest the origin,
/// keeping only the points that span it.
struct Simplex {
  Vertex p[4];
  double weight[4] = {1, 0, 0, 0};
  int n = 0;

  btVector3 nearest() const {
    btVector3 v(0, 0, 0);
    for (int i = 0; i < n; ++i) v += p[i].w * weight[i];
    return v;
  }

  /// Reduces to the points whose hull holds the point nearest the origin;
  /// false (all four kept) when the origin is inside the tetrahedron.
  bool reduce() {
    if (n == 1) {
      weight[0] = 1.0;
    } else if (n == 2) {
      nearest_on_segment(p[0].w, p[1].w, weight);
    } else if (n == 3) {
      nearest_on_triangle(p[0].w, p[1].w, p[2].w, weight);
    } else if (!reduce_tetrahedron()) {
      return false;
    }
    int kept = 0;
    for (int i = 0; i < n; ++i) {
      if (weight[i] > 0.0) {
        p[kept] = p[i];
        weight[kept++] = weight[i];
      }
    }
    if (kept == 0) kept = 1, weight[0] = 1.0;
    n = kept;
    return true;
  }

  /// Ericson 5.1.6: the nearest point over the faces the origin lies outside
  /// of; none (a tetrahedron with volume holding the origin): false. A flat
  /// one has every face "outside": its nearest face answers.
  bool reduce_tetrahedron() {
    // The face without the newest point (p[3]) was the last step's
    // triangle, the origin nearest its inside: the origin is on p[3]'s side
    // of it, so only the three faces through p[3] are asked.
    static constexpr int kFace[3][4] = {{0, 1, 3, 2}, {1, 2, 3, 0}, {2, 0, 3, 1}};
    double best = BT_LARGE_FLOAT;
    double w[4] = {0, 0, 0, 0};
    bool outside_any = false;
    for (const auto& f : kFace) {
      const btVector3& a = p[f[0]].w;
      const btVector3 normal = (p[f[1]].w - a).cross(p[f[2]].w - a);
      const double side_origin = -a.dot(normal);
      const double side_other = (p[f[3]].w - a).dot(normal);
      if (!(side_origin * side_other < 0.0 || side_other == 0.0)) continue;
      outside_any = true;
      double t[3];
      nearest_on_triangle(a, p[f[1]].w, p[f[2]].w, t);
      const btVector3 q = a * t[0] + p[f[1]].w * t[1] + p[f[2]].w * t[2];
      if (q.length2() < best) {
        best = q.length2();
        w[f[0]] = t[0], w[f[1]] = t[1], w[f[2]] = t[2], w[f[3]] = 0.0;
      }
    }
    if (!outside_any) return false;
    for (int i = 0; i < 4; ++i) weight[i] = w[i];
    return true;
  }
};

}  // namespace

ExactContact answer(const btVector3& normal, const Vertex& support, const btVector3& core_a, const btVector3& core_b,
                    const ConvexSolid& a, const ConvexSolid& b, ConvexDetail* detail) {
  ExactContact c;
  c.answered = true;
  c.distance = support.w.dot(normal) - a.margin() - b.margin();
  c.normal = normal;
  detail->on_a = core_a + normal * ((support.a - core_a).dot(normal) - a.margin());
  c.point = core_b + normal * ((support.b - core_b).dot(normal) + b.margin());
  return c;
}

namespace {

/// Grows the simplex of GJK's last step, whose hull holds the origin on
/// its boundary, to a tetrahedron with volume (EPA's start); false when the
/// difference itself is flat there.
bool blow_up(const ConvexSolid& a, const ConvexSolid& b, Simplex* s, int* evaluations) {
  constexpr double kDistinct = 1e-12;
  static const btVector3 kAxes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  if (s->n == 1) {
    for (const btVector3& u : kAxes) {
      const Vertex v = support_of(a, b, u);
      ++*evaluations;
      if ((v.w - s->p[0].w).length() > kDistinct) {
        s->p[s->n++] = v;
        break;
      }
    }
  }
  if (s->n == 2) {
    const btVector3 d = (s->p[1].w - s->p[0].w).normalized();
    btVector3 u1;
    btVector3 u2;
    btPlaneSpace1(d, u1, u2);
    for (int k = 0; k < 6 && s->n == 2; ++k) {
      const double angle = k * (M_PI / 3.0);
      const Vertex v = support_of(a, b, u1 * portable::cos(angle) + u2 * portable::sin(angle));
      ++*evaluations;
      if ((v.w - s->p[0].w).cross(d).length() > kDistinct) s->p[s->n++] = v;
    }
  }
  if (s->n == 3) {
    btVector3 normal = (s->p[1].w - s->p[0].w).cross(s->p[2].w - s->p[0].w);
    if (!(normal.length2() > 0.0)) return false;
    normal.normalize();
    for (const double sign : {1.0, -1.0}) {
      const Vertex v = support_of(a, b, normal * sign);
      ++*evaluations;
      if (std::fabs((v.w - s->p[0].w).dot(normal)) > kDistinct) {
        s->p[s->n++] = v;
        break;
      }
    }
  }
  return s->n == 4;
}

/// GJK's last steps between smooth curved cores apart: Newton's minimum of
/// the support function from the best direction so far (`best`, from b
/// toward a, its support point `w`), accepted where GJK's own bounds meet
/// there (the support point's length, an upper bound on the distance, within
/// the tolerance of the separation along the direction, a lower bound).
bool smooth_separation(const ConvexSolid& a, const ConvexSolid& b, const btVector3& best, const Vertex& w,
                       int* evaluations, ExactContact* out, ConvexDetail* detail) {
  btVector3 u;
  Vertex minimum;
  if (!newton_minimum(a, b, -best, w, &u, &minimum, evaluations)) return false;
  const double lower = -minimum.w.dot(u);
  if (!(lower > 0.0) || minimum.w.length() - lower > kConvexDistanceTolerance) return false;
  *out = smooth_answer(u, minimum, a, b, *evaluations, detail);
  return true;
}

/// The tie GJK's last steps show where exactly one solid is a polytope and
/// the other curved: the polytope's distinct corners among the simplex's
/// points and the newest support point `w`. False otherwise, or when they
/// are more than a face's three (then no crease is known).
bool tie_of(const ConvexSolid& a, const ConvexSolid& b, const Simplex& s, const Vertex& w, Tie* tie) {
  if (a.polytope() == b.polytope()) return false;
  tie->on_b = b.polytope();
  tie->count = 0;
  const auto add = [tie](const Vertex& v) {
    const btVector3& p = tie->on_b ? v.b : v.a;
    for (int i = 0; i < tie->count; ++i) {
      if (tie->corner[i] == p) return true;
    }
    if (tie->count == 3) return false;
    tie->corner[tie->count++] = p;
    return true;
  };
  if (!add(w)) return false;
  for (int i = 0; i < s.n; ++i) {
    if (!add(s.p[i])) return false;
  }
  return true;
}

/// The point of the tied feature (a corner, an edge, a triangle of a face)
/// nearest `p`.
btVector3 nearest_in_tie(const Tie& tie, const btVector3& p) {
  const btVector3& c0 = tie.corner[0];
  if (tie.count == 1) return c0;
  if (tie.count == 2) {
    double weight[2];
    nearest_on_segment(c0 - p, tie.corner[1] - p, weight);
    return c0 * weight[0] + tie.corner[1] * weight[1];
  }
  double weight[3];
  nearest_on_triangle(c0 - p, tie.corner[1] - p, tie.corner[2] - p, weight);
  return c0 * weight[0] + tie.corner[1] * weight[1] + tie.corner[2] * weight[2];
}

/// GJK's last steps between a curved solid and a polytope's tied corners:
/// tied_minimum from the best direction so far (`best`, from b toward a,
/// its support point `w`), accepted where GJK's bounds meet there: the
/// separation along the direction (a lower bound) within the tolerance of
/// the distance from the curved solid's point to the nearest point of the
/// tied feature (an upper bound: two points of the cores). The answer's
/// points are those two.
bool tied_separation(const ConvexSolid& a, const ConvexSolid& b, const Tie& tie, const btVector3& best,
                     const Vertex& w, int* evaluations, ExactContact* out, ConvexDetail* detail) {
  btVector3 u;
  Vertex minimum;
  if (!tied_minimum(a, b, tie, -best, w, &u, &minimum, evaluations)) return false;
  const double lower = -minimum.w.dot(u);
  if (!(lower > 0.0)) return false;
  const btVector3 on_curved = tie.on_b ? minimum.a : minimum.b;
  const btVector3 on_tie = nearest_in_tie(tie, on_curved);
  const btVector3 core_a = tie.on_b ? on_curved : on_tie;
  const btVector3 core_b = tie.on_b ? on_tie : on_curved;
  if ((core_a - core_b).length() - lower > kConvexDistanceTolerance) return false;
  *out = answer(-u, minimum, core_a, core_b, a, b, detail);
  detail->smooth_minimum = true;
  detail->evaluations = *evaluations;
  return true;
}

/// convex_distance's search (gjk.h), `detail` at its defaults.
ExactContact search(const ConvexSolid& a, const ConvexSolid& b, const btVector3& guess, double cutoff,
                    ConvexDetail* detail) {
  // The gap (m) at which GJK stops: the tolerance (tighter costs more for
  // nothing). Rounding can stall it first (a cylinder's side against a
  // side: the simplex flat); then it starts again from its newest point.
  constexpr double kGap = kConvexDistanceTolerance;
  constexpr double kTouching = 1e-12;  // nearer than this the cores touch: EPA
  constexpr int kMaxIterations = 64;
  Simplex simplex;
  btVector3 v = guess.length2() > 0.0 ? guess : btVector3(0, 1, 0);
  double upper = BT_LARGE_FLOAT;
  double simplex_upper = BT_LARGE_FLOAT;  // the simplex's distance: GJK's own, falling while it progresses
  double lower = -BT_LARGE_FLOAT;
  btVector3 best = v.normalized();
  Vertex best_vertex;
  int evaluations = 0;
  bool overlap = false;
  bool stalled = true;
  bool beyond = false;
  constexpr int kMaxRestarts = 2;
  int restarts = 0;
  // Newton's method is tried once GJK has taken kNewtonAfter steps (flat
  // features end sooner) and its gap is within polish_at, again each time
  // that shrinks by kNewtonAgain.
  constexpr int kNewtonAfter = 3;
  double polish_at = kNewtonGap;
  for (int i = 0; i < kMaxIterations; ++i) {
    const Vertex w = support_of(a, b, -v);
    ++evaluations;
    const double length = v.length();
    const double along = w.w.dot(v) / length;  // the cores' separation along v: a lower bound
    if (along > lower) {
      lower = along;
      best = v / length;
      best_vertex = w;
      if (lower > 0.0 && lower - a.margin() - b.margin() > cutoff) {  // beyond the caller's interest
        beyond = true;
        break;
      }
    }
    // w joins a point of each core: their distance is at most its length.
    upper = std::min(upper, w.w.length());
    if (upper - lower <= kGap) {
      stalled = false;
      break;
    }
    if (lower > 0.0 && i >= kNewtonAfter && upper - lower <= polish_at) {
      polish_at = (upper - lower) * kNewtonAgain;
      ExactContact smooth;
      // A polytope against a curved solid (a cylinder's rim): on the
      // crease its tied corners make; else both smooth (two cylinders).
      Tie tie;
      if (tie_of(a, b, simplex, w, &tie)) {
        if (tied_separation(a, b, tie, best, best_vertex, &evaluations, &smooth, detail)) return smooth;
      } else if (smooth_separation(a, b, best, best_vertex, &evaluations, &smooth, detail)) {
        return smooth;
      }
    }
    simplex.p[simplex.n++] = w;
    if (!simplex.reduce()) {
      overlap = true;
      break;
    }
    const btVector3 next = simplex.nearest();
    const double distance = next.length();
    if (distance <= kTouching) {
      overlap = true;
      break;
    }
    if (!(distance < simplex_upper)) {
      // No progress: rounding in a flat simplex. Within the tolerance that
      // is the answer; else start again from the newest point alone (once
      // in 60 touching cylinder/box pairs, the gap then closes).
      if (upper - lower <= kConvexDistanceTolerance || restarts++ == kMaxRestarts) break;
      simplex.p[0] = w;
      simplex.weight[0] = 1.0;
      simplex.n = 1;
      simplex_upper = w.w.length();
      v = w.w;
      continue;
    }
    simplex_upper = distance;
    upper = std::min(upper, distance);
    if (upper - lower <= kGap) {
      stalled = false;
      break;
    }
    v = next;
  }
  if (!overlap && lower > 0.0) {
    btVector3 core_a(0, 0, 0);
    btVector3 core_b(0, 0, 0);
    for (int i = 0; i < simplex.n; ++i) {
      core_a += simplex.p[i].a * simplex.weight[i];
      core_b += simplex.p[i].b * simplex.weight[i];
    }
    ExactContact d = answer(best, best_vertex, core_a, core_b, a, b, detail);
    d.beyond = beyond;
    detail->converged = !stalled || upper - lower <= kConvexDistanceTolerance;
    detail->evaluations = evaluations;
    return d;
  }
  // The cores touch or overlap (or GJK stalled at the origin): EPA from a
  // tetrahedron holding the origin.
  if (!overlap || simplex.n < 4) {
    if (!overlap) {  // stalled with lower <= 0: start over from one point
      simplex.n = 1;
      simplex.p[0] = support_of(a, b, -best);
      ++evaluations;
    }
    if (!blow_up(a, b, &simplex, &evaluations)) {
      // The difference is flat through the origin: the cores touch along
      // its plane, zero apart along its normal (the side of the guess).
      btVector3 normal = simplex.n >= 3 ? (simplex.p[1].w - simplex.p[0].w).cross(simplex.p[2].w - simplex.p[0].w)
                                        : best;
      if (!(normal.length2() > 0.0)) normal = btVector3(0, 1, 0);
      normal.normalize();
      if (normal.dot(guess) < 0.0) normal = -normal;
      const Vertex w = support_of(a, b, -normal);
      detail->evaluations = evaluations + 1;
      return answer(normal, w, w.a, w.b, a, b, detail);
    }
  }
  const Vertex start[4] = {simplex.p[0], simplex.p[1], simplex.p[2], simplex.p[3]};
  return expand_polytope(a, b, start, evaluations, detail);
}

}  // namespace

ExactContact convex_distance(const ConvexSolid& a, const ConvexSolid& b, const btVector3& guess, double cutoff,
                             ConvexDetail* detail) {
  ConvexDetail unused;
  if (detail == nullptr) return search(a, b, guess, cutoff, &unused);
  *detail = ConvexDetail{};
  return search(a, b, guess, cutoff, detail);
}

}  // namespace stepslide::detail
