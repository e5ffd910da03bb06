// Separating planes from support functions (see separating_plane.h).
#include "stepslide/separating_plane.h"

#include <array>
#include <cmath>

namespace stepslide {

namespace {

/// The largest extent of `shape` at `pose` along unit `u`: its core's
/// support plus its margin, the solid GJK and EPA work with.
double support(const btConvexShape* shape, const btTransform& pose, const btVector3& u) {
  const btVector3 local = pose.getBasis().transpose() * u;
  const btVector3 vertex = shape->localGetSupportingVertexWithoutMargin(local);
  return pose(vertex).dot(u) + shape->getMargin();
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

  double at(const btVector3& n) const { return separation_along(character, a, body, b, n); }

  /// Pattern search on the sphere from `plane`: tilt the normal by `step`
  /// radians toward eight tangent directions, keep the first that separates
  /// further, shrink the step when none does. Deterministic.
  SeparatingPlane refine(SeparatingPlane plane) const {
    constexpr double kFirstStep = 0.25;
    constexpr double kLastStep = 1e-9;
    constexpr int kMaxEvaluations = 2000;
    int evaluations = 0;
    for (double step = kFirstStep; step > kLastStep && evaluations < kMaxEvaluations;) {
      btVector3 t1;
      btVector3 t2;
      tangents(plane.normal, &t1, &t2);
      const double c = std::cos(step);
      const double s = std::sin(step);
      const double d = s * M_SQRT1_2;
      const std::array<btVector3, 8> tilts = {t1 * s, -t1 * s, t2 * s, -t2 * s,
                                              (t1 + t2) * d, (t1 - t2) * d, (-t1 + t2) * d, (-t1 - t2) * d};
      bool better = false;
      for (const btVector3& tilt : tilts) {
        const btVector3 n = (plane.normal * c + tilt).normalized();
        const double distance = at(n);
        ++evaluations;
        if (distance > plane.distance) {
          plane = {n, distance};
          better = true;
          break;
        }
      }
      if (!better) step *= 0.5;
    }
    return plane;
  }
};

}  // namespace

double separation_along(const btConvexShape* character, const btTransform& a, const btConvexShape* body,
                        const btTransform& b, const btVector3& normal) {
  return -support(character, a, -normal) - support(body, b, normal);
}

SeparatingPlane best_separating_plane(const btConvexShape* character, const btTransform& a, const btConvexShape* body,
                                      const btTransform& b, const btVector3& start) {
  const Search search{character, a, body, b};
  // Candidates: Bullet's normal, each shape's own axes both ways (faces,
  // caps), the line between the centres and its part across each shape's
  // axis (side against side). The best few are refined.
  std::array<btVector3, 16> candidates;
  std::size_t n = 0;
  candidates[n++] = start;
  for (int axis = 0; axis < 3; ++axis) {
    candidates[n++] = a.getBasis().getColumn(axis);
    candidates[n++] = b.getBasis().getColumn(axis);
  }
  const btVector3 between = a.getOrigin() - b.getOrigin();
  candidates[n++] = between;
  for (const btTransform* pose : {&a, &b}) {
    const btVector3 axis = pose->getBasis().getColumn(1);
    candidates[n++] = between - axis * between.dot(axis);
  }
  SeparatingPlane best;
  best.distance = -BT_LARGE_FLOAT;
  SeparatingPlane second = best;
  for (std::size_t i = 0; i < n; ++i) {
    for (const double sign : {1.0, -1.0}) {
      if (i == 0 && sign < 0) continue;  // Bullet's normal is oriented already
      if (candidates[i].length2() < 1e-24) continue;
      const btVector3 u = candidates[i].normalized() * sign;
      const SeparatingPlane p{u, search.at(u)};
      if (p.distance > best.distance) {
        second = best;
        best = p;
      } else if (p.distance > second.distance) {
        second = p;
      }
    }
  }
  // Bullet's normal is always refined: it is usually the answer already.
  SeparatingPlane refined = search.refine({start.normalized(), search.at(start.normalized())});
  for (const SeparatingPlane& p : {best, second}) {
    if (p.distance <= -BT_LARGE_FLOAT) continue;
    const SeparatingPlane r = search.refine(p);
    if (r.distance > refined.distance) refined = r;
  }
  return refined;
}

}  // namespace stepslide
