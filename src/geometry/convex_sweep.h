// Conservative advancement on GJK's exact distances: one convex solid moving
// (no turn) against another, stepped as Bullet's cast steps.
#pragma once

#include <LinearMath/btVector3.h>

#include "geometry/gjk.h"
#include "geometry/sweep.h"

namespace stepslide::detail {

/// `mover` moving by `motion` (no turn) against `body`, as Bullet's cast
/// (btContinuousConvexCollision) runs it: from the start, advance by the
/// distance over the approach speed along the current normal until the two
/// are within kCastStopDistance; miss where Bullet misses (moving away from
/// the normal, past the end of the motion, no progress, 64 steps). Each
/// step's distance is convex_distance's (exact within its tolerance, never
/// more than the truth, so no step passes the touch), starting from the
/// last step's normal. `guess` is the first direction from `body` toward
/// `mover`. Started with the cores touching or overlapping, answered as
/// Bullet's cast answers it from its penetration solver, but from
/// convex_distance's EPA: a hit at 0 along the least push out when moving
/// into it, else a miss. Not answered when EPA did not converge there, or
/// when rounding puts the cores together at a later step.
ExactSweep convex_sweep(const ConvexSolid& mover, const ConvexSolid& body, const btVector3& motion,
                        const btVector3& guess);

}  // namespace stepslide::detail
