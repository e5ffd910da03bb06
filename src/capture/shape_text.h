// A game's collision shape as a scenario's `shape` object, checked against
// the shape the scenario world would build from it (src/scenario/world.cpp):
// the same kind, sizes and collision margin, to the last bit.
#pragma once

#include <btBulletCollisionCommon.h>

#include <cstdint>
#include <string>

namespace stepslide::capture {

struct ShapeText {
  bool supported = false;  ///< false: the format has no such shape; `note` says which
  std::string json;        ///< the `shape` object
  bool exact = false;      ///< the scenario world rebuilds it bit for bit
  std::string note;        ///< why not exact, or not supported
  std::int64_t triangles = 0;  ///< meshes: triangles written
};

/// The `shape` of a body whose collision shape is `shape`. Boxes, spheres,
/// capsules and cylinders along Y, convex hulls and triangle meshes; not
/// heightfields, compounds or anything else.
ShapeText shape_text(const btCollisionShape& shape);

/// The `shape` of the character described by `kind`, sizes as given.
std::string character_shape_json(int kind, double radius, double height, const btVector3& half_extents);

}  // namespace stepslide::capture
