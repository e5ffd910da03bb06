// Private to the collision adapter: a box-shaped character's contacts with
// the triangles of meshes and heightfields, answered exactly. Not installed.
#pragma once

#include <btBulletCollisionCommon.h>

#include <vector>

#include "collision/triangle_cache.h"
#include "stepslide/collision.h"

namespace stepslide::detail {

/// When `character` is a box and `other` a mesh or heightfield (any concave
/// shape), adds to `out` one contact per triangle within `max_distance` of
/// the box (box_triangle, box_triangle.h), as Bullet's contactPairTest
/// would, and returns true; else adds nothing and returns false (Bullet
/// answers the pair).
bool box_triangle_contacts(const btCollisionObject* character, const btCollisionObject* other, double max_distance,
                           std::vector<Contact>* out, TriangleCache* triangles = nullptr);

}  // namespace stepslide::detail
