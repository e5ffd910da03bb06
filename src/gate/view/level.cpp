#include "gate/view/level.h"

#include <cmath>

#include "gate/plot/geometry.h"
#include "scenario/load/convert.h"

namespace stepslide::view {

namespace {

double character_height(const ShapeDef& shape) {
  switch (shape.type) {
    case ShapeType::Sphere: return 2 * shape.radius;
    case ShapeType::Box: return 2 * shape.half_extents[1];
    default: return shape.height;  // capsule, cylinder
  }
}

/// Whether static mesh `body`, posed at tick 0, covers `feet` seen from
/// above and rises more than `height` over it.
bool surrounds(const plot::Frame& f, const Scenario& scenario, const World& world, const WorldBody& body,
               const btVector3& feet, double height) {
  const BodyDef& def = scenario.world[body.def_index];
  if (def.shape.type != ShapeType::Mesh || def.motion.type != MotionType::None) return false;
  const btTransform pose = world.body_pose(body.def_index, 0);
  plot::Box box;
  double top = -plot::kInf;
  for (const Vec3& v : def.shape.vertices) {
    const btVector3 p = pose * to_bt(v);
    const plot::P2 q = plot::plane_of(f, p);
    box.add(q.x, q.y);
    top = std::max(top, p.dot(f.up));
  }
  const plot::P2 at = plot::plane_of(f, feet);
  return !box.empty() && box.x0 <= at.x && at.x <= box.x1 && box.y0 <= at.y && at.y <= box.y1 &&
         top > feet.dot(f.up) + height;
}

}  // namespace

std::optional<LevelCut> level_cut(const Scenario& scenario, const World& world, const Trajectory& run,
                                  std::int64_t first) {
  const int x = run.column_index("x"), y = run.column_index("y"), z = run.column_index("z");
  if (x < 0 || y < 0 || z < 0 || first < 0 || static_cast<std::size_t>(first) >= run.rows.size()) return std::nullopt;
  const auto& row = run.rows[static_cast<std::size_t>(first)];
  const btVector3 feet(row[static_cast<std::size_t>(x)], row[static_cast<std::size_t>(y)],
                       row[static_cast<std::size_t>(z)]);
  if (!std::isfinite(feet.x()) || !std::isfinite(feet.y()) || !std::isfinite(feet.z())) return std::nullopt;
  const plot::Frame f = plot::make_frame(scenario.up);
  const double height = character_height(scenario.character.shape);
  for (const WorldBody& body : world.bodies()) {
    if (!surrounds(f, scenario, world, body, feet, height)) continue;
    LevelCut cut;
    cut.character_height = height;
    cut.above_feet = std::ceil((height + kCutClearance) * 10 - 1e-9) / 10;
    return cut;
  }
  return std::nullopt;
}

}  // namespace stepslide::view
