#include "capture/world_bodies.h"

namespace stepslide::capture {

bool seen_by_queries(const btCollisionObject& object) {
  const btBroadphaseProxy* proxy = object.getBroadphaseHandle();
  if (proxy == nullptr) return false;
  // btCollisionWorld's callbacks: group DefaultFilter, mask AllFilter.
  const int group = btBroadphaseProxy::DefaultFilter;
  const int mask = btBroadphaseProxy::AllFilter;
  return (proxy->m_collisionFilterGroup & mask) != 0 && (group & proxy->m_collisionFilterMask) != 0;
}

const btRigidBody* dynamic_body(const btCollisionObject& object) {
  const btRigidBody* body = btRigidBody::upcast(&object);
  return body != nullptr && !object.isStaticOrKinematicObject() && body->getInvMass() > 0 ? body : nullptr;
}

bool is_fixed(const btCollisionObject& object) {
  return !object.isKinematicObject() && (object.getCollisionFlags() & btCollisionObject::CF_STATIC_OBJECT) != 0;
}

std::vector<CapturedPose> moving_poses(const btCollisionWorld& world) {
  std::vector<CapturedPose> out;
  const btCollisionObjectArray& objects = world.getCollisionObjectArray();
  for (int i = 0; i < objects.size(); ++i) {
    const btCollisionObject& object = *objects[i];
    if (is_fixed(object) || !seen_by_queries(object)) continue;
    CapturedPose pose{&object, object.getWorldTransform(), object.getInterpolationWorldTransform()};
    if (const btRigidBody* body = dynamic_body(object)) {
      pose.linear_velocity = body->getLinearVelocity();
      pose.angular_velocity = body->getAngularVelocity();
    }
    out.push_back(pose);
  }
  return out;
}

Box box_at(const btCollisionObject& object, const btTransform& pose) {
  Box box;
  btVector3 lo, hi;
  object.getCollisionShape()->getAabb(pose, lo, hi);
  box.add(lo, hi);
  return box;
}

}  // namespace stepslide::capture
