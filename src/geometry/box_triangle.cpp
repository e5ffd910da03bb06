// Exact box-versus-triangle contact by separating axes (box_triangle.h).
// Everything is computed in the box's frame: the box is then the axis-aligned
// core [-h, h], and only the triangle is transformed.
#include "geometry/box_triangle.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "geometry/closest_points.h"

namespace stepslide {

namespace {

using detail::box_corner;
using detail::closest_on_segments;

/// Cross-product axes shorter than this (relative to the edge's length) come
/// from edges parallel to a box axis: the face axes already cover them.
constexpr double kParallel = 1e-9;
/// An edge-pair axis must separate by this much more than the best face axis
/// to be chosen: where they tie (a face resting on a face), the face's normal
/// is the answer the rest of the controller expects (face_normal).
constexpr double kFaceBias = 1e-9;
/// Points within this of the deepest along the normal form the deepest feature.
constexpr double kSameDepth = 1e-9;

/// The separating axis with the least penetration (or most separation).
struct Axis {
  double separation = -std::numeric_limits<double>::infinity();
  btVector3 normal{0, 1, 0};  ///< from the triangle toward the box (local)
  enum Kind { TriangleFace, BoxFace, Edges } kind = TriangleFace;
  int box_axis = 0;       ///< BoxFace: the axis; Edges: the box edge's direction
  int triangle_edge = 0;  ///< Edges: the triangle's edge (p[j] -> p[j+1])
};

/// Separation of the box [-h, h] and the triangle `p` along unit `axis`, and
/// the sign of the axis that points from the triangle toward the box.
double separation_along(const btVector3& h, const btVector3 p[3], const btVector3& axis, double* sign) {
  const double r = h.x() * std::fabs(axis.x()) + h.y() * std::fabs(axis.y()) + h.z() * std::fabs(axis.z());
  const double a = p[0].dot(axis), b = p[1].dot(axis), c = p[2].dot(axis);
  const double lo = std::min({a, b, c}), hi = std::max({a, b, c});
  // The box moved along +axis by hi + r, or along -axis by r - lo, clears it.
  const double push_plus = hi + r, push_minus = r - lo;
  *sign = push_plus <= push_minus ? 1.0 : -1.0;
  return -std::min(push_plus, push_minus);
}

/// The axis of least penetration (or most separation); as soon as one axis
/// separates them by more than `beyond`, that one (any axis's separation is
/// a lower bound on the distance: the caller needs no better).
Axis best_axis(const btVector3& h, const btVector3 p[3], double beyond) {
  Axis best;
  double sign = 1.0;
  const btVector3 edges[3] = {p[1] - p[0], p[2] - p[1], p[0] - p[2]};
  btVector3 face = edges[0].cross(edges[1]);
  const double area = face.length();
  if (area > kParallel * std::max(edges[0].length2(), edges[1].length2())) {
    face /= area;
    best.separation = separation_along(h, p, face, &sign);
    best.normal = face * sign;
    if (best.separation > beyond) return best;
  }
  for (int k = 0; k < 3; ++k) {
    btVector3 axis(0, 0, 0);
    axis[k] = 1.0;
    const double s = separation_along(h, p, axis, &sign);
    if (s > best.separation) best = Axis{s, axis * sign, Axis::BoxFace, k, 0};  // ties: the triangle's face
    if (best.separation > beyond) return best;
  }
  const double face_best = best.separation;
  for (int k = 0; k < 3; ++k) {
    for (int j = 0; j < 3; ++j) {
      btVector3 unit(0, 0, 0);
      unit[k] = 1.0;
      btVector3 axis = unit.cross(edges[j]);
      const double length = axis.length();
      if (length <= kParallel * edges[j].length() || length == 0.0) continue;
      axis /= length;
      const double s = separation_along(h, p, axis, &sign);
      if (s > face_best + kFaceBias && s > best.separation) best = Axis{s, axis * sign, Axis::Edges, k, j};
      if (s > beyond) return Axis{s, axis * sign, Axis::Edges, k, j};
    }
  }
  return best;
}

btVector3 clamp_to_box(const btVector3& x, const btVector3& h) {
  return btVector3(std::clamp(x.x(), -h.x(), h.x()), std::clamp(x.y(), -h.y(), h.y()),
                   std::clamp(x.z(), -h.z(), h.z()));
}

/// Closest point of triangle abc to x (Ericson, Real-Time Collision Detection 5.1.5).
btVector3 closest_on_triangle(const btVector3& x, const btVector3& a, const btVector3& b, const btVector3& c) {
  const btVector3 ab = b - a, ac = c - a, ax = x - a;
  const double d1 = ab.dot(ax), d2 = ac.dot(ax);
  if (d1 <= 0 && d2 <= 0) return a;
  const btVector3 bx = x - b;
  const double d3 = ab.dot(bx), d4 = ac.dot(bx);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + ab * (d1 / (d1 - d3));
  const btVector3 cx = x - c;
  const double d5 = ab.dot(cx), d6 = ac.dot(cx);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + ac * (d2 / (d2 - d6));
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  const double denominator = va + vb + vc;
  if (!(std::fabs(denominator) > 0)) return a;  // degenerate triangle: a vertex will do, the edges are tried too
  return a + ab * (vb / denominator) + ac * (vc / denominator);
}



/// Closest points of the separated box [-h, h] and triangle p: every pair of
/// closest points of two convex polyhedra is realised by a vertex against the
/// other solid or by an edge against an edge. Returns the distance.
double closest_features(const btVector3& h, const btVector3 p[3], btVector3* on_box, btVector3* on_triangle) {
  double best = std::numeric_limits<double>::infinity();
  auto consider = [&](const btVector3& a, const btVector3& b) {
    const double d2 = (a - b).length2();
    if (d2 < best) {
      best = d2;
      *on_box = a;
      *on_triangle = b;
    }
  };
  for (int i = 0; i < 3; ++i) consider(clamp_to_box(p[i], h), p[i]);
  for (int v = 0; v < 8; ++v) {
    const btVector3 corner = box_corner(h, v);
    consider(corner, closest_on_triangle(corner, p[0], p[1], p[2]));
  }
  for (int k = 0; k < 3; ++k) {
    for (int v = 0; v < 8; ++v) {
      if (v & (1 << k)) continue;  // each edge once, from its low end
      const btVector3 from = box_corner(h, v), to = box_corner(h, v | (1 << k));
      for (int j = 0; j < 3; ++j) {
        btVector3 a, b;
        closest_on_segments(from, to, p[j], p[(j + 1) % 3], &a, &b);
        consider(a, b);
      }
    }
  }
  return std::sqrt(best);
}

/// A convex polygon of at most 4 + 3 points (a box face clipped by a
/// triangle's three edges, or a triangle by a face's four sides: each
/// clipping plane adds at most one point), on the stack: the clipping runs
/// for most contacts of a box character, and vectors cost it allocations.
struct Polygon {
  static constexpr int kCapacity = 16;
  btVector3 points[kCapacity];
  int size = 0;
  void push_back(const btVector3& x) { points[size++] = x; }
  const btVector3* begin() const { return points; }
  const btVector3* end() const { return points + size; }
};

/// Keeps the part of polygon `in` with x·m <= offset.
Polygon clip(const Polygon& in, const btVector3& m, double offset) {
  Polygon out;
  for (int i = 0; i < in.size; ++i) {
    const btVector3& a = in.points[i];
    const btVector3& b = in.points[(i + 1) % in.size];
    const double da = a.dot(m) - offset, db = b.dot(m) - offset;
    if (da <= 0) out.push_back(a);
    if ((da < 0 && db > 0) || (da > 0 && db < 0)) out.push_back(a + (b - a) * (da / (da - db)));
  }
  return out;
}

/// Middle of the points of `polygon` deepest along `direction` (largest x·direction).
bool deepest_middle(const Polygon& polygon, const btVector3& direction, btVector3* middle) {
  if (polygon.size == 0) return false;
  double deepest = -std::numeric_limits<double>::infinity();
  for (const btVector3& x : polygon) deepest = std::max(deepest, x.dot(direction));
  btVector3 sum(0, 0, 0);
  int count = 0;
  for (const btVector3& x : polygon) {
    if (x.dot(direction) < deepest - kSameDepth) continue;
    sum += x;
    ++count;
  }
  *middle = sum / count;
  return true;
}

/// The point on the triangle at the middle of the deepest part of the
/// overlap, found as a polyhedron clipper would: the incident feature of one
/// shape clipped to the side planes of the other's reference face (the
/// triangle's edges, or the box face's four sides), its deepest points
/// averaged; for an edge pair, the closest points of the two edges.
btVector3 overlap_point(const btVector3& h, const btVector3 p[3], const Axis& axis) {
  const btVector3& n = axis.normal;  // triangle -> box
  const btVector3 fallback = closest_on_triangle(btVector3(0, 0, 0), p[0], p[1], p[2]);
  if (axis.kind == Axis::Edges) {
    // The box's edge along box_axis deepest toward the triangle (-n).
    btVector3 corner = h;
    for (int k = 0; k < 3; ++k) corner[k] = n[k] > 0 ? -h[k] : h[k];
    btVector3 from = corner, to = corner;
    from[axis.box_axis] = -h[axis.box_axis];
    to[axis.box_axis] = h[axis.box_axis];
    btVector3 on_box, on_triangle;
    closest_on_segments(from, to, p[axis.triangle_edge], p[(axis.triangle_edge + 1) % 3], &on_box, &on_triangle);
    return on_triangle;
  }
  if (axis.kind == Axis::BoxFace) {
    Polygon polygon;
    for (int i = 0; i < 3; ++i) polygon.push_back(p[i]);
    for (int k = 0; k < 3; ++k) {
      if (k == axis.box_axis) continue;
      btVector3 m(0, 0, 0);
      m[k] = 1.0;
      polygon = clip(polygon, m, h[k]);
      polygon = clip(polygon, -m, h[k]);
    }
    btVector3 middle;
    // Deepest into the box: furthest along n (the box lies on n's side).
    return deepest_middle(polygon, n, &middle) ? middle : fallback;
  }
  // The triangle's face: the box face most opposed to n, clipped to the
  // triangle's edges, its points deepest below the triangle's plane.
  const int a = n.absolute().maxAxis();
  const int b = (a + 1) % 3, c = (a + 2) % 3;
  btVector3 corner(0, 0, 0);
  corner[a] = n[a] > 0 ? -h[a] : h[a];
  Polygon polygon;
  for (const auto& [sb, sc] : {std::pair{1, 1}, std::pair{-1, 1}, std::pair{-1, -1}, std::pair{1, -1}}) {
    corner[b] = sb * h[b];
    corner[c] = sc * h[c];
    polygon.push_back(corner);
  }
  const btVector3 centroid = (p[0] + p[1] + p[2]) / 3.0;
  for (int j = 0; j < 3; ++j) {
    btVector3 m = (p[(j + 1) % 3] - p[j]).cross(n);
    if (m.length2() == 0.0) continue;
    if (m.dot(centroid - p[j]) > 0) m = -m;  // outward
    polygon = clip(polygon, m, m.dot(p[j]));
  }
  btVector3 middle;
  if (!deepest_middle(polygon, -n, &middle)) return fallback;
  return middle - n * (middle - p[0]).dot(n);  // onto the triangle's plane
}

}  // namespace

ExactContact box_triangle(const btTransform& box, const btVector3& half_extents, double radius,
                          const btVector3 triangle[3], double cutoff) {
  const btVector3 p[3] = {box.invXform(triangle[0]), box.invXform(triangle[1]), box.invXform(triangle[2])};
  const btVector3& h = half_extents;
  const Axis axis = best_axis(h, p, cutoff + radius);
  // Separation along any axis is a lower bound on the distance of two
  // separated convex solids: beyond the caller's cutoff, no closer feature
  // can bring it back (most triangles a query's bounds gather are such).
  if (axis.separation > cutoff + radius) {
    ExactContact beyond;
    beyond.answered = true;
    beyond.beyond = true;
    beyond.distance = axis.separation - radius;
    return beyond;
  }
  btVector3 normal = axis.normal;
  btVector3 point;
  double distance = axis.separation;
  if (axis.separation > 0.0) {
    // Separated: the axes give a lower bound; the closest features the distance.
    btVector3 on_box, on_triangle;
    distance = closest_features(h, p, &on_box, &on_triangle);
    const btVector3 between = on_box - on_triangle;
    if (between.length() > 1e-12) normal = between / between.length();
    point = on_triangle;
  } else {
    point = overlap_point(h, p, axis);
  }
  ExactContact contact;
  contact.answered = true;
  contact.distance = distance - radius;
  contact.normal = box.getBasis() * normal;
  contact.point = box * point;
  return contact;
}

}  // namespace stepslide
