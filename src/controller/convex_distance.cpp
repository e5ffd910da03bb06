// The signed distance of two convex solids (convex_distance.h): GJK on their
// cores while they are apart, EPA on the same exact support functions once
// the cores overlap. Both keep a lower and an upper bound on the cores'
// distance (or depth) and stop when they meet within the tolerance; the
// answer is always the separation along a direction actually measured, so
// it can be too deep by the tolerance but never too shallow.
#include "convex_distance.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace stepslide::detail {

namespace {

/// A point of the cores' difference D = A - B with the two points it came from.
struct Vertex {
  btVector3 w;
  btVector3 a;
  btVector3 b;
};

Vertex support_of(const ConvexSolid& a, const ConvexSolid& b, const btVector3& u) {
  Vertex v;
  v.a = a.support(u);
  v.b = b.support(-u);
  v.w = v.a - v.b;
  return v;
}

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

/// The point of triangle p0 p1 p2 nearest the origin, as weights of its
/// corners (Ericson, Real-Time Collision Detection 5.1.5).
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

/// The answer for the solids along `normal` (from b toward a), where
/// `support` is the cores' difference's point along -normal (so its a and b
/// lie on the cores' extents along it) and `core_a`, `core_b` the points the
/// simplex or face puts the contact at: moved onto those extents (exact
/// there, where the search's own points are within the square root of its
/// tolerance), then out by the margins.
ConvexDistance answer(const btVector3& normal, const Vertex& support, const btVector3& core_a, const btVector3& core_b,
                      const ConvexSolid& a, const ConvexSolid& b) {
  ConvexDistance d;
  d.distance = support.w.dot(normal) - a.margin() - b.margin();
  d.normal = normal;
  d.on_a = core_a + normal * ((support.a - core_a).dot(normal) - a.margin());
  d.on_b = core_b + normal * ((support.b - core_b).dot(normal) + b.margin());
  return d;
}

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
      const Vertex v = support_of(a, b, u1 * std::cos(angle) + u2 * std::sin(angle));
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

/// EPA: the polytope of support points, grown from `start` (a tetrahedron
/// holding the origin) toward the face nearest the origin until that
/// face's distance (a lower bound on the cores' depth: the polytope lies
/// inside their difference) and the least support along a measured face
/// normal (an upper bound) meet within the tolerance. The answer is that
/// normal: a separation actually measured, never shallower than the truth.
class Polytope {
 public:
  static constexpr int kMaxVertices = 128;
  static constexpr int kMaxFaces = 2 * kMaxVertices + 64;

  ConvexDistance expand(const ConvexSolid& a, const ConvexSolid& b, const Vertex (&start)[4], int evaluations) {
    start_tetrahedron(start);
    double upper = BT_LARGE_FLOAT;
    int best = 0;
    Face best_face = faces_[0];
    Vertex best_support = vertices_[0];
    bool converged = false;
    while (true) {
      const int nearest = nearest_face();
      const Face& f = faces_[nearest];
      const double lower = f.distance;
      const Vertex w = support_of(a, b, f.normal);
      ++evaluations;
      const double h = w.w.dot(f.normal);
      if (h < upper) {
        upper = h;
        best = nearest;
        best_face = f;
        best_support = w;
      }
      if (upper - lower <= kConvexDistanceTolerance) {
        converged = true;
        break;
      }
      if (vertex_count_ == kMaxVertices || !add_vertex(w, nearest)) break;
    }
    (void)best;
    ConvexDistance d = finish(best_face, best_support, upper, a, b);
    d.converged = converged;
    d.evaluations = evaluations;
    return d;
  }

 private:
  struct Face {
    int v[3];          ///< counter-clockwise seen from outside
    int adjacent[3];   ///< the face across edge v[i] v[i+1]
    int edge[3];       ///< which of that face's edges it is
    btVector3 normal;  ///< unit, outward
    double distance;   ///< of its plane from the origin; BT_INFINITY: a free slot
    bool removed;
  };

  void start_tetrahedron(const Vertex (&start)[4]) {
    for (int i = 0; i < 4; ++i) vertices_[i] = start[i];
    // Wound so that each face's normal points away from the opposite corner.
    if ((start[1].w - start[0].w).cross(start[2].w - start[0].w).dot(start[3].w - start[0].w) > 0.0)
      std::swap(vertices_[1], vertices_[2]);
    vertex_count_ = 4;
    interior_ = (start[0].w + start[1].w + start[2].w + start[3].w) * 0.25;
    face_count_ = 0;
    free_count_ = 0;
    static constexpr int kFaces[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
    for (const auto& f : kFaces) make_face(f[0], f[1], f[2]);
    for (int i = 0; i < 4; ++i) {
      for (int e = 0; e < 3; ++e) {
        const int from = faces_[i].v[e];
        const int to = faces_[i].v[(e + 1) % 3];
        for (int j = 0; j < 4; ++j) {
          for (int k = 0; k < 3; ++k) {
            if (faces_[j].v[k] == to && faces_[j].v[(k + 1) % 3] == from) {
              faces_[i].adjacent[e] = j;
              faces_[i].edge[e] = k;
            }
          }
        }
      }
    }
  }

  int make_face(int i, int j, int k) {
    const int slot = free_count_ > 0 ? free_[--free_count_] : face_count_++;
    Face& f = faces_[slot];
    f.v[0] = i, f.v[1] = j, f.v[2] = k;
    f.removed = false;
    const btVector3& p = vertices_[i].w;
    btVector3 normal = (vertices_[j].w - p).cross(vertices_[k].w - p);
    // Rounding may turn a sliver's normal inward: the outward side is away
    // from a point inside (the winding stays, the links depend on it).
    if (normal.dot(p - interior_) < 0.0) normal = -normal;
    const double length = normal.length();
    if (length > 1e-30) {
      f.normal = normal / length;
      f.distance = f.normal.dot(p);
      distance_[slot] = f.distance;
    } else {  // a sliver: its neighbours cover it; never the nearest
      f.normal = (p - interior_).normalized();
      f.distance = BT_LARGE_FLOAT;  // below BT_INFINITY: still a face
      distance_[slot] = f.distance;
    }
    return slot;
  }

  int nearest_face() const {
    // Over a plain array of the distances: the scan is most of an
    // iteration's cost once the polytope has a hundred faces.
    int best = 0;
    double nearest = distance_[0];
    for (int i = 1; i < face_count_; ++i) {
      if (distance_[i] < nearest) {
        nearest = distance_[i];
        best = i;
      }
    }
    return best;
  }

  bool visible(const Face& f, const btVector3& w) const {
    constexpr double kVisible = 1e-13;
    return f.normal.dot(w - vertices_[f.v[0]].w) > kVisible;
  }

  /// Removes `face` (seen from `w`) and, through its edges, the faces next
  /// to it that `w` sees too, collecting the horizon: the edges between a
  /// removed face and a kept one.
  void remove_seen(int face, const btVector3& w) {
    faces_[face].removed = true;
    removed_[removed_count_++] = face;
    for (int e = 0; e < 3; ++e) {
      const int next = faces_[face].adjacent[e];
      if (faces_[next].removed) continue;
      if (visible(faces_[next], w)) {
        remove_seen(next, w);
      } else if (horizon_count_ < kMaxFaces) {
        horizon_[horizon_count_++] = {faces_[face].v[e], faces_[face].v[(e + 1) % 3], next, faces_[face].edge[e]};
      }
    }
  }

  /// Adds `w`, replacing the faces it sees (from `nearest` on) by a fan
  /// from their horizon; false when that is not a simple loop (rounding) or
  /// the polytope is full.
  bool add_vertex(const Vertex& w, int nearest) {
    const int index = vertex_count_++;
    vertices_[index] = w;
    removed_count_ = 0;
    horizon_count_ = 0;
    remove_seen(nearest, w.w);
    if (horizon_count_ < 3 || horizon_count_ == kMaxFaces) return false;
    if (horizon_count_ > free_count_ + removed_count_ + (kMaxFaces - face_count_)) return false;
    for (int i = 0; i < horizon_count_; ++i) by_from_[horizon_[i].from] = -1;
    for (int i = 0; i < horizon_count_; ++i) {
      if (by_from_[horizon_[i].from] != -1) return false;  // not a simple loop
      by_from_[horizon_[i].from] = i;
    }
    for (int i = 0; i < horizon_count_; ++i) {
      if (by_from_[horizon_[i].to] == -1) return false;
    }
    for (int i = 0; i < removed_count_; ++i) {
      faces_[removed_[i]].distance = BT_INFINITY;
      distance_[removed_[i]] = BT_INFINITY;
      free_[free_count_++] = removed_[i];
    }
    int made[kMaxFaces];
    for (int i = 0; i < horizon_count_; ++i) {
      const Horizon& h = horizon_[i];
      made[i] = make_face(h.from, h.to, index);
      Face& f = faces_[made[i]];
      f.adjacent[0] = h.outside;
      f.edge[0] = h.outside_edge;
      faces_[h.outside].adjacent[h.outside_edge] = made[i];
      faces_[h.outside].edge[h.outside_edge] = 0;
    }
    // Edge 1 (to, w) of each new face meets edge 2 (w, from) of the one
    // starting where it ends.
    for (int i = 0; i < horizon_count_; ++i) {
      const int j = by_from_[horizon_[i].to];
      faces_[made[i]].adjacent[1] = made[j];
      faces_[made[i]].edge[1] = 2;
      faces_[made[j]].adjacent[2] = made[i];
      faces_[made[j]].edge[2] = 1;
    }
    return true;
  }

  /// The answer along the best face's normal, with the points the face's
  /// nearest point to the origin comes from.
  ConvexDistance finish(const Face& face, const Vertex& support, double depth, const ConvexSolid& a,
                        const ConvexSolid& b) const {
    const btVector3 at = face.normal * face.distance;
    double weight[3];
    const Vertex& p0 = vertices_[face.v[0]];
    const Vertex& p1 = vertices_[face.v[1]];
    const Vertex& p2 = vertices_[face.v[2]];
    btVector3 core_a;
    btVector3 core_b;
    if (face.distance < BT_LARGE_FLOAT) {
      nearest_on_triangle(p0.w - at, p1.w - at, p2.w - at, weight);
      core_a = p0.a * weight[0] + p1.a * weight[1] + p2.a * weight[2];
      core_b = p0.b * weight[0] + p1.b * weight[1] + p2.b * weight[2];
    } else {
      core_a = support.a;
      core_b = support.b;
    }
    // The face's outward normal u: the cores' difference reaches depth along
    // it; the character leaves along -u.
    (void)depth;  // support.w · normal
    return answer(-face.normal, support, core_a, core_b, a, b);
  }

  struct Horizon {
    int from;
    int to;
    int outside;       ///< the kept face across it
    int outside_edge;  ///< which of its edges
  };

  Vertex vertices_[kMaxVertices];
  int vertex_count_ = 0;
  Face faces_[kMaxFaces];
  double distance_[kMaxFaces];  ///< faces_[i].distance, for the nearest face's scan
  int face_count_ = 0;  ///< slots used, free ones included
  int free_[kMaxFaces];
  int free_count_ = 0;
  int removed_[kMaxFaces];
  int removed_count_ = 0;
  Horizon horizon_[kMaxFaces];
  int horizon_count_ = 0;
  int by_from_[kMaxVertices];
  btVector3 interior_;
};

}  // namespace

ConvexDistance convex_distance(const ConvexSolid& a, const ConvexSolid& b, const btVector3& guess, double cutoff) {
  // The gap (m) at which GJK stops: the tolerance (at 1e-12, as the pattern
  // search it replaced, 10 % more instructions on the lying-cylinder
  // scenarios). Rounding can stall it first (a cylinder's side against a
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
  constexpr int kMaxRestarts = 2;
  int restarts = 0;
  for (int i = 0; i < kMaxIterations; ++i) {
    const Vertex w = support_of(a, b, -v);
    ++evaluations;
    const double length = v.length();
    const double along = w.w.dot(v) / length;  // the cores' separation along v: a lower bound
    if (along > lower) {
      lower = along;
      best = v / length;
      best_vertex = w;
      if (lower > 0.0 && lower - a.margin() - b.margin() > cutoff) break;  // beyond the caller's interest
    }
    // w joins a point of each core: their distance is at most its length.
    upper = std::min(upper, w.w.length());
    if (upper - lower <= kGap) {
      stalled = false;
      break;
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
    ConvexDistance d = answer(best, best_vertex, core_a, core_b, a, b);
    d.converged = !stalled || upper - lower <= kConvexDistanceTolerance;
    d.evaluations = evaluations;
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
      ConvexDistance d = answer(normal, w, w.a, w.b, a, b);
      d.evaluations = evaluations + 1;
      return d;
    }
  }
  const Vertex start[4] = {simplex.p[0], simplex.p[1], simplex.p[2], simplex.p[3]};
  Polytope polytope;
  return polytope.expand(a, b, start, evaluations);
}

}  // namespace stepslide::detail
