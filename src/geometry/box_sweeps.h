// Exact sweeps for the common pairs: the character's capsule or sphere
// moving against a box, and a box character moving against a triangle of a
// mesh or heightfield, answered with exact distances instead of Bullet's
// GJK. The collision adapter (sweep_pairs.cpp) asks these before Bullet's
// convex cast; each is tested against Bullet's answer on random cases
// (tests/geometry/capsule_box_sweep_test.cpp).
#pragma once

#include "geometry/bullet_shapes.h"
#include "geometry/sweep.h"

namespace stepslide {

/// The capsule (the segment a→b grown by `radius`; a sphere when a == b)
/// moving by `motion` against a box whose core of `core_half` extents at
/// `box` is rounded by `margin` (Bullet's box: see contacts.cpp).
///
/// It is Bullet's cast, conservative advancement, run on exact distances
/// (capsule_box) in place of GJK: from the start, advance by the distance
/// over the approach speed along the current normal until the shapes are
/// within kCastStopDistance; miss where Bullet misses (moving away from the
/// normal, past the end of the motion, no progress, 64 steps). So the hit
/// is where the shapes first come within a millimetre, never past touching,
/// with the normal at that position, and starting overlapped (the core still
/// clear) or within a millimetre it is fraction 0 with the start's normal,
/// as Bullet answers; the controller's clearances are built on that.
/// Started with the segment on the core, Bullet asks EPA for the
/// penetration and answers a hit at 0 along its direction when the motion
/// goes into it by more than SIMD_EPSILON, a miss otherwise: answered by the
/// same rule from capsule_box_penetration's exact least push (its point on
/// the rounded surface). Not answered only when a later step finds the core
/// touched (rounding), or for an inverted core.
ExactSweep capsule_box_sweep(const btVector3& a, const btVector3& b, double radius, const btVector3& motion,
                             const btTransform& box, const btVector3& core_half, double margin);

/// A box character (core of `core_half` extents at `box`, rounded by
/// `box_margin`) moving by `motion` (no turn) against the triangle
/// `triangle` (same frame) grown by `triangle_margin`, as Bullet's cast runs
/// it for a triangle of a mesh or heightfield (btTriangleConvexcastCallback):
/// the same conservative advancement as capsule_box_sweep, on box_triangle's
/// exact distances (box_triangle.h). Where the box's core starts on
/// the triangle, answered as Bullet's cast answers from EPA's penetration: a
/// hit at 0 with the direction of least penetration (exact here, from the
/// separating axes) when the motion goes into it, else a miss (the inflated
/// ground probe starts so on most ticks). Not answered where rounding puts
/// the core on the triangle mid-advance (Bullet decides). A triangle
/// whose separating axes prove it farther than the motion's length is a miss
/// without its closest features (most of those a sweep's bounds gather).
/// The point is on the triangle's rounded surface.
ExactSweep box_triangle_sweep(const btTransform& box, const btVector3& core_half, double box_margin,
                              const btVector3& motion, const btVector3 triangle[3], double triangle_margin);

/// A box character (as above) moving by `motion` (no turn) against the box
/// of core `other_core` at `other` rounded by `other_margin`: the same
/// advancement on box_box_distance's exact distances (box_distance.h).
/// A start with the cores overlapping is answered from box_box_overlap's
/// exact penetration as Bullet answers from EPA's (a hit at 0 when moving
/// into it); one with the cores touching within rounding, and rounding
/// putting them together mid-advance, are not answered (Bullet decides).
ExactSweep box_box_sweep(const btTransform& box, const btVector3& core_half, double box_margin,
                         const btVector3& motion, const btTransform& other, const btVector3& other_core,
                         double other_margin);

}  // namespace stepslide
