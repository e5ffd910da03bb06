#include "fuzz/level_walk.h"

#include <BulletCollision/CollisionShapes/btTriangleCallback.h>
#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "base/file_io.h"
#include "fuzz/random.h"
#include "scenario/load/load.h"
#include "scenario/load/spawn.h"
#include "scenario/load/world.h"

namespace stepslide {

namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;
using Corner = std::array<double, 3>;
using Triangle = std::array<Corner, 3>;

/// `path` (relative to `from_dir`) as seen from `to_dir`, with '/' separators.
std::string rebased(const std::string& path, const fs::path& from_dir, const fs::path& to_dir) {
  const fs::path target = fs::absolute(from_dir / path).lexically_normal();
  return target.lexically_relative(fs::absolute(to_dir).lexically_normal()).generic_string();
}

/// The world items of `document`, their included files and mesh files rebased.
Json rebased_world(const Json& world, const fs::path& from_dir, const fs::path& to_dir) {
  Json out = Json::array();
  for (Json item : world) {
    if (item.contains("include") && item["include"].is_string()) {
      item["include"] = rebased(item["include"].get<std::string>(), from_dir, to_dir);
    }
    if (item.contains("shape") && item["shape"].is_object() && item["shape"].contains("file") &&
        item["shape"]["file"].is_string()) {
      item["shape"]["file"] = rebased(item["shape"]["file"].get<std::string>(), from_dir, to_dir);
    }
    out.push_back(std::move(item));
  }
  return out;
}

class Collector : public btTriangleCallback {
 public:
  Collector(const btTransform& pose, const btVector3& up, double min_cos, LevelFloors* out)
      : pose_(pose), up_(up), min_cos_(min_cos), out_(out) {}
  void processTriangle(btVector3* v, int, int) override {
    const btVector3 a = pose_ * v[0], b = pose_ * v[1], c = pose_ * v[2];
    const btVector3 n = (b - a).cross(c - a);
    const double twice_area = n.length();
    if (twice_area < 1e-9) return;
    // Meshes are two-sided: either face may be the floor.
    if (std::fabs(n.dot(up_)) < min_cos_ * twice_area) return;
    add(a, b, c, 0.5 * twice_area);
  }
  void add(const btVector3& a, const btVector3& b, const btVector3& c, double area) {
    out_->triangles.push_back(Triangle{Corner{a.x(), a.y(), a.z()}, Corner{b.x(), b.y(), b.z()},
                                       Corner{c.x(), c.y(), c.z()}});
    const double before = out_->cumulative_area.empty() ? 0.0 : out_->cumulative_area.back();
    out_->cumulative_area.push_back(before + area);
  }

 private:
  btTransform pose_;
  btVector3 up_;
  double min_cos_;
  LevelFloors* out_;
};

/// The top face of a static box, as two triangles, when it is walkable.
void add_box_top(const btBoxShape& box, const btTransform& pose, const btVector3& up, double min_cos,
                 Collector& collect) {
  const btVector3 half = box.getHalfExtentsWithMargin();
  const btMatrix3x3& basis = pose.getBasis();
  int axis = 0;
  double best = 0.0;
  for (int k = 0; k < 3; ++k) {
    const double along = basis.getColumn(k).dot(up);
    if (std::fabs(along) > std::fabs(best)) {
      best = along;
      axis = k;
    }
  }
  if (std::fabs(best) < min_cos) return;
  const int u = (axis + 1) % 3, w = (axis + 2) % 3;
  auto corner = [&](double su, double sw) {
    btVector3 local(0, 0, 0);
    local[axis] = best > 0 ? half[axis] : -half[axis];
    local[u] = su * half[u];
    local[w] = sw * half[w];
    return pose * local;
  };
  const double area = 4.0 * half[u] * half[w];
  collect.add(corner(-1, -1), corner(1, -1), corner(1, 1), 0.5 * area);
  collect.add(corner(-1, -1), corner(1, 1), corner(-1, 1), 0.5 * area);
}

/// A uniformly random point of the floors.
btVector3 floor_point(const LevelFloors& floors, FuzzRandom& random) {
  const double pick = random.uniform(0.0, floors.cumulative_area.back());
  const auto at = std::upper_bound(floors.cumulative_area.begin(), floors.cumulative_area.end(), pick);
  const std::size_t i = std::min<std::size_t>(static_cast<std::size_t>(at - floors.cumulative_area.begin()),
                                              floors.triangles.size() - 1);
  const Triangle& t = floors.triangles[i];
  double s = random.unit();
  double r = random.unit();
  if (s + r > 1.0) {
    s = 1.0 - s;
    r = 1.0 - r;
  }
  btVector3 p;
  for (int k = 0; k < 3; ++k) p[k] = t[0][k] + s * (t[1][k] - t[0][k]) + r * (t[2][k] - t[0][k]);
  return p;
}

/// One of the level's spawn points, chosen uniformly.
btVector3 spawn_point(const LevelFloors& floors, FuzzRandom& random) {
  const std::int64_t last = static_cast<std::int64_t>(floors.spawns.size()) - 1;
  const auto& p = floors.spawns[static_cast<std::size_t>(random.integer(0, last))];
  return btVector3(p[0], p[1], p[2]);
}

/// Rounded to a millimetre, so files read "1.234", not 17 digits.
double mm(double v) { return std::round(v * 1000.0) / 1000.0; }

Json target_of(const btVector3& p) { return Json::array({mm(p.x()), mm(p.z())}); }

}  // namespace

Expected<LevelFloors> read_level_floors(const std::string& file, const std::string& walk_dir) {
  const Expected<std::string> text = read_file(file);
  if (!text) return Expected<LevelFloors>::failure(file + ": " + text.error());
  Json document;
  try {
    document = Json::parse(*text, nullptr, true, true);
  } catch (const std::exception&) {
    return Expected<LevelFloors>::failure(file + ": not JSON");
  }
  const fs::path from_dir = fs::path(file).parent_path();
  LevelFloors floors;
  Json& base = floors.base;
  base["format"] = "stepslide/scenario@1";
  if (document.value("format", std::string()) == "stepslide/level@1") {
    base["world"] = Json::array({Json{{"include", rebased(fs::path(file).filename().string(), from_dir, walk_dir)}}});
  } else {
    for (const char* key : {"tick_rate", "gravity", "up"}) {
      if (document.contains(key)) base[key] = document[key];
    }
    base["world"] = rebased_world(document.value("world", Json::array()), from_dir, walk_dir);
    if (document.contains("character") && document["character"].is_object()) {
      Json character;
      for (const char* key : {"shape", "settings"}) {
        if (document["character"].contains(key)) character[key] = document["character"][key];
      }
      if (!character.is_null()) base["character"] = character;
    }
  }
  Json probe = base;
  probe["ticks"] = 1;
  LoadOptions options;
  options.allow_outside = true;
  const LoadResult load = load_scenario_text(probe.dump(), (fs::path(walk_dir) / "level_walk.json").generic_string(),
                                             options);
  if (!load.scenario) return Expected<LevelFloors>::failure(format_load_errors(load));
  const Scenario& scenario = *load.scenario;
  const btVector3 up(scenario.up[0], scenario.up[1], scenario.up[2]);
  floors.up = scenario.up;
  const double min_cos = std::cos(scenario.character.settings.max_slope_deg * 3.14159265358979323846 / 180.0);
  World world(scenario);
  for (const WorldBody& body : world.bodies()) {
    if (scenario.world[body.def_index].motion.type != MotionType::None) continue;
    const btCollisionShape* shape = body.object->getCollisionShape();
    const btTransform& pose = body.object->getWorldTransform();
    Collector collect(pose, up, min_cos, &floors);
    if (shape->isConcave()) {
      const btVector3 everywhere(1e9, 1e9, 1e9);
      static_cast<const btConcaveShape*>(shape)->processAllTriangles(&collect, -everywhere, everywhere);
    } else if (shape->getShapeType() == BOX_SHAPE_PROXYTYPE) {
      add_box_top(*static_cast<const btBoxShape*>(shape), pose, up, min_cos, collect);
    }
  }
  if (floors.triangles.empty()) {
    return Expected<LevelFloors>::failure(file + ": no walkable floor (static mesh, heightfield or box top) to walk on");
  }
  for (const LevelSpawn& spawn : level_spawns(scenario, world)) {
    floors.spawns.push_back({spawn.position[0], spawn.position[1], spawn.position[2]});
  }
  return floors;
}

Json generate_level_walk(const LevelFloors& floors, std::uint64_t seed, int attempt, const FuzzWorldOptions& options) {
  FuzzRandom random(seed);
  Json walk = floors.base;
  const btVector3 up(floors.up[0], floors.up[1], floors.up[2]);
  // Start points drawn first, so attempt k of a seed is the same whatever came after.
  btVector3 start;
  for (int k = 0; k <= attempt; ++k) start = floor_point(floors, random);
  // A level without spawn points draws nothing more here: its walks stay as they were.
  if (!floors.spawns.empty() && random.integer(0, 3) == 0) start = spawn_point(floors, random);
  const std::int64_t ticks = random.integer(options.min_ticks, options.max_ticks);
  walk["ticks"] = ticks;
  Json& character = walk["character"];
  const btVector3 drop = start + up * 0.1;
  character["position"] = Json::array({mm(drop.x()), mm(drop.y()), mm(drop.z())});
  character["place"] = "on_floor";
  Json& settings = character["settings"];
  if (!settings.is_object()) settings = Json::object();
  settings["walk_speed"] = random.rounded(1.5, 8.0, 0.1);

  Json input = Json::array();
  Json waypoints = Json::array();
  const int points = static_cast<int>(random.integer(1, 4));
  for (int i = 0; i < points; ++i) {
    const bool spawn = !floors.spawns.empty() && random.integer(0, 3) == 0;
    waypoints.push_back(target_of(spawn ? spawn_point(floors, random) : floor_point(floors, random)));
  }
  input.push_back(Json{{"tick", 0}, {"waypoints", waypoints}, {"stick", random.rounded(0.3, 1.0, 0.05)}});
  // Interruptions: a turn of the stick off the route for a while, then back
  // to the waypoints not yet passed (steering picks up where the feet are),
  // and jumps, some of them held.
  std::int64_t tick = random.integer(10, 90);
  while (tick < ticks) {
    const int what = static_cast<int>(random.integer(0, 2));
    if (what == 0) {
      const std::int64_t length = random.integer(5, 60);
      const double right = random.rounded(-1, 1, 0.05);
      const double forward = random.rounded(0, 1, 0.05);
      const double yaw = random.rounded(-180, 180, 1);
      input.push_back(Json{{"tick", tick}, {"move", Json::array({right, forward})}, {"yaw_deg", yaw}});
      tick += length;
      if (tick < ticks) input.push_back(Json{{"tick", tick}, {"waypoints", waypoints}, {"yaw_deg", 0}});
    } else {
      const std::int64_t held = random.integer(1, 40);
      input.push_back(Json{{"tick", tick}, {"jump", true}});
      tick += held;
      if (tick < ticks) input.push_back(Json{{"tick", tick}, {"jump", false}});
    }
    tick += random.integer(5, 120);
  }
  walk["input"] = input;
  return walk;
}

}  // namespace stepslide
