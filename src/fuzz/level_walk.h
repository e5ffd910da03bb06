// `stepslide fuzz --level FILE`: random walks over a real level. The walkable
// floors of a level file (or of a scenario's world) are sampled for points;
// each walk starts on one and steers through others (turns, stick changes,
// jumps, and whatever drops the routes lead over; the level's spawn points
// are some of the ends), as an ordinary scenario
// that includes the level, so a finding is a scenario on that level.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fuzz/random_world.h"
#include "stepslide/expected.h"

namespace stepslide {

/// A level's walkable floors, read once, and the skeleton of a walk on it.
struct LevelFloors {
  /// The scenario every walk starts from: world (the level included by a
  /// path relative to the walks' directory), character, up, gravity, tick
  /// rate; no input, ticks or expectations.
  nlohmann::ordered_json base;
  /// Walkable triangles (corners a, b, c) and the running sum of their areas.
  std::vector<std::array<std::array<double, 3>, 3>> triangles;
  std::vector<double> cumulative_area;
  std::array<double, 3> up{0, 1, 0};
  /// The spawn points the level's files name (scenario/load/spawn.h): with
  /// any, a walk starts at one in four cases and each waypoint is one in four.
  std::vector<std::array<double, 3>> spawns;
};

/// Reads `file` (a stepslide/level@1 file, or a scenario whose world and
/// character the walks keep) for walks written into `walk_dir`: the paths
/// the walks name are made relative to it. Fails, saying why, when the file
/// does not load or has no walkable floor.
Expected<LevelFloors> read_level_floors(const std::string& file, const std::string& walk_dir);

/// A random walk over `floors` for `seed`, started from the `attempt`-th
/// start point the seed draws (a start inside a wall is refused by the
/// loader; the caller tries the next). Same seed, same bytes.
nlohmann::ordered_json generate_level_walk(const LevelFloors& floors, std::uint64_t seed, int attempt,
                                           const FuzzWorldOptions& options = {});

}  // namespace stepslide
