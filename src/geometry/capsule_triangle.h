// Exact closed-form queries of a capsule (a segment grown by a radius; a
// sphere is a capsule of zero length) against one triangle: closest points
// and the time of first contact along a straight motion. Plain double
// arithmetic in a fixed order, so the answer depends only on the inputs.
// Tested against Bullet's GJK and convex cast on random cases
// (tests/geometry/capsule_triangle_test.cpp).
#pragma once

#include "geometry/bullet_shapes.h"
#include "geometry/contact.h"
#include "geometry/sweep.h"

namespace stepslide::detail {

/// A triangle whose vertices are these three points (any winding).
struct Triangle {
  btVector3 v[3];
};

/// The triangle's plane: `n` the cross product of two edges (its length
/// twice the area), `unit` the unit normal where the triangle has an area.
struct TrianglePlane {
  btVector3 n{0, 0, 0};
  btVector3 unit{0, 0, 0};
  bool flat = false;
};

/// The plane every query below computes for `triangle` first.
TrianglePlane plane_of(const Triangle& triangle);

/// Where a query of the capsule a→b of `radius` against one triangle takes
/// the unbounded closest points from: capsule_triangle(a, b, radius,
/// triangle, infinity), computed when asked, or remembered from an earlier
/// query of the same capsule and triangle (triangle_pairs.cpp).
class StartContact {
 public:
  virtual const ExactContact& get() = 0;

 protected:
  ~StartContact() = default;
};

/// The closest points of the capsule a→b of `radius` (ExactContact's `a`)
/// and `triangle` (its `b`; geometry/contact.h): `distance` from the
/// capsule's surface, negative inside. Not answered where the segment
/// touches or crosses the triangle, where the closest points have no unique
/// normal (capsule_triangle_penetration answers). `beyond` past `max_distance`; when the
/// capsule's surface is certainly farther than that from the triangle's
/// plane, nothing is computed (the cheap cull, `distance` 0). `face_normal`
/// is set when the closest point lies on the triangle's face, or on an edge
/// or corner where the contact normal is the face's to rounding (beside a
/// coplanar neighbour).
ExactContact capsule_triangle(const btVector3& a, const btVector3& b, double radius, const Triangle& triangle,
                              double max_distance);
/// The same, with the triangle's plane known.
ExactContact capsule_triangle(const btVector3& a, const btVector3& b, double radius, const Triangle& triangle,
                              const TrianglePlane& plane, double max_distance);
/// The same, from the triangle's plane and the unbounded answer `start`
/// (asked only past the cheap cull): bit for bit the answer above.
ExactContact capsule_triangle(const btVector3& a, const btVector3& b, double radius, const Triangle& triangle,
                              const TrianglePlane& plane, double max_distance, StartContact& start);

/// The penetration of the same capsule and triangle where the segment
/// touches or crosses the triangle (where capsule_triangle has no answer):
/// the least push that takes the segment off the triangle, along one of the
/// face normals of the polytope segment ⊕ (-triangle) (the triangle's
/// normal, and the segment's direction crossed with each edge), grown by
/// `radius`: `distance` is minus the push minus `radius`, `normal` the
/// direction the capsule is pushed, `point` on the triangle where the pushed
/// capsule's segment would touch it. A face normal within 1e-9 m of the
/// least push is taken over a crossed one (a capsule lying flat on the face
/// is pushed off it along the face's normal; `face_normal` is then set);
/// on an exact tie the first candidate in a fixed order. Not answered for a
/// triangle with no area (Bullet answers). Plain double arithmetic, so the
/// same bits on every CPU, unlike Bullet's EPA, whose answer on a tie
/// (the segment through an edge) depends on its rounding.
ExactContact capsule_triangle_penetration(const btVector3& a, const btVector3& b, double radius,
                                          const Triangle& triangle, const TrianglePlane& plane);
/// The same, computing the triangle's plane.
ExactContact capsule_triangle_penetration(const btVector3& a, const btVector3& b, double radius,
                                          const Triangle& triangle);

/// The sweeps below answer ExactSweep (geometry/sweep.h).
/// capsule_triangle_touch is not answered when the segment starts touching
/// or crossing the triangle; capsule_triangle_sweep answers that start as
/// Bullet's cast does from its penetration solver, but from
/// capsule_triangle_penetration: a hit at 0 along its push when the motion
/// goes against it, else a miss (not answered for a triangle with no area);
/// `distance` is between the two where the sweep stops (0 at a touch);
/// `point`, on the triangle, is the first found where the capsule lies
/// flush (the end `a` when both ends are over the face).

/// The capsule a→b of `radius` moving by `motion` (no rotation) against
/// `triangle`: the first fraction at which they touch. A capsule already
/// touching or overlapping the triangle hits at fraction 0 when the motion
/// goes against the contact normal and misses otherwise (Bullet's rule:
/// motion away from or along the contact is free).
ExactSweep capsule_triangle_touch(const btVector3& a, const btVector3& b, double radius, const btVector3& motion,
                                  const Triangle& triangle);

/// The same motion as Bullet's convex cast (btContinuousConvexCollision, as
/// objectQuerySingle runs it per triangle) answers it: it advances
/// conservatively and stops at the first step within 1 mm of the triangle
/// (so a hit is reported where the capsule passes within 1 mm, and up to
/// 1 mm before the touch), with the normal and point of the closest points
/// there. Here every step's distance is exact (capsule_triangle), and the
/// grown shape's exact touch (capsule_triangle_touch) first decides whether
/// there is a hit at all, so a miss costs no iteration.
///
/// `until` in [0, 1]: a hit that comes after it is of no use to the caller
/// (another triangle's opposing hit came first): it is answered as a miss
/// as soon as the advancement passes `until`, which saves its remaining
/// steps. Every other answer, a hit at or before `until` included, is the
/// same bit for bit (but for no answer met by a step past `until`, which
/// the steps cannot meet short of the touch, bar rounding: a miss too).
ExactSweep capsule_triangle_sweep(const btVector3& a, const btVector3& b, double radius, const btVector3& motion,
                                  const Triangle& triangle, double until = 1.0);
/// The same, from the triangle's plane and its start contact (asked only
/// past the cheap cull): bit for bit the answer above.
ExactSweep capsule_triangle_sweep(const btVector3& a, const btVector3& b, double radius, const btVector3& motion,
                                  const Triangle& triangle, const TrianglePlane& plane, StartContact& start,
                                  double until = 1.0);

}  // namespace stepslide::detail
