// Private to gjk.cpp and epa.cpp: the points GJK and EPA
// work with and the helpers both use. Not installed.
#pragma once

#include "geometry/bullet_shapes.h"
#include "geometry/gjk.h"

namespace stepslide::detail {

/// A point of the cores' difference D = A - B with the two points it came from.
struct Vertex {
  btVector3 w;
  btVector3 a;
  btVector3 b;
};

// Forced inline as support() is: every step of GJK, EPA and Newton asks it.
[[gnu::always_inline]] inline Vertex support_of(const ConvexSolid& a, const ConvexSolid& b, const btVector3& u) {
  Vertex v;
  v.a = a.support(u);
  v.b = b.support(-u);
  v.w = v.a - v.b;
  return v;
}

/// The point of triangle a b c nearest the origin, as weights of its
/// corners (Ericson, Real-Time Collision Detection 5.1.5).
void nearest_on_triangle(const btVector3& a, const btVector3& b, const btVector3& c, double weight[3]);

/// The answer for the solids along `normal` (from b toward a), where
/// `support` is the cores' difference's point along -normal (so its a and b
/// lie on the cores' extents along it) and `core_a`, `core_b` the points the
/// simplex or face puts the contact at: moved onto those extents (exact
/// there, where the search's own points are within the square root of its
/// tolerance), then out by the margins; the point on `a` to `detail`.
ExactContact answer(const btVector3& normal, const Vertex& support, const btVector3& core_a, const btVector3& core_b,
                    const ConvexSolid& a, const ConvexSolid& b, ConvexDetail* detail);

/// Newton's method on the cores' difference's support function h(u) =
/// max w·u over unit directions u, from `u` (with its support point `w`).
/// On the unit sphere its gradient is w's part across u and its Hessian
/// P·J·P - h·P, where J is how the support point moves as u turns (the
/// radii of curvature of the two surfaces, summed: support_turns) and
/// P the projection across u. True, with the minimum's direction and
/// support point, when the step fell below 1e-12 rad (or only rounding
/// stopped it) with the Hessian positive definite: a strict local minimum
/// of h. Cores overlapping, h's minimum is their depth (EPA); apart, minus
/// their distance (GJK), and there the Hessian is positive definite
/// wherever the surfaces are convex.
bool newton_minimum(const ConvexSolid& a, const ConvexSolid& b, btVector3 u, Vertex w, btVector3* u_out, Vertex* w_out,
                    int* evaluations);

/// Corners of a polytope that tie as its farthest points along the
/// directions GJK's last steps look along: the feature (a corner, an edge,
/// a face) the other, curved, solid is nearest to.
struct Tie {
  btVector3 corner[3];
  int count = 0;      ///< 1 to 3 distinct corners
  bool on_b = true;   ///< the polytope is b (else a)
};

/// newton_minimum where one solid's support is a tie of a polytope's
/// corners (`tie`) and the other's is smooth: a cylinder's rim against a
/// box's or hull's edge, where h has a crease along the directions across
/// the edge and its minimum lies on it. There the support of the polytope
/// is linear in u, so Newton's method runs on the crease: along the great
/// circle across the edge (one corner: every direction; a face: its normal
/// alone). GJK closes on such a minimum only linearly, and where it stops
/// (its distance within the tolerance) the direction is still ~1e-5 rad
/// off: a sweep's normal then moved 5e-6 under a 1e-9 m shift of a pose.
/// From `u` with its support point `w` (for an edge, taken again once u is
/// brought onto the circle).
bool tied_minimum(const ConvexSolid& a, const ConvexSolid& b, const Tie& tie, btVector3 u, Vertex w, btVector3* u_out,
                  Vertex* w_out, int* evaluations);

/// The gap (m) at which GJK and EPA first try newton_minimum from their
/// best direction, and the factor the gap must shrink by before they try
/// again. Between two smooth curved surfaces (a cylinder's rim on a lying
/// cylinder's side) their simplex and polytope close the gap only linearly,
/// halving it in a step or two, while Newton's method converges in two or
/// three, so trying Newton early saves EPA's support evaluations. Since EPA
/// tries Newton only where its polytope already shows the basin (epa.cpp),
/// an early try costs little when it is not yet time.
constexpr double kNewtonGap = 3e-2;
constexpr double kNewtonAgain = 0.1;

/// The answer along Newton's minimum: direction `u` of the cores'
/// difference, `minimum` its support point there (so the normal, from b
/// toward a, is -u), after `evaluations` support pairs (to `detail`).
ExactContact smooth_answer(const btVector3& u, const Vertex& minimum, const ConvexSolid& a, const ConvexSolid& b,
                           int evaluations, ConvexDetail* detail);

/// EPA from the tetrahedron `start` (its hull holds the origin), after
/// `evaluations` by GJK (epa.cpp); how, to `detail`.
ExactContact expand_polytope(const ConvexSolid& a, const ConvexSolid& b, const Vertex (&start)[4], int evaluations,
                             ConvexDetail* detail);

}  // namespace stepslide::detail
