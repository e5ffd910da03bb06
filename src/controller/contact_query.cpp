// The adapter's contact queries: every contact of the character's shape
// with the world, exact for a capsule or sphere against boxes, meshes and
// heightfields.
#include "stepslide/collision.h"

#include "query_shapes.h"
#include "triangle_pairs.h"
#include "stepslide/exact_queries.h"

#include <algorithm>
#include <tuple>

namespace stepslide {

namespace {

using detail::as_capsule;
using detail::face_normal;

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

/// Contacts of the query object with each broadphase candidate: exact for a
/// capsule or sphere against boxes, meshes and heightfields (one contact per
/// triangle, as Bullet reports them), Bullet's contactPairTest for the rest.
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
    } else if (detail::is_triangle_shape(shape)) {
      if (!detail::triangle_contacts(a_, b_, radius_, other, threshold_, &found_)) return false;
    } else {
      return false;
    }
    callback_->out_->insert(callback_->out_->end(), found_.begin(), found_.end());
    return true;
  }

  bool add_box(const btCollisionObject* other, const btBoxShape* box, const btTransform& pose) {
    // A margin wider than half the box inverts its core: Bullet's answer (as sweep_pairs.cpp).
    const btVector3& core = box->getHalfExtentsWithoutMargin();
    if (core.x() < 0.0 || core.y() < 0.0 || core.z() < 0.0) return false;
    if (beyond_threshold(pose, core, radius_ + box->getMargin())) return true;
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

  /// True when the capsule (the segment grown by `radius`) is provably
  /// farther than the threshold from the box core at `pose`: the segment's
  /// bounds in the box's frame are already that far from the core. The
  /// answer capsule_box would give then is "beyond the threshold" (nothing
  /// added), so skipping it changes nothing; about a tenth of its cost. The
  /// slack (1 µm) dwarfs both computations' rounding.
  bool beyond_threshold(const btTransform& pose, const btVector3& core, double radius) const {
    const btVector3 p = pose.invXform(a_);
    const btVector3 q = pose.invXform(b_);
    double gap2 = 0.0;
    for (int i = 0; i < 3; ++i) {
      const double gap = std::max({std::min(p[i], q[i]) - core[i], -core[i] - std::max(p[i], q[i]), 0.0});
      gap2 += gap * gap;
    }
    const double reach = threshold_ + radius + kSlack;
    return reach > 0.0 && gap2 > reach * reach;
  }

  static constexpr double kSlack = 1e-6;

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
  // capsule or sphere against a box (or a compound of boxes), a mesh or a
  // heightfield is answered exactly (capsule_box, triangle_contacts) while
  // its axis stays outside the box or triangles.
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

double CollisionQueries::penetration_depth(btCollisionObject* object) {
  std::vector<Contact> found;
  query_contacts(object, 0.0, found);
  double deepest = 0.0;
  for (const Contact& c : found) deepest = std::max(deepest, -c.distance);
  return deepest;
}

}  // namespace stepslide
