// The collision margin of stepslide's boxes: the scenario world's boxes, a
// box-shaped character, and the capture recorder's replica of the world's
// boxes all call box_margin(), so they cannot drift apart. It lives in the
// controller (the lowest layer, installed) because the controller builds the
// box character and the scenario world and capture both depend on it; a game
// that builds its level's boxes with it is captured exactly.
#pragma once

#include <LinearMath/btVector3.h>

#include <algorithm>

namespace stepslide {

/// Bullet rounds a box's edges by its collision margin, carved out of the
/// box (btBoxShape::setMargin keeps the outer size). 1 mm keeps edges crisp
/// while leaving GJK well conditioned (Bullet's default 4 cm would round them
/// visibly).
constexpr double kBoxMargin = 0.001;

/// The margin of a box of `half_extents`: 1 mm, or half its smallest half
/// extent when that is less, so the core (half extents - margin) keeps at
/// least half of every extent and never inverts. Depends on the box's size
/// only, never on which axis is its thinnest.
inline double box_margin(const btVector3& half_extents) {
  return std::min(kBoxMargin, 0.5 * std::min({half_extents.x(), half_extents.y(), half_extents.z()}));
}

}  // namespace stepslide
