// A box-shaped character against the world's boxes (box_box_contacts.h).
#include "box_box_contacts.h"

#include <cmath>

#include "query_shapes.h"
#include "stepslide/exact_box_box.h"
#include "stepslide/exact_box_distance.h"

namespace stepslide::detail {

namespace {

/// A box's core, or false when its margin inverts it (only Bullet knows
/// what its support function then describes).
bool core_of(const btCollisionShape* shape, btVector3* core, double* margin) {
  if (shape->getShapeType() != BOX_SHAPE_PROXYTYPE) return false;
  const auto* box = static_cast<const btBoxShape*>(shape);
  *core = box->getHalfExtentsWithoutMargin();
  *margin = box->getMargin();
  return core->x() >= 0.0 && core->y() >= 0.0 && core->z() >= 0.0;
}

/// Well above the rounding of the six axes' bound, far below anything a
/// query asks about.
constexpr double kBoundSlack = 1e-9;

Contact contact_with(const btCollisionObject* other, const btVector3& normal, double distance,
                     const btVector3& point) {
  Contact c;
  c.normal = normal;
  c.distance = distance;
  c.point = point;
  c.object = other;
  c.face_normal = face_normal(other->getCollisionShape(), other->getWorldTransform().getBasis(), normal);
  return c;
}

}  // namespace

bool box_box_beyond(const btCollisionObject* character, const btCollisionObject* other, double max_distance) {
  btVector3 ha, hb;
  double ra = 0.0, rb = 0.0;
  if (!core_of(character->getCollisionShape(), &ha, &ra) || !core_of(other->getCollisionShape(), &hb, &rb)) {
    return false;
  }
  const double beyond = ra + rb + max_distance + kBoundSlack;
  const btMatrix3x3& a = character->getWorldTransform().getBasis();
  const btMatrix3x3& b = other->getWorldTransform().getBasis();
  const btVector3 d = other->getWorldTransform().getOrigin() - character->getWorldTransform().getOrigin();
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

bool box_box_contact(const btCollisionObject* character, const btCollisionObject* other, double max_distance,
                     std::vector<Contact>* out) {
  btVector3 ha, hb;
  double ra = 0.0, rb = 0.0;
  if (!core_of(character->getCollisionShape(), &ha, &ra) || !core_of(other->getCollisionShape(), &hb, &rb)) {
    return false;
  }
  if (box_box_beyond(character, other, max_distance)) return true;
  const btTransform& a = character->getWorldTransform();
  const btTransform& b = other->getWorldTransform();
  const BoxBoxOverlap overlap = box_box_overlap(a, ha, ra, b, hb, rb);
  if (overlap.cores_overlap) {
    out->push_back(contact_with(other, overlap.normal, overlap.distance, overlap.point));
    return true;
  }
  const BoxBoxDistance apart = box_box_distance(a, ha, ra, b, hb, rb, max_distance);
  if (apart.beyond) return true;
  if (!apart.separated) return false;  // touching within rounding: Bullet's GJK
  if (apart.distance > max_distance) return true;
  out->push_back(contact_with(other, apart.normal, apart.distance, box_box_patch_middle(a, ha, b, hb, rb, apart)));
  return true;
}

}  // namespace stepslide::detail
