// The adapter's ray: Bullet's broadphase walk, with boxes answered exactly.
#include "stepslide/collision.h"

#include "collision/queries_impl.h"

#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>

#include "geometry/capsule_box.h"
#include "collision/triangle_cache.h"

#include "collision/query_bounds.h"
#include "geometry/shapes.h"
#include "geometry/ray_cylinder.h"

namespace stepslide {

namespace {

/// rayTestSingle's callback for a triangle mesh (btCollisionWorld.cpp's
/// BridgeTriangleRaycastCallback): each triangle hit, its normal turned
/// into world terms, to the closest-hit callback.
struct MeshRayBridge : btTriangleRaycastCallback {
  MeshRayBridge(const btVector3& from, const btVector3& to, btCollisionWorld::RayResultCallback* result,
                const btCollisionObject* object)
      : btTriangleRaycastCallback(from, to, result->m_flags), result_(result), object_(object) {}

  btScalar reportHit(const btVector3& normal, btScalar fraction, int part, int index) override {
    btCollisionWorld::LocalShapeInfo info;
    info.m_shapePart = part;
    info.m_triangleIndex = index;
    btCollisionWorld::LocalRayResult hit(object_, &info, object_->getWorldTransform().getBasis() * normal, fraction);
    return result_->addSingleResult(hit, true);
  }

  btCollisionWorld::RayResultCallback* result_;
  const btCollisionObject* object_;
};

/// The closest ray hit over the broadphase's candidates, as Bullet's own
/// rayTest walks them, but a box hit from outside is answered by the exact
/// slab test instead of Bullet's subsimplex cast (about 40 times cheaper).
struct ClosestRay : btBroadphaseRayCallback {
  ClosestRay(const btVector3& from, const btVector3& to, const btCollisionObject* self)
      : from_(from), to_(to), self_(self), result(from, to) {
    detail::aim_ray(this, from, to);
  }

  bool process(const btBroadphaseProxy* proxy) override {
    if (result.m_closestHitFraction == 0.0) return false;
    auto* object = static_cast<btCollisionObject*>(proxy->m_clientObject);
    if (object == self_ || !result.needsCollision(object->getBroadphaseHandle())) return true;
    const btCollisionShape* shape = object->getCollisionShape();
    ExactRayHit hit;
    if (exact_ray(shape, object->getWorldTransform(), &hit)) {
      if (hit.hit && hit.fraction < result.m_closestHitFraction) {
        btCollisionWorld::LocalRayResult local(object, nullptr, hit.normal, hit.fraction);
        result.addSingleResult(local, true);
      }
      return true;
    }
    if (cached_mesh_ray(object, shape)) return true;
    btCollisionWorld::rayTestSingle(btTransform(btMatrix3x3::getIdentity(), from_),
                                    btTransform(btMatrix3x3::getIdentity(), to_), object, shape,
                                    object->getWorldTransform(), result);
    return true;
  }

  /// The closest hit of the ray on `shape` at `pose` in `*hit`, when it has
  /// an exact answer: a box or an upright cylinder the ray starts outside
  /// of, or a small compound of such boxes (the stairs of a level). False:
  /// ask Bullet.
  bool exact_ray(const btCollisionShape* shape, const btTransform& pose, ExactRayHit* hit) const {
    if (shape->getShapeType() == BOX_SHAPE_PROXYTYPE) {
      bool inside = false;
      *hit = ray_box(from_, to_, pose, static_cast<const btBoxShape*>(shape)->getHalfExtentsWithMargin(), &inside);
      return !inside;
    }
    if (shape->getShapeType() == CYLINDER_SHAPE_PROXYTYPE)
      return detail::ray_cylinder(from_, to_, *static_cast<const btCylinderShape*>(shape), pose, hit);
    if (shape->getShapeType() != COMPOUND_SHAPE_PROXYTYPE) return false;
    const auto* compound = static_cast<const btCompoundShape*>(shape);
    constexpr int kMaxExactChildren = 64;  // beyond, Bullet's tree over the children pays off
    if (compound->getNumChildShapes() > kMaxExactChildren) return false;
    *hit = ExactRayHit{};
    for (int i = 0; i < compound->getNumChildShapes(); ++i) {
      if (compound->getChildShape(i)->getShapeType() != BOX_SHAPE_PROXYTYPE) return false;
    }
    // A child whose tree bounds the ray's bounds miss is neither hit nor
    // holds the ray's start: ray_box would answer "no hit, outside".
    const detail::Bounds near =
        detail::Bounds::of_segment(pose.invXform(from_), pose.invXform(to_), detail::kBoundsSlack);
    for (int i = 0; i < compound->getNumChildShapes(); ++i) {
      if (!detail::child_may_touch(*compound, i, near)) continue;
      const btCollisionShape* child = compound->getChildShape(i);
      bool inside = false;
      const ExactRayHit h = ray_box(from_, to_, pose * compound->getChildTransform(i),
                                    static_cast<const btBoxShape*>(child)->getHalfExtentsWithMargin(), &inside);
      if (inside) return false;
      if (h.hit && (!hit->hit || h.fraction < hit->fraction)) *hit = h;
    }
    return true;
  }

  /// rayTestSingle against a triangle mesh (its branch for
  /// btBvhTriangleMeshShape, step for step) with the triangles from the
  /// active TriangleCache instead of the mesh's tree; false, having done
  /// nothing, where the cache does not answer for the shape.
  bool cached_mesh_ray(const btCollisionObject* object, const btCollisionShape* shape) {
    TriangleCache* cache = TriangleCache::active();
    if (cache == nullptr || shape->getShapeType() != TRIANGLE_MESH_SHAPE_PROXYTYPE) return false;
    const btTransform to_local = object->getWorldTransform().inverse();
    const btVector3 from_local = to_local * from_;
    const btVector3 to_local_point = to_local * to_;
    MeshRayBridge bridge(from_local, to_local_point, &result, object);
    bridge.m_hitFraction = result.m_closestHitFraction;
    return cache->perform_raycast(shape, &bridge, from_local, to_local_point);
  }

  btVector3 from_;
  btVector3 to_;
  const btCollisionObject* self_;
  btCollisionWorld::ClosestRayResultCallback result;
};

}  // namespace

RayHit CollisionQueries::ray(const btVector3& from, const btVector3& to) {
  if (impl_->last_ray.valid && impl_->last_ray.from == from && impl_->last_ray.to == to) {
    ++counts_.repeated_rays;
    return impl_->last_ray.hit;
  }
  ClosestRay callback(from, to, self_);
  impl_->region.ray_test(world_->getBroadphase(), from, to, callback);
  RayHit hit;
  if (callback.result.hasHit()) {
    hit.hit = true;
    hit.fraction = callback.result.m_closestHitFraction;
    hit.normal = callback.result.m_hitNormalWorld.normalized();
    hit.point = callback.result.m_hitPointWorld;
    hit.object = callback.result.m_collisionObject;
  }
  if (impl_->memo.is_open()) impl_->last_ray = {true, from, to, hit};
  return hit;
}

}  // namespace stepslide
