// The character's shape and the names of the step rules.
#include "stepslide/character.h"

#include <btBulletCollisionCommon.h>

#include <algorithm>

namespace stepslide {

std::unique_ptr<btConvexShape> make_character_shape(const CharacterShapeDesc& desc, double inflation) {
  const double r = desc.radius + inflation;
  switch (desc.kind) {
    case CharacterShapeDesc::Kind::Capsule:
      return std::make_unique<btCapsuleShape>(r, desc.height - 2 * desc.radius);
    case CharacterShapeDesc::Kind::Sphere:
      return std::make_unique<btSphereShape>(r);
    case CharacterShapeDesc::Kind::Cylinder: {
      auto cylinder = std::make_unique<btCylinderShape>(btVector3(r, 0.5 * desc.height + inflation, r));
      cylinder->setMargin(std::min(0.001, 0.25 * desc.radius));
      return cylinder;
    }
    case CharacterShapeDesc::Kind::Box: {
      auto box = std::make_unique<btBoxShape>(desc.half_extents + btVector3(inflation, inflation, inflation));
      // The margin of the uninflated box, so the probe's copy is rounded the same.
      box->setMargin(box_margin(desc.half_extents));
      return box;
    }
  }
  return nullptr;
}

double feet_to_center(const CharacterShapeDesc& shape) {
  switch (shape.kind) {
    case CharacterShapeDesc::Kind::Capsule: return 0.5 * shape.height;
    case CharacterShapeDesc::Kind::Sphere: return shape.radius;
    case CharacterShapeDesc::Kind::Cylinder: return 0.5 * shape.height;
    case CharacterShapeDesc::Kind::Box: return shape.half_extents.y();
  }
  return 0.0;
}

double horizontal_radius(const CharacterShapeDesc& shape) {
  if (shape.kind == CharacterShapeDesc::Kind::Box) return std::min(shape.half_extents.x(), shape.half_extents.z());
  return shape.radius;
}

const char* step_rule_name(StepRule rule) {
  switch (rule) {
    case StepRule::Accepted: return "accepted";
    case StepRule::NotGrounded: return "not grounded";
    case StepRule::NotMovingHorizontally: return "not moving horizontally";
    case StepRule::RiserNotSteep: return "riser not steep enough";
    case StepRule::BlockedByCeiling: return "blocked by ceiling";
    case StepRule::NoLanding: return "no landing";
    case StepRule::LandingTooSteep: return "landing too steep";
    case StepRule::NoRoomToStand: return "no room to stand";
    case StepRule::NoHeightGained: return "no height gained";
    case StepRule::RiserTooTall: return "riser taller than max_step_height";
    case StepRule::NoHeadroom: return "no headroom: the ceiling above it is too low to stand there";
  }
  return "?";
}

}  // namespace stepslide
