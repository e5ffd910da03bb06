#include "capture/shape_text.h"

#include <BulletCollision/CollisionShapes/btTriangleMesh.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "capture/json_text.h"
#include "stepslide/character.h"
#include "stepslide/math.h"

namespace stepslide::capture {

namespace {

// As src/scenario/world.cpp builds them (boxes: box_margin()).
constexpr double kHullMargin = 0.0001;
// As src/scenario/load_shapes.cpp refuses them, with room for rounding:
// a triangle the loader would refuse must never be written.
constexpr double kTriangleFlatness = 1e-9 * 1.01;
constexpr int kUlpSteps = 4;

std::string vec(const btVector3& v) { return json_numbers({v.x(), v.y(), v.z()}); }

bool unit_scaling(const btCollisionShape& shape) { return same_vector(shape.getLocalScaling(), btVector3(1, 1, 1)); }

/// Tries `value` and its neighbours (ulps) until `exact` accepts one.
template <class Exact>
double search(double value, Exact exact, bool& found) {
  for (int i = 0; i <= kUlpSteps; ++i) {
    for (const double toward : {INFINITY, -INFINITY}) {
      double candidate = value;
      for (int k = 0; k < i; ++k) candidate = std::nextafter(candidate, toward);
      if (exact(candidate)) {
        found = true;
        return candidate;
      }
    }
  }
  found = false;
  return value;
}

ShapeText box_text(const btBoxShape& box) {
  ShapeText out;
  out.supported = true;
  const btVector3 target = box.getImplicitShapeDimensions();
  btVector3 half = box.getHalfExtentsWithMargin();
  auto rebuilt = [](const btVector3& h) {
    btBoxShape replica(h);
    replica.setMargin(box_margin(h));
    return std::make_pair(replica.getImplicitShapeDimensions(), replica.getMargin());
  };
  bool all = true;
  for (int axis = 0; axis < 3; ++axis) {
    bool found = false;
    half[axis] = search(half[axis], [&](double candidate) {
      btVector3 h = half;
      h[axis] = candidate;
      return rebuilt(h).first[axis] == target[axis];
    }, found);
    all = all && found;
  }
  const auto [dims, margin] = rebuilt(half);
  out.exact = all && same_vector(dims, target) && margin == box.getMargin() && unit_scaling(box);
  if (!out.exact) {
    out.note = "box margin " + json_number(box.getMargin()) + " (the scenario's boxes have " +
               json_number(margin) + ")";
  }
  out.json = JsonList(JsonList::Kind::Object, false).member("type", "\"box\"").member("half_extents", vec(half)).text();
  return out;
}

ShapeText sphere_text(const btSphereShape& sphere) {
  ShapeText out;
  out.supported = true;
  const double radius = sphere.getRadius();
  const btSphereShape replica(radius);
  out.exact = replica.getImplicitShapeDimensions().x() == sphere.getImplicitShapeDimensions().x() &&
              replica.getMargin() == sphere.getMargin() && unit_scaling(sphere);
  if (!out.exact) out.note = "sphere with a margin or scaling of its own";
  out.json = JsonList(JsonList::Kind::Object, false).member("type", "\"sphere\"").member("radius", json_number(radius)).text();
  return out;
}

ShapeText capsule_text(const btCapsuleShape& capsule) {
  ShapeText out;
  if (capsule.getUpAxis() != 1) {
    out.note = "capsule along local " + std::string(capsule.getUpAxis() == 0 ? "X" : "Z") +
               " (the format's capsules lie along Y)";
    return out;
  }
  out.supported = true;
  const double radius = capsule.getRadius();
  const double half = capsule.getHalfHeight();
  bool found = false;
  // The loader builds btCapsuleShape(radius, height - 2 radius).
  const double height = search(2 * half + 2 * radius, [&](double h) {
    return btCapsuleShape(radius, h - 2 * radius).getHalfHeight() == half;
  }, found);
  const btCapsuleShape replica(radius, height - 2 * radius);
  out.exact = found && same_vector(replica.getImplicitShapeDimensions(), capsule.getImplicitShapeDimensions()) &&
              replica.getMargin() == capsule.getMargin() && unit_scaling(capsule);
  if (!out.exact) out.note = "capsule with a margin or scaling of its own";
  out.json = JsonList(JsonList::Kind::Object, false)
                 .member("type", "\"capsule\"")
                 .member("radius", json_number(radius))
                 .member("height", json_number(height))
                 .text();
  return out;
}

btCylinderShape cylinder_replica(double radius, double height) {
  btCylinderShape cylinder(btVector3(radius, 0.5 * height, radius));
  cylinder.setMargin(std::min(kBoxMargin, 0.5 * std::min(radius, 0.5 * height)));
  return cylinder;
}

ShapeText cylinder_text(const btCylinderShape& cylinder) {
  ShapeText out;
  if (cylinder.getUpAxis() != 1) {
    out.note = "cylinder not along local Y (the format's cylinders are)";
    return out;
  }
  out.supported = true;
  const btVector3 target = cylinder.getImplicitShapeDimensions();
  const btVector3 outer = cylinder.getHalfExtentsWithMargin();
  bool radius_found = false, height_found = false;
  const double radius = search(outer.x(), [&](double r) {
    return cylinder_replica(r, 2 * outer.y()).getImplicitShapeDimensions().x() == target.x();
  }, radius_found);
  const double height = search(2 * outer.y(), [&](double h) {
    return cylinder_replica(radius, h).getImplicitShapeDimensions().y() == target.y();
  }, height_found);
  const btCylinderShape replica = cylinder_replica(radius, height);
  out.exact = radius_found && height_found && same_vector(replica.getImplicitShapeDimensions(), target) &&
              replica.getMargin() == cylinder.getMargin() && unit_scaling(cylinder);
  if (!out.exact) out.note = "cylinder with a margin, scaling or radii of its own";
  out.json = JsonList(JsonList::Kind::Object, false)
                 .member("type", "\"cylinder\"")
                 .member("radius", json_number(radius))
                 .member("height", json_number(height))
                 .text();
  return out;
}

ShapeText hull_text(const btConvexHullShape& hull) {
  ShapeText out;
  out.supported = true;
  JsonList points(JsonList::Kind::Array, false);
  const btVector3* p = hull.getUnscaledPoints();
  for (int i = 0; i < hull.getNumPoints(); ++i) points.item(vec(p[i] * hull.getLocalScaling()));
  out.exact = hull.getMargin() == kHullMargin && unit_scaling(hull);
  if (!out.exact) out.note = "convex hull margin " + json_number(hull.getMargin()) + " or scaling (the scenario's: 0.0001, none)";
  out.json = JsonList(JsonList::Kind::Object, false).member("type", "\"convex_hull\"").member("points", points.text()).text();
  return out;
}

/// The triangles of a mesh, as Bullet's queries see them (times the mesh's scaling).
struct Triangles {
  std::vector<btVector3> vertices;
  std::vector<std::array<std::int64_t, 3>> triangles;
  std::int64_t dropped = 0;  ///< degenerate: the loader refuses them
};

btVector3 read_vertex(const unsigned char* base, int stride, PHY_ScalarType type, std::int64_t index,
                      const btVector3& scaling) {
  const unsigned char* at = base + index * stride;
  if (type == PHY_FLOAT) {
    const auto* f = reinterpret_cast<const float*>(at);
    return btVector3(f[0] * scaling.x(), f[1] * scaling.y(), f[2] * scaling.z());
  }
  const auto* d = reinterpret_cast<const double*>(at);
  return btVector3(d[0] * scaling.x(), d[1] * scaling.y(), d[2] * scaling.z());
}

std::int64_t read_index(const unsigned char* base, int stride, PHY_ScalarType type, int triangle, int corner) {
  const unsigned char* at = base + static_cast<std::ptrdiff_t>(triangle) * stride;
  if (type == PHY_SHORT) return reinterpret_cast<const unsigned short*>(at)[corner];
  if (type == PHY_UCHAR) return at[corner];
  return reinterpret_cast<const unsigned int*>(at)[corner];
}

bool has_zero_area(const btVector3& a, const btVector3& b, const btVector3& c) {
  const double longest = std::max({(b - a).length(), (c - b).length(), (a - c).length()});
  return (b - a).cross(c - a).length() <= kTriangleFlatness * longest * longest;
}

Triangles read_triangles(const btStridingMeshInterface& mesh) {
  Triangles out;
  std::map<std::pair<int, std::int64_t>, std::int64_t> index_of;  // (part, vertex) -> written index
  for (int part = 0; part < mesh.getNumSubParts(); ++part) {
    const unsigned char *vertices = nullptr, *indices = nullptr;
    int vertex_count = 0, vertex_stride = 0, index_stride = 0, faces = 0;
    PHY_ScalarType vertex_type = PHY_FLOAT, index_type = PHY_INTEGER;
    mesh.getLockedReadOnlyVertexIndexBase(&vertices, vertex_count, vertex_type, vertex_stride, &indices,
                                          index_stride, faces, index_type, part);
    for (int t = 0; t < faces; ++t) {
      std::array<std::int64_t, 3> tri{};
      std::array<btVector3, 3> corners;
      for (int k = 0; k < 3; ++k) {
        const std::int64_t v = read_index(indices, index_stride, index_type, t, k);
        corners[static_cast<std::size_t>(k)] = read_vertex(vertices, vertex_stride, vertex_type, v, mesh.getScaling());
        const auto key = std::make_pair(part, v);
        auto found = index_of.find(key);
        if (found == index_of.end()) {
          found = index_of.emplace(key, static_cast<std::int64_t>(out.vertices.size())).first;
          out.vertices.push_back(corners[static_cast<std::size_t>(k)]);
        }
        tri[static_cast<std::size_t>(k)] = found->second;
      }
      if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2] || has_zero_area(corners[0], corners[1], corners[2])) {
        ++out.dropped;
        continue;
      }
      out.triangles.push_back(tri);
    }
    mesh.unLockReadOnlyVertexBase(part);
  }
  return out;
}

ShapeText mesh_text(const btBvhTriangleMeshShape& shape) {
  ShapeText out;
  const Triangles mesh = read_triangles(*shape.getMeshInterface());
  if (mesh.triangles.empty()) {
    out.note = "triangle mesh without a triangle with area";
    return out;
  }
  out.supported = true;
  out.triangles = static_cast<std::int64_t>(mesh.triangles.size());
  JsonList vertices(JsonList::Kind::Array, false);
  for (const btVector3& v : mesh.vertices) vertices.item(vec(v));
  JsonList triangles(JsonList::Kind::Array, false);
  for (const auto& t : mesh.triangles) triangles.item(JsonList(JsonList::Kind::Array, false)
                                                          .item(json_integer(t[0]))
                                                          .item(json_integer(t[1]))
                                                          .item(json_integer(t[2]))
                                                          .text());
  // The margin the scenario's meshes get (Bullet's default for the shape).
  btTriangleMesh one(true, true);
  one.addTriangle(btVector3(0, 0, 0), btVector3(1, 0, 0), btVector3(0, 0, 1), false);
  const btBvhTriangleMeshShape replica(&one, true);
  out.exact = mesh.dropped == 0 && shape.getMargin() == replica.getMargin() && shape.usesQuantizedAabbCompression();
  if (mesh.dropped > 0) {
    out.note = "mesh: left out " + std::to_string(mesh.dropped) + " degenerate triangles (the format refuses them)";
  } else if (!out.exact) {
    out.note = "mesh margin or bounding-volume compression of its own";
  }
  out.json = JsonList(JsonList::Kind::Object, false)
                 .member("type", "\"mesh\"")
                 .member("vertices", vertices.text())
                 .member("triangles", triangles.text())
                 .text();
  return out;
}

}  // namespace

ShapeText shape_text(const btCollisionShape& shape) {
  switch (shape.getShapeType()) {
    case BOX_SHAPE_PROXYTYPE:
      return box_text(static_cast<const btBoxShape&>(shape));
    case SPHERE_SHAPE_PROXYTYPE:
      return sphere_text(static_cast<const btSphereShape&>(shape));
    case CAPSULE_SHAPE_PROXYTYPE:
      return capsule_text(static_cast<const btCapsuleShape&>(shape));
    case CYLINDER_SHAPE_PROXYTYPE:
      return cylinder_text(static_cast<const btCylinderShape&>(shape));
    case CONVEX_HULL_SHAPE_PROXYTYPE:
      return hull_text(static_cast<const btConvexHullShape&>(shape));
    case TRIANGLE_MESH_SHAPE_PROXYTYPE:
      // btBvhTriangleMeshShape's name; its base class shares the type.
      if (std::string(shape.getName()) == "BVHTRIANGLEMESH") {
        return mesh_text(static_cast<const btBvhTriangleMeshShape&>(shape));
      }
      [[fallthrough]];
    default: {
      ShapeText out;
      out.note = std::string("shape ") + shape.getName() + " (the scenario format has none like it: give it in the level file)";
      return out;
    }
  }
}

std::string character_shape_json(int kind, double radius, double height, const btVector3& half_extents) {
  static const char* const kNames[] = {"\"capsule\"", "\"sphere\"", "\"cylinder\"", "\"box\""};
  JsonList shape(JsonList::Kind::Object, false);
  shape.member("type", kNames[kind]);
  if (kind == 3) return shape.member("half_extents", vec(half_extents)).text();
  shape.member("radius", json_number(radius));
  if (kind == 0 || kind == 2) shape.member("height", json_number(height));
  return shape.text();
}

}  // namespace stepslide::capture
