// A box-shaped character against the world's boxes (box_box_contacts.h).
#include "box_box_contacts.h"

#include <BulletCollision/NarrowPhaseCollision/btPersistentManifold.h>

#include <algorithm>
#include <cmath>

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

/// The largest contact breaking threshold Bullet's dispatcher may give the
/// pair's manifold: the global one, or each shape's relative to its size
/// (btCollisionDispatcher::getNewManifold takes the smaller of those two).
double breaking_threshold_bound(const btCollisionShape* a, const btCollisionShape* b) {
  const double global = gContactBreakingThreshold;
  return std::max({global, static_cast<double>(a->getContactBreakingThreshold(gContactBreakingThreshold)),
                   static_cast<double>(b->getContactBreakingThreshold(gContactBreakingThreshold))});
}

/// Far above GJK's rounding and tolerance on the distance it reports.
constexpr double kReportSlack = 1e-3;

}  // namespace

bool box_box_beyond_reports(const btCollisionObject* character, const btCollisionObject* other,
                            double max_distance) {
  btVector3 ha, hb;
  double ra = 0.0, rb = 0.0;
  if (!core_of(character->getCollisionShape(), &ha, &ra) || !core_of(other->getCollisionShape(), &hb, &rb)) {
    return false;
  }
  const double breaking = breaking_threshold_bound(character->getCollisionShape(), other->getCollisionShape());
  const double reported = ra + rb + breaking + std::max(max_distance, 0.0) + kReportSlack;
  const btMatrix3x3& a = character->getWorldTransform().getBasis();
  const btMatrix3x3& b = other->getWorldTransform().getBasis();
  const btVector3 d = other->getWorldTransform().getOrigin() - character->getWorldTransform().getOrigin();
  // Along a face axis n of either box: |d.n| less both cores' extents along
  // n, less both radii, is a lower bound of the rounded boxes' distance.
  for (int i = 0; i < 3; ++i) {
    const btVector3 n = a.getColumn(i);
    const double extent_b = hb.x() * std::fabs(b.getColumn(0).dot(n)) + hb.y() * std::fabs(b.getColumn(1).dot(n)) +
                            hb.z() * std::fabs(b.getColumn(2).dot(n));
    if (std::fabs(d.dot(n)) - ha[i] - extent_b - ra - rb > reported) return true;
  }
  for (int i = 0; i < 3; ++i) {
    const btVector3 n = b.getColumn(i);
    const double extent_a = ha.x() * std::fabs(a.getColumn(0).dot(n)) + ha.y() * std::fabs(a.getColumn(1).dot(n)) +
                            ha.z() * std::fabs(a.getColumn(2).dot(n));
    if (std::fabs(d.dot(n)) - hb[i] - extent_a - ra - rb > reported) return true;
  }
  return false;
}

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
