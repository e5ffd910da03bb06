#include "scenario/load/spawn.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "base/format.h"
#include "base/portable_math.h"
#include "scenario/load/convert.h"
#include "scenario/load/floor_probe.h"
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
