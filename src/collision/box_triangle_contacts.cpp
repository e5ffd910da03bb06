// A box-shaped character against mesh and heightfield triangles, exactly
// (box_triangle_contacts.h). Bullet's GJK/EPA on this pair can report no
// penetration at one pose and a deep one a little higher, so every decision that the character is clear
// (depenetration, the ground probe, the end-of-move check) was unreliable.
#include "collision/box_triangle_contacts.h"

#include <BulletCollision/CollisionShapes/btConcaveShape.h>
#include <BulletCollision/CollisionShapes/btTriangleCallback.h>

#include <algorithm>

#include "collision/triangle_pairs.h"
#include "geometry/box_triangle.h"
#include "geometry/shapes.h"

namespace stepslide::detail {

namespace {

/// Receives the triangles near the box (in the concave shape's frame).
struct TriangleContacts : btTriangleCallback {
  void processTriangle(btVector3* local, int, int) override {
    // The walks hand out triangles beyond the box too (a heightfield's a
    // cell beyond it, a mesh's by quantised bounds): one whose bounds miss
    // the box's, grown by the reach and a slack far above the rounding of
    // box_triangle, is farther than max_distance and would be dropped below.
    if (!triangle_meets_bounds(local, low, high)) return;
    const btVector3 triangle[3] = {pose * local[0], pose * local[1], pose * local[2]};
    const ExactContact exact = box_triangle(box_pose, half_extents, radius, triangle, cutoff);
    const double distance = exact.distance - triangle_margin;
    if (distance > max_distance) return;
    Contact c;
    c.normal = exact.normal;
    c.distance = distance;
    c.point = exact.point + exact.normal * triangle_margin;
    c.object = object;
    btVector3 face = (triangle[1] - triangle[0]).cross(triangle[2] - triangle[0]);
    if (face.length2() > 1e-24) {
      face.normalize();
      if (face.dot(c.normal) < 0) face = -face;  // either side may face the character
      if (face.dot(c.normal) >= 1.0 - kSameFace) c.face_normal = face;
    }
    out->push_back(c);
  }

  btVector3 low;   ///< the box's bounds in the concave shape's frame, grown by the reach and kCullSlack
  btVector3 high;
  btTransform pose;  ///< the concave shape's frame in the world
  btTransform box_pose;
  btVector3 half_extents;
  double radius = 0.0;
  double triangle_margin = 0.0;
  double max_distance = 0.0;
  /// Beyond this box_triangle need not find the closest features: the
  /// contact is dropped anyway (the slack is far above their rounding).
  double cutoff = 0.0;
  const btCollisionObject* object = nullptr;
  std::vector<Contact>* out = nullptr;
};

}  // namespace

bool box_triangle_contacts(const btCollisionObject* character, const btCollisionObject* other, double max_distance,
                           std::vector<Contact>* out, TriangleCache* cache) {
  const btCollisionShape* shape = character->getCollisionShape();
  const btCollisionShape* level = other->getCollisionShape();
  if (shape->getShapeType() != BOX_SHAPE_PROXYTYPE || !level->isConcave()) return false;
  const auto* box = static_cast<const btBoxShape*>(shape);
  TriangleContacts triangles;
  triangles.pose = other->getWorldTransform();
  triangles.box_pose = character->getWorldTransform();
  triangles.half_extents = box->getHalfExtentsWithoutMargin();
  triangles.radius = box->getMargin();
  triangles.triangle_margin = level->getMargin();
  triangles.max_distance = max_distance;
  triangles.cutoff = max_distance + triangles.triangle_margin + 1e-9;
  triangles.object = other;
  triangles.out = out;
  // The box's bounds in the concave shape's frame, grown by how far a
  // contact may be: only triangles overlapping them can be that close.
  btVector3 low, high;
  box->getAabb(triangles.pose.inverseTimes(triangles.box_pose), low, high);
  const double reach = std::max(0.0, max_distance) + triangles.triangle_margin + 1e-9;
  low -= btVector3(reach, reach, reach);
  high += btVector3(reach, reach, reach);
  const btVector3 slack(kCullSlack, kCullSlack, kCullSlack);
  triangles.low = low - slack;
  triangles.high = high + slack;
  process_triangles(static_cast<const btConcaveShape*>(level), &triangles, low, high, cache);
  return true;
}

}  // namespace stepslide::detail
