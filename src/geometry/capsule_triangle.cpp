// Exact capsule-vs-triangle queries (see capsule_triangle.h).
//
// The distance from a segment to a triangle is the least of: each endpoint
// to the triangle's face (where it projects inside), and the segment to each
// edge; unless the segment crosses the triangle. A moving capsule's first
// touch is first_touch.h's.
#include "geometry/capsule_triangle.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "geometry/first_touch.h"
#include "geometry/shapes.h"

namespace stepslide::detail {

namespace {

/// A segment closer than this to the triangle touches it: no unique normal.
constexpr double kTouching = 1e-9;
/// 1 - cos between an edge contact's normal and a face's that is rounding
/// alone (a contact beside a coplanar neighbour): about 0.1 microradian.
constexpr double kSameFaceRounding = 1e-14;
/// Bullet's convex cast stops once the shapes are this close, and gives up
/// after this many steps (btContinuousConvexCollision's `radius` and
/// MAX_ITERATIONS).
constexpr double kBulletStop = 0.001;
constexpr int kBulletIterations = 64;
/// Steps of the advancement taken before asking whether the capsule comes
/// within kBulletStop at all (sweep_from).
constexpr int kStepsBeforeTouch = 4;
/// A step that ends this much closer than kBulletStop proves the grown
/// capsule touched (sweep_from): 0.1 µm, far beyond rounding.
constexpr double kCertainWithin = 1e-7;
/// capsule_triangle_penetration: |d × edge| below this times the edge's
/// length (m), no face; face pushes this close to the least (m) are taken.
constexpr double kPenetrationSliver = 1e-12;
constexpr double kPenetrationTie = 1e-9;

/// The parameters s, t in [0, 1] of the closest points of the segments
/// p + s·d and q + t·e (Ericson, Real-Time Collision Detection, 5.1.9).
/// Inline, forced: three per triangle in contact_with's edge loop, which
/// a call would slow (it has a second, cold caller).
[[gnu::always_inline]] inline void closest_on_segments(const btVector3& p, const btVector3& d, const btVector3& q, const btVector3& e, double* s,
                         double* t) {
  const btVector3 r = p - q;
  const double dd = d.dot(d);
  const double ee = e.dot(e);
  const double f = e.dot(r);
  if (dd <= kDegenerate && ee <= kDegenerate) {
    *s = *t = 0.0;
    return;
  }
  if (dd <= kDegenerate) {
    *s = 0.0;
    *t = std::clamp(f / ee, 0.0, 1.0);
    return;
  }
  const double c = d.dot(r);
  if (ee <= kDegenerate) {
    *t = 0.0;
    *s = std::clamp(-c / dd, 0.0, 1.0);
    return;
  }
  const double de = d.dot(e);
  const double denominator = dd * ee - de * de;
  *s = denominator > 0.0 ? std::clamp((de * f - c * ee) / denominator, 0.0, 1.0) : 0.0;
  *t = (de * *s + f) / ee;
  if (*t < 0.0) {
    *t = 0.0;
    *s = std::clamp(-c / dd, 0.0, 1.0);
  } else if (*t > 1.0) {
    *t = 1.0;
    *s = std::clamp((de - c) / dd, 0.0, 1.0);
  }
}

using Plane = TrianglePlane;

/// capsule_triangle with the triangle's plane already known.
ExactContact contact_with(const btVector3& a, const btVector3& b, double radius, const Triangle& tri,
                          const Plane& plane, double max_distance) {
  ExactContact result;
  const btVector3& n = plane.n;
  const btVector3& unit = plane.unit;
  const bool flat = plane.flat;
  double da = 0.0;
  double db = 0.0;
  if (flat) {
    da = (a - tri.v[0]).dot(unit);
    db = (b - tri.v[0]).dot(unit);
    const double reach = radius + max_distance;
    if ((da > reach && db > reach) || (da < -reach && db < -reach)) {
      result.answered = true;
      result.beyond = true;
      return result;
    }
    // Crossing the plane inside the triangle: distance zero, no normal.
    if (((da <= 0.0 && db >= 0.0) || (da >= 0.0 && db <= 0.0)) && da != db &&
        inside(tri, n, a + (b - a) * (da / (da - db)))) {
      return result;
    }
  }
  double best = std::numeric_limits<double>::infinity();
  btVector3 on_segment(0, 0, 0);
  btVector3 on_triangle(0, 0, 0);
  bool on_face = false;
  int ends_over_face = 0;
  if (flat) {
    const btVector3 ends[2] = {a, b};
    const double heights[2] = {da, db};
    for (int k = 0; k < 2; ++k) {
      const btVector3 projected = ends[k] - unit * heights[k];
      if (!inside(tri, n, projected)) continue;
      ++ends_over_face;
      const double d2 = heights[k] * heights[k];
      if (d2 < best) {
        best = d2;
        on_segment = ends[k];
        on_triangle = projected;
        on_face = true;
      }
    }
  }
  // With both ends over the face (and on one side of it) the whole segment
  // is, and the face is nearer than any edge: the common case of standing on
  // a triangle costs no edge test.
  for (int i = 0; i < 3 && ends_over_face < 2; ++i) {
    const btVector3& e0 = tri.v[i];
    const btVector3 u = tri.v[(i + 1) % 3] - e0;
    double s = 0.0;
    double t = 0.0;
    closest_on_segments(a, b - a, e0, u, &s, &t);
    const btVector3 p = a + (b - a) * s;
    const btVector3 q = e0 + u * t;
    const double d2 = (p - q).length2();
    if (d2 < best) {
      best = d2;
      on_segment = p;
      on_triangle = q;
      on_face = false;
    }
  }
  const double core = std::sqrt(best);
  if (!(core > kTouching)) return result;
  result.answered = true;
  result.distance = core - radius;
  if (result.distance > max_distance) {
    result.beyond = true;
    return result;
  }
  result.point = on_triangle;
  if (on_face) {
    result.normal = unit * ((on_segment - on_triangle).dot(unit) > 0.0 ? 1.0 : -1.0);
  } else {
    result.normal = (on_segment - on_triangle) / core;
  }
  // On the face when the closest point is (its normal is then the face's
  // exactly), or at an edge or corner whose normal is the face's to rounding
  // (beside a coplanar neighbour). Not within kSameFace, as for GJK's noisy
  // normals: on a ridge the edge contact would count as on the flatter face
  // and the other triangle's identical contact as on none, and which of the
  // two the controller meets first would hinge on rounding.
  if (flat) {
    const double along = result.normal.dot(unit);
    if (on_face || std::fabs(along) >= 1.0 - kSameFaceRounding) result.face_normal = along > 0.0 ? unit : -unit;
  }
  return result;
}

/// The point of the triangle closest to the segment a→b: where the segment
/// crosses the face, the crossing; else the nearest of the ends' feet on the
/// face and the closest points to the edges (as contact_with).
btVector3 closest_on_triangle(const btVector3& a, const btVector3& b, const Triangle& tri, const Plane& plane) {
  const btVector3& unit = plane.unit;
  const double da = (a - tri.v[0]).dot(unit);
  const double db = (b - tri.v[0]).dot(unit);
  if (((da <= 0.0 && db >= 0.0) || (da >= 0.0 && db <= 0.0)) && da != db) {
    const btVector3 crossing = a + (b - a) * (da / (da - db));
    if (inside(tri, plane.n, crossing)) return crossing;
  }
  double best = std::numeric_limits<double>::infinity();
  btVector3 on_triangle = tri.v[0];
  const btVector3 ends[2] = {a, b};
  const double heights[2] = {da, db};
  for (int k = 0; k < 2; ++k) {
    const btVector3 projected = ends[k] - unit * heights[k];
    if (inside(tri, plane.n, projected) && heights[k] * heights[k] < best) {
      best = heights[k] * heights[k];
      on_triangle = projected;
    }
  }
  for (int i = 0; i < 3; ++i) {
    const btVector3& e0 = tri.v[i];
    const btVector3 u = tri.v[(i + 1) % 3] - e0;
    double s = 0.0;
    double t = 0.0;
    closest_on_segments(a, b - a, e0, u, &s, &t);
    const btVector3 q = e0 + u * t;
    const double d2 = (a + (b - a) * s - q).length2();
    if (d2 < best) {
      best = d2;
      on_triangle = q;
    }
  }
  return on_triangle;
}

/// capsule_triangle_penetration with the triangle's plane known. The origin
/// lies in (or within rounding of) the polytope segment ⊕ (-triangle), and
/// the least push out of it is along one of its face normals: the
/// triangle's, and d × edge for each edge (d the segment's direction). Along
/// a unit u the triangle projects onto [min v·u, max v·u] and the segment
/// onto [min(s0, s1), max(s0, s1)]: moving the capsule by p along u clears
/// the triangle when p = max v·u - min(s0, s1), along -u when
/// p = max(s0, s1) - min v·u.
// Out of line: asked only where the segment touches the triangle, it stays
// out of the sweeps' hot loop.
[[gnu::noinline, gnu::cold]] ExactContact penetration_with(const btVector3& a, const btVector3& b, double radius, const Triangle& tri,
                              const Plane& plane) {
  ExactContact result;
  if (!plane.flat) return result;
  const btVector3 d = b - a;
  btVector3 axes[4];
  int count = 0;
  axes[count++] = plane.unit;
  for (int i = 0; i < 3; ++i) {
    const btVector3 edge = tri.v[(i + 1) % 3] - tri.v[i];
    const btVector3 across = d.cross(edge);
    const double length = across.length();
    // A face narrower than this (the segment within 1e-12 m of parallel to
    // the edge, or a point) changes the depth by less than its width.
    if (!(length > kPenetrationSliver * edge.length())) continue;
    axes[count++] = across / length;
  }
  // Candidates, in order: +unit, -unit, then ±(d × edge) for each edge kept.
  double push[8];
  for (int k = 0; k < count; ++k) {
    const btVector3& u = axes[k];
    const double t0 = tri.v[0].dot(u);
    const double t1 = tri.v[1].dot(u);
    const double t2 = tri.v[2].dot(u);
    const double s0 = a.dot(u);
    const double s1 = b.dot(u);
    push[2 * k] = std::max(t0, std::max(t1, t2)) - std::min(s0, s1);
    push[2 * k + 1] = std::max(s0, s1) - std::min(t0, std::min(t1, t2));
  }
  const int n = 2 * count;
  double least = push[0];
  for (int k = 1; k < n; ++k) least = std::min(least, push[k]);
  // The face's normal within kPenetrationTie of the least push is taken (a
  // capsule lying nearly flat on the face is pushed off it, not tilted by
  // a rounding); otherwise the least, the first of exact ties.
  int best = -1;
  for (int k = 0; k < 2; ++k) {
    if (push[k] <= least + kPenetrationTie && (best < 0 || push[k] < push[best])) best = k;
  }
  for (int k = 2; k < n && best < 0; ++k) {
    if (push[k] == least) best = k;
  }
  const btVector3 normal = best % 2 == 0 ? axes[best / 2] : -axes[best / 2];
  const btVector3 shift = normal * push[best];
  result.answered = true;
  result.distance = -push[best] - radius;
  result.normal = normal;
  result.point = closest_on_triangle(a + shift, b + shift, tri, plane);
  const double along = normal.dot(plane.unit);
  if (best < 2 || std::fabs(along) >= 1.0 - kSameFaceRounding) result.face_normal = along > 0.0 ? plane.unit : -plane.unit;
  return result;
}

/// Whether the capsule swept by m stays on one side of the triangle's plane,
/// farther than `reach` from it (the cheap cull).
bool beside_plane(const btVector3& a, const btVector3& b, const btVector3& m, const Triangle& tri, const Plane& plane,
                  double reach) {
  if (!plane.flat) return false;
  const btVector3& unit = plane.unit;
  const double da = (a - tri.v[0]).dot(unit);
  const double db = (b - tri.v[0]).dot(unit);
  const double dm = m.dot(unit);
  const double lo = std::min(std::min(da, db), std::min(da + dm, db + dm));
  const double hi = std::max(std::max(da, db), std::max(da + dm, db + dm));
  return lo > reach || hi < -reach;
}

ExactSweep hit_at(double fraction, double distance, const btVector3& normal, const btVector3& point) {
  ExactSweep s;
  s.answered = true;
  s.hit = true;
  s.fraction = fraction;
  s.distance = distance;
  s.normal = normal;
  s.point = point;
  return s;
}

/// The start contact, computed when asked.
class Computed final : public StartContact {
 public:
  Computed(const btVector3& a, const btVector3& b, double radius, const Triangle& tri, const Plane& plane)
      : a_(a), b_(b), radius_(radius), tri_(tri), plane_(plane) {}
  const ExactContact& get() override {
    contact_ = contact_with(a_, b_, radius_, tri_, plane_, std::numeric_limits<double>::infinity());
    return contact_;
  }

 private:
  const btVector3& a_;
  const btVector3& b_;
  double radius_;
  const Triangle& tri_;
  const Plane& plane_;
  ExactContact contact_;
};

}  // namespace

Plane plane_of(const Triangle& tri) {
  Plane p;
  p.n = (tri.v[1] - tri.v[0]).cross(tri.v[2] - tri.v[0]);
  const double n2 = p.n.length2();
  p.flat = n2 > kDegenerate;
  if (p.flat) p.unit = p.n / std::sqrt(n2);
  return p;
}

ExactContact capsule_triangle(const btVector3& a, const btVector3& b, double radius, const Triangle& tri,
                              double max_distance) {
  return contact_with(a, b, radius, tri, plane_of(tri), max_distance);
}

ExactContact capsule_triangle(const btVector3& a, const btVector3& b, double radius, const Triangle& tri,
                              const Plane& plane, double max_distance) {
  return contact_with(a, b, radius, tri, plane, max_distance);
}

ExactContact capsule_triangle(const btVector3& a, const btVector3& b, double radius, const Triangle& tri,
                              const Plane& plane, double max_distance, StartContact& start) {
  // contact_with's cheap cull, then its unbounded answer, which its bounded
  // one equals but where the distance passes max_distance (beyond).
  if (plane.flat) {
    const double da = (a - tri.v[0]).dot(plane.unit);
    const double db = (b - tri.v[0]).dot(plane.unit);
    const double reach = radius + max_distance;
    if ((da > reach && db > reach) || (da < -reach && db < -reach)) {
      ExactContact result;
      result.answered = true;
      result.beyond = true;
      return result;
    }
  }
  const ExactContact& full = start.get();
  if (!full.answered || !(full.distance > max_distance)) return full;
  ExactContact result;
  result.answered = true;
  result.distance = full.distance;
  result.beyond = true;
  return result;
}

ExactContact capsule_triangle_penetration(const btVector3& a, const btVector3& b, double radius, const Triangle& tri,
                                          const Plane& plane) {
  return penetration_with(a, b, radius, tri, plane);
}

ExactContact capsule_triangle_penetration(const btVector3& a, const btVector3& b, double radius, const Triangle& tri) {
  return penetration_with(a, b, radius, tri, plane_of(tri));
}

ExactSweep capsule_triangle_touch(const btVector3& a, const btVector3& b, double radius, const btVector3& m,
                                  const Triangle& tri) {
  ExactSweep result = ExactSweep::miss();
  const Plane plane = plane_of(tri);
  if (beside_plane(a, b, m, tri, plane, radius)) return result;
  const ExactContact start = contact_with(a, b, radius, tri, plane, std::numeric_limits<double>::infinity());
  if (!start.answered) {
    result.answered = false;
    return result;
  }
  // Distance to a convex set changes at -m·normal first and is convex along
  // the motion: not approaching now, never touching (Bullet's rule too).
  if (-m.dot(start.normal) <= SIMD_EPSILON) return result;
  if (start.distance <= 0.0) return hit_at(0.0, start.distance, start.normal, start.point);
  const FirstTouch best = first_touch(a, b, radius, m, tri, plane);
  if (!(best.t <= 1.0)) return result;
  return hit_at(best.t, 0.0, best.normal, best.point);
}

namespace {

/// Whether the capsule grown by kBulletStop touches the triangle within the
/// motion: Bullet's cast reports a hit only where the capsule comes within
/// kBulletStop. Without it, a miss would creep on step after step until
/// past the end.
bool comes_within_stop(const btVector3& a, const btVector3& b, double radius, const btVector3& m, const Triangle& tri,
                       const Plane& plane) {
  return first_touch(a, b, radius + kBulletStop, m, tri, plane).t <= 1.0;
}

/// capsule_triangle_sweep, its start contact from `start_contact` (a
/// template: Bullet's path calls Computed's directly). comes_within_stop is
/// asked only when the steps alone do not settle it (see below); asked at
/// the first step it gives the same answer, bit for bit
/// (tests/collision/sweep_touch_deferred_test.cpp).
template <class Start>
ExactSweep sweep_from(const btVector3& a, const btVector3& b, double radius, const btVector3& m, const Triangle& tri,
                      const Plane& plane, Start& start_contact, double until) {
  ExactSweep result = ExactSweep::miss();
  if (beside_plane(a, b, m, tri, plane, radius + kBulletStop)) return result;
  const ExactContact& start = start_contact.get();
  if (!start.answered) {
    // The segment starts touching or crossing the triangle: as Bullet's
    // cast from its penetration solver, a hit at 0 along the least push out
    // when moving into it, else a miss; but from the exact least push.
    const ExactContact deep = penetration_with(a, b, radius, tri, plane);
    if (!deep.answered) {
      result.answered = false;
      return result;
    }
    if (-m.dot(deep.normal) <= SIMD_EPSILON) return result;
    return hit_at(0.0, deep.distance, deep.normal, deep.point);
  }
  if (-m.dot(start.normal) <= SIMD_EPSILON) return result;  // see capsule_triangle_touch
  // Bullet's conservative advancement (btContinuousConvexCollision), step
  // for step, on exact distances instead of GJK's: advance by distance over
  // closing speed, which never passes the touch, until within kBulletStop.
  // The answer is a miss when comes_within_stop is false, else the steps'.
  // Asked at the first step, it ends most misses at once, but costs more
  // than three steps (a hit pays it too). So it is asked at the step after
  // kStepsBeforeTouch (misses the steps do not end by then), before
  // reporting Unknown, or before a hit the steps did not prove: a hit
  // within kBulletStop - kCertainWithin at lambda <= 1 is one the grown
  // shape touches before lambda (by kCertainWithin over the closing speed,
  // far beyond rounding). Both orders give the same answer: every return
  // below is a miss but those, and a miss is a miss in either order.
  double lambda = 0.0;
  double distance = start.distance;
  btVector3 normal = start.normal;
  btVector3 point = start.point;
  bool within_stop = false;  // comes_within_stop asked, and true
  for (int iterations = 0; distance > kBulletStop;) {
    const double closing = -m.dot(normal);
    if (closing <= SIMD_EPSILON) return result;
    const double next = lambda + distance / closing;
    if (next > 1.0 || next < 0.0 || next <= lambda) return result;
    // The steps never pass the touch: a hit, if any, comes at or after next.
    if (next > until) return result;
    if (iterations == kStepsBeforeTouch) {
      if (!comes_within_stop(a, b, radius, m, tri, plane)) return result;
      within_stop = true;
    }
    lambda = next;
    const btVector3 moved = m * lambda;
    const ExactContact c =
        contact_with(a + moved, b + moved, radius, tri, plane, std::numeric_limits<double>::infinity());
    if (!c.answered) {  // cannot happen short of the touch; Bullet answers if rounding says otherwise
      if (!within_stop && !comes_within_stop(a, b, radius, m, tri, plane)) return result;
      result.answered = false;
      return result;
    }
    distance = c.distance;
    normal = c.normal;
    point = c.point;
    if (++iterations > kBulletIterations) return result;
  }
  // lambda > 0 here only after a step (the start within kBulletStop is a
  // hit at 0, in either order: the grown shape touches at the start).
  if (lambda > 0.0 && !within_stop && !(distance <= kBulletStop - kCertainWithin) &&
      !comes_within_stop(a, b, radius, m, tri, plane)) {
    return result;
  }
  return hit_at(lambda, distance, normal, point);
}

}  // namespace

ExactSweep capsule_triangle_sweep(const btVector3& a, const btVector3& b, double radius, const btVector3& m,
                                  const Triangle& tri, double until) {
  const Plane plane = plane_of(tri);
  Computed start(a, b, radius, tri, plane);
  return sweep_from(a, b, radius, m, tri, plane, start, until);
}

ExactSweep capsule_triangle_sweep(const btVector3& a, const btVector3& b, double radius, const btVector3& m,
                                  const Triangle& tri, const Plane& plane, StartContact& start, double until) {
  return sweep_from(a, b, radius, m, tri, plane, start, until);
}

}  // namespace stepslide::detail
