#include "scenario/load/spawn.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <vector>

#include "base/format.h"
#include "base/portable_math.h"
#include "scenario/load/convert.h"
#include "scenario/load/floor_probe.h"
#include "scenario/load/mesh_import.h"
#include "scenario/load/world.h"
#include "stepslide/collision.h"
#include "stepslide/math.h"

namespace stepslide {

namespace {

/// Overlaps shallower than this are touching, not overlapping (Bullet's
/// margins leave a few micrometres either way).
constexpr double kOverlapTolerance = 1e-4;
/// The sweep reaches this far below the lowest body, so a floor at the very
/// bottom of the world is still met.
constexpr double kBelowWorld = 1.0;

std::string point_text(const btVector3& p) {
  return "(" + readable_number(p.x()) + ", " + readable_number(p.y()) + ", " + readable_number(p.z()) + ")";
}

}  // namespace

std::vector<LevelSpawn> level_spawns(const Scenario& scenario, const World& world) {
  std::vector<LevelSpawn> spawns;
  std::vector<std::string> read;  // the mesh file bodies read so far ("merge": false gives one body per node)
  for (std::size_t i = 0; i < scenario.world.size(); ++i) {
    const BodyDef& body = scenario.world[i];
    const MeshFileDef& file = body.shape.mesh_file;
    if (body.shape.type != ShapeType::Mesh || file.path.empty()) continue;
    // The bodies of one "merge": false file share its JSON Pointer, path and pose.
    std::string key = body.json_path + " " + file.path;
    for (const double v : {body.position[0], body.position[1], body.position[2], body.rotation_deg[0],
                           body.rotation_deg[1], body.rotation_deg[2]}) {
      key += " " + readable_number(v);
    }
    if (std::find(read.begin(), read.end(), key) != read.end()) continue;
    read.push_back(key);
    MeshImportOptions options;
    options.scale = file.scale;
    options.up_axis = file.up_axis;
    options.paths.allow_outside = true;  // the loader has already let this file in
    std::vector<SpawnPointDef> points;
    // The file's own spawn nodes, then its sidecar's; a file that does not
    // read (it loaded a moment ago, and has changed since) has none.
    for (const std::string& source : {file.path, spawn_sidecar_path(file.path)}) {
      std::error_code ec;
      if (source != file.path && !std::filesystem::is_regular_file(source, ec)) continue;
      Expected<std::vector<SpawnPointDef>> read_points = import_spawn_points(source, options);
      if (read_points) points.insert(points.end(), read_points->begin(), read_points->end());
    }
    const btTransform pose = world.body_pose(i, 0);
    for (const SpawnPointDef& spawn : points) {
      const btVector3 p = pose * to_bt(spawn.position);
      spawns.push_back(LevelSpawn{spawn.name, body.name, Vec3{p.x(), p.y(), p.z()}});
    }
  }
  return spawns;
}

Expected<Vec3> drop_character(const Scenario& scenario, World& world, const Vec3& from) {
  using Result = Expected<Vec3>;
  const CharacterShapeDesc desc = character_shape_desc(scenario.character.shape);
  const ControllerSettings& settings = scenario.character.settings;
  const std::unique_ptr<btConvexShape> shape = make_character_shape(desc, 0.0);
  const btVector3 up = to_bt(scenario.up).normalized();
  const btQuaternion orientation = rotation_onto_up(up);
  const btVector3 start = to_bt(from);
  const double centre = feet_to_center(desc);

  CollisionQueries queries(world.collision_world(), nullptr);
  btCollisionObject probe;
  probe.setCollisionShape(shape.get());
  std::vector<Contact> contacts;
  // The deepest overlap of the shape with feet at `feet`, or null when clear.
  auto overlap_at = [&](const btVector3& feet) -> const Contact* {
    probe.setWorldTransform(btTransform(orientation, feet + up * centre));
    queries.contacts(&probe, 0.0, contacts);
    return !contacts.empty() && -contacts.front().distance > kOverlapTolerance ? &contacts.front() : nullptr;
  };
  // A sweep that starts inside geometry has no meaningful first hit: the
  // point must leave the whole shape clear.
  if (const Contact* inside = overlap_at(start)) {
    return Result::failure("the character dropped from " + point_text(start) + " starts inside body " +
                           world.body_name(inside->object) + " (" + readable_number(-inside->distance) +
                           " m deep): give a point where the whole shape is clear (see stepslide probe)");
  }
  const double drop = static_cast<double>(start.dot(up)) - world_extent_along(world, scenario.up).second + kBelowWorld;
  SweepHit hit;
  if (drop > 0.0) {
    const btTransform at(orientation, start + up * centre);
    hit = queries.sweep(shape.get(), at, at.getOrigin() - up * drop);
  }
  if (!hit.hit) {
    return Result::failure("no floor below " + point_text(start) +
                           ": the character's shape swept straight down meets nothing");
  }
  const btVector3 feet = start - up * (drop * std::clamp(static_cast<double>(hit.fraction), 0.0, 1.0));
  const std::string body = world.body_name(hit.object);
  const double slope_deg = portable::acos(std::clamp(static_cast<double>(hit.normal.normalized().dot(up)), -1.0, 1.0)) *
                           180.0 / kPi;
  if (slope_deg > settings.max_slope_deg) {
    return Result::failure("the first surface below " + point_text(start) + " is too steep to stand on: body " +
                           body + " at " + point_text(feet) + ", slope " + readable_number(slope_deg) +
                           " deg (max_slope_deg " + readable_number(settings.max_slope_deg) + ")");
  }
  if (const Contact* other = overlap_at(feet)) {
    return Result::failure("the spot on body " + body + " at " + point_text(feet) + " is overlapped by body " +
                           world.body_name(other->object) + " (" + readable_number(-other->distance) +
                           " m deep): no room to stand");
  }
  return Vec3{feet.x(), feet.y(), feet.z()};
}

Expected<Vec3> find_floor_spawn(const Scenario& scenario) {
  World world(scenario);
  return drop_character(scenario, world, scenario.character.requested_position);
}

}  // namespace stepslide
