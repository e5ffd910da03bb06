// The one result of the geometry's sweeps, and Bullet's stop distance they
// all share.
#pragma once

#include <LinearMath/btVector3.h>

namespace stepslide {

/// Bullet's convex cast (btContinuousConvexCollision, what objectQuerySingle
/// runs for a convex pair) stops as soon as the shapes are within this:
/// its `0.001f`, a float constant, widened as Bullet widens it.
constexpr double kCastStopDistance = static_cast<double>(0.001f);

/// What every exact sweep of the geometry answers (box_sweeps.h,
/// capsule_triangle.h, convex_sweep.h): a hit, a miss, or no answer.
struct ExactSweep {
  /// false: no exact answer here (the moving shape starts touching or
  /// inside the other's core, where Bullet asks its penetration solver, or
  /// rounding put the cores together); ask Bullet. `hit` is then false.
  bool answered = false;
  bool hit = false;
  double fraction = 1.0;      ///< of the motion, in [0, 1]
  /// Between the two where the sweep stops (0 at a touch); set by the
  /// capsule's triangle sweeps only.
  double distance = 0.0;
  btVector3 normal{0, 0, 0};  ///< unit, from the body toward the moving shape
  /// On the body's surface. Where the moving shape touches it flush (a
  /// capsule's segment parallel to a face), the closest points form a
  /// segment and this is one of them (for a box the one nearest `a` up to
  /// rounding, the lowest for the character; for a triangle the first
  /// found), where Bullet's GJK reports some point of it: any is a valid
  /// contact, and no verdict of the controller may depend on which (the
  /// step-up's riser ray asks the geometry for the riser's height instead).
  btVector3 point{0, 0, 0};

  /// An answered miss.
  static ExactSweep miss() {
    ExactSweep s;
    s.answered = true;
    return s;
  }
};

}  // namespace stepslide
