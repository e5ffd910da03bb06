// The adapter's convex cast: the closest hit that opposes the motion.
// Bullet's convexSweepTest, unrolled so each broadphase candidate can be
// answered by its pair function in the dispatch table (dispatch.h) before Bullet's
// iterative cast: the same broadphase walk, the same per-object
// objectQuerySingle, the same result callback.
#include "stepslide/collision.h"

#include <BulletCollision/BroadphaseCollision/btBroadphaseInterface.h>
#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <LinearMath/btTransformUtil.h>

#include "collision/convex_sweep_pairs.h"
#include "collision/dispatch.h"
#include "collision/queries_impl.h"
#include "collision/query_bounds.h"
#include "collision/sweep_pairs.h"
#include "geometry/shapes.h"
#include "stepslide/contact_filter.h"

namespace stepslide {

namespace {

using detail::SweepPair;

constexpr double kGrazingCosine = 1e-6;

// Closest sweep hit, skipping the character itself and surfaces the motion
// does not move into (already touching and sliding along, or moving away).
struct ClosestOpposingSweep : btCollisionWorld::ConvexResultCallback {
  ClosestOpposingSweep(const btCollisionObject* self, const btCollisionObject* ignored, const btVector3& motion,
                       const ContactFilter* filter)
      : self_(self), ignored_(ignored), motion_(motion), filter_(filter) {}

  bool needsCollision(btBroadphaseProxy* proxy) const override {
    const auto* object = static_cast<const btCollisionObject*>(proxy->m_clientObject);
    if (object == self_ || object == ignored_) return false;
    if (filter_ != nullptr && !filter_->collides_with(*object)) return false;
    return ConvexResultCallback::needsCollision(proxy);
  }

  btScalar addSingleResult(btCollisionWorld::LocalConvexResult& result, bool normal_in_world_space) override {
    if (result.m_hitCollisionObject == self_ || result.m_hitCollisionObject == ignored_) return m_closestHitFraction;
    const btVector3 normal = normal_in_world_space
                                 ? result.m_hitNormalLocal
                                 : result.m_hitCollisionObject->getWorldTransform().getBasis() *
                                       result.m_hitNormalLocal;
    // A motion that only grazes the surface (within a few hundred-thousandths
    // of a degree of tangent, e.g. walking on the floor it stands on) does not hit it.
    if (normal.dot(motion_) >= -kGrazingCosine * motion_.length()) return m_closestHitFraction;
    if (filter_ != nullptr && !accepts(result, normal)) return m_closestHitFraction;
    m_closestHitFraction = result.m_hitFraction;
    hit.hit = true;
    hit.fraction = result.m_hitFraction;
    hit.normal = normal.normalized();
    hit.point = result.m_hitPointLocal;
    hit.object = result.m_hitCollisionObject;
    return result.m_hitFraction;
  }

  /// The contact filter's word on a hit (out of line: the queries without
  /// a filter do not pay for it).
  __attribute__((noinline)) bool accepts(const btCollisionWorld::LocalConvexResult& result,
                                         const btVector3& normal) const {
    return filter_->validate(
        {ContactCandidate::Query::Sweep, result.m_hitCollisionObject, normal.normalized(), result.m_hitPointLocal});
  }

  const btCollisionObject* self_;
  const btCollisionObject* ignored_;  ///< may be null
  btVector3 motion_;
  const ContactFilter* filter_;  ///< may be null
  SweepHit hit;
};

/// The broadphase walk of one sweep: every object whose bounds the swept
/// shape's bounds cross, nearest first as the tree finds them, each answered
/// exactly where a pair function has the answer and by Bullet otherwise.
struct SweepPairs : btBroadphaseRayCallback {
  SweepPairs(const btCollisionWorld* world, const btConvexShape* shape, const btTransform& from,
             const btTransform& to, ClosestOpposingSweep* result, CastMemo* memo, TriangleCache* triangles)
      : world_(world),
        shape_(shape),
        from_(from),
        to_(to),
        result_(result),
        memo_(memo),
        triangles_(triangles),
        mover_(detail::mover_kind(shape)) {
    detail::aim_ray(this, from.getOrigin(), to.getOrigin());
  }

  bool process(const btBroadphaseProxy* proxy) override {
    if (result_->m_closestHitFraction == 0.0) return false;
    auto* object = static_cast<btCollisionObject*>(proxy->m_clientObject);
    if (!result_->needsCollision(object->getBroadphaseHandle())) return true;
    // A static convex body: the same cast is asked again while the
    // character rests beside it (the memo replays the report). A moving
    // (kinematic) one, flagged static too by default, changes pose every
    // tick: the memo would only miss. The exact pair sweeps are cheap but
    // for a cylinder's against curved bodies (GJK's last steps Newton's at
    // each of its steps): those are remembered too.
    const SweepPair pair = detail::pair_cell(mover_, object->getCollisionShape()).sweep;
    if (pair == SweepPair::ConvexRemembered && unmoving_convex(object)) {
      memo_->cast(shape_, from_, to_, object, result_, detail::convex_sweep_pair);
      return true;
    }
    if (detail::sweep_pair(pair, shape_, from_, to_, object, result_, triangles_)) return true;
    if (unmoving_convex(object)) {
      memo_->cast(shape_, from_, to_, object, result_);
      return true;
    }
    btCollisionWorld::objectQuerySingle(shape_, from_, to_, object, object->getCollisionShape(),
                                        object->getWorldTransform(), *result_, 0.0);
    return true;
  }

  static bool unmoving_convex(const btCollisionObject* object) {
    return object->isStaticObject() && !object->isKinematicObject() && object->getCollisionShape()->isConvex();
  }

  const btCollisionWorld* world_;
  const btConvexShape* shape_;
  btTransform from_;
  btTransform to_;
  ClosestOpposingSweep* result_;
  CastMemo* memo_;
  TriangleCache* triangles_;
  detail::MoverKind mover_;
};

/// The bounds of `shape` at `from`'s rotation about the origin, which the
/// broadphase grows the swept ray by. Bullet's convexSweepTest takes them from
/// calculateTemporalAabb at zero velocity after a round trip of the rotation
/// through a quaternion: the same box but for rounding, at three times the
/// cost (it asks the shape's bounds twice and its bounding sphere). Ours are
/// the shape's bounds at `from`'s own basis grown by kBoundsSlack, so they
/// contain Bullet's: the walk may visit a few more candidates (none is
/// within a micrometre of the sweep: Bullet grows every static body's bounds
/// by its contact threshold), never fewer, in the same tree order, and the
/// closest hit is the same.
void shape_bounds(const btConvexShape* shape, const btTransform& from, btVector3* low, btVector3* high) {
  shape->getAabb(btTransform(from.getBasis()), *low, *high);
  const btVector3 slack(detail::kBoundsSlack, detail::kBoundsSlack, detail::kBoundsSlack);
  *low -= slack;
  *high += slack;
}

/// Whether a sweep would test the object behind `proxy`: neither the
/// character nor the body ignored, and the filter test of Bullet's
/// ConvexResultCallback::needsCollision with the query's default group and
/// mask (DefaultFilter, AllFilter), as ClosestOpposingSweep applies it.
bool is_candidate(const btBroadphaseProxy* proxy, const btCollisionObject* self, const btCollisionObject* ignored) {
  const auto* object = static_cast<const btCollisionObject*>(proxy->m_clientObject);
  if (object == self || object == ignored) return false;
  return (proxy->m_collisionFilterGroup & int(btBroadphaseProxy::AllFilter)) != 0 &&
         (int(btBroadphaseProxy::DefaultFilter) & proxy->m_collisionFilterMask) != 0;
}

/// Whether the broadphase holds, in the bounds it is walked with, an object a
/// sweep would test (is_candidate).
struct AnyCandidate : btBroadphaseAabbCallback {
  AnyCandidate(const btCollisionObject* self, const btCollisionObject* ignored) : self_(self), ignored_(ignored) {}
  bool process(const btBroadphaseProxy* proxy) override {
    if (!found && is_candidate(proxy, self_, ignored_)) found = true;
    return !found;
  }
  const btCollisionObject* self_;
  const btCollisionObject* ignored_;
  bool found = false;
};

/// The same question asked of one of a btDbvtBroadphase's trees directly:
/// Bullet's aabbTest allocates a walk stack on the heap for each of its two
/// trees and cannot stop early; this walk allocates nothing and stops at the
/// first candidate.
bool any_candidate(const btDbvtNode* node, const btDbvtVolume& bounds, const btCollisionObject* self,
                   const btCollisionObject* ignored) {
  if (node == nullptr || !Intersect(node->volume, bounds)) return false;
  if (node->isleaf()) return is_candidate(static_cast<const btBroadphaseProxy*>(node->data), self, ignored);
  return any_candidate(node->childs[0], bounds, self, ignored) || any_candidate(node->childs[1], bounds, self, ignored);
}

}  // namespace

SweepHit CollisionQueries::sweep(const btConvexShape* shape, const btTransform& from, const btVector3& to_origin,
                                 const btCollisionObject* ignored) {
  ++counts_.sweeps;
  btTransform to = from;
  to.setOrigin(to_origin);
  ClosestOpposingSweep callback(self_, ignored, to_origin - from.getOrigin(), filter_);
  btVector3 low;
  btVector3 high;
  shape_bounds(shape, from, &low, &high);
  SweepPairs pairs(world_, shape, from, to, &callback, &impl_->cast_memo, &impl_->region.triangles());
  impl_->region.ray_test(world_->getBroadphase(), from.getOrigin(), to_origin, pairs, low, high);
  return callback.hit;
}

SweepHit CollisionQueries::sweep(const btConvexShape* shape, const btTransform& from, const btVector3& to_origin) {
  return sweep(shape, from, to_origin, nullptr);
}

bool CollisionQueries::may_hit(const btVector3& shape_low, const btVector3& shape_high, const btVector3& from_origin,
                               const btVector3& to_origin, const btCollisionObject* ignored) {
  // The bounds the sweep's walk grows its ray by (shape_bounds), around both
  // ends: an object outside them cannot be hit.
  const btVector3 slack(detail::kBoundsSlack, detail::kBoundsSlack, detail::kBoundsSlack);
  btVector3 swept_low = from_origin;
  btVector3 swept_high = from_origin;
  swept_low.setMin(to_origin);
  swept_high.setMax(to_origin);
  swept_low += shape_low - slack;
  swept_high += shape_high + slack;
  btBroadphaseInterface* broadphase = world_->getBroadphase();
  if (broadphase != impl_->walked) {
    // Once per broadphase: a dynamic_cast across Bullet's shared library compares type names.
    impl_->walked = broadphase;
    impl_->walked_dbvt = dynamic_cast<btDbvtBroadphase*>(broadphase);
  }
  bool found = false;
  if (impl_->walked_dbvt != nullptr) {
    const btDbvtVolume bounds = btDbvtVolume::FromMM(swept_low, swept_high);
    found = any_candidate(impl_->walked_dbvt->m_sets[0].m_root, bounds, self_, ignored) ||
            any_candidate(impl_->walked_dbvt->m_sets[1].m_root, bounds, self_, ignored);
  } else {
    AnyCandidate any(self_, ignored);
    impl_->region.aabb_test(broadphase, swept_low, swept_high, any);
    found = any.found;
  }
  return found;
}

}  // namespace stepslide
