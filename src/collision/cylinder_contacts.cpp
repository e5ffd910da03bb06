// Contacts of pairs with a cylinder in them (cylinder_contacts.h): the exact
// signed distance of the two solids (gjk.h) for a convex body,
// each child of a compound and each triangle of a mesh or heightfield,
// where Bullet's GJK/EPA can report a depth far too shallow.
#include "collision/cylinder_contacts.h"

#include <BulletCollision/CollisionShapes/btConcaveShape.h>
#include <BulletCollision/CollisionShapes/btTriangleCallback.h>

#include <algorithm>
#include <cmath>

#include "collision/compound.h"
#include "collision/triangle_cache.h"
#include "geometry/gjk.h"
#include "geometry/shapes.h"

namespace stepslide::detail {

namespace {

bool is_cylinder(const btCollisionShape* shape) { return shape->getShapeType() == CYLINDER_SHAPE_PROXYTYPE; }

/// How far outside a body's solid (m) a contact point may be and still count
/// as on it (rounding; its rounded edges count as sharp).
constexpr double kOnBody = 1e-9;

bool has_cylinder_child(const btCollisionShape* shape) {
  return shape->getShapeType() == COMPOUND_SHAPE_PROXYTYPE &&
         any_child(*static_cast<const btCompoundShape*>(shape), is_cylinder);
}

/// The middle of the feature of `shape` at `pose` lowest along `normal`
/// (pointing away from it): for a box, a corner, an edge's or a face's
/// middle; for a cylinder, a rim point, a side's line middle or a cap's
/// centre; for a capsule, an end's sphere or its axis's middle; `fallback`
/// for other shapes. A support point picks one end of an edge or line,
/// which for a face contact can be a corner far from where the two touch.
btVector3 lowest_feature_middle(const btCollisionShape* shape, const btTransform& pose, const btVector3& normal,
                                const btVector3& fallback) {
  constexpr double kFlat = 1e-9;  // |component| below this: that axis is flat along the normal
  const btVector3 d = pose.getBasis().transpose() * -normal;
  const auto sign = [](double v) { return std::fabs(v) < kFlat ? 0.0 : (v > 0 ? 1.0 : -1.0); };
  if (shape->getLocalScaling() != btVector3(1, 1, 1)) return fallback;
  switch (shape->getShapeType()) {
    case BOX_SHAPE_PROXYTYPE: {
      const btVector3 h = static_cast<const btBoxShape*>(shape)->getHalfExtentsWithMargin();
      return pose(btVector3(sign(d.x()) * h.x(), sign(d.y()) * h.y(), sign(d.z()) * h.z()));
    }
    case CYLINDER_SHAPE_PROXYTYPE: {
      if (static_cast<const btCylinderShape*>(shape)->getUpAxis() != 1) return fallback;
      const btVector3 h = static_cast<const btCylinderShape*>(shape)->getHalfExtentsWithMargin();
      const double across = std::sqrt(d.x() * d.x() + d.z() * d.z());
      const double rim = across < kFlat ? 0.0 : h.x() / across;
      return pose(btVector3(d.x() * rim, sign(d.y()) * h.y(), d.z() * rim));
    }
    case CAPSULE_SHAPE_PROXYTYPE: {
      const auto* capsule = static_cast<const btCapsuleShape*>(shape);
      if (capsule->getUpAxis() != 1) return fallback;
      return pose(btVector3(0, sign(d.y()) * capsule->getHalfHeight(), 0)) - normal * capsule->getRadius();
    }
    case SPHERE_SHAPE_PROXYTYPE:
      return pose.getOrigin() - normal * static_cast<const btSphereShape*>(shape)->getRadius();
    default: return fallback;
  }
}

/// One convex pair's contact, when closer than `max_distance`.
struct PairInput {
  const btCollisionShape* character_shape;
  const btTransform* character_pose;
  const ConvexSolid* character;
  double max_distance;
  const btCollisionObject* object;
  std::vector<Contact>* out;
  TriangleCache* triangles;  ///< may be null: the shape's own walk
};

/// Appends the contact `d` of the character with `body` (`on_a` the
/// witness on the character) when within the distance; `to_world` turns the
/// pair's frame into the world's; `shape` (at `shape_basis`) gives the face
/// normal, or for a triangle (null) `triangle_face`, its unit normal in the
/// pair's frame.
void add_contact(const PairInput& in, const ConvexSolid& body, const ExactContact& d, const btVector3& on_a,
                 const btTransform& to_world, const btCollisionShape* shape, const btMatrix3x3& shape_basis,
                 const btVector3& triangle_face) {
  if (d.distance > in.max_distance) return;  // Bullet may report a few of these, never all: none
  Contact c;
  c.normal = to_world.getBasis() * d.normal;
  c.distance = d.distance;
  // On the body's extent along the normal, below the middle of the
  // character's lowest feature, when the body is there (its highest
  // feature along the normal holds it); else where the search put the two
  // in touch (a triangle's corner under a cap, a lying cylinder's top line
  // beside the cap's centre).
  const btVector3 low = lowest_feature_middle(in.character_shape, *in.character_pose, d.normal, on_a);
  const btVector3 middle = low + d.normal * (body.extent(d.normal) - low.dot(d.normal));
  c.point = to_world * (body.holds(middle, kOnBody) ? middle : d.point);
  c.object = in.object;
  if (shape != nullptr) {
    c.face_normal = face_normal(shape, shape_basis, c.normal);
  } else if (!triangle_face.isZero()) {
    btVector3 face = to_world.getBasis() * triangle_face;
    if (face.dot(c.normal) < 0) face = -face;  // either side may face the character
    if (face.dot(c.normal) >= 1.0 - kSameFace) c.face_normal = face;
  }
  in.out->push_back(c);
}

/// GJK's first direction from a body (`shape` at `pose`) toward the point
/// `at` (the character's centre): for a box, its face `at` lies beyond the
/// most (standing on a face, the answer's normal: GJK ends in a few steps);
/// else the line between the centres (for a cylinder body, its cap or the
/// way out from its axis was slower).
btVector3 first_direction(const btConvexShape* shape, const btTransform& pose, const btVector3& at) {
  const btVector3 l = pose.invXform(at);
  if (shape->getShapeType() == BOX_SHAPE_PROXYTYPE) {
    const btVector3 h = static_cast<const btBoxShape*>(shape)->getHalfExtentsWithMargin();
    const btVector3 beyond(std::fabs(l.x()) - h.x(), std::fabs(l.y()) - h.y(), std::fabs(l.z()) - h.z());
    const int axis = beyond.maxAxis();
    btVector3 local(0, 0, 0);
    local[axis] = l[axis] >= 0.0 ? 1.0 : -1.0;
    return pose.getBasis() * local;
  }
  return at - pose.getOrigin();
}

/// The character against one convex shape at `pose` (world).
void convex_pair(const PairInput& in, const btConvexShape* shape, const btTransform& pose) {
  const ConvexSolid body = ConvexSolid::of(shape, pose);
  const btVector3 guess = first_direction(shape, pose, in.character_pose->getOrigin());
  ConvexDetail detail;
  const ExactContact d = convex_distance(*in.character, body, guess, in.max_distance, &detail);
  btTransform identity;
  identity.setIdentity();
  add_contact(in, body, d, detail.on_a, identity, shape, pose.getBasis(), btVector3(0, 0, 0));
}

/// Receives the triangles near the character, in the concave shape's frame,
/// where the character's solid is posed too.
struct TrianglePairs final : btTriangleCallback {
  void processTriangle(btVector3* v, int, int) override {
    btVector3 face = (v[1] - v[0]).cross(v[2] - v[0]);
    const double area2 = face.length2();
    if (area2 > 1e-24) {
      // Its plane first: the separation along either side of it is a lower
      // bound on the distance (most triangles near a character end here).
      face /= std::sqrt(area2);
      const double offset = v[0].dot(face);
      const double above = -character->extent(-face) - offset - margin;
      const double below = offset - character->extent(face) - margin;
      if (std::max(above, below) > in.max_distance) return;
      // Then the planes through its edges across it: a character beside
      // the triangle is that far beyond one of them.
      for (int i = 0; i < 3; ++i) {
        const btVector3& from = v[i];
        const btVector3& to = v[(i + 1) % 3];
        const btVector3 out = (to - from).cross(face).normalized();  // away from the third corner
        const double beside = -character->extent(-out) - std::max(from.dot(out), to.dot(out)) - margin;
        if (beside > in.max_distance) return;
      }
    } else {
      face.setZero();
    }
    const ConvexSolid body = ConvexSolid::triangle(v[0], v[1], v[2], margin);
    // The first guess: the face's normal on the character's side (a
    // character on a face is answered at once), else the line from the
    // middle.
    const btVector3 centroid = (v[0] + v[1] + v[2]) * (1.0 / 3.0);
    btVector3 guess = local_pose.getOrigin() - centroid;
    if (!face.isZero()) guess = face.dot(guess) >= 0.0 ? face : -face;
    ConvexDetail detail;
    const ExactContact d = convex_distance(*character, body, guess, in.max_distance, &detail);
    add_contact(in, body, d, detail.on_a, to_world, nullptr, btMatrix3x3::getIdentity(), face);
  }

  PairInput in;
  const ConvexSolid* character = nullptr;
  btTransform local_pose;
  btTransform to_world;
  double margin = 0.0;
};

void triangle_pairs(const PairInput& world_in, const btConvexShape* character_shape, const btConcaveShape* shape,
                    const btTransform& pose) {
  TrianglePairs pairs;
  pairs.to_world = pose;
  pairs.local_pose = pose.inverseTimes(*world_in.character_pose);
  const ConvexSolid character = ConvexSolid::of(character_shape, pairs.local_pose);
  pairs.in = world_in;
  pairs.in.character_pose = &pairs.local_pose;
  pairs.in.character = &character;
  pairs.character = &character;
  pairs.margin = shape->getMargin();
  // Only triangles whose bounds meet the character's, grown by how far a
  // contact may be, can be that close.
  btVector3 low;
  btVector3 high;
  character_shape->getAabb(pairs.local_pose, low, high);
  const double reach = std::max(0.0, world_in.max_distance) + pairs.margin + 1e-9;
  low -= btVector3(reach, reach, reach);
  high += btVector3(reach, reach, reach);
  TriangleCache* cache = world_in.triangles;
  if (cache == nullptr || !cache->process_all_triangles(shape, &pairs, low, high))
    shape->processAllTriangles(&pairs, low, high);
}

bool compound_pairs(const PairInput& in, const btConvexShape* character_shape, const btCompoundShape* compound,
                    const btTransform& pose) {
  if (!all_children(*compound, [](const btCollisionShape* child) { return child->isConvex(); })) return false;
  // Children whose tree bounds miss the character's, grown by how far a
  // contact may be, are skipped without composing their pose.
  btVector3 low;
  btVector3 high;
  character_shape->getAabb(pose.inverseTimes(*in.character_pose), low, high);
  const double reach = std::max(0.0, in.max_distance) + 1e-9;
  low -= btVector3(reach, reach, reach);
  high += btVector3(reach, reach, reach);
  return walk_children(
      *compound, pose,
      [&](const btVector3& leaf_low, const btVector3& leaf_high) {
        return TestAabbAgainstAabb2(low, high, leaf_low, leaf_high);
      },
      [&](const btCollisionShape* child, const btTransform& at, int) {
        convex_pair(in, static_cast<const btConvexShape*>(child), at);
        return true;
      });
}

}  // namespace

bool compound_cylinder_contacts(const btCollisionObject* character, const btCollisionObject* other,
                                double max_distance, std::vector<Contact>* out, TriangleCache* triangles) {
  if (!has_cylinder_child(other->getCollisionShape())) return false;
  return cylinder_pair_contacts(character, other, max_distance, out, triangles);
}

bool cylinder_pair_contacts(const btCollisionObject* character, const btCollisionObject* other, double max_distance,
                            std::vector<Contact>* out, TriangleCache* triangles) {
  const btCollisionShape* mine = character->getCollisionShape();
  const btCollisionShape* theirs = other->getCollisionShape();
  if (!mine->isConvex()) return false;
  if (!is_cylinder(mine) && !round_or_hull(theirs->getShapeType()) && !has_cylinder_child(theirs)) return false;
  const auto* character_shape = static_cast<const btConvexShape*>(mine);
  const btTransform& pose = other->getWorldTransform();
  const ConvexSolid solid = ConvexSolid::of(character_shape, character->getWorldTransform());
  const PairInput in{mine, &character->getWorldTransform(), &solid, max_distance, other, out, triangles};
  if (theirs->isConvex()) {
    convex_pair(in, static_cast<const btConvexShape*>(theirs), pose);
    return true;
  }
  if (theirs->getShapeType() == COMPOUND_SHAPE_PROXYTYPE)
    return compound_pairs(in, character_shape, static_cast<const btCompoundShape*>(theirs), pose);
  if (theirs->isConcave() && is_cylinder(mine)) {
    triangle_pairs(in, character_shape, static_cast<const btConcaveShape*>(theirs), pose);
    return true;
  }
  return false;
}

}  // namespace stepslide::detail
