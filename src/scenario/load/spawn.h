// "place": "on_floor" (docs/format.md §1 "place"): the character's feet go on
// the first surface that its shape, swept straight down from the point given,
// lands on; that surface must be walkable and the spot clear. Needs the
// Bullet world, so the loader calls it once the scenario is otherwise valid.
#pragma once

#include <string>
#include <vector>

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

/// A spawn point of a level (SpawnPointDef), placed in the world.
struct LevelSpawn {
  std::string name;  ///< the node's name in its file
  std::string body;  ///< the body whose mesh file names it ("" when unnamed)
  Vec3 position{0, 0, 0};
};

/// The spawn points the world's mesh files name (mesh_import.h,
/// import_spawn_points: each file's node tree is read again) and their spawn
/// sidecars (spawn_sidecar_path), in body order then file order, each moved
/// by its body's pose at tick 0. Neither is an input of a run: spawn points
/// change nothing a scenario simulates.
std::vector<LevelSpawn> level_spawns(const Scenario& scenario, const World& world);

/// Builds the scenario's world and drops the character from its
/// `requested_position`.
Expected<Vec3> find_floor_spawn(const Scenario& scenario);

}  // namespace stepslide
