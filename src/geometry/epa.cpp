// EPA for convex_distance (gjk.h): the polytope of support
// points grown toward the face nearest the origin, on the same exact support
// functions as GJK; between two smooth curved surfaces, Newton's method on
// the support function once the polytope has found the minimum's basin.
#include <algorithm>
#include <cmath>
#include <utility>

#include "base/portable_math.h"
#include "geometry/gjk_parts.h"

namespace stepslide::detail {

namespace {

/// EPA: the polytope of support points, grown from `start` (a tetrahedron
/// holding the origin) toward the face nearest the origin until that
/// face's distance (a lower bound on the cores' depth: the polytope lies
/// inside their difference) and the least support along a measured face
/// normal (an upper bound) meet within the tolerance. The answer is that
/// normal: a separation actually measured, never shallower than the truth.
/// Or, where the deepest direction is a smooth minimum of the support
/// function and the polytope shows no other basin (only_basin), Newton's
/// minimum: measured too, and exact to rounding.
class Polytope {
 public:
  static constexpr int kMaxVertices = 128;
  static constexpr int kMaxFaces = 2 * kMaxVertices + 64;

  ExactContact expand(const ConvexSolid& a, const ConvexSolid& b, const Vertex (&start)[4], int evaluations,
                      ConvexDetail* detail) {
    upper_ = BT_LARGE_FLOAT;
    start_tetrahedron(start);
    int best = 0;
    Face best_face = faces_[0];
    Vertex best_support = vertices_[0];
    bool converged = false;
    double polish_at = kNewtonGap;
    while (true) {
      const int nearest = nearest_face();
      const Face& f = faces_[nearest];
      const double lower = f.distance;
      const Vertex w = support_of(a, b, f.normal);
      ++evaluations;
      const double h = w.w.dot(f.normal);
      if (h < upper_) {
        upper_ = h;
        best = nearest;
        best_face = f;
        best_support = w;
      }
      if (upper_ - lower <= kConvexDistanceTolerance) {
        converged = true;
        break;
      }
      if (vertex_count_ == kMaxVertices || !add_vertex(w, nearest)) break;
      if (upper_ - lower <= polish_at) {
        polish_at = (upper_ - lower) * kNewtonAgain;
        Vertex minimum;
        btVector3 u;
        // Where the polytope does not yet show the best face's direction as
        // the only basin, Newton's minimum (a few steps from it) would not
        // either: on the lying-cylinder scenarios the two agreed on all 54
        // tries, and half of them failed, each costing Newton's steps.
        if (only_basin(a, b, best_face.normal, upper_) &&
            newton_minimum(a, b, best_face.normal, best_support, &u, &minimum, &evaluations) &&
            only_basin(a, b, u, minimum.w.dot(u))) {
          return smooth_answer(u, minimum, a, b, evaluations, detail);
        }
      }
    }
    (void)best;
    detail->converged = converged;
    detail->evaluations = evaluations;
    return finish(best_face, best_support, upper_, a, b, detail);
  }

 private:
  /// Whether the Newton minimum at `u` (of depth `depth`) is the deepest
  /// within the tolerance, as far as the polytope shows. A face at distance
  /// d < r = depth - tolerance leaves the point r·v outside the polytope
  /// only for directions v within acos(d/r) of its normal; everywhere else
  /// r·v lies in the polytope, inside the difference, so the support
  /// there is at least r. Every such cap must lie in a cone about u where
  /// both support functions are smooth (no corner or rim changes over): the
  /// cone is Newton's basin, where the minimum found is the only one.
  bool only_basin(const ConvexSolid& a, const ConvexSolid& b, const btVector3& u, double depth) const {
    const double r = depth - kConvexDistanceTolerance;
    // The cone's angle, at most a right angle; compared by cosines: the sum
    // of two angles below a right angle each is below the cone's when the
    // cosine of the sum, c1·c2 - s1·s2, is above its cosine.
    const double cos_smooth = portable::cos(std::min(M_PI / 2, std::min(a.smooth_within(u), b.smooth_within(-u))));
    for (int k = 0; k < candidate_count_; ++k) {
      const int slot = candidates_[k];  // every face nearer than the upper bound (nearest_face)
      if (!(distance_[slot] < r)) continue;
      const double c1 = std::min(1.0, faces_[slot].normal.dot(u));  // the face normal's angle from u
      const double c2 = std::min(1.0, distance_[slot] / r);          // the cap's angle
      if (!(c1 > 0.0 && c2 > 0.0)) return false;
      const double cos_sum = c1 * c2 - std::sqrt(1.0 - c1 * c1) * std::sqrt(1.0 - c2 * c2);
      if (!(cos_sum > cos_smooth)) return false;
    }
    return true;
  }

  struct Face {
    int v[3];          ///< counter-clockwise seen from outside
    int adjacent[3];   ///< the face across edge v[i] v[i+1]
    int edge[3];       ///< which of that face's edges it is
    btVector3 normal;  ///< unit, outward
    double distance;   ///< of its plane from the origin (a free slot: BT_INFINITY in distance_)
    bool removed;
  };

  void start_tetrahedron(const Vertex (&start)[4]) {
    for (int i = 0; i < 4; ++i) vertices_[i] = start[i];
    // Wound so that each face's normal points away from the opposite corner.
    if ((start[1].w - start[0].w).cross(start[2].w - start[0].w).dot(start[3].w - start[0].w) > 0.0)
      std::swap(vertices_[1], vertices_[2]);
    vertex_count_ = 4;
    for (int i = 0; i < 4; ++i) stamp_[i] = -1;  // each vertex's stamp is set as it is added
    interior_ = (start[0].w + start[1].w + start[2].w + start[3].w) * 0.25;
    face_count_ = 0;
    free_count_ = 0;
    candidate_count_ = 0;
    static constexpr int kFaces[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
    // Across edge e (v[e] to v[e + 1]) of face i: the face holding that edge
    // the other way round, and which of its edges it is (fixed by kFaces).
    static constexpr int kAdjacent[4][3] = {{1, 3, 2}, {2, 3, 0}, {0, 3, 1}, {1, 2, 0}};
    static constexpr int kEdge[4][3] = {{2, 2, 0}, {2, 0, 0}, {2, 1, 0}, {1, 1, 1}};
    for (const auto& f : kFaces) make_face(f[0], f[1], f[2]);
    for (int i = 0; i < 4; ++i) {
      for (int e = 0; e < 3; ++e) {
        faces_[i].adjacent[e] = kAdjacent[i][e];
        faces_[i].edge[e] = kEdge[i][e];
      }
    }
  }

  // Inlined into add_vertex's loop, where three or four faces are made a
  // step: the call itself was a tenth of a face's cost.
  [[gnu::always_inline]] int make_face(int i, int j, int k) {
    const int slot = free_count_ > 0 ? free_[--free_count_] : new_slot();
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
    if (!listed_[slot] && f.distance <= upper_) {
      listed_[slot] = true;
      candidates_[candidate_count_++] = slot;
    }
    return slot;
  }

  int new_slot() {
    listed_[face_count_] = false;
    return face_count_++;
  }

  /// The face nearest the origin, the first slot among equals. Only faces
  /// no farther than the upper bound can be it (the nearest face's distance
  /// is a lower bound on the depth, which the upper bound holds from
  /// above), and the upper bound only falls: the faces made within it are
  /// listed as they are made, and a listed face found beyond it leaves the
  /// list for good. Near the end a handful are left of a hundred.
  int nearest_face() {
    int best = -1;
    double nearest = 0.0;
    int kept = 0;
    for (int i = 0; i < candidate_count_; ++i) {
      const int slot = candidates_[i];
      const double d = distance_[slot];
      if (!(d <= upper_)) {  // beyond the bound, or freed (infinite)
        listed_[slot] = false;
        continue;
      }
      candidates_[kept++] = slot;
      if (best < 0 || d < nearest || (d == nearest && slot < best)) {
        best = slot;
        nearest = d;
      }
    }
    candidate_count_ = kept;
    // Rounding may leave every face beyond the bound: all of them then.
    return best >= 0 ? best : scan_all();
  }

  int scan_all() const {
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
    static constexpr int kNext[3] = {1, 2, 0};
    faces_[face].removed = true;
    removed_[removed_count_++] = face;
    for (int e = 0; e < 3; ++e) {
      const Face& f = faces_[face];
      const int next = f.adjacent[e];
      const Face& other = faces_[next];
      if (other.removed) continue;
      if (visible(other, w)) {
        remove_seen(next, w);
      } else if (horizon_count_ < kMaxFaces) {
        Horizon& h = horizon_[horizon_count_++];
        h.from = f.v[e];
        h.to = f.v[kNext[e]];
        h.outside = next;
        h.outside_edge = f.edge[e];
      }
    }
  }

  /// Adds `w`, replacing the faces it sees (from `nearest` on) by a fan
  /// from their horizon; false when that is not a simple loop (rounding) or
  /// the polytope is full.
  bool add_vertex(const Vertex& w, int nearest) {
    const int index = vertex_count_++;
    vertices_[index] = w;
    stamp_[index] = -1;
    removed_count_ = 0;
    horizon_count_ = 0;
    remove_seen(nearest, w.w);
    if (horizon_count_ < 3 || horizon_count_ == kMaxFaces) return false;
    if (horizon_count_ > free_count_ + removed_count_ + (kMaxFaces - face_count_)) return false;
    // Each corner starts at most one horizon edge and ends one that starts
    // at another: a simple loop. Stamped with the new vertex's index, so
    // nothing is cleared between steps and no earlier step's entry counts.
    for (int i = 0; i < horizon_count_; ++i) {
      const int from = horizon_[i].from;
      if (stamp_[from] == index) return false;  // not a simple loop
      stamp_[from] = index;
      by_from_[from] = i;
    }
    for (int i = 0; i < horizon_count_; ++i) {
      if (stamp_[horizon_[i].to] != index) return false;
    }
    for (int i = 0; i < removed_count_; ++i) {
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
  ExactContact finish(const Face& face, const Vertex& support, double depth, const ConvexSolid& a,
                      const ConvexSolid& b, ConvexDetail* detail) const {
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
    return answer(-face.normal, support, core_a, core_b, a, b, detail);
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
  int candidates_[kMaxFaces];  ///< the slots that may be the nearest face (nearest_face)
  int candidate_count_ = 0;
  bool listed_[kMaxFaces];     ///< whether a slot is in candidates_
  double upper_ = BT_LARGE_FLOAT;  ///< the least separation measured along a face normal
  int free_[kMaxFaces];
  int free_count_ = 0;
  int removed_[kMaxFaces];
  int removed_count_ = 0;
  Horizon horizon_[kMaxFaces];
  int horizon_count_ = 0;
  int by_from_[kMaxVertices];  ///< the horizon edge starting at a corner, where stamp_ holds this step's vertex
  int stamp_[kMaxVertices];
  btVector3 interior_;
};

}  // namespace

ExactContact expand_polytope(const ConvexSolid& a, const ConvexSolid& b, const Vertex (&start)[4], int evaluations,
                             ConvexDetail* detail) {
  Polytope polytope;
  return polytope.expand(a, b, start, evaluations, detail);
}

}  // namespace stepslide::detail
