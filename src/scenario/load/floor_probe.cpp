#include "scenario/load/floor_probe.h"

#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/portable_math.h"
#include "base/portable_math.h"
#include "scenario/load/convert.h"
#include "scenario/load/world.h"
#include "stepslide/math.h"

namespace stepslide {

namespace {

/// Two hits closer than this along the line, on one body, are one surface.
constexpr double kSameSurface = 1e-9;

}  // namespace

std::pair<double, double> world_extent_along(World& world, const Vec3& up_in) {
  const btVector3 up = to_bt(up_in).normalized();
  btCollisionWorld* collision = world.collision_world();
  double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
  for (int i = 0; i < collision->getNumCollisionObjects(); ++i) {
    const btCollisionObject* object = collision->getCollisionObjectArray()[i];
    btVector3 lo, hi;
    object->getCollisionShape()->getAabb(object->getWorldTransform(), lo, hi);
    for (int corner = 0; corner < 8; ++corner) {
      const btVector3 p((corner & 1) ? hi.x() : lo.x(), (corner & 2) ? hi.y() : lo.y(), (corner & 4) ? hi.z() : lo.z());
      const double h = p.dot(up);
      lowest = std::min(lowest, h);
      highest = std::max(highest, h);
    }
  }
  if (lowest > highest) return {0.0, 0.0};
  return {highest, lowest};
}

std::vector<FloorHit> floors_under(World& world, const Scenario& scenario, double x, double z) {
  std::vector<FloorHit> floors;
  const btVector3 up = to_bt(scenario.up).normalized();
  const auto [highest, lowest] = world_extent_along(world, scenario.up);
  const btVector3 base(x, 0, z);
  const btVector3 from = base + up * (highest + 1.0 - base.dot(up));
  const btVector3 to = base + up * (lowest - 1.0 - base.dot(up));
  btCollisionWorld::AllHitsRayResultCallback callback(from, to);
  // The triangle's own normal, not one flipped toward the ray: tells floors from ceilings.
  callback.m_flags |= btTriangleRaycastCallback::kF_KeepUnflippedNormal;
  world.collision_world()->rayTest(from, to, callback);

  struct Hit {
    double fraction;
    btVector3 normal;
    const btCollisionObject* object;
  };
  std::vector<Hit> hits;
  for (int i = 0; i < callback.m_hitFractions.size(); ++i) {
    const btVector3 normal = callback.m_hitNormalWorld[i].normalized();
    if (normal.dot(up) <= 0.0) continue;
    hits.push_back({callback.m_hitFractions[i], normal, callback.m_collisionObjects[i]});
  }
  const double cos_max_slope = portable::cos(scenario.character.settings.max_slope_deg * kDegToRad);
  auto name_of = [&world](const btCollisionObject* o) { return world.body_name(o); };
  std::sort(hits.begin(), hits.end(), [&](const Hit& a, const Hit& b) {
    if (a.fraction != b.fraction) return a.fraction < b.fraction;
    return name_of(a.object) < name_of(b.object);
  });
  const double length = (to - from).length();
  for (std::size_t i = 0; i < hits.size(); ++i) {
    const Hit& h = hits[i];
    if (!floors.empty() && hits[i - 1].object == h.object &&
        (h.fraction - hits[i - 1].fraction) * length < kSameSurface) {
      continue;
    }
    FloorHit floor;
    const btVector3 point = from.lerp(to, h.fraction);
    floor.point = {point.x(), point.y(), point.z()};
    floor.normal = {h.normal.x(), h.normal.y(), h.normal.z()};
    const double cosine = std::clamp(static_cast<double>(h.normal.dot(up)), -1.0, 1.0);
    floor.slope_deg = degrees(portable::acos(cosine));
    floor.walkable = cosine >= cos_max_slope;
    floor.body = name_of(h.object);
    floors.push_back(floor);
  }
  return floors;
}

}  // namespace stepslide
