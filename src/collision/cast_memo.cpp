// The cast memo (cast_memo.h).
#include "collision/cast_memo.h"

#include "collision/same_bits.h"

namespace stepslide {

namespace {

/// The up axis of a capsule or cylinder (what the dimensions mean), else 0.
int axis_of(const btCollisionShape* shape) {
  switch (shape->getShapeType()) {
    case CAPSULE_SHAPE_PROXYTYPE: return static_cast<const btCapsuleShape*>(shape)->getUpAxis();
    case CYLINDER_SHAPE_PROXYTYPE: return static_cast<const btCylinderShape*>(shape)->getUpAxis();
    default: return 0;
  }
}

}  // namespace

/// A cast reporting to the adapter's callback, with what it reported kept:
/// objectQuerySingle (and an exact pair sweep) reports a pair once at most.
struct CastMemo::Recorder : btCollisionWorld::ConvexResultCallback {
  /// `result`: where to pass each report on; none: nothing is closer.
  explicit Recorder(btCollisionWorld::ConvexResultCallback* result) : result_(result) {
    m_closestHitFraction = result != nullptr ? result->m_closestHitFraction : 1.0;
  }
  btScalar addSingleResult(btCollisionWorld::LocalConvexResult& hit, bool normal_in_world_space) override {
    reported = normal_in_world_space;  // Bullet's convex pairs report in world space; anything else is not kept
    kept = true;
    normal = hit.m_hitNormalLocal;
    point = hit.m_hitPointLocal;
    fraction = hit.m_hitFraction;
    if (result_ == nullptr) return hit.m_hitFraction;
    const btScalar answer = result_->addSingleResult(hit, normal_in_world_space);
    m_closestHitFraction = result_->m_closestHitFraction;
    return answer;
  }
  btCollisionWorld::ConvexResultCallback* result_;
  bool kept = false;
  bool reported = false;
  btVector3 normal{0, 0, 0};
  btVector3 point{0, 0, 0};
  double fraction = 1.0;
};

bool CastMemo::ShapeKey::of(const btCollisionShape* shape, ShapeKey* key) {
  const int type = shape->getShapeType();
  if (type != BOX_SHAPE_PROXYTYPE && type != SPHERE_SHAPE_PROXYTYPE && type != CAPSULE_SHAPE_PROXYTYPE &&
      type != CYLINDER_SHAPE_PROXYTYPE && type != CONVEX_HULL_SHAPE_PROXYTYPE)
    return false;
  const auto* convex = static_cast<const btConvexInternalShape*>(shape);
  key->type = type;
  key->axis = axis_of(shape);
  key->dimensions = convex->getImplicitShapeDimensions();
  key->scaling = convex->getLocalScaling();
  key->margin = convex->getMargin();
  key->points = 0;
  if (type == CONVEX_HULL_SHAPE_PROXYTYPE) {
    const auto* hull = static_cast<const btConvexHullShape*>(shape);
    if (hull->getNumPoints() > kMaxPoints) return false;
    key->points = hull->getNumPoints();
    for (int i = 0; i < key->points; ++i) key->point[i] = hull->getUnscaledPoints()[i];
  }
  return true;
}

bool CastMemo::ShapeKey::describes(const btCollisionShape* shape) const {
  if (shape->getShapeType() != type || axis_of(shape) != axis) return false;
  const auto* convex = static_cast<const btConvexInternalShape*>(shape);
  if (!same_bits(convex->getImplicitShapeDimensions(), dimensions) || !same_bits(convex->getLocalScaling(), scaling) ||
      !same_bits(convex->getMargin(), margin))
    return false;
  if (type != CONVEX_HULL_SHAPE_PROXYTYPE) return true;
  const auto* hull = static_cast<const btConvexHullShape*>(shape);
  if (hull->getNumPoints() != points) return false;
  for (int i = 0; i < points; ++i) {
    if (!same_bits(hull->getUnscaledPoints()[i], point[i])) return false;
  }
  return true;
}

const CastMemo::Entry* CastMemo::lookup(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                                        const btCollisionObject* object, double closest) const {
  for (int i = 0; i < used_; ++i) {
    const Entry& e = entries_[i];
    // The cheap differences first: most entries are other bodies or poses.
    if (e.object != object || (!e.exact && !same_bits(e.closest, closest)) || !same_bits(e.from, from) || !same_bits(e.to, to) ||
        !same_bits(e.pose, object->getWorldTransform()))
      continue;
    if (e.shape.describes(shape) && e.body.describes(object->getCollisionShape())) return &e;
  }
  return nullptr;
}

void CastMemo::cast(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                    btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result, ExactCast exact) {
  const btCollisionShape* body = object->getCollisionShape();
  const double closest = result->m_closestHitFraction;
  if (const Entry* e = lookup(shape, from, to, object, closest)) {
    ++replayed_;
    // An exact sweep's hit was remembered whatever the closest fraction was
    // then: reported only when earlier, as the sweep itself reports.
    if (e->reported && (!e->exact || e->fraction < closest)) {
      btCollisionWorld::LocalConvexResult hit(object, nullptr, e->normal, e->point, e->fraction);
      result->addSingleResult(hit, true);
    }
    return;
  }
  // The slot replaced next holds nothing until this cast is remembered.
  Entry& slot = entries_[next_];
  slot.object = nullptr;
  const bool keep = ShapeKey::of(shape, &slot.shape) && ShapeKey::of(body, &slot.body);
  // The exact sweep computes its hit without the closest fraction: asked as
  // if nothing were closer, it is remembered for every closest fraction.
  Recorder unfiltered(nullptr);
  if (exact != nullptr && exact(shape, from, to, object, &unfiltered)) {
    if (unfiltered.kept && unfiltered.fraction < closest) {
      btCollisionWorld::LocalConvexResult hit(object, nullptr, unfiltered.normal, unfiltered.point, unfiltered.fraction);
      result->addSingleResult(hit, true);
    }
    if (keep && (!unfiltered.kept || unfiltered.reported)) remember(slot, from, to, object, closest, true, unfiltered);
    return;
  }
  if (!keep) {
    btCollisionWorld::objectQuerySingle(shape, from, to, object, body, object->getWorldTransform(), *result, 0.0);
    return;
  }
  Recorder recorder(result);
  btCollisionWorld::objectQuerySingle(shape, from, to, object, body, object->getWorldTransform(), recorder, 0.0);
  if (recorder.kept && !recorder.reported) return;  // not how Bullet reports a convex pair: not remembered
  remember(slot, from, to, object, closest, false, recorder);
}

void CastMemo::remember(Entry& slot, const btTransform& from, const btTransform& to, const btCollisionObject* object,
                        double closest, bool exact, const Recorder& recorder) {
  slot.object = object;
  slot.from = from;
  slot.to = to;
  slot.pose = object->getWorldTransform();
  slot.closest = closest;
  slot.exact = exact;
  slot.reported = recorder.kept;
  slot.normal = recorder.normal;
  slot.point = recorder.point;
  slot.fraction = recorder.fraction;
  next_ = (next_ + 1) % kEntries;
  if (used_ < kEntries) ++used_;
}

}  // namespace stepslide
