#include "fuzz/random_world.h"

#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "fuzz/random.h"
#include "fuzz/random_features.h"
#include "scenario/load/load.h"
#include "scenario/load/world.h"
#include "scenario/scenario.h"
#include "stepslide/math.h"
#include "stepslide/settings.h"

namespace stepslide {

namespace {

using Json = nlohmann::ordered_json;


Json vec3(double x, double y, double z) { return Json::array({x, y, z}); }

/// A point `distance` from the origin in a random horizontal direction, at height `y`.
Json around(FuzzRandom& r, double min_distance, double max_distance, double y) {
  const double angle = r.uniform(0.0, 2.0 * kPi);
  const double d = r.uniform(min_distance, max_distance);
  return vec3(std::round(d * std::cos(angle) * 1000.0) / 1000.0, y, std::round(d * std::sin(angle) * 1000.0) / 1000.0);
}

Json yawed(FuzzRandom& r) { return vec3(0, r.rounded(-180, 180, 0.1), 0); }

Json shape_box(double hx, double hy, double hz) { return Json{{"type", "box"}, {"half_extents", vec3(hx, hy, hz)}}; }

// Function arguments are evaluated in an unspecified order (GCC goes last to
// first, Clang first to last), so no call here may take two random draws as
// arguments: the same seed made different worlds with each compiler. Draws
// are sequenced explicitly instead, last component first, the order the GCC
// builds always used, so every seed reported so far (CI's, the stored
// scenarios/fuzz/*) still names the same world.

/// A component of a drawn vector: a fixed value, or r.rounded(low, high, step).
struct Draw {
  Draw(double fixed) : low(fixed), high(fixed), step(0.0), random(false) {}  // NOLINT: a plain number is fixed
  Draw(std::initializer_list<double> range)
      : low(*range.begin()), high(*(range.begin() + 1)), step(range.size() > 2 ? *(range.begin() + 2) : 0.001),
        random(true) {}
  double take(FuzzRandom& r) const { return random ? r.rounded(low, high, step) : low; }
  double low, high, step;
  bool random;
};

/// vec3 of drawn components, drawn z first, then y, then x.
Json drawn_vec3(FuzzRandom& r, const Draw& x, const Draw& y, const Draw& z) {
  const double vz = z.take(r);
  const double vy = y.take(r);
  const double vx = x.take(r);
  return vec3(vx, vy, vz);
}

/// A box of drawn half extents, drawn z first, then y, then x.
Json drawn_box(FuzzRandom& r, const Draw& x, const Draw& y, const Draw& z) {
  const double hz = z.take(r);
  const double hy = y.take(r);
  const double hx = x.take(r);
  return shape_box(hx, hy, hz);
}

// ---- Ground ----------------------------------------------------------------

/// Smooth rolling ground: a product of two waves plus a little noise.
struct Terrain {
  double amplitude, fx, fz, px, pz, noise;
  double at(FuzzRandom& r, double x, double z) const {
    const double h = amplitude * std::sin(fx * x + px) * std::cos(fz * z + pz) + r.uniform(-noise, noise);
    return std::round(h * 1000.0) / 1000.0;
  }
};

Terrain random_terrain(FuzzRandom& r) {
  return Terrain{r.uniform(0.0, 1.2), r.uniform(0.1, 0.8), r.uniform(0.1, 0.8), r.uniform(0.0, 6.0),
                 r.uniform(0.0, 6.0), r.chance(0.3) ? r.uniform(0.0, 0.08) : 0.0};
}

Json floor_box(FuzzRandom& r) {
  const double hz = r.rounded(8, 20, 0.5), hx = r.rounded(8, 20, 0.5);
  Json body{{"name", "floor"}, {"shape", shape_box(hx, 0.5, hz)}, {"position", vec3(0, -0.5, 0)}};
  if (r.chance(0.15)) body["rotation_deg"] = drawn_vec3(r, {-6, 6, 0.1}, 0, {-6, 6, 0.1});
  return body;
}

Json floor_heightfield(FuzzRandom& r) {
  const int rows = static_cast<int>(r.integer(6, 20)), columns = static_cast<int>(r.integer(6, 20));
  const double cell = r.rounded(0.75, 2.0, 0.05);
  const Terrain terrain = random_terrain(r);
  Json heights = Json::array();
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < columns; ++j) heights.push_back(terrain.at(r, j * cell, i * cell));
  }
  return Json{{"name", "floor"},
              {"shape",
               {{"type", "heightfield"}, {"rows", rows}, {"columns", columns}, {"cell_size", cell}, {"heights", heights}}}};
}

/// A height grid as a triangle mesh, each cell split along a random diagonal.
Json grid_mesh(FuzzRandom& r, int rows, int columns, double cell, const Terrain& terrain) {
  Json vertices = Json::array(), triangles = Json::array();
  const double x0 = -0.5 * (columns - 1) * cell, z0 = -0.5 * (rows - 1) * cell;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < columns; ++j) {
      const double x = x0 + j * cell, z = z0 + i * cell;
      vertices.push_back(vec3(std::round(x * 1000.0) / 1000.0, terrain.at(r, x, z), std::round(z * 1000.0) / 1000.0));
    }
  }
  for (int i = 0; i + 1 < rows; ++i) {
    for (int j = 0; j + 1 < columns; ++j) {
      const int a = i * columns + j, b = a + 1, c = a + columns, d = c + 1;
      if (r.chance(0.5)) {
        triangles.push_back(Json::array({a, c, b}));
        triangles.push_back(Json::array({b, c, d}));
      } else {
        triangles.push_back(Json::array({a, c, d}));
        triangles.push_back(Json::array({a, d, b}));
      }
    }
  }
  return Json{{"type", "mesh"}, {"vertices", vertices}, {"triangles", triangles}};
}

Json floor_mesh(FuzzRandom& r) {
  const int rows = static_cast<int>(r.integer(6, 16)), columns = static_cast<int>(r.integer(6, 16));
  const Terrain terrain = random_terrain(r);
  const double cell = r.rounded(1.0, 2.5, 0.05);
  return Json{{"name", "floor"}, {"shape", grid_mesh(r, rows, columns, cell, terrain)}};
}

// ---- Obstacles -------------------------------------------------------------

Json wall(FuzzRandom& r) {
  const double height = r.rounded(0.5, 2.5);
  const double hz = r.rounded(0.03, 0.3), hx = r.rounded(1, 5);
  return Json{{"shape", shape_box(hx, height, hz)},
              {"position", around(r, 1.5, 7, height)},
              {"rotation_deg", yawed(r)}};
}

Json crate(FuzzRandom& r) {
  const double hy = r.rounded(0.1, 1.5);
  const double y = r.chance(0.2) ? hy + r.rounded(0.5, 2.5) : hy - r.rounded(0, 0.3);  // sometimes a ceiling
  const double hz = r.rounded(0.15, 1.5), hx = r.rounded(0.15, 1.5);
  Json body{{"shape", shape_box(hx, hy, hz)}, {"position", around(r, 1, 8, y)}};
  body["rotation_deg"] = r.chance(0.2) ? drawn_vec3(r, {-30, 30, 0.1}, {-180, 180, 0.1}, {-30, 30, 0.1}) : yawed(r);
  return body;
}

Json ramp(FuzzRandom& r) {
  Json shape{{"type", "ramp"}, {"length", r.rounded(1.5, 6)}, {"width", r.rounded(1, 3)}, {"angle_deg", r.rounded(5, 60, 0.1)}};
  if (r.chance(0.5)) shape["thickness"] = r.rounded(0.05, 0.5);
  return Json{{"shape", shape}, {"position", around(r, 1, 6, 0)}, {"rotation_deg", yawed(r)}};
}

Json stairs(FuzzRandom& r) {
  Json shape{{"type", "stairs"},          {"steps", r.integer(1, 12)},       {"rise", r.rounded(0.05, 0.45)},
             {"run", r.rounded(0.12, 0.6)}, {"width", r.rounded(0.6, 3)}};
  return Json{{"shape", shape}, {"position", around(r, 1, 6, 0)}, {"rotation_deg", yawed(r)}};
}

Json sphere(FuzzRandom& r) {
  const double radius = r.rounded(0.1, 2);
  return Json{{"shape", {{"type", "sphere"}, {"radius", radius}}},
              {"position", around(r, 1, 8, std::round(radius * r.uniform(-0.5, 1.2) * 1000.0) / 1000.0)}};
}

/// A capsule or cylinder: upright as a pillar, or lying as a log.
Json pillar(FuzzRandom& r) {
  const double radius = r.rounded(0.1, 0.8);
  const double height = r.rounded(2 * radius + 0.01, 4);
  const bool lying = r.chance(0.4);
  Json body{{"shape", {{"type", r.chance(0.5) ? "capsule" : "cylinder"}, {"radius", radius}, {"height", height}}},
            {"position", around(r, 1, 8, lying ? radius : 0.5 * height)}};
  body["rotation_deg"] = lying ? vec3(90, r.rounded(-180, 180, 0.1), 0) : yawed(r);
  return body;
}

Json hull(FuzzRandom& r) {
  const double rx = r.uniform(0.2, 1.5), ry = r.uniform(0.2, 1.5), rz = r.uniform(0.2, 1.5);
  Json points = Json::array();
  const std::int64_t count = r.integer(6, 14);
  for (std::int64_t i = 0; i < count; ++i) {
    const double theta = r.uniform(0, 2 * kPi), z = r.uniform(-1, 1), s = std::sqrt(1 - z * z);
    points.push_back(vec3(std::round(rx * s * std::cos(theta) * 1000) / 1000, std::round(ry * z * 1000) / 1000,
                          std::round(rz * s * std::sin(theta) * 1000) / 1000));
  }
  return Json{{"shape", {{"type", "convex_hull"}, {"points", points}}},
              {"position", around(r, 1, 8, r.rounded(0, 1))},
              {"rotation_deg", yawed(r)}};
}

Json bumps_mesh(FuzzRandom& r) {
  const int rows = static_cast<int>(r.integer(2, 6)), columns = static_cast<int>(r.integer(2, 6));
  Terrain terrain = random_terrain(r);
  terrain.amplitude = r.uniform(0.0, 0.6);
  terrain.noise = r.uniform(0.0, 0.2);
  return Json{{"shape", grid_mesh(r, rows, columns, r.rounded(0.3, 1.0), terrain)},
              {"position", around(r, 2, 8, r.rounded(0, 0.3))},
              {"rotation_deg", yawed(r)}};
}

Json bumps_heightfield(FuzzRandom& r) {
  const int rows = static_cast<int>(r.integer(3, 8)), columns = static_cast<int>(r.integer(3, 8));
  Json heights = Json::array();
  for (int i = 0; i < rows * columns; ++i) heights.push_back(r.rounded(0, 0.8));
  return Json{{"shape",
               {{"type", "heightfield"}, {"rows", rows}, {"columns", columns}, {"cell_size", r.rounded(0.25, 1)},
                {"heights", heights}}},
              {"position", around(r, 2, 8, 0)}};
}

// ---- Moving bodies ---------------------------------------------------------

Json platform(FuzzRandom& r, std::int64_t ticks) {
  Json body{{"shape", drawn_box(r, {0.5, 2}, {0.05, 0.3}, {0.5, 2})},
            {"position", around(r, 1.5, 6, r.rounded(0, 1.5))}};
  if (r.chance(0.4)) {
    body["motion"] = {{"type", "linear"},
                      {"velocity", drawn_vec3(r, {-1.5, 1.5}, {-0.5, 0.5}, {-1.5, 1.5})}};
    return body;
  }
  Json keys = Json::array();
  std::int64_t tick = 0;
  const std::int64_t count = r.integer(1, 4);
  for (std::int64_t k = 0; k < count; ++k) {
    tick += r.integer(20, std::max<std::int64_t>(21, ticks / 2));
    Json key{{"tick", tick}, {"position", around(r, 0, 5, r.rounded(0, 3))}};
    if (r.chance(0.3)) key["rotation_deg"] = yawed(r);
    keys.push_back(key);
  }
  body["motion"] = {{"type", "keyframes"}, {"keys", keys}};
  return body;
}

Json spinner(FuzzRandom& r) {
  const bool turntable = r.chance(0.5);
  Json shape = turntable ? Json{{"type", "cylinder"}, {"radius", r.rounded(1, 3)}, {"height", r.rounded(0.1, 0.4)}}
                         : drawn_box(r, {1, 3}, {0.1, 0.5}, {0.1, 0.3});
  Json axis = r.chance(0.8) ? vec3(0, 1, 0) : drawn_vec3(r, {-0.3, 0.3}, 1, {-0.3, 0.3});
  return Json{{"shape", shape},
              {"position", around(r, 1.5, 6, turntable ? r.rounded(0, 0.3) : r.rounded(0.1, 1.5))},
              {"motion", {{"type", "spin"}, {"axis", axis}, {"deg_per_s", r.rounded(-180, 180, 0.5)}}}};
}

Json random_body(FuzzRandom& r, std::int64_t ticks) {
  // Weights: walls and crates are where tunnelling and overlaps show.
  const std::int64_t pick = r.integer(0, 99);
  if (pick < 18) return wall(r);
  if (pick < 36) return crate(r);
  if (pick < 46) return ramp(r);
  if (pick < 56) return stairs(r);
  if (pick < 62) return sphere(r);
  if (pick < 68) return pillar(r);
  if (pick < 74) return hull(r);
  if (pick < 80) return bumps_mesh(r);
  if (pick < 85) return bumps_heightfield(r);
  if (pick < 94) return platform(r, ticks);
  return spinner(r);
}

// ---- Character and input ---------------------------------------------------

Json character_shape(FuzzRandom& r) {
  const std::int64_t pick = r.integer(0, 99);
  if (pick < 60) {
    const double radius = r.rounded(0.15, 0.5);
    return Json{{"type", "capsule"}, {"radius", radius}, {"height", r.rounded(2 * radius, 2.2)}};
  }
  if (pick < 75) return Json{{"type", "sphere"}, {"radius", r.rounded(0.2, 0.6)}};
  if (pick < 85) return Json{{"type", "cylinder"}, {"radius", r.rounded(0.2, 0.5)}, {"height", r.rounded(0.5, 2)}};
  return drawn_box(r, {0.15, 0.5}, {0.3, 1}, {0.15, 0.5});
}

/// Ranges the fuzzer draws settings from: wide, but where a game would set them.
struct SettingRange {
  const char* name;
  double lo, hi;
};
constexpr SettingRange kSettingRanges[] = {
    {"max_step_height", 0.05, 0.6},     {"min_step_depth", 0, 0.3},
    {"max_slope_deg", 10, 70},          {"step_down_height", 0, 0.6},
    {"skin_width", 0.001, 0.05},        {"max_slide_iterations", 1, 8},
    {"max_depenetration_iterations", 1, 16}, {"step_up_slide_iterations", 0, 4},
    {"walk_speed", 0.5, 12},            {"ground_acceleration", 5, 200},
    {"air_acceleration", 0, 40},        {"friction", 0, 30},
    {"jump_speed", 1, 10},              {"terminal_velocity", 5, 60},
    {"camera_smoothing", 0, 30},        {"stop_speed", 0, 0.5},
    {"min_step_event", 0, 0.1},         {"constant_horizontal_speed", 0, 1},
    {"inherit_ground_velocity", 0, 1},  {"turn_with_ground", 0, 1},
};

Json character_settings(FuzzRandom& r) {
  Json settings = Json::object();
  for (const SettingRange& range : kSettingRanges) {
    const bool pick = r.chance(0.3);
    const SettingInfo* info = find_setting(range.name);
    if (!pick || info == nullptr) continue;  // a setting renamed since: leave it at its default
    const double lo = std::max(range.lo, info->min_value), hi = std::min(range.hi, info->max_value);
    if (info->is_integer) {
      settings[range.name] = r.integer(static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi));
    } else {
      settings[range.name] = std::clamp(r.rounded(lo, hi), lo, hi);
    }
  }
  return settings;
}

Json random_input(FuzzRandom& r, std::int64_t ticks) {
  Json input = Json::array();
  bool jump = false;
  for (std::int64_t tick = 0; tick < ticks; tick += r.integer(5, 60)) {
    Json key{{"tick", tick}};
    if (r.chance(0.75)) {
      if (r.chance(0.12)) {
        key["wish_velocity"] = Json::array({r.rounded(-8, 8, 0.01), r.rounded(-8, 8, 0.01)});
      } else {
        key["move"] = Json::array({r.rounded(-1, 1, 0.01), r.rounded(-1, 1, 0.01)});
      }
    }
    if (r.chance(0.3)) key["yaw_deg"] = r.rounded(-180, 180, 0.1);
    if (r.chance(0.3)) key["jump"] = jump = !jump;
    if (key.size() == 1) key["move"] = Json::array({0, 1});
    input.push_back(key);
  }
  return input;
}

// ---- Spawn -----------------------------------------------------------------

std::unique_ptr<btConvexShape> sweep_shape_for(const ShapeDef& s, double* feet_to_center) {
  switch (s.type) {
    case ShapeType::Sphere:
      *feet_to_center = s.radius;
      return std::make_unique<btSphereShape>(s.radius);
    case ShapeType::Cylinder:
      *feet_to_center = 0.5 * s.height;
      return std::make_unique<btCylinderShape>(btVector3(s.radius, 0.5 * s.height, s.radius));
    case ShapeType::Box:
      *feet_to_center = s.half_extents[1];
      return std::make_unique<btBoxShape>(btVector3(s.half_extents[0], s.half_extents[1], s.half_extents[2]));
    default:
      *feet_to_center = 0.5 * s.height;
      return std::make_unique<btCapsuleShape>(s.radius, s.height - 2 * s.radius);
  }
}

/// Feet height where a character of `shape`, lowered from high above
/// (x, z), first touches the world at tick 0; 0 when nothing is below.
double landing_height(const Scenario& scenario, const ShapeDef& character_shape, double x, double z) {
  World world(scenario);
  double feet_to_center = 0.0;
  const std::unique_ptr<btConvexShape> shape = sweep_shape_for(character_shape, &feet_to_center);
  const btVector3 from(x, 50.0, z), to(x, -50.0, z);
  btCollisionWorld::ClosestConvexResultCallback hit(from, to);
  world.collision_world()->convexSweepTest(shape.get(), btTransform(btQuaternion::getIdentity(), from),
                                           btTransform(btQuaternion::getIdentity(), to), hit);
  if (!hit.hasHit()) return 0.0;
  return from.y() + (to.y() - from.y()) * hit.m_closestHitFraction - feet_to_center;
}

/// Indices of bodies named in the loader's errors ("/world/3/...").
std::set<std::size_t> bodies_with_errors(const LoadResult& load) {
  std::set<std::size_t> bad;
  for (const LoadError& e : load.errors) {
    if (e.json_path.rfind("/world/", 0) == 0) bad.insert(std::stoul(e.json_path.substr(7)));
  }
  return bad;
}

// ---- Several characters ------------------------------------------------------

/// Share of worlds whose character becomes the first of `characters`.
constexpr double kExtraCharacterChance = 0.15;

/// The generated shape (character_shape) as the loader reads it.
ShapeDef shape_def_of(const Json& shape) {
  ShapeDef def;
  const std::string type = shape["type"].get<std::string>();
  if (type == "box") {
    def.type = ShapeType::Box;
    for (int k = 0; k < 3; ++k) def.half_extents[k] = shape["half_extents"][k].get<double>();
    return def;
  }
  def.radius = shape["radius"].get<double>();
  if (type == "sphere") {
    def.type = ShapeType::Sphere;
  } else {
    def.type = type == "cylinder" ? ShapeType::Cylinder : ShapeType::Capsule;
    def.height = shape["height"].get<double>();
  }
  return def;
}

/// Radius of the vertical cylinder around the shape's axis that holds it
/// at any yaw: characters whose cylinders stay apart cannot overlap.
double horizontal_reach(const ShapeDef& shape) {
  if (shape.type != ShapeType::Box) return shape.radius;
  return std::hypot(shape.half_extents[0], shape.half_extents[2]);
}

/// Share of worlds with several characters whose characters get layers.
constexpr double kCharacterLayerChance = 0.5;
/// The layers a character's body may be on besides 0: above the bodies'
/// (random_features.cpp puts bodies on 0 to 3), so that which layers the
/// characters list among these never changes which bodies they meet.
constexpr int kFirstCharacterLayer = 4;
constexpr int kLastCharacterLayer = 5;
/// The bodies' layers (random_features.cpp), which every character lists
/// when it has no list of its own: as it did by default.
const int kBodyLayers[] = {0, 1, 2, 3};

/// Puts each character on a layer (0, which everyone meets with the floor,
/// or one of the characters' own) and lets it list each of the characters'
/// layers or not: pairs that block both ways, pass through each other, or
/// disagree (one-sided, docs/format.md §1.7) all come up. The bodies a
/// character meets stay those it met before.
void add_character_layers(FuzzRandom& r, Json& characters) {
  for (Json& character : characters) {
    const std::int64_t pick = r.integer(0, kLastCharacterLayer - kFirstCharacterLayer + 1);
    Json with = Json::array();
    if (character.contains("collides_with")) {
      with = character["collides_with"];
    } else {
      for (const int layer : kBodyLayers) with.push_back(layer);
    }
    for (int layer = kFirstCharacterLayer; layer <= kLastCharacterLayer; ++layer) {
      if (r.chance(0.5)) with.push_back(layer);
    }
    if (pick > 0) character["layer"] = kFirstCharacterLayer + pick - 1;
    character["collides_with"] = with;
  }
}

/// Turns the world's `character` into `characters`: the drawn one first (as
/// "player", with the top-level input), then one or two more drawn the same
/// way and dropped, like the first, onto what lies under a point a few
/// metres from it, horizontally clear of every character placed before.
void add_extra_characters(FuzzRandom& r, Json& scenario, const Scenario& loaded, std::int64_t ticks) {
  struct Placed {
    double x, z, reach;
  };
  Json first = scenario["character"];
  first["input"] = scenario["input"];
  Json player{{"name", "player"}};
  for (auto it = first.begin(); it != first.end(); ++it) player[it.key()] = it.value();
  Json characters = Json::array({player});
  const Json& position = scenario["character"]["position"];
  const double x0 = position[0].get<double>(), z0 = position[2].get<double>();
  std::vector<Placed> placed{{x0, z0, horizontal_reach(loaded.character.shape)}};
  const std::int64_t extra = r.integer(1, 2);
  for (std::int64_t i = 0; i < extra; ++i) {
    Json character{{"name", "npc" + std::to_string(i + 1)}};
    const Json shape = character_shape(r);
    character["shape"] = shape;
    Json settings = character_settings(r);
    if (r.chance(0.5)) settings["mass"] = r.rounded(20, 200);
    if (r.chance(0.3)) settings["max_push_strength"] = r.rounded(0, 3000);
    if (!settings.empty()) character["settings"] = settings;
    if (r.chance(0.3)) character["velocity"] = drawn_vec3(r, {-3, 3}, {-2, 4}, {-3, 3});
    character["input"] = random_input(r, ticks);
    const ShapeDef def = shape_def_of(shape);
    const double reach = horizontal_reach(def);
    const double angle = r.uniform(0.0, 2.0 * kPi);
    const double gap = r.rounded(0.05, 3);
    const double d = placed[0].reach + reach + gap;
    const double x = std::round((x0 + d * std::cos(angle)) * 1000.0) / 1000.0;
    const double z = std::round((z0 + d * std::sin(angle)) * 1000.0) / 1000.0;
    // Clear of every character placed before, by a centimetre at least.
    const bool clear = std::all_of(placed.begin(), placed.end(), [&](const Placed& p) {
      return std::hypot(x - p.x, z - p.z) >= p.reach + reach + 0.01;
    });
    if (!clear) continue;
    const double drop = r.chance(0.5) ? r.rounded(0, 0.5) : 0.0;
    const double feet = landing_height(loaded, def, x, z) + 0.02 + drop;
    character["position"] = vec3(x, std::ceil(feet * 1000.0) / 1000.0, z);
    placed.push_back({x, z, reach});
    characters.push_back(character);
  }
  // Drawn after the characters, so that a world without layers draws what it always did.
  if (characters.size() > 1 && r.chance(kCharacterLayerChance)) add_character_layers(r, characters);
  Json out = Json::object();
  for (auto it = scenario.begin(); it != scenario.end(); ++it) {
    if (it.key() == "input") continue;
    if (it.key() == "character") {
      out["characters"] = characters;
    } else {
      out[it.key()] = it.value();
    }
  }
  scenario = out;
}

}  // namespace

nlohmann::ordered_json generate_fuzz_scenario(std::uint64_t seed, const FuzzWorldOptions& options) {
  FuzzRandom r(seed);
  return generate_fuzz_scenario(r, "fuzz_seed_" + std::to_string(seed),
                                "random world from stepslide fuzz --seed " + std::to_string(seed), options);
}

nlohmann::ordered_json generate_fuzz_scenario(FuzzRandom& r, const std::string& name, const std::string& description,
                                              const FuzzWorldOptions& options) {
  const std::int64_t ticks = r.integer(options.min_ticks, std::max(options.min_ticks, options.max_ticks));
  Json scenario{{"format", kScenarioFormat}, {"name", name}, {"description", description}};
  const int rates[] = {30, 50, 60, 60, 60, 120, 240};
  scenario["tick_rate"] = rates[r.integer(0, 6)];
  scenario["ticks"] = ticks;
  if (r.chance(0.2)) scenario["gravity"] = vec3(0, -r.rounded(3, 25), 0);

  Json world = Json::array();
  const std::int64_t floor_kind = r.integer(0, 99);
  if (floor_kind < 70) world.push_back(floor_box(r));
  else if (floor_kind < 85) world.push_back(floor_heightfield(r));
  else world.push_back(floor_mesh(r));
  const std::int64_t bodies = r.integer(1, std::max(1, options.max_bodies));
  for (std::int64_t i = 0; i < bodies; ++i) world.push_back(random_body(r, ticks));

  Json character{{"shape", character_shape(r)}};
  const Json settings = character_settings(r);
  if (!settings.empty()) character["settings"] = settings;
  if (r.chance(0.3)) character["velocity"] = drawn_vec3(r, {-3, 3}, {-2, 4}, {-3, 3});
  scenario["character"] = character;
  scenario["world"] = world;
  scenario["input"] = random_input(r, ticks);
  add_random_features(r, scenario, ticks);

  // A generated value the loader rejects (a hull whose rounded points came
  // out flat, say) drops that body rather than the whole world.
  LoadResult load = load_scenario_text(scenario.dump(), "generated.json");
  for (int attempt = 0; attempt < 3 && !load.scenario; ++attempt) {
    const std::set<std::size_t> bad = bodies_with_errors(load);
    if (bad.empty()) break;
    Json kept = Json::array();
    for (std::size_t i = 0; i < scenario["world"].size(); ++i) {
      if (bad.count(i) == 0) kept.push_back(scenario["world"][i]);
    }
    scenario["world"] = kept;
    load = load_scenario_text(scenario.dump(), "generated.json");
  }
  if (!load.scenario) return scenario;  // left invalid on purpose: the caller reports it

  const double x = r.rounded(-1, 1), z = r.rounded(-1, 1);
  const double drop = r.chance(0.5) ? r.rounded(0, 0.5) : 0.0;
  const double feet = landing_height(*load.scenario, load.scenario->character.shape, x, z) + 0.02 + drop;
  scenario["character"]["position"] = vec3(x, std::ceil(feet * 1000.0) / 1000.0, z);
  // Drawn last, so that a world without them draws what it always did.
  if (r.chance(kExtraCharacterChance)) add_extra_characters(r, scenario, *load.scenario, ticks);
  return scenario;
}

}  // namespace stepslide
