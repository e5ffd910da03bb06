// "place": "on_floor" (docs/format.md §1 "place"): the character's feet go on
// the first surface that its shape, swept straight down from the point given,
// lands on; that surface must be walkable and the spot clear. Needs the
// Bullet world, so the loader calls it once the scenario is otherwise valid.
#pragma once

#include "scenario/scenario.h"
#include "stepslide/character.h"
#include "stepslide/expected.h"

namespace stepslide {

class World;

/// The controller's description of the scenario character's shape.


/// Feet for a character dropped from `from` in `world` (bodies at tick 0):
/// on the first surface below, touching it, as a scenario would put them by hand.
/// Fails with a one-line reason when nothing is below (down to the lowest
/// body), the surface is steeper than max_slope_deg, or the spot overlaps a body.
Expected<Vec3> drop_character(const Scenario& scenario, World& world, const Vec3& from);

/// Builds the scenario's world and drops the character from its
/// `requested_position`.
Expected<Vec3> find_floor_spawn(const Scenario& scenario);

}  // namespace stepslide
