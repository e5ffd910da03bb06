// From the scenario's plain arrays to Bullet's types.
#pragma once

#include <LinearMath/btVector3.h>

#include "scenario/scenario.h"
#include "stepslide/character.h"

namespace stepslide {

inline btVector3 to_bt(const Vec3& v) { return btVector3(v[0], v[1], v[2]); }

/// The controller's description of a character shape (capsule, sphere,
/// cylinder or box) as the scenario gives it.
CharacterShapeDesc character_shape_desc(const ShapeDef& def);

}  // namespace stepslide
