// A box-shaped character against the world's boxes (box_box_contacts.h).
#include "box_box_contacts.h"

#include "query_shapes.h"
#include "stepslide/exact_box_box.h"

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

}  // namespace

bool box_box_overlap_contact(const btCollisionObject* character, const btCollisionObject* other,
                             std::vector<Contact>* out) {
  btVector3 ha, hb;
  double ra = 0.0, rb = 0.0;
  if (!core_of(character->getCollisionShape(), &ha, &ra) || !core_of(other->getCollisionShape(), &hb, &rb)) {
    return false;
  }
  const btTransform& pose = other->getWorldTransform();
  const BoxBoxOverlap overlap = box_box_overlap(character->getWorldTransform(), ha, ra, pose, hb, rb);
  if (!overlap.cores_overlap) return false;
  Contact c;
  c.normal = overlap.normal;
  c.distance = overlap.distance;
  c.point = overlap.point;
  c.object = other;
  c.face_normal = face_normal(other->getCollisionShape(), pose.getBasis(), overlap.normal);
  out->push_back(c);
  return true;
}

}  // namespace stepslide::detail
