// From the scenario's plain arrays to Bullet's types.
#pragma once

#include <LinearMath/btVector3.h>

#include "scenario/scenario.h"

namespace stepslide {

inline btVector3 to_bt(const Vec3& v) { return btVector3(v[0], v[1], v[2]); }

}  // namespace stepslide
