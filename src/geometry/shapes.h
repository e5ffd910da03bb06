// What the pair functions need to know about the shapes Bullet hands them:
// faces, solid cores, segments of capsules.
#pragma once

#include "geometry/bullet_shapes.h"

namespace stepslide::detail {

/// Contact normals within this of a face's normal (1 - cos, 0.08 degrees)
/// are on that face: GJK's normal carries a little noise, an edge's leans.
constexpr double kSameFace = 1e-6;

/// The normal of the face of `shape` (the shape Bullet handed the contact
/// callback: a box, a compound's child box, a cylinder's cap, or one
/// triangle of a mesh or heightfield, with `basis` its world rotation) that a
/// contact with `normal` lies on, facing the character; zero when it is not
/// on one face.
btVector3 face_normal(const btCollisionShape* shape, const btMatrix3x3& basis, const btVector3& normal);

/// Whether a contact with a box (of world rotation `basis`) whose normal
/// is `normal` lies on one edge: in the box's frame the normal has no
/// part (within 1e-12) along exactly one axis, the edge's, and leans out
/// of both faces beside it. Sets `faces` to those faces' outward normals
/// (the box's axes, signed as the normal leans: world terms). The normal of
/// a contact on a face is along one axis, at a corner along none.
bool box_edge_faces(const btMatrix3x3& basis, const btVector3& normal, btVector3 faces[2]);

/// Whether a box's or cylinder's core (its half extents without the margin,
/// Bullet's implicit dimensions) is a solid: a margin wider than half an
/// extent inverts it, Bullet's support function then describes no solid, and
/// only Bullet knows its answers.
inline bool has_core(const btVector3& core) { return core.x() >= 0.0 && core.y() >= 0.0 && core.z() >= 0.0; }

/// Whether a body of Bullet shape type `type` is round (a cylinder, sphere
/// or capsule) or a convex hull: the bodies the adapter answers from support
/// functions (convex_distance) for characters other shape functions do not
/// cover (cylinder_contacts.h, convex_sweep_pairs.h).
inline bool round_or_hull(int type) {
  return type == CYLINDER_SHAPE_PROXYTYPE || type == SPHERE_SHAPE_PROXYTYPE || type == CAPSULE_SHAPE_PROXYTYPE ||
         type == CONVEX_HULL_SHAPE_PROXYTYPE;
}

/// `shape` at `pose` as a segment a→b grown by a radius, when it is an
/// unscaled capsule or sphere (Bullet's margin of both is their radius).
bool capsule_segment(const btCollisionShape* shape, const btTransform& pose, btVector3* a, btVector3* b,
                     double* radius);

}  // namespace stepslide::detail
