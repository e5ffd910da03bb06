// The first touch of a moving capsule and a triangle (see first_touch.h).
#include "geometry/first_touch.h"

#include <algorithm>
#include <cmath>

namespace stepslide::detail {

namespace {

/// The first t >= 0 where |w + t·v| reaches `radius`, from outside: the
/// smaller root of |v|²t² + 2(w·v)t + |w|² - r² = 0. Negative when it
/// starts inside, never reaches it, or moves away.
double first_reach(const btVector3& w, const btVector3& v, double radius) {
  const double a = v.dot(v);
  const double half_b = w.dot(v);
  const double c = w.dot(w) - radius * radius;
  if (a <= kDegenerate || c < 0.0 || half_b >= 0.0) return -1.0;
  const double discriminant = half_b * half_b - a * c;
  if (discriminant < 0.0) return -1.0;
  return c / (-half_b + std::sqrt(discriminant));  // the smaller root, without cancellation
}

/// The part of `v` across the direction `u` (|u|² = uu).
btVector3 across(const btVector3& v, const btVector3& u, double uu) { return v - u * (v.dot(u) / uu); }

/// An endpoint `p` onto the face (normal `unit`), its edges and its vertices.
void endpoint_touches(const btVector3& p, const btVector3& m, double radius, const Triangle& tri, const btVector3& n,
                      const btVector3& unit, bool flat, FirstTouch* best) {
  if (flat) {
    const double s0 = (p - tri.v[0]).dot(unit);
    const double approach = m.dot(unit);
    const double side = s0 > 0.0 ? 1.0 : -1.0;
    if (s0 != 0.0 && side * approach < 0.0 && std::fabs(s0) >= radius) {
      const double t = (std::fabs(s0) - radius) / (-side * approach);
      const btVector3 at = p + m * t;
      const btVector3 on_plane = at - unit * (side * radius);
      if (inside(tri, n, on_plane)) {
        FirstTouch face;
        face.offer(t, at, on_plane);
        if (face.t < best->t) {
          best->t = face.t;
          best->normal = unit * side;  // exactly the face's normal
          best->point = on_plane;
        }
      }
    }
  }
  for (int i = 0; i < 3; ++i) {
    const btVector3& e0 = tri.v[i];
    const btVector3 u = tri.v[(i + 1) % 3] - e0;
    const double uu = u.dot(u);
    if (uu <= kDegenerate) continue;
    const double t = first_reach(across(p - e0, u, uu), across(m, u, uu), radius);
    if (t < -kEarly) continue;
    const btVector3 at = p + m * std::max(t, 0.0);
    const double sigma = (at - e0).dot(u) / uu;
    if (sigma < 0.0 || sigma > 1.0) continue;
    best->offer(t, at, e0 + u * sigma);
  }
  for (const btVector3& v : tri.v) {
    const double t = first_reach(p - v, m, radius);
    if (t < -kEarly) continue;
    best->offer(t, p + m * std::max(t, 0.0), v);
  }
}

/// The segment a→b (moving by m) onto each vertex, along its side.
void vertex_touches(const btVector3& a, const btVector3& b, const btVector3& m, double radius, const Triangle& tri,
                    FirstTouch* best) {
  const btVector3 w = b - a;
  const double ww = w.dot(w);
  if (ww <= kDegenerate) return;
  for (const btVector3& v : tri.v) {
    // In the segment's frame the vertex moves by -m.
    const double t = first_reach(across(v - a, w, ww), across(-m, w, ww), radius);
    if (t < -kEarly) continue;
    const btVector3 start = a + m * std::max(t, 0.0);
    const double tau = (v - start).dot(w) / ww;
    if (tau < 0.0 || tau > 1.0) continue;
    best->offer(t, start + w * tau, v);
  }
}

/// The segment's side onto each edge's side: the lines' distance along
/// their common normal reaches the radius with both closest points interior.
void edge_touches(const btVector3& a, const btVector3& b, const btVector3& m, double radius, const Triangle& tri,
                  FirstTouch* best) {
  const btVector3 w = b - a;
  const double ww = w.dot(w);
  if (ww <= kDegenerate) return;
  for (int i = 0; i < 3; ++i) {
    const btVector3& e0 = tri.v[i];
    const btVector3 u = tri.v[(i + 1) % 3] - e0;
    const double uu = u.dot(u);
    const btVector3 c = u.cross(w);
    const double cc = c.dot(c);
    if (uu <= kDegenerate || cc <= kDegenerate * uu * ww) continue;  // parallel: the ends cover it
    const btVector3 nc = c / std::sqrt(cc);
    const double d0 = (e0 - a).dot(nc);  // along nc, from the segment's line to the edge's
    const double closing = m.dot(nc);    // d(t) = d0 - t·closing
    const double side = d0 > 0.0 ? 1.0 : -1.0;
    if (std::fabs(d0) < radius || side * closing <= 0.0) continue;
    const double t = (std::fabs(d0) - radius) / (side * closing);
    const btVector3 rhs = a + m * t - e0 + nc * (side * radius);  // sigma·u - tau·w
    const double ru = rhs.dot(u);
    const double rw = rhs.dot(w);
    const double uw = u.dot(w);
    const double sigma = (ru * ww - uw * rw) / cc;
    const double tau = (uw * ru - uu * rw) / cc;
    if (sigma < 0.0 || sigma > 1.0 || tau < 0.0 || tau > 1.0) continue;
    best->offer(t, a + m * t + w * tau, e0 + u * sigma);
  }
}

}  // namespace

FirstTouch first_touch(const btVector3& a, const btVector3& b, double radius, const btVector3& m, const Triangle& tri,
                       const TrianglePlane& plane) {
  FirstTouch best;
  endpoint_touches(a, m, radius, tri, plane.n, plane.unit, plane.flat, &best);
  if (!(b == a)) endpoint_touches(b, m, radius, tri, plane.n, plane.unit, plane.flat, &best);
  vertex_touches(a, b, m, radius, tri, &best);
  edge_touches(a, b, m, radius, tri, &best);
  return best;
}

}  // namespace stepslide::detail
