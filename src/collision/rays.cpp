// The adapter's ray: Bullet's broadphase walk, with boxes answered exactly.
#include "stepslide/collision.h"

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>

#include "collision/compound.h"
#include "collision/dispatch.h"
#include "collision/queries_impl.h"
#include "collision/query_bounds.h"
#include "collision/triangle_cache.h"
#include "geometry/ray_box.h"
#include "geometry/ray_capsule.h"
#include "geometry/ray_cylinder.h"
#include "geometry/shapes.h"
#include "stepslide/contact_filter.h"

namespace stepslide {

namespace {

using detail::RayPair;

/// rayTestSingle's callback for a triangle mesh (btCollisionWorld.cpp's
/// BridgeTriangleRaycastCallback): each triangle hit, its normal turned
/// into world terms, to the closest-hit callback.
struct MeshRayBridge : btTriangleRaycastCallback {
  MeshRayBridge(const btVector3& from, const btVector3& to, btCollisionWorld::RayResultCallback* result,
                const btCollisionObject* object)
      : btTriangleRaycastCallback(from, to, result->m_flags), result_(result), object_(object) {}

  /// The ray against one triangle, in this build rather than Bullet's
  /// compiled btTriangleRaycastCallback::processTriangle, whose arm64 build
  /// contracts the cross and dot products into fused multiply-adds: the
  /// same test in the same arithmetic as Bullet's scalar code (so x86-64
  /// answers are unchanged): the ends' signed distances to the triangle's
  /// plane (unnormalised normal from the edges at the first corner) must
  /// differ in sign; the crossing point must lie inside each edge, give or
  /// take 1e-4 of the normal's squared length; the normal is reported unit,
  /// facing the ray's start unless kF_KeepUnflippedNormal.
  void processTriangle(btVector3* triangle, int part, int index) override {
    const btVector3& a = triangle[0];
    const btVector3& b = triangle[1];
    const btVector3& c = triangle[2];
    btVector3 normal = (b - a).cross(c - a);
    const double offset = a.dot(normal);
    const double from_side = normal.dot(m_from) - offset;
    const double to_side = normal.dot(m_to) - offset;
    if (from_side * to_side >= 0.0) return;  // both ends on one side (or on the plane)
    if ((m_flags & kF_FilterBackfaces) != 0 && from_side <= 0.0) return;
    const double fraction = from_side / (from_side - to_side);
    if (!(fraction < m_hitFraction)) return;
    const double tolerance = normal.length2() * -0.0001;
    btVector3 point;
    point.setInterpolate3(m_from, m_to, fraction);
    const btVector3 to_a = a - point, to_b = b - point, to_c = c - point;
    if (to_a.cross(to_b).dot(normal) < tolerance) return;
    if (to_b.cross(to_c).dot(normal) < tolerance) return;
    if (to_c.cross(to_a).dot(normal) < tolerance) return;
    normal.normalize();
    const bool flip = (m_flags & kF_KeepUnflippedNormal) == 0 && from_side <= 0.0;
    m_hitFraction = reportHit(flip ? -normal : normal, fraction, part, index);
  }

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
/// rayTest walks them, each answered by its pair function in the dispatch
/// table's ray row (dispatch.h): a box or an upright cylinder hit from
/// outside exactly (the box's slab test about 40 times cheaper than Bullet's
/// subsimplex cast), a mesh from the TriangleCache; Bullet's rayTestSingle
/// where the pair function declines.
/// Bullet's closest-hit callback, with the contact filter's say over each
/// hit when there is one.
struct FilteredClosestRay : btCollisionWorld::ClosestRayResultCallback {
  FilteredClosestRay(const btVector3& from, const btVector3& to, const ContactFilter* filter)
      : ClosestRayResultCallback(from, to), filter_(filter) {}

  btScalar addSingleResult(btCollisionWorld::LocalRayResult& hit, bool normal_in_world_space) override {
    if (filter_ != nullptr && !accepts(hit, normal_in_world_space)) return m_closestHitFraction;
    return ClosestRayResultCallback::addSingleResult(hit, normal_in_world_space);
  }

  __attribute__((noinline)) bool accepts(const btCollisionWorld::LocalRayResult& hit,
                                         bool normal_in_world_space) const {
    const btCollisionObject* body = hit.m_collisionObject;
    const btVector3 normal =
        normal_in_world_space ? hit.m_hitNormalLocal : body->getWorldTransform().getBasis() * hit.m_hitNormalLocal;
    btVector3 point;
    point.setInterpolate3(m_rayFromWorld, m_rayToWorld, hit.m_hitFraction);
    return filter_->validate({ContactCandidate::Query::Ray, body, normal.normalized(), point});
  }

  const ContactFilter* filter_;  ///< may be null
};

struct ClosestRay : btBroadphaseRayCallback {
  ClosestRay(const btVector3& from, const btVector3& to, const btCollisionObject* self, TriangleCache* triangles,
             const ContactFilter* filter)
      : from_(from), to_(to), self_(self), triangles_(triangles), filter_(filter), result(from, to, filter) {
    detail::aim_ray(this, from, to);
  }

  bool process(const btBroadphaseProxy* proxy) override {
    if (result.m_closestHitFraction == 0.0) return false;
    auto* object = static_cast<btCollisionObject*>(proxy->m_clientObject);
    if (object == self_ || !result.needsCollision(object->getBroadphaseHandle())) return true;
    if (filter_ != nullptr && !filter_->collides_with(*object)) return true;
    const btCollisionShape* shape = object->getCollisionShape();
    if (answer(detail::kRayPairs[static_cast<int>(detail::body_kind(shape))], object, shape)) return true;
    btCollisionWorld::rayTestSingle(btTransform(btMatrix3x3::getIdentity(), from_),
                                    btTransform(btMatrix3x3::getIdentity(), to_), object, shape,
                                    object->getWorldTransform(), result);
    return true;
  }

  /// Runs one pair function: true when it answered (its hit reported).
  bool answer(RayPair pair, const btCollisionObject* object, const btCollisionShape* shape) {
    ExactRay hit;
    const btTransform& pose = object->getWorldTransform();
    switch (pair) {
      case RayPair::Box:
        hit = ray_box(from_, to_, pose, static_cast<const btBoxShape*>(shape)->getHalfExtentsWithMargin());
        break;
      case RayPair::Cylinder:
        hit = detail::ray_cylinder(from_, to_, *static_cast<const btCylinderShape*>(shape), pose);
        break;
      case RayPair::Capsule: {
        btVector3 a, b;
        double radius = 0.0;
        if (!detail::capsule_segment(shape, pose, &a, &b, &radius)) return false;
        hit = detail::ray_capsule(from_, to_, a, b, radius);
        break;
      }
      case RayPair::CompoundBoxes:
        hit = compound_boxes(static_cast<const btCompoundShape*>(shape), pose,
                             triangles_ != nullptr ? triangles_->child_poses().of(object) : nullptr);
        break;
      case RayPair::CachedMesh: return cached_mesh_ray(object, shape);
      case RayPair::Bullet: return false;
    }
    if (!hit.answered) return false;
    if (hit.hit && hit.fraction < result.m_closestHitFraction) {
      btCollisionWorld::LocalRayResult local(object, nullptr, hit.normal, hit.fraction);
      result.addSingleResult(local, true);
    }
    return true;
  }

  /// The closest hit of the ray on a small compound of boxes (the stairs of
  /// a level) at `pose`; not answered (ask Bullet) where a child is not a
  /// box or holds the ray's start.
  ExactRay compound_boxes(const btCompoundShape* compound, const btTransform& pose,
                         const detail::CompoundPoses* composed) const {
    const auto box = [](const btCollisionShape* child) { return child->getShapeType() == BOX_SHAPE_PROXYTYPE; };
    ExactRay hit;
    if (!detail::all_children(*compound, box)) return hit;
    // A child whose tree bounds the ray's bounds miss is neither hit nor
    // holds the ray's start: ray_box would answer "no hit, outside".
    const detail::Bounds near =
        detail::Bounds::of_segment(pose.invXform(from_), pose.invXform(to_), detail::kBoundsSlack);
    const bool answered = detail::walk_children(
        *compound, pose, [&](const btVector3& low, const btVector3& high) { return near.overlaps(low, high); },
        [&](const btCollisionShape* child, const btTransform& at, int) {
          const ExactRay h = ray_box(from_, to_, at, static_cast<const btBoxShape*>(child)->getHalfExtentsWithMargin());
          if (!h.answered) return false;
          if (h.hit && (!hit.hit || h.fraction < hit.fraction)) hit = h;
          return true;
        },
        composed);
    if (!answered) return ExactRay{};
    hit.answered = true;
    return hit;
  }

  /// rayTestSingle against a triangle mesh (its branch for
  /// btBvhTriangleMeshShape, step for step) with the triangles from the
  /// TriangleCache instead of the mesh's tree, or against a heightfield
  /// (its branch for those: the field's own cell walk); false, having done
  /// nothing, where the cache does not answer for a mesh.
  bool cached_mesh_ray(const btCollisionObject* object, const btCollisionShape* shape) {
    const bool field = shape->getShapeType() == TERRAIN_SHAPE_PROXYTYPE;
    if (!field && (triangles_ == nullptr || shape->getShapeType() != TRIANGLE_MESH_SHAPE_PROXYTYPE)) return false;
    const btTransform to_local = object->getWorldTransform().inverse();
    const btVector3 from_local = to_local * from_;
    const btVector3 to_local_point = to_local * to_;
    MeshRayBridge bridge(from_local, to_local_point, &result, object);
    bridge.m_hitFraction = result.m_closestHitFraction;
    if (field) {
      // rayTestSingle's heightfield branch (its cell walk), with this
      // file's triangle test.
      static_cast<const btHeightfieldTerrainShape*>(shape)->performRaycast(&bridge, from_local, to_local_point);
      return true;
    }
    return triangles_->perform_raycast(shape, &bridge, from_local, to_local_point);
  }

  btVector3 from_;
  btVector3 to_;
  const btCollisionObject* self_;
  TriangleCache* triangles_;
  const ContactFilter* filter_;  ///< may be null
  FilteredClosestRay result;
};

}  // namespace

RayHit CollisionQueries::ray(const btVector3& from, const btVector3& to) {
  if (impl_->last_ray.valid && impl_->last_ray.from == from && impl_->last_ray.to == to) {
    ++counts_.repeated_rays;
    return impl_->last_ray.hit;
  }
  ClosestRay callback(from, to, self_, &impl_->region.triangles(), filter_);
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
