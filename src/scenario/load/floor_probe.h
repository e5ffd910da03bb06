// The surfaces under a point (`stepslide probe`): every upward-facing surface
// a vertical line crosses, top to bottom, with its height, normal, slope and
// body. What a person needs to pick a spawn point or read a bug report.
#pragma once

#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace stepslide {

class World;

struct FloorHit {
  Vec3 point{0, 0, 0};   ///< where the line meets the surface
  Vec3 normal{0, 0, 0};  ///< the surface's own normal (the side it faces), unit
  double slope_deg = 0;  ///< between the normal and up
  bool walkable = false; ///< slope within the character's max_slope_deg
  std::string body;      ///< the body's name, or "world[i]"
};

/// Every surface facing up (normal·up > 0) that the line through `x`, `z`
/// along the scenario's up crosses, from the top of the world to its bottom,
/// bodies posed at tick 0. Surfaces facing down (ceilings, the underside of a
/// slab) are left out. A surface crossed twice at one point (a shared mesh
/// edge) is listed once.
std::vector<FloorHit> floors_under(World& world, const Scenario& scenario, double x, double z);

/// Highest and lowest extent of all bodies along `up`; {0, 0} for an empty world.
std::pair<double, double> world_extent_along(World& world, const Vec3& up);

}  // namespace stepslide
