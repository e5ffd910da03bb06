// The collision adapter's state. Its queries live one per file:
// sweep_query.cpp, contact_query.cpp, ray_query.cpp.
#include "stepslide/collision.h"

namespace stepslide {

CollisionQueries::CollisionQueries(btCollisionWorld* world, const btCollisionObject* self)
    : world_(world), self_(self) {}

void CollisionQueries::certify_clear(const btCollisionObject* object, const btTransform& pose,
                                     double static_clearance) {
  certificate_.certify(world_, object, pose, static_clearance);
}

}  // namespace stepslide
