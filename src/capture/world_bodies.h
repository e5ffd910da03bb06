// The game's world as the controller's queries see it: which objects count,
// which of them move, and which lie near the character's path.
#pragma once

#include <BulletDynamics/Dynamics/btRigidBody.h>
#include <btBulletCollisionCommon.h>

#include <vector>

#include "stepslide/capture/recorder.h"

namespace stepslide::capture {

/// The controller's queries see `object` (its broadphase filter accepts
/// theirs: group DefaultFilter, mask AllFilter).
bool seen_by_queries(const btCollisionObject& object);
/// The rigid body `object` is when it is dynamic (a btRigidBody with a
/// mass, neither static nor kinematic), else null.
const btRigidBody* dynamic_body(const btCollisionObject& object);
/// Static: never moves (Bullet's static flag, not kinematic).
bool is_fixed(const btCollisionObject& object);
/// The pose of every object the queries see that is not fixed, in the world's order.
std::vector<CapturedPose> moving_poses(const btCollisionWorld& world);

/// An axis-aligned box.
struct Box {
  btVector3 lo{BT_LARGE_FLOAT, BT_LARGE_FLOAT, BT_LARGE_FLOAT};
  btVector3 hi{-BT_LARGE_FLOAT, -BT_LARGE_FLOAT, -BT_LARGE_FLOAT};
  void add(const btVector3& a, const btVector3& b) {
    lo.setMin(a);
    hi.setMax(b);
  }
  bool overlaps(const Box& o) const {
    return lo.x() <= o.hi.x() && o.lo.x() <= hi.x() && lo.y() <= o.hi.y() && o.lo.y() <= hi.y() &&
           lo.z() <= o.hi.z() && o.lo.z() <= hi.z();
  }
};
/// The box of `object`'s shape at `pose`.
Box box_at(const btCollisionObject& object, const btTransform& pose);

}  // namespace stepslide::capture
