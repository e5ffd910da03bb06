// The adapter's contact queries: every contact of the character's shape
// with the world, exact for a capsule or sphere against boxes, meshes and
// heightfields.
#include "stepslide/collision.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "collision/box_box_contacts.h"
#include "collision/box_triangle_contacts.h"
#include "collision/compound.h"
#include "collision/cylinder_contacts.h"
#include "collision/dispatch.h"
#include "collision/queries_impl.h"
#include "collision/query_bounds.h"
#include "collision/triangle_pairs.h"
#include "geometry/capsule_box.h"
#include "geometry/capsule_capsule.h"
#include "geometry/shapes.h"
#include "stepslide/contact_filter.h"

namespace stepslide {

namespace {

using detail::as_capsule;
using detail::ContactPair;
using detail::face_normal;
using detail::MoverKind;

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

bool is_moving(const btCollisionObject* object) { return object->isKinematicObject() || !object->isStaticObject(); }

/// Whether the broadphase walk of a query of `object` now meets the bodies
/// `met` records, in the same order, each static and of the same shape; so
/// a carried answer holds (contact_memo.h).
struct MeetsTheSame : btBroadphaseAabbCallback {
  MeetsTheSame(AllContacts* callback, const btCollisionObject* object, const btCollisionObject* self,
               const ContactMemo::Met& met)
      : callback_(callback), object_(object), self_(self), met_(met) {}

  bool process(const btBroadphaseProxy* proxy) override {
    auto* other = static_cast<btCollisionObject*>(proxy->m_clientObject);
    if (!same || other == object_ || other == self_ || !callback_->needsCollision(other->getBroadphaseHandle())) {
      return true;
    }
    if (next >= met_.bodies) {
      same = false;
      return true;
    }
    const ContactMemo::Candidate& then = met_.body[next++];
    same = then.body == other && then.shape == other->getCollisionShape() && !is_moving(other);
    return true;
  }

  AllContacts* callback_;
  const btCollisionObject* object_;
  const btCollisionObject* self_;
  const ContactMemo::Met& met_;
  int next = 0;
  bool same = true;
};

bool meets_the_same(btCollisionWorld* world, QueryRegion* region, const btCollisionObject* object,
                    const btCollisionObject* self, const ContactMemo::Met& met) {
  if (world->getNumCollisionObjects() != met.object_count) return false;
  AllContacts callback(object, self, nullptr);
  MeetsTheSame walk(&callback, object, self, met);
  btVector3 low;
  btVector3 high;
  object->getCollisionShape()->getAabb(object->getWorldTransform(), low, high);
  region->aabb_test(world->getBroadphase(), low, high, walk);
  return walk.same && walk.next == met.bodies;
}

/// Contacts of the query object with each broadphase candidate, from the
/// pair functions of its cell in the dispatch table (dispatch.h): exact for
/// a capsule or sphere against boxes, meshes and heightfields (one contact
/// per triangle, as Bullet reports them), for a box character against boxes
/// and triangles, and for every pair with a cylinder (cylinder_contacts.h);
/// Bullet's contactPairTest for the rest.
struct PairContacts : btBroadphaseAabbCallback {
  PairContacts(btCollisionWorld* world, btCollisionObject* object, const btCollisionObject* self, double threshold,
               AllContacts* callback, TriangleCache* triangles, const ContactFilter* filter, ContactMemo::Met* met)
      : filter_(filter),
        met_(met),
        world_(world),
        object_(object),
        self_(self),
        threshold_(threshold),
        callback_(callback),
        triangles_(triangles),
        mover_(detail::mover_kind(object->getCollisionShape())) {
    capsule_ = as_capsule(object, &a_, &b_, &radius_);
  }

  const ContactFilter* filter_;  ///< may be null
  ContactMemo::Met* met_;        ///< may be null: the bodies met are not recorded

  bool process(const btBroadphaseProxy* proxy) override {
    auto* other = static_cast<btCollisionObject*>(proxy->m_clientObject);
    if (other == object_ || other == self_ || !callback_->needsCollision(other->getBroadphaseHandle())) return true;
    if (met_ != nullptr) met_->add(other, is_moving(other));
    if (filter_ != nullptr && !filter_->collides_with(*other)) return true;
    const std::size_t before = callback_->out_->size();
    for (const ContactPair pair : detail::pair_cell(mover_, other->getCollisionShape()).contacts) {
      if (answer(pair, other)) break;
    }
    if (filter_ != nullptr) drop_invalid(before);
    return true;
  }

  /// With a contact filter: takes back the contacts from `before` on that
  /// it does not validate.
  void drop_invalid(std::size_t before) {
    std::vector<Contact>& out = *callback_->out_;
    const auto rejected = [this](const Contact& c) {
      return !filter_->validate({ContactCandidate::Query::Contact, c.object, c.normal, c.point});
    };
    out.erase(std::remove_if(out.begin() + static_cast<std::ptrdiff_t>(before), out.end(), rejected), out.end());
  }

  /// Runs one pair function: true when it answered (its contacts added).
  bool answer(ContactPair pair, btCollisionObject* other) {
    std::vector<Contact>* out = callback_->out_;
    switch (pair) {
      case ContactPair::CapsuleExact: return capsule_ && exact(other);
      case ContactPair::BoxBoxes: return detail::box_box_contact(object_, other, threshold_, out);
      case ContactPair::BoxTriangles: return detail::box_triangle_contacts(object_, other, threshold_, out, triangles_);
      case ContactPair::Convex: return detail::cylinder_pair_contacts(object_, other, threshold_, out, triangles_);
      case ContactPair::CompoundCylinder:
        return detail::compound_cylinder_contacts(object_, other, threshold_, out, triangles_);
      case ContactPair::Bullet: world_->contactPairTest(object_, other, *callback_); return true;
    }
    return false;
  }

  /// Adds the exact contacts with `other` and returns true, or adds nothing
  /// and returns false when it has no exact answer here (what it had added
  /// is taken back: the contacts go straight into the query's list, with no
  /// list of their own to allocate on every query).
  bool exact(const btCollisionObject* other) {
    std::vector<Contact>& out = *callback_->out_;
    const std::size_t before = out.size();
    if (add_exact(other, &out)) return true;
    out.resize(before);
    return false;
  }

  bool add_exact(const btCollisionObject* other, std::vector<Contact>* out) {
    const btCollisionShape* shape = other->getCollisionShape();
    const btTransform& pose = other->getWorldTransform();
    if (shape->getShapeType() == BOX_SHAPE_PROXYTYPE) {
      return add_box(other, static_cast<const btBoxShape*>(shape), pose, out);
    }
    if (shape->getShapeType() == COMPOUND_SHAPE_PROXYTYPE) {
      return add_compound(other, static_cast<const btCompoundShape*>(shape), pose, out);
    }
    if (shape->getShapeType() == CAPSULE_SHAPE_PROXYTYPE || shape->getShapeType() == SPHERE_SHAPE_PROXYTYPE) {
      return add_capsule(other, pose, out);
    }
    return detail::is_triangle_shape(shape) &&
           detail::triangle_contacts(a_, b_, radius_, other, threshold_, out, triangles_);
  }

  /// A capsule or sphere body: capsule_capsule, the distance of the two
  /// segments; no answer where they touch (the Convex pair answers).
  bool add_capsule(const btCollisionObject* other, const btTransform& pose, std::vector<Contact>* out) {
    btVector3 b0, b1;
    double rb = 0.0;
    if (!detail::capsule_segment(other->getCollisionShape(), pose, &b0, &b1, &rb)) return false;
    const ExactContact e = capsule_capsule(a_, b_, radius_, b0, b1, rb);
    if (!e.answered) return false;
    if (e.distance > threshold_) return true;
    Contact c;
    c.normal = e.normal;
    c.distance = e.distance;
    c.point = e.point;
    c.object = other;
    out->push_back(c);
    return true;
  }

  /// A small compound of boxes (a level's stairs), child by child in index
  /// order; children whose tree bounds lie beyond the threshold from the
  /// segment's are skipped without composing their pose (add_box would find
  /// nothing there), but every child must still be a box for an exact answer.
  bool add_compound(const btCollisionObject* other, const btCompoundShape* compound, const btTransform& pose,
                    std::vector<Contact>* out) {
    const auto cored_box = [](const btCollisionShape* child) {
      return child->getShapeType() == BOX_SHAPE_PROXYTYPE && !inverted(static_cast<const btBoxShape*>(child));
    };
    if (!detail::all_children(*compound, cored_box)) return false;
    const double reach = threshold_ + radius_ + detail::kBoundsSlack;
    const bool cull = threshold_ + radius_ >= 0.0;  // else a culled child might be one the segment touches
    const detail::Bounds near = detail::Bounds::of_segment(pose.invXform(a_), pose.invXform(b_), reach);
    return detail::walk_children(
        *compound, pose, [&](const btVector3& low, const btVector3& high) { return !cull || near.overlaps(low, high); },
        [&](const btCollisionShape* child, const btTransform& at, int) {
          return add_box(other, static_cast<const btBoxShape*>(child), at, out);
        },
        triangles_ != nullptr ? triangles_->child_poses().of(other) : nullptr);
  }

  static bool inverted(const btBoxShape* box) {
    return !detail::has_core(box->getHalfExtentsWithoutMargin());
  }

  bool add_box(const btCollisionObject* other, const btBoxShape* box, const btTransform& pose,
               std::vector<Contact>* out) {
    // A margin wider than half the box inverts its core: Bullet's answer (as sweep_pairs.cpp).
    if (inverted(box)) return false;
    // Bullet's box is its core grown by the margin (edges rounded by it):
    // the same solid is the capsule grown by the margin against the core.
    const double radius = radius_ + box->getMargin();
    const btVector3& core = box->getHalfExtentsWithoutMargin();
    ExactContact e = capsule_box(a_, b_, radius, pose, core);
    // The segment on or in the core: its exact penetration, not EPA's.
    if (!e.answered) e = capsule_box_penetration(a_, b_, radius, pose, core);
    if (e.distance > threshold_) return true;  // Bullet may report a few of these, never all: none
    Contact c;
    c.normal = e.normal;
    c.distance = e.distance;
    c.point = e.point + e.normal * box->getMargin();  // on the rounded surface, not the core
    c.object = other;
    c.face_normal = face_normal(box, pose.getBasis(), e.normal);
    out->push_back(c);
    return true;
  }

  btCollisionWorld* world_;
  btCollisionObject* object_;
  const btCollisionObject* self_;
  double threshold_;
  AllContacts* callback_;
  TriangleCache* triangles_;
  MoverKind mover_;
  bool capsule_ = false;
  btVector3 a_;
  btVector3 b_;
  double radius_ = 0.0;
};

}  // namespace

void CollisionQueries::contacts(btCollisionObject* object, double max_distance, std::vector<Contact>& out) {
  if (max_distance <= 0.0 && impl_->certificate.holds(world_, object, self_, kClearanceTolerance, &impl_->region)) {
    out.clear();
    ++counts_.reused_contacts;
    return;
  }
  if (impl_->memo.find(object, max_distance, out)) {
    ++counts_.repeated_contacts;
    return;
  }
  // No answer is carried while a filter decides: its answers may change.
  if (filter_ == nullptr && impl_->memo.carries(object)) {
    carried_contacts(object, max_distance, out);
    return;
  }
  query_contacts(object, max_distance, out);
  impl_->memo.store(object, max_distance, out);
}

void CollisionQueries::carried_contacts(btCollisionObject* object, double max_distance, std::vector<Contact>& out) {
  const int slot = impl_->memo.carried(object, max_distance);
  if (slot >= 0 && meets_the_same(world_, &impl_->region, object, self_, impl_->memo.met_of(slot))) {
    out = impl_->memo.contacts_of(slot);
    impl_->memo.reuse(slot);
    ++counts_.carried_contacts;
    return;
  }
  impl_->recording = impl_->memo.record(slot);
  impl_->recording->object_count = world_->getNumCollisionObjects();
  query_contacts(object, max_distance, out);
  impl_->recording = nullptr;
  impl_->memo.store_recorded(object, max_distance, out);
}

void CollisionQueries::query_contacts(btCollisionObject* object, double max_distance, std::vector<Contact>& out) {
  out.clear();
  AllContacts callback(object, self_, &out);
  callback.m_closestDistanceThreshold = max_distance;
  // Bullet's contactTest pair by pair, as it walks the broadphase, but a
  // capsule or sphere against a box (or a compound of boxes), a mesh or a
  // heightfield is answered exactly (capsule_box, triangle_contacts) while
  // its axis stays outside the box or triangles.
  PairContacts pairs(world_, object, self_, max_distance, &callback, &impl_->region.triangles(), filter_,
                     impl_->recording);
  btVector3 low;
  btVector3 high;
  object->getCollisionShape()->getAabb(object->getWorldTransform(), low, high);
  impl_->region.aabb_test(world_->getBroadphase(), low, high, pairs);
  // Broadphase pair order is deterministic for a given world, but sorting makes
  // the solver's input independent of it altogether.
  std::sort(out.begin(), out.end(), [](const Contact& a, const Contact& b) {
    return std::make_tuple(a.distance, a.normal.x(), a.normal.y(), a.normal.z(), a.point.x(), a.point.y(),
                           a.point.z()) < std::make_tuple(b.distance, b.normal.x(), b.normal.y(), b.normal.z(),
                                                          b.point.x(), b.point.y(), b.point.z());
  });
}

namespace {

/// Whether the contact with `normal` whose core point is `core_point` lies
/// on an edge of the box of core `half` at `pose` (within 1e-9 m of it):
/// sets `edge`.
bool on_box_edge(const btBoxShape* box, const btTransform& pose, const btVector3& point, const btVector3& normal,
                 BoxEdge* edge) {
  constexpr double kOnEdge = 1e-9;
  const btVector3& half = box->getHalfExtentsWithoutMargin();
  if (!detail::has_core(half)) return false;
  const btVector3 local = pose.invXform(point - normal * box->getMargin());
  for (int i = 0; i < 3; ++i) {
    if (std::fabs(local[i]) > half[i] + kOnEdge) return false;  // not on this core
  }
  btVector3 faces[2];
  if (!detail::box_edge_faces(pose.getBasis(), normal, faces)) return false;
  const btMatrix3x3& basis = pose.getBasis();
  for (int i = 0; i < 3; ++i) {
    // Along a face's normal the point sits on that face; along the edge
    // it lies between the edge's ends.
    const btVector3 axis = basis.getColumn(i);
    const double lean = std::max(std::fabs(axis.dot(faces[0])), std::fabs(axis.dot(faces[1])));
    if (lean > 0.5) {
      const double face = axis.dot(faces[0]) + axis.dot(faces[1]) > 0 ? half[i] : -half[i];
      if (std::fabs(local[i] - face) > kOnEdge) return false;
    } else if (std::fabs(local[i]) > half[i] + kOnEdge) {
      return false;
    }
  }
  edge->faces[0] = faces[0];
  edge->faces[1] = faces[1];
  edge->rounding = box->getMargin();
  return true;
}

}  // namespace

bool CollisionQueries::box_edge(const Contact& contact, BoxEdge* edge) {
  const btCollisionObject* object = contact.object;
  if (object == nullptr) return false;
  const btCollisionShape* shape = object->getCollisionShape();
  const btTransform& pose = object->getWorldTransform();
  if (shape->getShapeType() == BOX_SHAPE_PROXYTYPE) {
    return on_box_edge(static_cast<const btBoxShape*>(shape), pose, contact.point, contact.normal, edge);
  }
  if (shape->getShapeType() != COMPOUND_SHAPE_PROXYTYPE) return false;
  const auto* compound = static_cast<const btCompoundShape*>(shape);
  bool found = false;
  // A child's tree bounds hold its whole solid, the contact's point too.
  const btVector3 local = pose.invXform(contact.point);
  const btVector3 slack(detail::kBoundsSlack, detail::kBoundsSlack, detail::kBoundsSlack);
  const auto holds_point = [&](const btVector3& low, const btVector3& high) {
    return TestPointAgainstAabb2(low - slack, high + slack, local);
  };
  detail::walk_children(
      *compound, pose, holds_point,
      [&](const btCollisionShape* child, const btTransform& at, int) {
        found = child->getShapeType() == BOX_SHAPE_PROXYTYPE &&
                on_box_edge(static_cast<const btBoxShape*>(child), at, contact.point, contact.normal, edge);
        return !found;
      },
      impl_->region.triangles().child_poses().of(object));
  return found;
}

double CollisionQueries::penetration_depth(btCollisionObject* object) {
  std::vector<Contact> found;
  query_contacts(object, 0.0, found);
  double deepest = 0.0;
  for (const Contact& c : found) deepest = std::max(deepest, -c.distance);
  return deepest;
}

}  // namespace stepslide
