#include "stepslide/collision.h"

#include "stepslide/exact_queries.h"

#include <BulletCollision/CollisionShapes/btTriangleShape.h>

#include <algorithm>
#include <cmath>
#include <tuple>

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

/// Contact normals within this of a face's normal (1 - cos, 0.08 degrees)
/// are on that face: GJK's normal carries a little noise, an edge's leans.
constexpr double kSameFace = 1e-6;

/// The normal of the face of `world_side` (the shape Bullet handed the
/// contact callback: a box, a compound's child box, a cylinder's cap, or one
/// triangle of a mesh or heightfield, at its world transform) that a contact with `normal`
/// lies on, facing the character; zero when it is not on one face.
btVector3 face_normal(const btCollisionShape* shape, const btMatrix3x3& basis, const btVector3& normal) {
  if (shape->getShapeType() == BOX_SHAPE_PROXYTYPE) {
    const btVector3 local = basis.transpose() * normal;
    const int axis = local.absolute().maxAxis();
    if (std::fabs(local[axis]) < 1.0 - kSameFace) return btVector3(0, 0, 0);
    btVector3 face(0, 0, 0);
    face[axis] = local[axis] > 0 ? 1.0 : -1.0;
    return basis * face;
  }
  if (shape->getShapeType() == CYLINDER_SHAPE_PROXYTYPE) {  // a cap (disc platforms), not the side
    const btVector3 local = basis.transpose() * normal;
    const int axis = static_cast<const btCylinderShape*>(shape)->getUpAxis();
    if (std::fabs(local[axis]) < 1.0 - kSameFace) return btVector3(0, 0, 0);
    btVector3 face(0, 0, 0);
    face[axis] = local[axis] > 0 ? 1.0 : -1.0;
    return basis * face;
  }
  if (shape->getShapeType() == TRIANGLE_SHAPE_PROXYTYPE) {
    const auto* triangle = static_cast<const btTriangleShape*>(shape);
    btVector3 face = basis * (triangle->m_vertices1[1] - triangle->m_vertices1[0])
                                 .cross(triangle->m_vertices1[2] - triangle->m_vertices1[0]);
    if (face.length2() < 1e-24) return btVector3(0, 0, 0);  // degenerate
    face.normalize();
    if (face.dot(normal) < 0) face = -face;  // either side may face the character
    if (face.dot(normal) < 1.0 - kSameFace) return btVector3(0, 0, 0);
    return face;
  }
  return btVector3(0, 0, 0);
}

struct AllContacts : btCollisionWorld::ContactResultCallback {
  AllContacts(const btCollisionObject* character, const btCollisionObject* self, std::vector<Contact>* out)
      : character_(character), self_(self), out_(out) {}

  bool needsCollision(btBroadphaseProxy* proxy) const override {
    const auto* object = static_cast<const btCollisionObject*>(proxy->m_clientObject);
    if (object == self_ || object == character_) return false;
    return ContactResultCallback::needsCollision(proxy);
  }

  btScalar addSingleResult(btManifoldPoint& point, const btCollisionObjectWrapper* wrap0, int, int,
                           const btCollisionObjectWrapper* wrap1, int, int) override {
    // m_normalWorldOnB points from object 1 to object 0; we want it pointing
    // at the character whichever side Bullet put it on.
    const bool character_is_0 = wrap0->getCollisionObject() == character_;
    Contact c;
    c.normal = character_is_0 ? point.m_normalWorldOnB : -point.m_normalWorldOnB;
    c.distance = point.getDistance();
    c.point = character_is_0 ? point.getPositionWorldOnB() : point.getPositionWorldOnA();
    c.object = character_is_0 ? wrap1->getCollisionObject() : wrap0->getCollisionObject();
    if (c.normal.length2() < 1e-24) return 0;
    c.normal.normalize();
    const btCollisionObjectWrapper* world_side = character_is_0 ? wrap1 : wrap0;
    c.face_normal = face_normal(world_side->getCollisionShape(), world_side->getWorldTransform().getBasis(), c.normal);
    out_->push_back(c);
    return 0;
  }

  const btCollisionObject* character_;
  const btCollisionObject* self_;
  std::vector<Contact>* out_;
};

/// The closest ray hit over the broadphase's candidates, as Bullet's own
/// rayTest walks them, but a box hit from outside is answered by the exact
/// slab test instead of Bullet's subsimplex cast (about 40 times cheaper).
struct ClosestRay : btBroadphaseRayCallback {
  ClosestRay(const btVector3& from, const btVector3& to, const btCollisionObject* self)
      : from_(from), to_(to), self_(self), result(from, to) {
    const btVector3 direction = (to - from).normalized();
    for (int i = 0; i < 3; ++i) {
      m_rayDirectionInverse[i] = direction[i] == 0.0 ? BT_LARGE_FLOAT : 1.0 / direction[i];
      m_signs[i] = m_rayDirectionInverse[i] < 0.0;
    }
    m_lambda_max = direction.dot(to - from);
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
    btCollisionWorld::rayTestSingle(btTransform(btMatrix3x3::getIdentity(), from_),
                                    btTransform(btMatrix3x3::getIdentity(), to_), object, shape,
                                    object->getWorldTransform(), result);
    return true;
  }

  /// The closest hit of the ray on `shape` at `pose` in `*hit`, when it has
  /// an exact answer: a box the ray starts outside of, or a small compound of
  /// such boxes (the stairs of a level). False: ask Bullet.
  bool exact_ray(const btCollisionShape* shape, const btTransform& pose, ExactRayHit* hit) const {
    if (shape->getShapeType() == BOX_SHAPE_PROXYTYPE) {
      bool inside = false;
      *hit = ray_box(from_, to_, pose, static_cast<const btBoxShape*>(shape)->getHalfExtentsWithMargin(), &inside);
      return !inside;
    }
    if (shape->getShapeType() != COMPOUND_SHAPE_PROXYTYPE) return false;
    const auto* compound = static_cast<const btCompoundShape*>(shape);
    constexpr int kMaxExactChildren = 64;  // beyond, Bullet's tree over the children pays off
    if (compound->getNumChildShapes() > kMaxExactChildren) return false;
    *hit = ExactRayHit{};
    for (int i = 0; i < compound->getNumChildShapes(); ++i) {
      const btCollisionShape* child = compound->getChildShape(i);
      if (child->getShapeType() != BOX_SHAPE_PROXYTYPE) return false;
      bool inside = false;
      const ExactRayHit h = ray_box(from_, to_, pose * compound->getChildTransform(i),
                                    static_cast<const btBoxShape*>(child)->getHalfExtentsWithMargin(), &inside);
      if (inside) return false;
      if (h.hit && (!hit->hit || h.fraction < hit->fraction)) *hit = h;
    }
    return true;
  }

  btVector3 from_;
  btVector3 to_;
  const btCollisionObject* self_;
  btCollisionWorld::ClosestRayResultCallback result;
};

/// The query object's shape as a segment a→b grown by a radius, when it is
/// a capsule or a sphere.
bool as_capsule(const btCollisionObject* object, btVector3* a, btVector3* b, double* radius) {
  const btCollisionShape* shape = object->getCollisionShape();
  const btTransform& pose = object->getWorldTransform();
  if (shape->getShapeType() == CAPSULE_SHAPE_PROXYTYPE) {
    const auto* capsule = static_cast<const btCapsuleShape*>(shape);
    btVector3 half(0, 0, 0);
    half[capsule->getUpAxis()] = capsule->getHalfHeight();
    *a = pose * -half;
    *b = pose * half;
    *radius = capsule->getRadius();
    return true;
  }
  if (shape->getShapeType() == SPHERE_SHAPE_PROXYTYPE) {
    *a = *b = pose.getOrigin();
    *radius = static_cast<const btSphereShape*>(shape)->getRadius();
    return true;
  }
  return false;
}

/// Contacts of the query object with each broadphase candidate: exact for a
/// capsule or sphere against boxes, Bullet's contactPairTest for the rest.
struct PairContacts : btBroadphaseAabbCallback {
  PairContacts(btCollisionWorld* world, btCollisionObject* object, const btCollisionObject* self, double threshold,
               AllContacts* callback)
      : world_(world), object_(object), self_(self), threshold_(threshold), callback_(callback) {
    capsule_ = as_capsule(object, &a_, &b_, &radius_);
  }

  bool process(const btBroadphaseProxy* proxy) override {
    auto* other = static_cast<btCollisionObject*>(proxy->m_clientObject);
    if (other == object_ || other == self_ || !callback_->needsCollision(other->getBroadphaseHandle())) return true;
    if (!(capsule_ && exact(other))) world_->contactPairTest(object_, other, *callback_);
    return true;
  }

  /// Adds the exact contacts with `other` and returns true, or adds nothing
  /// and returns false when it has no exact answer here.
  bool exact(const btCollisionObject* other) {
    found_.clear();
    const btCollisionShape* shape = other->getCollisionShape();
    const btTransform& pose = other->getWorldTransform();
    if (shape->getShapeType() == BOX_SHAPE_PROXYTYPE) {
      if (!add_box(other, static_cast<const btBoxShape*>(shape), pose)) return false;
    } else if (shape->getShapeType() == COMPOUND_SHAPE_PROXYTYPE) {
      const auto* compound = static_cast<const btCompoundShape*>(shape);
      if (compound->getNumChildShapes() > 64) return false;
      for (int i = 0; i < compound->getNumChildShapes(); ++i) {
        const btCollisionShape* child = compound->getChildShape(i);
        if (child->getShapeType() != BOX_SHAPE_PROXYTYPE) return false;
        if (!add_box(other, static_cast<const btBoxShape*>(child), pose * compound->getChildTransform(i))) return false;
      }
    } else {
      return false;
    }
    callback_->out_->insert(callback_->out_->end(), found_.begin(), found_.end());
    return true;
  }

  bool add_box(const btCollisionObject* other, const btBoxShape* box, const btTransform& pose) {
    // Bullet's box is its core grown by the margin (edges rounded by it):
    // the same solid is the capsule grown by the margin against the core.
    const ExactContact e = capsule_box(a_, b_, radius_ + box->getMargin(), pose, box->getHalfExtentsWithoutMargin());
    if (!e.separated) return false;
    if (e.distance > threshold_) return true;  // Bullet may report a few of these, never all: none
    Contact c;
    c.normal = e.normal;
    c.distance = e.distance;
    c.point = e.point + e.normal * box->getMargin();  // on the rounded surface, not the core
    c.object = other;
    c.face_normal = face_normal(box, pose.getBasis(), e.normal);
    found_.push_back(c);
    return true;
  }

  btCollisionWorld* world_;
  btCollisionObject* object_;
  const btCollisionObject* self_;
  double threshold_;
  AllContacts* callback_;
  bool capsule_ = false;
  btVector3 a_;
  btVector3 b_;
  double radius_ = 0.0;
  std::vector<Contact> found_;
};

}  // namespace

CollisionQueries::CollisionQueries(btCollisionWorld* world, const btCollisionObject* self)
    : world_(world), self_(self) {}

SweepHit CollisionQueries::sweep(const btConvexShape* shape, const btTransform& from, const btVector3& to_origin) {
  ++counts_.sweeps;
  btTransform to = from;
  to.setOrigin(to_origin);
  ClosestOpposingSweep callback(self_, to_origin - from.getOrigin());
  world_->convexSweepTest(shape, from, to, callback, 0.0);
  return callback.hit;
}

void CollisionQueries::certify_clear(const btCollisionObject* object, const btTransform& pose,
                                     double static_clearance) {
  certificate_.certify(world_, object, pose, static_clearance);
}

void CollisionQueries::contacts(btCollisionObject* object, double max_distance, std::vector<Contact>& out) {
  if (max_distance <= 0.0 && certificate_.holds(world_, object, self_, kClearanceTolerance)) {
    out.clear();
    ++counts_.reused_contacts;
    return;
  }
  query_contacts(object, max_distance, out);
}

void CollisionQueries::query_contacts(btCollisionObject* object, double max_distance, std::vector<Contact>& out) {
  out.clear();
  AllContacts callback(object, self_, &out);
  callback.m_closestDistanceThreshold = max_distance;
  // Bullet's contactTest pair by pair, as it walks the broadphase, but a
  // capsule or sphere against a box (or a compound of boxes) is answered
  // exactly (capsule_box) while its axis stays outside the box.
  PairContacts pairs(world_, object, self_, max_distance, &callback);
  btVector3 low;
  btVector3 high;
  object->getCollisionShape()->getAabb(object->getWorldTransform(), low, high);
  world_->getBroadphase()->aabbTest(low, high, pairs);
  // Broadphase pair order is deterministic for a given world, but sorting makes
  // the solver's input independent of it altogether.
  std::sort(out.begin(), out.end(), [](const Contact& a, const Contact& b) {
    return std::make_tuple(a.distance, a.normal.x(), a.normal.y(), a.normal.z(), a.point.x(), a.point.y(),
                           a.point.z()) < std::make_tuple(b.distance, b.normal.x(), b.normal.y(), b.normal.z(),
                                                          b.point.x(), b.point.y(), b.point.z());
  });
}

RayHit CollisionQueries::ray(const btVector3& from, const btVector3& to) {
  ClosestRay callback(from, to, self_);
  world_->getBroadphase()->rayTest(from, to, callback);
  RayHit hit;
  if (!callback.result.hasHit()) return hit;
  hit.hit = true;
  hit.fraction = callback.result.m_closestHitFraction;
  hit.normal = callback.result.m_hitNormalWorld.normalized();
  hit.point = callback.result.m_hitPointWorld;
  hit.object = callback.result.m_collisionObject;
  return hit;
}

double CollisionQueries::penetration_depth(btCollisionObject* object) {
  std::vector<Contact> found;
  query_contacts(object, 0.0, found);
  double deepest = 0.0;
  for (const Contact& c : found) deepest = std::max(deepest, -c.distance);
  return deepest;
}

}  // namespace stepslide
