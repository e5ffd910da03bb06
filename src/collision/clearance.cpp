// The clearance certificate (clearance.h).
#include "collision/clearance.h"

#include <algorithm>

#include "collision/query_region.h"

namespace stepslide {

namespace {

bool is_moving(const btCollisionObject* object) { return object->isKinematicObject() || !object->isStaticObject(); }

/// Shapes that look the same after any turn about their local Y axis.
bool symmetric_about_y(const btCollisionShape* shape) {
  switch (shape->getShapeType()) {
    case SPHERE_SHAPE_PROXYTYPE:
      return true;
    case CAPSULE_SHAPE_PROXYTYPE:
      return static_cast<const btCapsuleShape*>(shape)->getUpAxis() == 1;
    case CYLINDER_SHAPE_PROXYTYPE:
      return static_cast<const btCylinderShape*>(shape)->getUpAxis() == 1;
    default:
      return false;
  }
}

/// Whether `object` at `now` has the same pose relative to `body` at
/// `body_now` as at `then` relative to `body_then`, to 1e-9 (a nanometre,
/// a nanoradian): carried along rigidly, so no nearer to it.
bool carried_rigidly(const btCollisionShape* shape, const btTransform& then, const btTransform& body_then,
                     const btTransform& now, const btTransform& body_now) {
  constexpr double kSame = 1e-9;
  const btTransform relative_then = body_then.inverseTimes(then);
  const btTransform relative_now = body_now.inverseTimes(now);
  if ((relative_then.getOrigin() - relative_now.getOrigin()).length() > kSame) return false;
  const btMatrix3x3& a = relative_then.getBasis();
  const btMatrix3x3& b = relative_now.getBasis();
  if (symmetric_about_y(shape)) return (a.getColumn(1) - b.getColumn(1)).length() <= kSame;
  for (int i = 0; i < 3; ++i) {
    if ((a.getColumn(i) - b.getColumn(i)).length() > kSame) return false;
  }
  return true;
}

}  // namespace

void ClearanceCertificate::certify(btCollisionWorld* world, const btCollisionObject* object, const btTransform& pose,
                                   double static_clearance, QueryRegion* region) {
  object_ = object;
  pose_ = pose;
  static_clearance_ = static_clearance;
  object_count_ = world->getNumCollisionObjects();
  moving_.clear();
  // The moving bodies whose bounding boxes overlap the shape's, straight
  // into the certificate's list (it keeps its capacity: no allocation).
  struct MovingNear : btBroadphaseAabbCallback {
    bool process(const btBroadphaseProxy* proxy) override {
      const auto* body = static_cast<const btCollisionObject*>(proxy->m_clientObject);
      if (body != object && is_moving(body)) moving->push_back({body, body->getWorldTransform()});
      return true;
    }
    const btCollisionObject* object;
    std::vector<Carrier>* moving;
  } near{};
  near.object = object;
  near.moving = &moving_;
  btVector3 low;
  btVector3 high;
  object->getCollisionShape()->getAabb(pose, low, high);
  if (region != nullptr) {
    region->aabb_test_walked(world->getBroadphase(), low, high, near);
  } else {
    world->getBroadphase()->aabbTest(low, high, near);
  }
}

bool ClearanceCertificate::holds(btCollisionWorld* world, const btCollisionObject* object,
                                 const btCollisionObject* self, double tolerance, QueryRegion* region) const {
  if (object_ == nullptr || object != object_ || world->getNumCollisionObjects() != object_count_) return false;
  const btTransform& now = object->getWorldTransform();
  if (!(now.getBasis() == pose_.getBasis())) return false;
  // Static bodies stay where they were: moving by d brings the shape at
  // most d nearer to any of them, and none is near if no bounding box is.
  const double moved = (now.getOrigin() - pose_.getOrigin()).length();
  // Each body whose bounding box is near, judged as the walk meets it (no
  // list of them: this runs before most contact queries).
  struct StillClear : btBroadphaseAabbCallback {
    bool process(const btBroadphaseProxy* proxy) override {
      const auto* body = static_cast<const btCollisionObject*>(proxy->m_clientObject);
      if (!clear || body == object || body == self) return true;
      if (!is_moving(body)) {
        if (static_too_near) clear = false;
        return true;
      }
      const auto then = std::find_if(certificate->moving_.begin(), certificate->moving_.end(),
                                     [&](const Carrier& c) { return c.body == body; });
      if (then == certificate->moving_.end() ||  // came near since
          !carried_rigidly(object->getCollisionShape(), certificate->pose_, then->pose, *now,
                           body->getWorldTransform()))
        clear = false;
      return true;
    }
    const ClearanceCertificate* certificate;
    const btCollisionObject* object;
    const btCollisionObject* self;
    const btTransform* now;
    bool static_too_near;  ///< moved past the static clearance: any static body near ends it
    bool clear = true;
  } still{};
  still.certificate = this;
  still.object = object;
  still.self = self;
  still.now = &now;
  still.static_too_near = static_clearance_ - moved < -tolerance;
  btVector3 low;
  btVector3 high;
  object->getCollisionShape()->getAabb(now, low, high);
  if (region != nullptr) {
    region->aabb_test_walked(world->getBroadphase(), low, high, still);
  } else {
    world->getBroadphase()->aabbTest(low, high, still);
  }
  return still.clear;
}

ClearanceRecord ClearanceCertificate::save(const btCollisionObject* object) const {
  ClearanceRecord record;
  if (object_ == nullptr || object_ != object) return record;
  record.held = true;
  record.pose = pose_;
  record.static_clearance = static_clearance_;
  record.object_count = object_count_;
  record.moving.reserve(moving_.size());
  for (const Carrier& c : moving_) record.moving.emplace_back(c.body, c.pose);
  return record;
}

void ClearanceCertificate::restore(const ClearanceRecord& record, const btCollisionObject* object) {
  object_ = record.held ? object : nullptr;
  if (!record.held) return;
  pose_ = record.pose;
  static_clearance_ = record.static_clearance;
  object_count_ = record.object_count;
  moving_.clear();
  for (const auto& [body, pose] : record.moving) moving_.push_back({body, pose});
}

}  // namespace stepslide
