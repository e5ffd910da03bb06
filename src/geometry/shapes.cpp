#include "geometry/shapes.h"

#include <BulletCollision/CollisionShapes/btTriangleShape.h>

#include <cmath>

namespace stepslide::detail {

btVector3 face_normal(const btCollisionShape* shape, const btMatrix3x3& basis, const btVector3& normal) {
  if (shape->getShapeType() == BOX_SHAPE_PROXYTYPE) {
    const btVector3 local = basis.transpose() * normal;
    const int axis = local.absolute().maxAxis();
    if (std::fabs(local[axis]) < 1.0 - kSameFace) return btVector3(0, 0, 0);
    btVector3 face(0, 0, 0);
    face[axis] = local[axis] > 0 ? 1.0 : -1.0;
    return basis * face;
  }
  if (shape->getShapeType() == CYLINDER_SHAPE_PROXYTYPE) {  // a cap (disc platforms), not the side
    const btVector3 local = basis.transpose() * normal;
    const int axis = static_cast<const btCylinderShape*>(shape)->getUpAxis();
    if (std::fabs(local[axis]) < 1.0 - kSameFace) return btVector3(0, 0, 0);
    btVector3 face(0, 0, 0);
    face[axis] = local[axis] > 0 ? 1.0 : -1.0;
    return basis * face;
  }
  if (shape->getShapeType() == TRIANGLE_SHAPE_PROXYTYPE) {
    const auto* triangle = static_cast<const btTriangleShape*>(shape);
    btVector3 face = basis * (triangle->m_vertices1[1] - triangle->m_vertices1[0])
                                 .cross(triangle->m_vertices1[2] - triangle->m_vertices1[0]);
    if (face.length2() < 1e-24) return btVector3(0, 0, 0);  // degenerate
    face.normalize();
    if (face.dot(normal) < 0) face = -face;  // either side may face the character
    if (face.dot(normal) < 1.0 - kSameFace) return btVector3(0, 0, 0);
    return face;
  }
  return btVector3(0, 0, 0);
}

bool box_edge_faces(const btMatrix3x3& basis, const btVector3& normal, btVector3 faces[2]) {
  constexpr double kAlongEdge = 1e-12;
  const btVector3 local = basis.transpose() * normal;
  int edge = -1;
  for (int i = 0; i < 3; ++i) {
    if (std::fabs(local[i]) > kAlongEdge) continue;
    if (edge >= 0) return false;  // on a face
    edge = i;
  }
  if (edge < 0) return false;  // at a corner
  int n = 0;
  for (int i = 0; i < 3; ++i) {
    if (i == edge) continue;
    btVector3 face(0, 0, 0);
    face[i] = local[i] > 0 ? 1.0 : -1.0;
    faces[n++] = basis * face;
  }
  return true;
}

bool capsule_segment(const btCollisionShape* shape, const btTransform& pose, btVector3* a, btVector3* b,
                     double* radius) {
  if (shape->getLocalScaling() != btVector3(1, 1, 1)) return false;
  if (shape->getShapeType() == CAPSULE_SHAPE_PROXYTYPE) {
    const auto* capsule = static_cast<const btCapsuleShape*>(shape);
    btVector3 half(0, 0, 0);
    half[capsule->getUpAxis()] = capsule->getHalfHeight();
    *a = pose * -half;
    *b = pose * half;
    *radius = capsule->getRadius();
    return true;
  }
  if (shape->getShapeType() == SPHERE_SHAPE_PROXYTYPE) {
    *a = *b = pose.getOrigin();
    *radius = static_cast<const btSphereShape*>(shape)->getRadius();
    return true;
  }
  return false;
}

}  // namespace stepslide::detail
