// The adapter's convex cast: the closest hit that opposes the motion.
#include "stepslide/collision.h"

namespace stepslide {

namespace {

constexpr double kGrazingCosine = 1e-6;

// Closest sweep hit, skipping the character itself and surfaces the motion
// does not move into (already touching and sliding along, or moving away).
struct ClosestOpposingSweep : btCollisionWorld::ConvexResultCallback {
  ClosestOpposingSweep(const btCollisionObject* self, const btVector3& motion) : self_(self), motion_(motion) {}

  bool needsCollision(btBroadphaseProxy* proxy) const override {
    if (static_cast<const btCollisionObject*>(proxy->m_clientObject) == self_) return false;
    return ConvexResultCallback::needsCollision(proxy);
  }

  btScalar addSingleResult(btCollisionWorld::LocalConvexResult& result, bool normal_in_world_space) override {
    if (result.m_hitCollisionObject == self_) return m_closestHitFraction;
    const btVector3 normal = normal_in_world_space
                                 ? result.m_hitNormalLocal
                                 : result.m_hitCollisionObject->getWorldTransform().getBasis() *
                                       result.m_hitNormalLocal;
    // A motion that only grazes the surface (within a few hundred-thousandths
    // of a degree of tangent, e.g. walking on the floor it stands on) does not hit it.
    if (normal.dot(motion_) >= -kGrazingCosine * motion_.length()) return m_closestHitFraction;
    m_closestHitFraction = result.m_hitFraction;
    hit.hit = true;
    hit.fraction = result.m_hitFraction;
    hit.normal = normal.normalized();
    hit.point = result.m_hitPointLocal;
    hit.object = result.m_hitCollisionObject;
    return result.m_hitFraction;
  }

  const btCollisionObject* self_;
  btVector3 motion_;
  SweepHit hit;
};

}  // namespace

SweepHit CollisionQueries::sweep(const btConvexShape* shape, const btTransform& from, const btVector3& to_origin) {
  ++counts_.sweeps;
  btTransform to = from;
  to.setOrigin(to_origin);
  ClosestOpposingSweep callback(self_, to_origin - from.getOrigin());
  world_->convexSweepTest(shape, from, to, callback, 0.0);
  return callback.hit;
}

}  // namespace stepslide
