#include "dynamics/polytope_contacts.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stepslide::dynamics {

namespace {

/// The corners of a box's faces, counter-clockwise seen from outside:
/// corner index bit 0 is +x, bit 1 +y, bit 2 +z.
constexpr int kBoxFaces[6][4] = {
    {1, 3, 7, 5},  // +x
    {0, 4, 6, 2},  // -x
    {2, 6, 7, 3},  // +y
    {0, 1, 5, 4},  // -y
    {4, 5, 7, 6},  // +z
    {0, 2, 3, 1},  // -z
};

double min_along(const Polytope& p, const btVector3& u) {
  double m = std::numeric_limits<double>::infinity();
  for (int i = 0; i < p.vertex_count; ++i) m = std::min(m, p.vertices[i].dot(u));
  return m;
}

double max_along(const Polytope& p, const btVector3& u) {
  double m = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < p.vertex_count; ++i) m = std::max(m, p.vertices[i].dot(u));
  return m;
}

/// The best face axis of `reference` against `other`: the largest gap of
/// `other` beyond one of reference's face planes.
struct FaceAxis {
  double separation = -std::numeric_limits<double>::infinity();
  int face = -1;
};

FaceAxis best_face(const Polytope& reference, const Polytope& other) {
  FaceAxis best;
  for (int f = 0; f < reference.face_count; ++f) {
    const btVector3& n = reference.normals[f];
    const double s = min_along(other, n) - reference.vertices[reference.faces[f][0]].dot(n);
    if (s > best.separation) best = {s, f};
  }
  return best;
}

struct EdgeAxis {
  double separation = -std::numeric_limits<double>::infinity();
  int edge_a = -1, edge_b = -1;
  btVector3 normal{0, 0, 0};  ///< from b toward a
};

EdgeAxis best_edges(const Polytope& a, const Polytope& b) {
  EdgeAxis best;
  for (int i = 0; i < a.edge_count; ++i) {
    for (int j = 0; j < b.edge_count; ++j) {
      btVector3 u = a.edges[i].cross(b.edges[j]);
      const double length = u.length();
      if (!(length > 1e-6)) continue;  // parallel edges: a face axis covers them
      u /= length;
      const double forward = min_along(a, u) - max_along(b, u);
      const double backward = min_along(a, -u) - max_along(b, -u);
      const double s = std::max(forward, backward);
      if (s > best.separation) best = {s, i, j, forward >= backward ? u : -u};
    }
  }
  return best;
}

/// The segment of `p` along edge direction `e` farthest toward `toward`.
void support_edge(const Polytope& p, int e, const btVector3& toward, btVector3* from, btVector3* to) {
  if (p.triangle) {
    *from = p.vertices[e];
    *to = p.vertices[(e + 1) % 3];
    return;
  }
  btVector3 c = p.centre;
  for (int j = 0; j < 3; ++j) {
    if (j == e) continue;
    c += p.axes[j] * (p.axes[j].dot(toward) >= 0.0 ? p.half[j] : -p.half[j]);
  }
  *from = c - p.axes[e] * p.half[e];
  *to = c + p.axes[e] * p.half[e];
}

/// The closest points of segments p0 p1 and q0 q1.
void closest_on_segments(const btVector3& p0, const btVector3& p1, const btVector3& q0, const btVector3& q1,
                         btVector3* on_p, btVector3* on_q) {
  const btVector3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = d1.dot(d1), e = d2.dot(d2), f = d2.dot(r);
  const double c = d1.dot(r), b = d1.dot(d2);
  const double denominator = a * e - b * b;
  double s = denominator > 0.0 ? std::clamp((b * f - c * e) / denominator, 0.0, 1.0) : 0.0;
  double t = e > 0.0 ? (b * s + f) / e : 0.0;
  if (t < 0.0) {
    t = 0.0;
    s = a > 0.0 ? std::clamp(-c / a, 0.0, 1.0) : 0.0;
  } else if (t > 1.0) {
    t = 1.0;
    s = a > 0.0 ? std::clamp((b - c) / a, 0.0, 1.0) : 0.0;
  }
  *on_p = p0 + d1 * s;
  *on_q = q0 + d2 * t;
}

struct ClipPoint {
  btVector3 p;
  std::uint64_t id;
};

/// A point made where the edge between two points crosses side `side`:
/// named after both ends and the side, in either order.
std::uint64_t crossing_id(std::uint64_t a, std::uint64_t b, int side) {
  const std::uint64_t lo = std::min(a, b), hi = std::max(a, b);
  return ((lo * 1000003u + hi) * 8u + static_cast<std::uint64_t>(side) + 1u) & ((std::uint64_t{1} << 40) - 1);
}

/// Keeps the part of `poly` (count points) on the inner side of the plane
/// through `origin` with outward normal `n` (Sutherland–Hodgman).
int clip(const ClipPoint* in, int count, const btVector3& origin, const btVector3& n, int side, ClipPoint* out) {
  int kept = 0;
  for (int i = 0; i < count; ++i) {
    const ClipPoint& p = in[i];
    const ClipPoint& q = in[(i + 1) % count];
    const double dp = (p.p - origin).dot(n), dq = (q.p - origin).dot(n);
    if (dp <= 0.0) out[kept++] = p;
    if ((dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0)) {
      const double t = dp / (dp - dq);
      out[kept++] = {p.p + (q.p - p.p) * t, crossing_id(p.id, q.id, side)};
    }
  }
  return kept;
}

/// The face of `p` whose normal is most opposed to `n`, the first of equals.
int most_opposed_face(const Polytope& p, const btVector3& n) {
  int best = 0;
  double least = std::numeric_limits<double>::infinity();
  for (int f = 0; f < p.face_count; ++f) {
    const double d = p.normals[f].dot(n);
    if (d < least) {
      least = d;
      best = f;
    }
  }
  return best;
}

/// Up to four of `count` points: the deepest, the farthest from it, then
/// the two spanning the most area on either side of the line between them.
int reduce(ClipPoint* points, double* separation, int count, const btVector3& normal) {
  if (count <= 4) return count;
  int keep[4] = {0, -1, -1, -1};
  for (int i = 1; i < count; ++i) {
    if (separation[i] < separation[keep[0]]) keep[0] = i;
  }
  double far = -1.0;
  for (int i = 0; i < count; ++i) {
    const double d = (points[i].p - points[keep[0]].p).length2();
    if (d > far) {
      far = d;
      keep[1] = i;
    }
  }
  const btVector3 line = points[keep[1]].p - points[keep[0]].p;
  double most = 0.0, least = 0.0;
  for (int i = 0; i < count; ++i) {
    const double area = line.cross(points[i].p - points[keep[0]].p).dot(normal);
    if (area > most) {
      most = area;
      keep[2] = i;
    }
    if (area < least) {
      least = area;
      keep[3] = i;
    }
  }
  ClipPoint p[4];
  double s[4];
  int kept = 0;
  for (const int k : keep) {
    if (k < 0) continue;
    p[kept] = points[k];
    s[kept] = separation[k];
    ++kept;
  }
  for (int i = 0; i < kept; ++i) {
    points[i] = p[i];
    separation[i] = s[i];
  }
  return kept;
}

std::uint64_t feature_key(std::uint64_t kind, int reference_face, int incident_face, std::uint64_t id) {
  return (kind << 60) | (static_cast<std::uint64_t>(reference_face) << 52) |
         (static_cast<std::uint64_t>(incident_face) << 44) | id;
}

/// The manifold of a face axis: `reference`'s face `face` against
/// `incident`'s most opposed face. `reference_is_b`: which of the pair the
/// reference is (the normal, from b toward a, is the face's normal or its opposite).
PolytopeContacts face_contacts(const Polytope& reference, int face, const Polytope& incident, bool reference_is_b,
                               double cutoff) {
  PolytopeContacts out;
  const btVector3& n = reference.normals[face];
  out.normal = reference_is_b ? n : -n;
  const int other = most_opposed_face(incident, n);
  ClipPoint buffer[2][16];
  int count = incident.face_size[other];
  for (int i = 0; i < count; ++i) buffer[0][i] = {incident.vertices[incident.faces[other][i]], std::uint64_t(i + 1)};
  const int size = reference.face_size[face];
  btVector3 middle(0, 0, 0);
  for (int i = 0; i < size; ++i) middle += reference.vertices[reference.faces[face][i]];
  middle /= static_cast<double>(size);
  int current = 0;
  for (int i = 0; i < size && count > 0; ++i) {
    const btVector3& r0 = reference.vertices[reference.faces[face][i]];
    const btVector3& r1 = reference.vertices[reference.faces[face][(i + 1) % size]];
    btVector3 side = (r1 - r0).cross(n);
    if (side.dot(middle - r0) > 0.0) side = -side;
    count = clip(buffer[current], count, r0, side, i, buffer[1 - current]);
    current = 1 - current;
  }
  const btVector3& plane = reference.vertices[reference.faces[face][0]];
  ClipPoint kept[16];
  double separation[16];
  int k = 0;
  for (int i = 0; i < count; ++i) {
    const double s = (buffer[current][i].p - plane).dot(n);
    if (s > cutoff) continue;
    kept[k] = buffer[current][i];
    separation[k] = s;
    ++k;
  }
  k = reduce(kept, separation, k, n);
  const std::uint64_t kind = reference_is_b ? 2 : 1;
  for (int i = 0; i < k; ++i) {
    out.points[i] = kept[i].p - n * (0.5 * separation[i]);
    out.separation[i] = separation[i];
    out.feature[i] = feature_key(kind, face, other, kept[i].id);
  }
  out.count = k;
  return out;
}

}  // namespace

Polytope box_polytope(const btTransform& pose, const btVector3& half_extents) {
  Polytope p;
  const btMatrix3x3& basis = pose.getBasis();
  p.centre = pose.getOrigin();
  p.half = half_extents;
  for (int k = 0; k < 3; ++k) p.axes[k] = basis.getColumn(k);
  p.vertex_count = 8;
  for (int i = 0; i < 8; ++i) {
    const btVector3 x = p.axes[0] * ((i & 1) ? half_extents.x() : -half_extents.x());
    const btVector3 y = p.axes[1] * ((i & 2) ? half_extents.y() : -half_extents.y());
    const btVector3 z = p.axes[2] * ((i & 4) ? half_extents.z() : -half_extents.z());
    p.vertices[i] = p.centre + x + y + z;
  }
  p.face_count = 6;
  for (int f = 0; f < 6; ++f) {
    p.normals[f] = (f % 2 == 0) ? p.axes[f / 2] : -p.axes[f / 2];
    p.face_size[f] = 4;
    for (int i = 0; i < 4; ++i) p.faces[f][i] = kBoxFaces[f][i];
  }
  p.edge_count = 3;
  for (int k = 0; k < 3; ++k) p.edges[k] = p.axes[k];
  return p;
}

Polytope triangle_polytope(const btVector3& p0, const btVector3& p1, const btVector3& p2) {
  Polytope p;
  p.triangle = true;
  p.vertex_count = 3;
  p.vertices[0] = p0;
  p.vertices[1] = p1;
  p.vertices[2] = p2;
  p.centre = (p0 + p1 + p2) / 3.0;
  btVector3 n = (p1 - p0).cross(p2 - p0);
  const double area = n.length();
  if (!(area > 0.0)) return p;  // degenerate: no faces, no contacts
  n /= area;
  p.face_count = 2;
  p.normals[0] = n;
  p.normals[1] = -n;
  p.face_size[0] = p.face_size[1] = 3;
  const int front[3] = {0, 1, 2}, back[3] = {0, 2, 1};
  for (int i = 0; i < 3; ++i) {
    p.faces[0][i] = front[i];
    p.faces[1][i] = back[i];
  }
  p.edge_count = 3;
  for (int i = 0; i < 3; ++i) p.edges[i] = (p.vertices[(i + 1) % 3] - p.vertices[i]).normalized();
  return p;
}

PolytopeContacts polytope_contacts(const Polytope& a, const Polytope& b, double cutoff) {
  PolytopeContacts none;
  if (a.face_count == 0 || b.face_count == 0) return none;
  const FaceAxis face_a = best_face(a, b);
  if (face_a.separation > cutoff) return none;
  const FaceAxis face_b = best_face(b, a);
  if (face_b.separation > cutoff) return none;
  const EdgeAxis edges = best_edges(a, b);
  if (edges.separation > cutoff) return none;
  const bool use_b = face_b.separation >= face_a.separation - kFaceTolerance;
  const double face_separation = use_b ? face_b.separation : face_a.separation;
  if (edges.edge_a >= 0 && edges.separation > face_separation + kFaceTolerance) {
    PolytopeContacts out;
    btVector3 a0, a1, b0, b1, on_a, on_b;
    support_edge(a, edges.edge_a, -edges.normal, &a0, &a1);
    support_edge(b, edges.edge_b, edges.normal, &b0, &b1);
    closest_on_segments(a0, a1, b0, b1, &on_a, &on_b);
    out.normal = edges.normal;
    out.count = 1;
    out.points[0] = (on_a + on_b) * 0.5;
    out.separation[0] = (on_a - on_b).dot(edges.normal);
    out.feature[0] = feature_key(3, edges.edge_a, edges.edge_b, 0);
    return out;
  }
  return use_b ? face_contacts(b, face_b.face, a, true, cutoff) : face_contacts(a, face_a.face, b, false, cutoff);
}

}  // namespace stepslide::dynamics
