// The one result of the geometry's contact queries: how far apart two
// solids are, and where.
#pragma once

#include <LinearMath/btVector3.h>

namespace stepslide {

/// What every exact contact query of the geometry answers (capsule_box.h,
/// capsule_triangle.h, box_box.h, box_distance.h, box_triangle.h, gjk.h)
/// for a solid `a` (the moving or querying shape) against `b` (the body):
/// their signed distance and where, that they are farther apart than the
/// caller's cutoff, or no answer. Spelled as ExactSweep (geometry/sweep.h).
struct ExactContact {
  /// false: no exact answer here (each query says when; mostly where the
  /// cores touch and the normal would be rounding); another query or
  /// Bullet answers. Nothing else is set.
  bool answered = false;
  /// true (and answered): farther apart than the caller's cutoff, and the
  /// query stopped there. `distance` is then the distance or a lower bound
  /// on it above the cutoff, or 0 where a cheap cull decided; nothing else
  /// is set.
  bool beyond = false;
  /// Of the solids' surfaces (cores grown by their radii): negative is the
  /// penetration depth.
  double distance = 0.0;
  /// Unit, world, from `b` toward `a`: `a` moved by -distance along it just
  /// touches `b`.
  btVector3 normal{0, 0, 0};
  btVector3 point{0, 0, 0};  ///< world, on `b`'s surface
  /// The triangle's unit normal facing `a`, where `b` is a triangle and the
  /// contact is on its face (capsule_triangle says when); else zero.
  btVector3 face_normal{0, 0, 0};
};

}  // namespace stepslide
