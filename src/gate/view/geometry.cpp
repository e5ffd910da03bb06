#include "gate/view/geometry.h"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <LinearMath/btConvexHullComputer.h>

#include <algorithm>
#include <cmath>

#include "scenario/load/convert.h"
#include "stepslide/math.h"

namespace stepslide::view {

namespace {

/// One point of a profile turned about local Y: `radius` from the axis at `y`.
struct ProfilePoint {
  double radius = 0.0;
  double y = 0.0;
};

/// The solid of revolution of `profile`, which runs from the top pole
/// (radius 0) through rings to the bottom pole (radius 0): a fan at each
/// pole and two triangles per segment between consecutive rings.
TriMesh lathe(const std::vector<ProfilePoint>& profile) {
  TriMesh mesh;
  const auto segments = static_cast<std::uint32_t>(kRoundSegments);
  const auto rings = static_cast<std::uint32_t>(profile.size() - 2);
  mesh.vertices.emplace_back(0, profile.front().y, 0);
  for (std::size_t r = 1; r + 1 < profile.size(); ++r) {
    for (std::uint32_t s = 0; s < segments; ++s) {
      const double angle = 2 * kPi * s / segments;
      mesh.vertices.emplace_back(profile[r].radius * std::cos(angle), profile[r].y,
                                 -profile[r].radius * std::sin(angle));
    }
  }
  mesh.vertices.emplace_back(0, profile.back().y, 0);
  const std::uint32_t bottom = 1 + rings * segments;
  auto ring_vertex = [&](std::uint32_t ring, std::uint32_t s) { return 1 + ring * segments + s % segments; };
  for (std::uint32_t s = 0; s < segments; ++s) mesh.triangles.push_back({0, ring_vertex(0, s), ring_vertex(0, s + 1)});
  for (std::uint32_t r = 0; r + 1 < rings; ++r) {
    for (std::uint32_t s = 0; s < segments; ++s) {
      mesh.triangles.push_back({ring_vertex(r, s), ring_vertex(r + 1, s), ring_vertex(r + 1, s + 1)});
      mesh.triangles.push_back({ring_vertex(r, s), ring_vertex(r + 1, s + 1), ring_vertex(r, s + 1)});
    }
  }
  for (std::uint32_t s = 0; s < segments; ++s) {
    mesh.triangles.push_back({ring_vertex(rings - 1, s + 1), ring_vertex(rings - 1, s), bottom});
  }
  return mesh;
}

/// A quarter circle of `radius` about height `centre`, top to bottom
/// without its pole: the upper half (`sign` +1) from near its pole down to
/// the equator, the lower half (-1) from the equator down to near its pole.
void add_quarter(std::vector<ProfilePoint>& profile, double radius, double centre, int sign) {
  for (int k = 1; k <= kQuarterRings; ++k) {
    const int step = sign > 0 ? k : kQuarterRings + 1 - k;  // from this half's pole
    const double angle = 0.5 * kPi * step / kQuarterRings;
    profile.push_back({radius * std::sin(angle), centre + sign * radius * std::cos(angle)});
  }
}

/// `mesh` turned so that its local Y axis lies along `axis` (0 = X, 1 = Y, 2 = Z).
TriMesh along_axis(TriMesh mesh, int axis) {
  if (axis == 1) return mesh;
  for (btVector3& v : mesh.vertices) v = axis == 0 ? btVector3(v.y(), -v.x(), v.z()) : btVector3(v.x(), -v.z(), v.y());
  return mesh;
}

/// Fans the face starting at `edge` (counter-clockwise around the face).
void add_face(const btConvexHullComputer::Edge* edge, TriMesh& mesh) {
  const auto first = static_cast<std::uint32_t>(edge->getSourceVertex());
  const btConvexHullComputer::Edge* e = edge->getNextEdgeOfFace();
  while (e->getTargetVertex() != edge->getSourceVertex()) {
    mesh.triangles.push_back({first, static_cast<std::uint32_t>(e->getSourceVertex()),
                              static_cast<std::uint32_t>(e->getTargetVertex())});
    e = e->getNextEdgeOfFace();
  }
}

}  // namespace

void TriMesh::append(const TriMesh& other, const btTransform& pose) {
  const auto offset = static_cast<std::uint32_t>(vertices.size());
  for (const btVector3& v : other.vertices) vertices.push_back(pose * v);
  for (const auto& t : other.triangles) triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
}

std::array<btVector3, 2> TriMesh::bounds() const {
  if (vertices.empty()) return {btVector3(0, 0, 0), btVector3(0, 0, 0)};
  btVector3 lo = vertices.front(), hi = vertices.front();
  for (const btVector3& v : vertices) {
    lo.setMin(v);
    hi.setMax(v);
  }
  return {lo, hi};
}

TriMesh box_mesh(const btVector3& h) {
  TriMesh mesh;
  // Corner i has +x when bit 0 is set, +y for bit 1, +z for bit 2.
  for (int i = 0; i < 8; ++i) {
    mesh.vertices.emplace_back(i & 1 ? h.x() : -h.x(), i & 2 ? h.y() : -h.y(), i & 4 ? h.z() : -h.z());
  }
  // Each face as two triangles, counter-clockwise seen from outside.
  mesh.triangles = {{0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5},   // -x, +x
                    {0, 1, 5}, {0, 5, 4}, {2, 6, 7}, {2, 7, 3},   // -y, +y
                    {0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}};  // -z, +z
  return mesh;
}

TriMesh sphere_mesh(double radius) { return capsule_mesh(radius, 0.0); }

TriMesh capsule_mesh(double radius, double half_height) {
  std::vector<ProfilePoint> profile{{0.0, half_height + radius}};
  add_quarter(profile, radius, half_height, +1);
  // A sphere's two halves share their equator.
  if (half_height == 0.0) profile.pop_back();
  add_quarter(profile, radius, -half_height, -1);
  profile.push_back({0.0, -half_height - radius});
  return lathe(profile);
}

TriMesh cylinder_mesh(double radius, double half_height) {
  return lathe({{0.0, half_height}, {radius, half_height}, {radius, -half_height}, {0.0, -half_height}});
}

TriMesh hull_mesh(const std::vector<btVector3>& points) {
  TriMesh mesh;
  if (points.size() < 4) return mesh;
  btConvexHullComputer hull;
  hull.compute(&points[0].x(), static_cast<int>(sizeof(btVector3)), static_cast<int>(points.size()), 0, 0);
  for (int i = 0; i < hull.vertices.size(); ++i) mesh.vertices.push_back(hull.vertices[i]);
  for (int i = 0; i < hull.faces.size(); ++i) add_face(&hull.edges[hull.faces[i]], mesh);
  return mesh;
}

TriMesh definition_mesh(const ShapeDef& s) {
  TriMesh mesh;
  for (const Vec3& v : s.vertices) mesh.vertices.push_back(to_bt(v));
  for (const auto& t : s.triangles) {
    mesh.triangles.push_back({static_cast<std::uint32_t>(t[0]), static_cast<std::uint32_t>(t[1]),
                              static_cast<std::uint32_t>(t[2])});
  }
  return mesh;
}

TriMesh heightfield_mesh(const ShapeDef& s) {
  TriMesh mesh;
  const auto rows = static_cast<std::uint32_t>(s.rows), columns = static_cast<std::uint32_t>(s.columns);
  for (std::uint32_t r = 0; r < rows; ++r) {
    for (std::uint32_t c = 0; c < columns; ++c) {
      const double x = (static_cast<double>(c) - 0.5 * static_cast<double>(columns - 1)) * s.cell_size;
      const double z = (static_cast<double>(r) - 0.5 * static_cast<double>(rows - 1)) * s.cell_size;
      mesh.vertices.emplace_back(x, s.heights[static_cast<std::size_t>(r) * columns + c], z);
    }
  }
  // Bullet (no flipped edges, no diamond subdivision) splits each cell along
  // the diagonal from (row, column + 1) to (row + 1, column).
  for (std::uint32_t r = 0; r + 1 < rows; ++r) {
    for (std::uint32_t c = 0; c + 1 < columns; ++c) {
      const std::uint32_t a = r * columns + c, b = a + 1, d = a + columns, e = d + 1;
      mesh.triangles.push_back({a, d, b});
      mesh.triangles.push_back({b, d, e});
    }
  }
  return mesh;
}

TriMesh shape_mesh(const btCollisionShape& shape) {
  switch (shape.getShapeType()) {
    case COMPOUND_SHAPE_PROXYTYPE: {
      const auto& compound = static_cast<const btCompoundShape&>(shape);
      TriMesh mesh;
      for (int i = 0; i < compound.getNumChildShapes(); ++i) {
        mesh.append(shape_mesh(*compound.getChildShape(i)), compound.getChildTransform(i));
      }
      return mesh;
    }
    case BOX_SHAPE_PROXYTYPE:
      return box_mesh(static_cast<const btBoxShape&>(shape).getHalfExtentsWithMargin());
    case SPHERE_SHAPE_PROXYTYPE:
      return sphere_mesh(static_cast<const btSphereShape&>(shape).getRadius());
    case CAPSULE_SHAPE_PROXYTYPE: {
      const auto& capsule = static_cast<const btCapsuleShape&>(shape);
      return along_axis(capsule_mesh(capsule.getRadius(), capsule.getHalfHeight()), capsule.getUpAxis());
    }
    case CYLINDER_SHAPE_PROXYTYPE: {
      const auto& cylinder = static_cast<const btCylinderShape&>(shape);
      const btVector3 h = cylinder.getHalfExtentsWithMargin();
      const int axis = cylinder.getUpAxis();
      return along_axis(cylinder_mesh(h[(axis + 1) % 3], h[axis]), axis);
    }
    case CONVEX_HULL_SHAPE_PROXYTYPE: {
      const auto& hull = static_cast<const btConvexHullShape&>(shape);
      const btVector3* points = hull.getUnscaledPoints();
      return hull_mesh(std::vector<btVector3>(points, points + hull.getNumPoints()));
    }
    default: {
      btVector3 lo, hi;
      shape.getAabb(btTransform::getIdentity(), lo, hi);
      TriMesh mesh;
      mesh.append(box_mesh(0.5 * (hi - lo)), btTransform(btQuaternion::getIdentity(), 0.5 * (hi + lo)));
      return mesh;
    }
  }
}

TriMesh body_mesh(const Scenario& scenario, const WorldBody& body) {
  const ShapeDef& shape = scenario.world[body.def_index].shape;
  if (shape.type == ShapeType::Mesh) return definition_mesh(shape);
  if (shape.type == ShapeType::Heightfield) return heightfield_mesh(shape);
  TriMesh mesh;
  mesh.append(shape_mesh(*body.object->getCollisionShape()), body.local_offset);
  return mesh;
}

TriMesh character_mesh(const ShapeDef& shape, const btVector3& up) {
  TriMesh local;
  double feet_to_centre = 0.0;
  switch (shape.type) {
    case ShapeType::Sphere:
      local = sphere_mesh(shape.radius);
      feet_to_centre = shape.radius;
      break;
    case ShapeType::Cylinder:
      local = cylinder_mesh(shape.radius, 0.5 * shape.height);
      feet_to_centre = 0.5 * shape.height;
      break;
    case ShapeType::Box:
      local = box_mesh(to_bt(shape.half_extents));
      feet_to_centre = shape.half_extents[1];
      break;
    default:  // the loader allows nothing else; a capsule is the default
      local = capsule_mesh(shape.radius, 0.5 * shape.height - shape.radius);
      feet_to_centre = 0.5 * shape.height;
      break;
  }
  TriMesh mesh;
  mesh.append(local, btTransform(rotation_onto_up(up), up * feet_to_centre));
  return mesh;
}

}  // namespace stepslide::view
