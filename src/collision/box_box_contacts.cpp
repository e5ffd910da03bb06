// A box-shaped character against the world's boxes (box_box_contacts.h).
#include "collision/box_box_contacts.h"

#include <BulletCollision/BroadphaseCollision/btDbvt.h>

#include <algorithm>
#include <cmath>

#include "collision/compound.h"
#include "geometry/box_box.h"
#include "geometry/box_distance.h"
#include "geometry/shapes.h"

namespace stepslide::detail {

namespace {

/// A box's core, or false when its margin inverts it (only Bullet knows
/// what its support function then describes).
bool core_of(const btCollisionShape* shape, btVector3* core, double* margin) {
  if (shape->getShapeType() != BOX_SHAPE_PROXYTYPE) return false;
  const auto* box = static_cast<const btBoxShape*>(shape);
  *core = box->getHalfExtentsWithoutMargin();
  *margin = box->getMargin();
  return has_core(*core);
}

/// Well above the rounding of the six axes' bound, far below anything a
/// query asks about.
constexpr double kBoundSlack = 1e-9;

/// box_box_beyond for the boxes' cores and radii at their poses.
bool cores_beyond(const btTransform& pose_a, const btVector3& ha, double ra, const btTransform& pose_b,
                  const btVector3& hb, double rb, double max_distance) {
  const double beyond = ra + rb + max_distance + kBoundSlack;
  const btMatrix3x3& a = pose_a.getBasis();
  const btMatrix3x3& b = pose_b.getBasis();
  const btVector3 d = pose_b.getOrigin() - pose_a.getOrigin();
  // Along a face axis n of either box: |d.n| less both cores' extents along
  // n, less both radii, is a lower bound of the rounded boxes' distance.
  for (int i = 0; i < 3; ++i) {
    const btVector3 n = a.getColumn(i);
    const double extent_b = hb.x() * std::fabs(b.getColumn(0).dot(n)) + hb.y() * std::fabs(b.getColumn(1).dot(n)) +
                            hb.z() * std::fabs(b.getColumn(2).dot(n));
    if (std::fabs(d.dot(n)) - ha[i] - extent_b > beyond) return true;
  }
  for (int i = 0; i < 3; ++i) {
    const btVector3 n = b.getColumn(i);
    const double extent_a = ha.x() * std::fabs(a.getColumn(0).dot(n)) + ha.y() * std::fabs(a.getColumn(1).dot(n)) +
                            ha.z() * std::fabs(a.getColumn(2).dot(n));
    if (std::fabs(d.dot(n)) - hb[i] - extent_a > beyond) return true;
  }
  return false;
}

/// The character's contact with one box of `other` (the object itself, or
/// a child of its compound) at `pose`, of core `hb` and radius `rb`; false
/// where only Bullet answers.
bool contact_with_box(const btTransform& a, const btVector3& ha, double ra, const btCollisionObject* other,
                      const btBoxShape* box, const btTransform& pose, const btVector3& hb, double rb,
                      double max_distance, std::vector<Contact>* out) {
  const ExactContact overlap = box_box_overlap(a, ha, ra, pose, hb, rb);
  Contact c;
  c.object = other;
  if (overlap.answered) {
    c.normal = overlap.normal;
    c.distance = overlap.distance;
    c.point = overlap.point;
  } else {
    const ExactContact apart = box_box_distance(a, ha, ra, pose, hb, rb, max_distance);
    if (apart.beyond) return true;
    if (!apart.answered) return false;  // touching within rounding: Bullet's GJK
    if (apart.distance > max_distance) return true;
    c.normal = apart.normal;
    c.distance = apart.distance;
    c.point = box_box_patch_middle(a, ha, pose, hb, rb, apart);
  }
  c.face_normal = face_normal(box, pose.getBasis(), c.normal);
  out->push_back(c);
  return true;
}

/// The character's contacts with the box children of `compound` whose tree
/// bounds meet its own grown by `max_distance`; false, with what it added
/// taken back, where a child is not a box or only Bullet answers it.
bool contacts_with_children(const btCollisionObject* character, const btVector3& ha, double ra,
                            const btCollisionObject* other, const btCompoundShape* compound, double max_distance,
                            std::vector<Contact>* out) {
  const auto box = [](const btCollisionShape* child) { return child->getShapeType() == BOX_SHAPE_PROXYTYPE; };
  if (!all_children(*compound, box)) return false;
  const btTransform& a = character->getWorldTransform();
  const btTransform& pose = other->getWorldTransform();
  btVector3 low, high;
  character->getCollisionShape()->getAabb(pose.inverseTimes(a), low, high);
  const double reach = std::max(0.0, max_distance) + 1e-9;
  low -= btVector3(reach, reach, reach);
  high += btVector3(reach, reach, reach);
  const std::size_t before = out->size();
  const bool answered = walk_children(
      *compound, pose,
      [&](const btVector3& leaf_low, const btVector3& leaf_high) {
        return TestAabbAgainstAabb2(low, high, leaf_low, leaf_high);
      },
      [&](const btCollisionShape* child, const btTransform& at, int) {
        const auto* child_box = static_cast<const btBoxShape*>(child);
        btVector3 hb;
        double rb = 0.0;
        return core_of(child_box, &hb, &rb) &&
               contact_with_box(a, ha, ra, other, child_box, at, hb, rb, max_distance, out);
      });
  if (!answered) out->resize(before);
  return answered;
}

}  // namespace

bool box_box_beyond(const btCollisionObject* character, const btCollisionObject* other, double max_distance) {
  btVector3 ha, hb;
  double ra = 0.0, rb = 0.0;
  return core_of(character->getCollisionShape(), &ha, &ra) && core_of(other->getCollisionShape(), &hb, &rb) &&
         cores_beyond(character->getWorldTransform(), ha, ra, other->getWorldTransform(), hb, rb, max_distance);
}

bool box_box_contact(const btCollisionObject* character, const btCollisionObject* other, double max_distance,
                     std::vector<Contact>* out) {
  btVector3 ha;
  double ra = 0.0;
  if (!core_of(character->getCollisionShape(), &ha, &ra)) return false;
  const btCollisionShape* shape = other->getCollisionShape();
  if (shape->getShapeType() == COMPOUND_SHAPE_PROXYTYPE) {
    return contacts_with_children(character, ha, ra, other, static_cast<const btCompoundShape*>(shape),
                                  max_distance, out);
  }
  btVector3 hb;
  double rb = 0.0;
  if (!core_of(shape, &hb, &rb)) return false;  // not a box, or its core inverted
  const btTransform& a = character->getWorldTransform();
  const btTransform& pose = other->getWorldTransform();
  if (cores_beyond(a, ha, ra, pose, hb, rb, max_distance)) return true;
  return contact_with_box(a, ha, ra, other, static_cast<const btBoxShape*>(shape), pose, hb, rb, max_distance, out);
}

}  // namespace stepslide::detail
