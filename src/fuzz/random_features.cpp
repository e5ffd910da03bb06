#include "fuzz/random_features.h"

#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/random.h"
#include "scenario/load/load.h"
#include "scenario/load/world.h"
#include "stepslide/math.h"

namespace stepslide {

namespace {

using Json = nlohmann::ordered_json;

// As in random_world.cpp: no call takes two draws as arguments (the order
// compilers evaluate arguments in differs); draws are sequenced by hand.

Json vec3(double x, double y, double z) { return Json::array({x, y, z}); }

double round3(double v) { return std::round(v * 1000.0) / 1000.0; }

/// A horizontal point `min_distance` .. `max_distance` from the origin.
void around(FuzzRandom& r, double min_distance, double max_distance, double* x, double* z) {
  const double angle = r.uniform(0.0, 2.0 * kPi);
  const double d = r.uniform(min_distance, max_distance);
  *x = round3(d * std::cos(angle));
  *z = round3(d * std::sin(angle));
}

Json box_shape(FuzzRandom& r, double low, double high) {
  const double hz = r.rounded(low, high);
  const double hy = r.rounded(low, high);
  const double hx = r.rounded(low, high);
  return Json{{"type", "box"}, {"half_extents", vec3(hx, hy, hz)}};
}

/// The floor is world[0]: a box without rotation has its top at y = 0, flat.
bool flat_floor(const Json& scenario) {
  const Json& floor = scenario["world"][0];
  return floor["shape"]["type"] == "box" && !floor.contains("rotation_deg");
}

// ---- Dynamic bodies ----------------------------------------------------------

/// A crate with a mass: light ones slide when walked into, heavy ones block.
/// On a flat floor it rests on it or falls from a little above; elsewhere it
/// falls onto whatever is below.
Json dynamic_crate(FuzzRandom& r, const std::string& name, bool heavy, bool flat) {
  Json shape = heavy ? box_shape(r, 0.3, 0.8) : box_shape(r, 0.15, 0.5);
  const double hy = shape["half_extents"][1].get<double>();
  double x = 0.0, z = 0.0;
  around(r, 1.0, 5.0, &x, &z);
  const double y = flat && r.chance(0.7) ? hy : round3(hy + r.rounded(0.5, 2.5));
  Json body{{"name", name}, {"shape", shape}, {"position", vec3(x, y, z)}};
  body["rotation_deg"] = vec3(0, r.rounded(-180, 180, 0.1), 0);
  body["mass"] = heavy ? r.rounded(200, 3000, 1) : r.rounded(2, 30, 0.1);
  if (r.chance(0.5)) body["friction"] = r.rounded(0.1, 1.0);
  if (r.chance(0.2)) body["restitution"] = r.rounded(0, 0.5);
  if (r.chance(0.2)) body["linear_damping"] = r.rounded(0, 0.5);
  if (r.chance(0.2)) body["angular_damping"] = r.rounded(0, 0.5);
  return body;
}

/// A plank balanced on a static pivot (a seesaw), off centre by a little so
/// it tips one way or rests on one end. Flat floors only.
void seesaw(FuzzRandom& r, const std::string& name, Json& world) {
  double x = 0.0, z = 0.0;
  around(r, 1.5, 5.0, &x, &z);
  const double yaw = r.rounded(-180, 180, 0.1);
  const double pivot_half_height = r.rounded(0.1, 0.4);
  const double pivot_depth = r.rounded(0.3, 0.7);
  const double plank_length = r.rounded(1.2, 2.5);
  const double plank_thickness = r.rounded(0.03, 0.08);
  const double plank_depth = r.rounded(0.3, 0.6);
  const double offset = r.rounded(-0.3, 0.3);
  world.push_back(Json{{"name", name + "_pivot"},
                       {"shape", {{"type", "box"}, {"half_extents", vec3(0.05, pivot_half_height, pivot_depth)}}},
                       {"position", vec3(x, pivot_half_height, z)},
                       {"rotation_deg", vec3(0, yaw, 0)}});
  // The offset is along the plank (its local x, turned by the yaw).
  const double turn = yaw * kPi / 180.0;
  Json plank{{"name", name},
             {"shape", {{"type", "box"}, {"half_extents", vec3(plank_length, plank_thickness, plank_depth)}}},
             {"position", vec3(round3(x + offset * std::cos(turn)), round3(2 * pivot_half_height + plank_thickness),
                               round3(z - offset * std::sin(turn)))},
             {"rotation_deg", vec3(0, yaw, 0)}};
  plank["mass"] = r.rounded(5, 60, 0.1);
  plank["friction"] = r.rounded(0.4, 1.0);
  world.push_back(plank);
}

/// 2 to 4 boxes stacked at rest on a flat floor, each no wider than the one
/// below, centred on it: the `rest` invariant expects them to stay put
/// until something comes near.
Json resting_stack(FuzzRandom& r, int number) {
  Json boxes = Json::array();
  double x = 0.0, z = 0.0;
  around(r, 2.0, 6.0, &x, &z);
  const std::int64_t count = r.integer(2, 4);
  double hx = r.rounded(0.25, 0.6), hz = r.rounded(0.25, 0.6);
  double base = 0.0;
  double mass = 0.0;
  const double yaw = r.rounded(-180, 180, 0.1);
  for (std::int64_t i = 0; i < count; ++i) {
    const double hy = r.rounded(0.1, 0.4);
    Json body{{"name", kRestingStackPrefix + std::to_string(number) + "_" + std::to_string(i)},
              {"shape", {{"type", "box"}, {"half_extents", vec3(hx, hy, hz)}}},
              {"position", vec3(x, round3(base + hy), z)},
              {"rotation_deg", vec3(0, yaw, 0)}};
    // No box heavier than the one below (Bullet's solver lets a light box
    // under a heavy one sink by centimetres, as a game's would).
    mass = i == 0 ? r.rounded(5, 50, 0.1) : std::max(1.0, std::round(mass * r.rounded(0.3, 1.0, 0.01) * 10.0) / 10.0);
    body["mass"] = mass;
    body["friction"] = r.rounded(0.5, 1.0);
    boxes.push_back(body);
    base = round3(base + 2 * hy);
    const double shrink_x = r.rounded(0.7, 1.0);
    const double shrink_z = r.rounded(0.7, 1.0);
    hx = std::max(0.15, round3(hx * shrink_x));
    hz = std::max(0.15, round3(hz * shrink_z));
  }
  return boxes;
}

/// Whether the bodies of `scenario`'s world from `first` to `end` (a
/// stack) touch no other body than the floor and each other, with 5 cm to
/// spare: a stack built into a wall would not be at rest.
bool clear_of_the_rest(const Json& scenario, std::size_t first, std::size_t end) {
  const LoadResult load = load_scenario_text(scenario.dump(), "generated.json");
  if (!load.scenario) return false;
  World world(*load.scenario);
  const auto bounds = [&world](std::size_t index, btVector3* low, btVector3* high) {
    for (const WorldBody& body : world.bodies()) {
      if (body.def_index != index) continue;
      body.object->getCollisionShape()->getAabb(body.object->getWorldTransform(), *low, *high);
      return true;
    }
    return false;
  };
  const btVector3 spare(0.05, 0.05, 0.05);
  for (std::size_t i = first; i < end; ++i) {
    btVector3 low, high;
    if (!bounds(i, &low, &high)) return false;
    low -= spare;
    high += spare;
    for (std::size_t j = 1; j < load.scenario->world.size(); ++j) {
      if (j >= first && j < end) continue;
      btVector3 other_low, other_high;
      if (!bounds(j, &other_low, &other_high)) continue;
      if (TestAabbAgainstAabb2(low, high, other_low, other_high)) return false;
    }
  }
  return true;
}

void add_dynamic_bodies(FuzzRandom& r, Json& scenario) {
  const bool flat = flat_floor(scenario);
  Json& world = scenario["world"];
  const std::int64_t count = r.integer(1, 3);
  std::vector<std::pair<std::size_t, std::size_t>> stacks;  ///< [first, end) in the world
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int64_t pick = r.integer(0, 99);
    const std::string index = std::to_string(i);
    if (pick < 40) {
      world.push_back(dynamic_crate(r, "crate" + index, false, flat));
    } else if (pick < 60) {
      world.push_back(dynamic_crate(r, "heavy" + index, true, flat));
    } else if (pick < 80 && flat) {
      seesaw(r, "plank" + index, world);
    } else if (flat) {
      const std::size_t first = world.size();
      for (const Json& box : resting_stack(r, static_cast<int>(i))) world.push_back(box);
      stacks.emplace_back(first, world.size());
    }
  }
  // Once every body is placed (a crate may have landed in a stack), the
  // stacks that touch anything are taken out again, the last first.
  for (auto stack = stacks.rbegin(); stack != stacks.rend(); ++stack) {
    if (clear_of_the_rest(scenario, stack->first, stack->second)) continue;
    world.erase(world.begin() + static_cast<std::ptrdiff_t>(stack->first),
                world.begin() + static_cast<std::ptrdiff_t>(stack->second));
  }
}

// ---- One-way platforms and layers -----------------------------------------------

/// A thin platform the character can jump up through and land on, at jump
/// height above the floor; sometimes moving.
Json one_way_platform(FuzzRandom& r, std::int64_t ticks) {
  double x = 0.0, z = 0.0;
  around(r, 0.0, 4.0, &x, &z);
  const double y = r.rounded(0.3, 2.0);
  Json body{{"shape", box_shape(r, 0.05, 0.2)}, {"position", vec3(x, y, z)}, {"one_way", true}};
  // Wide and thin: the half extents drawn are reused, stretched across.
  Json& half = body["shape"]["half_extents"];
  half[0] = round3(half[0].get<double>() * 10.0);
  half[2] = round3(half[2].get<double>() * 10.0);
  body["rotation_deg"] = vec3(0, r.rounded(-180, 180, 0.1), 0);
  if (r.chance(0.25)) {
    const double vz = r.rounded(-1, 1);
    const double vy = r.rounded(-0.5, 0.5);
    const double vx = r.rounded(-1, 1);
    body["motion"] = {{"type", "linear"}, {"velocity", vec3(vx, vy, vz)}};
    if (r.chance(0.5)) {
      const std::int64_t at = r.integer(10, std::max<std::int64_t>(11, ticks - 1));
      body["motion"] = {{"type", "keyframes"}, {"keys", Json::array({{{"tick", at}, {"position", vec3(x, round3(y + vy * 2), z)}}})}};
    }
  }
  return body;
}

void add_one_way(FuzzRandom& r, Json& scenario, std::int64_t ticks) {
  Json& world = scenario["world"];
  // Some of the generated bodies become one-way too (a crate, a mesh, stairs).
  for (std::size_t i = 1; i < world.size(); ++i) {
    if (!world[i].contains("mass") && r.chance(0.1)) world[i]["one_way"] = true;
  }
  const std::int64_t count = r.integer(1, 2);
  for (std::int64_t i = 0; i < count; ++i) world.push_back(one_way_platform(r, ticks));
  // Drop through them now and then.
  for (Json& key : scenario["input"]) {
    if (r.chance(0.2)) key["drop"] = r.chance(0.5);
  }
}

void add_layers(FuzzRandom& r, Json& scenario) {
  Json& world = scenario["world"];
  for (std::size_t i = 1; i < world.size(); ++i) {
    if (r.chance(0.3)) world[i]["layer"] = r.integer(1, 3);
  }
  // The floor's layer 0 always, so the character has ground.
  Json layers = Json::array({0});
  for (int layer = 1; layer <= 3; ++layer) {
    if (r.chance(0.5)) layers.push_back(layer);
  }
  scenario["character"]["collides_with"] = layers;
}

// ---- Crouching ----------------------------------------------------------------

/// Extent of a shape along up, and its horizontal radius.
double height_of(const Json& shape) {
  const std::string type = shape["type"];
  if (type == "sphere") return 2.0 * shape["radius"].get<double>();
  if (type == "box") return 2.0 * shape["half_extents"][1].get<double>();
  return shape["height"].get<double>();
}

/// A shape no taller than `standing`: the same kind lower, or another kind.
Json crouch_shape(FuzzRandom& r, const Json& standing) {
  const double height = height_of(standing);
  const double lower = r.rounded(0.4, 1.0, 0.01);
  const double target = std::max(0.2, std::floor(height * lower * 1000.0) / 1000.0);
  const std::int64_t kind = r.integer(0, 99);
  if (kind < 50 && standing["type"] == "capsule") {
    const double radius = std::min(standing["radius"].get<double>(), 0.5 * target);
    return Json{{"type", "capsule"}, {"radius", radius}, {"height", std::max(target, 2 * radius)}};
  }
  if (kind < 65) return Json{{"type", "sphere"}, {"radius", std::floor(0.5 * target * 1000.0) / 1000.0}};
  if (kind < 85) {
    const double radius = r.rounded(0.15, 0.5);
    return Json{{"type", "cylinder"}, {"radius", radius}, {"height", target}};
  }
  const double hz = r.rounded(0.15, 0.5);
  const double hx = r.rounded(0.15, 0.5);
  return Json{{"type", "box"}, {"half_extents", vec3(hx, std::floor(0.5 * target * 1000.0) / 1000.0, hz)}};
}

void add_crouch(FuzzRandom& r, Json& scenario) {
  Json& character = scenario["character"];
  character["crouch_shape"] = crouch_shape(r, character["shape"]);
  bool crouching = false;
  for (Json& key : scenario["input"]) {
    if (r.chance(0.35)) key["crouch"] = crouching = !crouching;
  }
}

}  // namespace

void add_random_features(FuzzRandom& r, nlohmann::ordered_json& scenario, std::int64_t ticks) {
  // Layers first, so bodies added below stay on layer 0 (seen by every character).
  if (r.chance(0.15)) add_layers(r, scenario);
  if (r.chance(0.25)) add_one_way(r, scenario, ticks);
  if (r.chance(0.25)) add_crouch(r, scenario);
  if (r.chance(0.3)) add_dynamic_bodies(r, scenario);
}

}  // namespace stepslide
