// Separating planes from support functions (see separating_plane.h).
#include "stepslide/separating_plane.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace stepslide {

namespace {

/// The largest extent of `shape` at `pose` along unit `u`: its core's
/// support plus its margin, the solid GJK and EPA work with. Boxes, upright
/// cylinders, capsules and spheres in closed form (asked on every contact
/// with a cylinder: the cost gate's spin_disc), the rest through Bullet's
/// support function.
double support(const btConvexShape* shape, const btTransform& pose, const btVector3& u) {
  const btVector3 l = pose.getBasis().transpose() * u;
  const double centre = pose.getOrigin().dot(u);
  switch (shape->getShapeType()) {
    case BOX_SHAPE_PROXYTYPE: {
      const btVector3& core = static_cast<const btBoxShape*>(shape)->getImplicitShapeDimensions();
      return centre + core.x() * std::fabs(l.x()) + core.y() * std::fabs(l.y()) + core.z() * std::fabs(l.z()) +
             shape->getMargin();
    }
    case CYLINDER_SHAPE_PROXYTYPE: {
      const auto* cylinder = static_cast<const btCylinderShape*>(shape);
      if (cylinder->getUpAxis() != 1) break;
      const btVector3& core = cylinder->getImplicitShapeDimensions();
      return centre + core.x() * std::sqrt(l.x() * l.x() + l.z() * l.z()) + core.y() * std::fabs(l.y()) +
             shape->getMargin();
    }
    case CAPSULE_SHAPE_PROXYTYPE: {
      const auto* capsule = static_cast<const btCapsuleShape*>(shape);
      if (capsule->getUpAxis() != 1 || capsule->getMargin() != capsule->getRadius()) break;
      return centre + capsule->getHalfHeight() * std::fabs(l.y()) + capsule->getRadius();
    }
    case SPHERE_SHAPE_PROXYTYPE:
      return centre + shape->getMargin();
    default: break;
  }
  return pose(shape->localGetSupportingVertexWithoutMargin(l)).dot(u) + shape->getMargin();
}

/// Two unit vectors perpendicular to unit `n` and to each other.
void tangents(const btVector3& n, btVector3* t1, btVector3* t2) {
  btPlaneSpace1(n, *t1, *t2);
  t1->normalize();
  t2->normalize();
}

struct Search {
  const btConvexShape* character;
  const btTransform& a;
  const btConvexShape* body;
  const btTransform& b;

  mutable int evaluations = 0;  // how many directions were measured: the cost the tests bound

  double at(const btVector3& n) const {
    ++evaluations;
    return separation_along(character, a, body, b, n);
  }

  /// The separation's gradient along the sphere at `n`: the character's
  /// lowest point along n minus the body's highest, less its part along n.
  btVector3 uphill(const btVector3& n) const {
    const btVector3 low = a(character->localGetSupportingVertexWithoutMargin(a.getBasis().transpose() * -n));
    const btVector3 high = b(body->localGetSupportingVertexWithoutMargin(b.getBasis().transpose() * n));
    const btVector3 g = low - high;
    return g - n * g.dot(n);
  }

  /// Pattern search on the sphere from `plane`: tilt the normal by `step`
  /// radians toward the gradient, eight turning tangent directions and along
  /// the shapes' creases; keep the first that separates further, halve the
  /// step when three rounds find none. Deterministic. Without the crease
  /// directions a search from a random start stopped up to 1.4 cm short on
  /// a side-against-side contact; with them, 2e-12 m (the tests). Stops
  /// early once the separation reaches `enough` (an upper bound on it less
  /// kAgree: nothing better is worth finding). From `first_step` radians
  /// down to `last_step`: a coarse search can be finished later.
  SeparatingPlane refine(SeparatingPlane plane, double enough = BT_INFINITY, double first_step = 0.25,
                         double last_step = 1e-9) const {
    const double kFirstStep = first_step;
    const double kLastStep = last_step;
    constexpr int kMaxEvaluations = 4000;
    int measured = 0;  // by this refinement, at most kMaxEvaluations
    double turn = 0.0;
    int misses = 0;
    for (double step = kFirstStep; step > kLastStep && measured < kMaxEvaluations && plane.distance < enough;) {
      btVector3 u1;
      btVector3 u2;
      tangents(plane.normal, &u1, &u2);
      // The pattern turns by the golden angle each round, so a narrow
      // uphill wedge is not missed round after round by the same eight.
      turn += 2.399963229728653;
      const btVector3 t1 = u1 * std::cos(turn) + u2 * std::sin(turn);
      const btVector3 t2 = plane.normal.cross(t1);
      const double c = std::cos(step);
      const double s = std::sin(step);
      const double d = s * M_SQRT1_2;
      // First toward the gradient's part across the normal: the line between
      // the two witness points, where the separation grows unless the normal
      // sits on a crease.
      const btVector3 g = uphill(plane.normal);
      const btVector3 t0 = g.length2() > 1e-30 ? g.normalized() : t1;
      // Then along each shape's creases: where the normal is perpendicular
      // to an axis of a box or a cylinder, the separation has a crease, and
      // rotating about that axis follows it (a side against a side).
      std::array<btVector3, 21> tilts = {t0 * s, t1 * s, -t1 * s, t2 * s, -t2 * s,
                                         (t1 + t2) * d, (t1 - t2) * d, (-t1 + t2) * d, (-t1 - t2) * d};
      std::size_t count = 9;
      for (const btTransform* pose : {&a, &b}) {
        for (int axis = 0; axis < 3; ++axis) {
          const btVector3 along = pose->getBasis().getColumn(axis).cross(plane.normal);
          if (along.length2() < 1e-20) continue;
          tilts[count++] = along.normalized() * s;
          tilts[count++] = -along.normalized() * s;
        }
      }
      bool better = false;
      for (std::size_t i = 0; i < count; ++i) {
        const btVector3 n = (plane.normal * c + tilts[i]).normalized();
        const double distance = at(n);
        ++measured;
        if (distance > plane.distance) {
          plane = {n, distance};
          better = true;
          break;
        }
      }
      // Three turned patterns fail before the step shrinks.
      if (!better && ++misses == 3) {
        step *= 0.5;
        misses = 0;
      }
      if (better) misses = 0;
    }
    return plane;
  }
};

/// The point of segment ab nearest the origin; `keep` gets which ends its
/// barycentric form uses (bit 0: a, bit 1: b).
btVector3 nearest_on_segment(const btVector3& a, const btVector3& b, int* keep) {
  const btVector3 ab = b - a;
  const double t = -a.dot(ab);
  if (t <= 0.0) {
    *keep = 1;
    return a;
  }
  const double length2 = ab.length2();
  if (t >= length2) {
    *keep = 2;
    return b;
  }
  *keep = 3;
  return a + ab * (t / length2);
}

/// The point of triangle abc nearest the origin (Ericson, Real-Time
/// Collision Detection 5.1.5); `keep` gets the vertices it uses (bits a, b, c).
btVector3 nearest_on_triangle(const btVector3& a, const btVector3& b, const btVector3& c, int* keep) {
  const btVector3 ab = b - a;
  const btVector3 ac = c - a;
  const btVector3 ap = -a;
  const double d1 = ab.dot(ap);
  const double d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return *keep = 1, a;
  const btVector3 bp = -b;
  const double d3 = ab.dot(bp);
  const double d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return *keep = 2, b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return *keep = 3, a + ab * (d1 / (d1 - d3));
  const btVector3 cp = -c;
  const double d5 = ab.dot(cp);
  const double d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return *keep = 4, c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return *keep = 5, a + ac * (d2 / (d2 - d6));
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
    return *keep = 6, b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  }
  const double denominator = va + vb + vc;
  if (!(std::fabs(denominator) > 0.0)) return nearest_on_segment(a, b, keep);  // degenerate: an edge
  return *keep = 7, a + ab * (vb / denominator) + ac * (vc / denominator);
}

/// GJK's simplex for a pair that does not touch: the point of the hull of
/// its points nearest the origin, keeping only the points that span it (at
/// most three: the origin is outside every tetrahedron of the difference).
struct NearestSimplex {
  std::array<btVector3, 4> w;
  int n = 0;

  btVector3 add_and_reduce(const btVector3& point) {
    w[n++] = point;
    btVector3 nearest;
    std::array<btVector3, 3> kept;
    int count = 0;
    const auto keep_bits = [&](const std::array<btVector3, 3>& from, int bits) {
      count = 0;
      for (int i = 0; i < 3; ++i) {
        if (bits & (1 << i)) kept[count++] = from[i];
      }
    };
    int bits = 0;
    if (n == 1) {
      return w[0];
    } else if (n == 2) {
      nearest = nearest_on_segment(w[0], w[1], &bits);
      keep_bits({w[0], w[1], w[1]}, bits);
    } else if (n == 3) {
      nearest = nearest_on_triangle(w[0], w[1], w[2], &bits);
      keep_bits({w[0], w[1], w[2]}, bits);
    } else {
      // Each face with the new point; the old face was already the nearest.
      double best = BT_LARGE_FLOAT;
      for (const std::array<int, 3>& face : {std::array<int, 3>{0, 1, 3}, std::array<int, 3>{1, 2, 3},
                                             std::array<int, 3>{0, 2, 3}, std::array<int, 3>{0, 1, 2}}) {
        const std::array<btVector3, 3> corners = {w[face[0]], w[face[1]], w[face[2]]};
        int face_bits = 0;
        const btVector3 p = nearest_on_triangle(corners[0], corners[1], corners[2], &face_bits);
        if (p.length2() < best) {
          best = p.length2();
          nearest = p;
          keep_bits(corners, face_bits);
        }
      }
    }
    n = count;
    for (int i = 0; i < count; ++i) w[i] = kept[i];
    return nearest;
  }
};

/// The closest points' direction of two separated shapes by GJK on their
/// cores, run to a tight gap: Bullet's own stops at a relative error of
/// 1e-3 (REL_ERROR2), a few 1e-7 m short on a probe's centimetre gap to a
/// cylinder, and its simplex solver calls centimetre tetrahedra flat.
/// `v` is a first guess (from the body toward the character). Each step
/// bounds the cores' distance from below (their separation along the
/// current direction) and from above (the distance of the simplex's point
/// nearest the origin); the direction of the best lower bound is returned
/// when the two meet within kStalled, else false (the cores touch, or rounding
/// stalled it first: then the caller searches).
bool closest_direction(const btConvexShape* character, const btTransform& a, const btConvexShape* body,
                       const btTransform& b, btVector3* v, int* evaluations) {
  // m; the pattern search it replaces ended within 2e-12 of brute force.
  // Rounding stalls GJK on a cylinder's side at a few 1e-12 (a box
  // character beside a cylinder: 1 in 30); accepted up to kStalled.
  constexpr double kGap = 1e-12;
  constexpr double kStalled = 1e-10;
  constexpr int kMaxIterations = 64;
  NearestSimplex simplex;
  btVector3 dir = *v;
  double upper = BT_LARGE_FLOAT;
  double lower = -BT_LARGE_FLOAT;
  btVector3 best = dir.normalized();
  for (int i = 0; i < kMaxIterations; ++i) {
    // The point of the difference character - body farthest along -dir.
    const btVector3 p = a(character->localGetSupportingVertexWithoutMargin(a.getBasis().transpose() * -dir));
    const btVector3 q = b(body->localGetSupportingVertexWithoutMargin(b.getBasis().transpose() * dir));
    const btVector3 w = p - q;
    ++*evaluations;
    const double length = dir.length();
    const double along = w.dot(dir) / length;
    if (along > lower) {
      lower = along;
      best = dir / length;
    }
    if (upper - lower <= kGap) break;
    const btVector3 next = simplex.add_and_reduce(w);
    const double distance = next.length();
    if (!(distance < upper)) break;  // no progress: rounding
    upper = distance;
    if (upper - lower <= kGap || upper < 1e-12) break;
    dir = next;
  }
  if (lower <= 0.0 || upper - lower > kStalled) return false;
  *v = best;
  return true;
}

}  // namespace

double separation_along(const btConvexShape* character, const btTransform& a, const btConvexShape* body,
                        const btTransform& b, const btVector3& normal) {
  return -support(character, a, -normal) - support(body, b, normal);
}

/// The coarse searches' last step (radians), and how close two of their
/// ends must be (the cosine of the angle between) to be one maximum. At
/// 1e-3 and 1e-2 rad an overlap cost 3 855 evaluations on the tests' random
/// pairs; at 1e-2 and 3e-2, 3 368, as tight (2.4e-11 m below brute force).
constexpr double kCoarse = 1e-2;
const double kSame = std::cos(3e-2);

SeparatingPlane best_separating_plane(const btConvexShape* character, const btTransform& a, const btConvexShape* body,
                                      const btTransform& b, const btVector3& start, double bullet_distance) {
  const Search search{character, a, body, b};
  const auto counted = [&search](SeparatingPlane plane) {
    plane.evaluations = search.evaluations;
    return plane;
  };
  // Bullet's distance is never below the true one (GJK's is the distance
  // of two points of the shapes, EPA's depth that of a polytope inside
  // their difference), and the separation along any normal never above it:
  // when the two agree along Bullet's own normal, that is the answer.
  const btVector3& bullet = start;  // unit: the adapter normalized it
  const double along_bullet = search.at(bullet);
  if (along_bullet >= bullet_distance - kAgree) return counted({bullet, along_bullet});
  // Cores apart (the solids apart, or overlapping by less than their
  // margins): GJK on the cores to a 1e-12 m gap from Bullet's normal, the
  // answer in some 20 evaluations where the pattern search took 2 000 (a
  // probe's gap to a cylinder: Bullet's GJK stops a few 1e-7 m short; or
  // Bullet's EPA for cores 3e-7 m apart, 5e-5 m deep).
  btVector3 v = bullet;
  if (closest_direction(character, a, body, b, &v, &search.evaluations)) {
    const SeparatingPlane plane{v, search.at(v)};
    if (plane.distance >= along_bullet) return counted(plane);
  }
  // Separated along it: the separation is a concave function of the
  // normal's vector over the unit ball (minus a support function), positive
  // here, so any local maximum on the sphere with a positive separation is
  // the global one (a better direction's chord would climb out of it): the
  // search from Bullet's normal alone finds it, no candidates needed.
  if (along_bullet > 0.0) return counted(search.refine({bullet, along_bullet}));
  // Overlapping: Bullet's distance is an upper bound, so a search from its
  // normal that comes within kAgree of it has found the answer (EPA's
  // depth is often tight to a few 1e-9 m) and the other starts are spared.
  const double enough = bullet_distance - kAgree;
  std::array<SeparatingPlane, 5> coarse;
  coarse[0] = search.refine({bullet, along_bullet}, enough, 0.25, kCoarse);
  if (coarse[0].distance >= enough) return counted(search.refine(coarse[0], enough, kCoarse));
  // Candidates: Bullet's normal, each shape's own axes both ways (faces,
  // caps), the cylinder axis across the body's (side against side or edge),
  // the line between the centres and its part across each shape's axis.
  std::array<btVector3, 20> candidates;
  std::size_t n = 0;
  candidates[n++] = start;
  for (int axis = 0; axis < 3; ++axis) {
    candidates[n++] = a.getBasis().getColumn(axis);
    candidates[n++] = b.getBasis().getColumn(axis);
  }
  for (int axis = 0; axis < 3; ++axis) {  // an edge or side across an edge or side
    candidates[n++] = a.getBasis().getColumn(1).cross(b.getBasis().getColumn(axis));
  }
  const btVector3 between = a.getOrigin() - b.getOrigin();
  candidates[n++] = between;
  for (const btTransform* pose : {&a, &b}) {
    const btVector3 axis = pose->getBasis().getColumn(1);
    candidates[n++] = between - axis * between.dot(axis);
  }
  // The best four candidates are refined, and Bullet's normal (a search
  // from the best two alone ended 1.3 cm short once in 20 000 draws).
  constexpr std::size_t kRefined = 4;
  std::array<SeparatingPlane, kRefined> top;
  for (SeparatingPlane& p : top) p.distance = -BT_LARGE_FLOAT;
  for (std::size_t i = 1; i < n; ++i) {
    for (const double sign : {1.0, -1.0}) {
      if (candidates[i].length2() < 1e-24) continue;
      const btVector3 u = candidates[i].normalized() * sign;
      SeparatingPlane p{u, search.at(u)};
      for (SeparatingPlane& slot : top) {
        if (p.distance > slot.distance) std::swap(p, slot);
      }
    }
  }
  // Each start is searched coarsely, then only starts that ended apart
  // from every better one are finished: the starts mostly climb to the same
  // maximum (all five, every time, in cylinder_snapped_into_lying_cylinder),
  // and the fine steps are most of a search's cost.
  std::size_t count = 1;
  for (const SeparatingPlane& p : top) {
    if (p.distance <= -BT_LARGE_FLOAT) continue;
    coarse[count++] = search.refine(p, enough, 0.25, kCoarse);
  }
  std::stable_sort(coarse.begin(), coarse.begin() + count,
                   [](const SeparatingPlane& l, const SeparatingPlane& r) { return l.distance > r.distance; });
  SeparatingPlane refined = coarse[0];
  for (std::size_t i = 0; i < count && refined.distance < enough; ++i) {
    bool seen = false;
    for (std::size_t j = 0; j < i; ++j) seen = seen || coarse[i].normal.dot(coarse[j].normal) > kSame;
    if (seen) continue;
    const SeparatingPlane r = search.refine(coarse[i], enough, kCoarse);
    if (r.distance > refined.distance) refined = r;
  }
  return counted(refined);
}

}  // namespace stepslide
