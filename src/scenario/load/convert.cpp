#include "scenario/load/convert.h"

namespace stepslide {

CharacterShapeDesc character_shape_desc(const ShapeDef& def) {
  CharacterShapeDesc desc;
  desc.radius = def.radius;
  desc.height = def.height;
  desc.half_extents = to_bt(def.half_extents);
  switch (def.type) {
    case ShapeType::Sphere: desc.kind = CharacterShapeDesc::Kind::Sphere; break;
    case ShapeType::Cylinder: desc.kind = CharacterShapeDesc::Kind::Cylinder; break;
    case ShapeType::Box: desc.kind = CharacterShapeDesc::Kind::Box; break;
    default: desc.kind = CharacterShapeDesc::Kind::Capsule; break;
  }
  return desc;
}

}  // namespace stepslide
