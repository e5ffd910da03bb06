// The one result of the geometry's rays (ray_box.h, ray_cylinder.h).
#pragma once

#include <LinearMath/btVector3.h>

namespace stepslide {

/// What every exact ray of the geometry answers: a hit, a miss, or no
/// answer, spelled as ExactSweep spells it (geometry/sweep.h).
struct ExactRay {
  /// false: no exact answer here (the ray starts inside or on the solid,
  /// where Bullet's answer has no single right value, or the shape is not
  /// one the function answers); ask Bullet. `hit` is then false.
  bool answered = false;
  bool hit = false;
  double fraction = 1.0;      ///< along from→to, in [0, 1]
  btVector3 normal{0, 0, 0};  ///< unit, world, the face entered
};

}  // namespace stepslide
