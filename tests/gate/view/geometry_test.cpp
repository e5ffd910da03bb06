// The view's geometry export (gate/view/geometry.h): each shape kind gives
// the triangles it should, where it should, for bodies built the way the
// runner builds them.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btConcaveShape.h>
#include <BulletCollision/CollisionShapes/btTriangleCallback.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "gate/view/geometry.h"
#include "scenario/load/world.h"
#include "support/test_bodies.h"

namespace stepslide {
namespace {

using view::TriMesh;

constexpr double kEps = 1e-9;

/// Every index names a vertex, and no triangle repeats a vertex.
void expect_valid(const TriMesh& mesh) {
  for (const auto& t : mesh.triangles) {
    for (std::uint32_t i : t) ASSERT_LT(i, mesh.vertices.size());
    EXPECT_TRUE(t[0] != t[1] && t[1] != t[2] && t[0] != t[2]);
  }
}

void expect_bounds(const TriMesh& mesh, const btVector3& lo, const btVector3& hi, double eps = kEps) {
  const auto b = mesh.bounds();
  for (int axis = 0; axis < 3; ++axis) {
    EXPECT_NEAR(b[0][axis], lo[axis], eps) << "low, axis " << axis;
    EXPECT_NEAR(b[1][axis], hi[axis], eps) << "high, axis " << axis;
  }
}

/// The total area of the triangles.
double area(const TriMesh& mesh) {
  double total = 0;
  for (const auto& t : mesh.triangles) {
    const btVector3 a = mesh.vertices[t[1]] - mesh.vertices[t[0]], b = mesh.vertices[t[2]] - mesh.vertices[t[0]];
    total += 0.5 * a.cross(b).length();
  }
  return total;
}

TEST(ViewGeometry, BoxIsTwelveTrianglesOverItsHalfExtents) {
  const TriMesh box = view::box_mesh(btVector3(1, 2, 3));
  EXPECT_EQ(box.vertices.size(), 8u);
  EXPECT_EQ(box.triangles.size(), 12u);
  expect_valid(box);
  expect_bounds(box, btVector3(-1, -2, -3), btVector3(1, 2, 3));
  EXPECT_NEAR(area(box), 2 * (2 * 4 + 2 * 6 + 4 * 6), 1e-9);  // the six faces, each covered once
}

TEST(ViewGeometry, SphereCapsuleAndCylinderHaveFixedCountsAndTheirExtent) {
  const int s = view::kRoundSegments, q = view::kQuarterRings;
  const TriMesh sphere = view::sphere_mesh(0.5);
  EXPECT_EQ(sphere.triangles.size(), static_cast<std::size_t>(2 * s * (2 * q - 1)));
  expect_valid(sphere);
  expect_bounds(sphere, btVector3(-0.5, -0.5, -0.5), btVector3(0.5, 0.5, 0.5));

  const TriMesh capsule = view::capsule_mesh(0.3, 0.6);
  EXPECT_EQ(capsule.triangles.size(), static_cast<std::size_t>(2 * s * 2 * q));
  expect_valid(capsule);
  expect_bounds(capsule, btVector3(-0.3, -0.9, -0.3), btVector3(0.3, 0.9, 0.3));

  const TriMesh cylinder = view::cylinder_mesh(0.4, 1.0);
  EXPECT_EQ(cylinder.triangles.size(), static_cast<std::size_t>(4 * s));
  expect_valid(cylinder);
  expect_bounds(cylinder, btVector3(-0.4, -1, -0.4), btVector3(0.4, 1, 0.4));
  // Caps are flat discs: the area is within the polygon's shortfall of 2 pi r h + 2 pi r^2.
  const double exact = 2 * M_PI * 0.4 * 2 + 2 * M_PI * 0.4 * 0.4;
  EXPECT_LT(area(cylinder), exact);
  EXPECT_GT(area(cylinder), 0.97 * exact);
}

TEST(ViewGeometry, HullIsItsConvexHullFanned) {
  std::vector<btVector3> points;
  for (int i = 0; i < 8; ++i) points.emplace_back(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
  points.emplace_back(0.2, 0.1, -0.3);  // inside: not part of the hull
  const TriMesh hull = view::hull_mesh(points);
  EXPECT_EQ(hull.vertices.size(), 8u);
  EXPECT_EQ(hull.triangles.size(), 12u);  // six squares, two triangles each
  expect_valid(hull);
  expect_bounds(hull, btVector3(-1, -1, -1), btVector3(1, 1, 1));
  EXPECT_NEAR(area(hull), 24, 1e-9);

  const TriMesh tetrahedron = view::hull_mesh({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
  EXPECT_EQ(tetrahedron.triangles.size(), 4u);
}

TEST(ViewGeometry, MeshIsItsDefinition) {
  ShapeDef s;
  s.type = ShapeType::Mesh;
  s.vertices = {{0, 0, 0}, {2, 0, 0}, {0, 0, 2}, {2, 1, 2}};
  s.triangles = {{0, 1, 2}, {1, 3, 2}};
  const TriMesh mesh = view::definition_mesh(s);
  EXPECT_EQ(mesh.vertices.size(), 4u);
  ASSERT_EQ(mesh.triangles.size(), 2u);
  EXPECT_EQ(mesh.triangles[1], (std::array<std::uint32_t, 3>{1, 3, 2}));
  expect_bounds(mesh, btVector3(0, 0, 0), btVector3(2, 1, 2));
}

TEST(ViewGeometry, HeightfieldIsTwoTrianglesPerCellCentredOnItsPosition) {
  ShapeDef s;
  s.type = ShapeType::Heightfield;
  s.rows = 3;
  s.columns = 4;
  s.cell_size = 0.5;
  s.heights = {0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, -0.5};
  const TriMesh field = view::heightfield_mesh(s);
  EXPECT_EQ(field.vertices.size(), 12u);
  EXPECT_EQ(field.triangles.size(), 2u * 2 * 3);
  expect_valid(field);
  expect_bounds(field, btVector3(-0.75, -0.5, -0.5), btVector3(0.75, 1, 0.5));
  // Bullet's diagonal: from (row 0, column 1) to (row 1, column 0).
  EXPECT_EQ(field.triangles[0], (std::array<std::uint32_t, 3>{0, 4, 1}));
  EXPECT_EQ(field.triangles[1], (std::array<std::uint32_t, 3>{1, 4, 5}));
}

/// A scenario of one body, its world, and the body's mesh in its own frame.
struct OneBody {
  explicit OneBody(const BodyDef& body) {
    scenario.ticks = 10;
    scenario.world.push_back(body);
    world = std::make_unique<World>(scenario);
    mesh = view::body_mesh(scenario, world->bodies().at(0));
  }
  Scenario scenario;
  std::unique_ptr<World> world;
  TriMesh mesh;
};

TEST(ViewGeometry, StairsAreTheirStepsAsBoxes) {
  const OneBody stairs(test::stairs(5, 0.2, 0.3, 2, {0, 0, -1}));
  EXPECT_EQ(stairs.mesh.triangles.size(), 5u * 12);
  expect_valid(stairs.mesh);
  // In the body's frame: across X by the width, up to 5 rises, back along -Z by 5 runs.
  expect_bounds(stairs.mesh, btVector3(-1, 0, -1.5), btVector3(1, 1.0, 0));
}

TEST(ViewGeometry, RampIsItsTiltedSlab) {
  const OneBody ramp(test::ramp(4, 2, 30, {0, 0, 0}));
  EXPECT_EQ(ramp.mesh.triangles.size(), 12u);
  const auto b = ramp.mesh.bounds();
  // The top surface rises along -Z at 30 degrees for 4 m: its far edge is 2 m up.
  EXPECT_NEAR(b[1].y(), 4 * std::sin(30 * M_PI / 180), 1e-9);
  EXPECT_NEAR(b[0].x(), -1, 1e-9);
  EXPECT_NEAR(b[1].x(), 1, 1e-9);
}

TEST(ViewGeometry, BodiesOfEveryKindComeFromTheWorld) {
  BodyDef sphere;
  sphere.shape.type = ShapeType::Sphere;
  sphere.shape.radius = 0.7;
  EXPECT_EQ(OneBody(sphere).mesh.triangles.size(), view::sphere_mesh(0.7).triangles.size());
  expect_bounds(OneBody(sphere).mesh, btVector3(-0.7, -0.7, -0.7), btVector3(0.7, 0.7, 0.7));

  BodyDef capsule;
  capsule.shape.type = ShapeType::Capsule;
  capsule.shape.radius = 0.25;
  capsule.shape.height = 2;
  expect_bounds(OneBody(capsule).mesh, btVector3(-0.25, -1, -0.25), btVector3(0.25, 1, 0.25));

  BodyDef cylinder;
  cylinder.shape.type = ShapeType::Cylinder;
  cylinder.shape.radius = 0.5;
  cylinder.shape.height = 3;
  expect_bounds(OneBody(cylinder).mesh, btVector3(-0.5, -1.5, -0.5), btVector3(0.5, 1.5, 0.5));

  BodyDef hull;
  hull.shape.type = ShapeType::ConvexHull;
  hull.shape.points = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  EXPECT_EQ(OneBody(hull).mesh.triangles.size(), 4u);

  // A heightfield keeps its definition's frame (height 0 at the position),
  // not Bullet's, which is centred on the middle of the height range.
  BodyDef field;
  field.shape.type = ShapeType::Heightfield;
  field.shape.rows = 2;
  field.shape.columns = 2;
  field.shape.heights = {0, 2, 0, 2};
  const OneBody f(field);
  EXPECT_EQ(f.mesh.triangles.size(), 2u);
  expect_bounds(f.mesh, btVector3(-0.5, 0, -0.5), btVector3(0.5, 2, 0.5));

  // Placement is the pose's job: a moved and turned box keeps its local extent.
  BodyDef turned = test::box({5, 1, 2}, {1, 0.5, 0.25});
  turned.rotation_deg = {0, 90, 0};
  expect_bounds(OneBody(turned).mesh, btVector3(-1, -0.5, -0.25), btVector3(1, 0.5, 0.25));
}

/// Collects Bullet's triangles, each as its three corners sorted, rounded to 1e-9.
class TriangleSet : public btTriangleCallback {
 public:
  void processTriangle(btVector3* corners, int, int) override {
    std::array<std::array<long long, 3>, 3> t{};
    for (int k = 0; k < 3; ++k) t[k] = key(offset_ * corners[k]);
    std::sort(t.begin(), t.end());
    triangles.insert(t);
  }
  static std::array<long long, 3> key(const btVector3& v) {
    return {std::llround(v.x() * 1e9), std::llround(v.y() * 1e9), std::llround(v.z() * 1e9)};
  }
  btTransform offset_ = btTransform::getIdentity();
  std::set<std::array<std::array<long long, 3>, 3>> triangles;
};

TEST(ViewGeometry, HeightfieldTrianglesAreBulletsOwn) {
  BodyDef field;
  field.shape.type = ShapeType::Heightfield;
  field.shape.rows = 4;
  field.shape.columns = 5;
  field.shape.cell_size = 0.5;
  field.shape.heights = {0, 0.1, 0.4, 0, 0, 0.2, 0.9, -0.3, 0.1, 0, 0, 0.5, 0.5, 0.2, 0, 0.3, 0, 0, 0.7, 0.1};
  const OneBody f(field);
  // Bullet's own triangles, in the body's frame (the shape sits at local_offset).
  TriangleSet bullet;
  bullet.offset_ = f.world->bodies().at(0).local_offset;
  const btVector3 big(100, 100, 100);
  static_cast<const btConcaveShape*>(f.world->bodies().at(0).object->getCollisionShape())
      ->processAllTriangles(&bullet, -big, big);
  TriangleSet drawn;
  for (const auto& t : f.mesh.triangles) {
    btVector3 corners[3] = {f.mesh.vertices[t[0]], f.mesh.vertices[t[1]], f.mesh.vertices[t[2]]};
    drawn.processTriangle(corners, 0, 0);
  }
  EXPECT_EQ(drawn.triangles.size(), 2u * 3 * 4);
  EXPECT_EQ(drawn.triangles, bullet.triangles) << "the view splits cells along another diagonal than Bullet";
}

TEST(ViewGeometry, CharacterStandsOnItsFeetAlongUp) {
  ShapeDef capsule = default_character_shape();  // r 0.3, 1.8 m tall
  expect_bounds(view::character_mesh(capsule, btVector3(0, 1, 0)), btVector3(-0.3, 0, -0.3),
                btVector3(0.3, 1.8, 0.3));
  // With +Z up the capsule lies along Z, feet at the origin.
  const auto along_z = view::character_mesh(capsule, btVector3(0, 0, 1)).bounds();
  EXPECT_NEAR(along_z[0].z(), 0, 1e-9);
  EXPECT_NEAR(along_z[1].z(), 1.8, 1e-9);

  ShapeDef box;
  box.type = ShapeType::Box;
  box.half_extents = {0.3, 0.9, 0.2};
  expect_bounds(view::character_mesh(box, btVector3(0, 1, 0)), btVector3(-0.3, 0, -0.2), btVector3(0.3, 1.8, 0.2));

  ShapeDef sphere;
  sphere.type = ShapeType::Sphere;
  sphere.radius = 0.4;
  expect_bounds(view::character_mesh(sphere, btVector3(0, 1, 0)), btVector3(-0.4, 0, -0.4), btVector3(0.4, 0.8, 0.4));

  ShapeDef cylinder;
  cylinder.type = ShapeType::Cylinder;
  cylinder.radius = 0.3;
  cylinder.height = 1.6;
  expect_bounds(view::character_mesh(cylinder, btVector3(0, 1, 0)), btVector3(-0.3, 0, -0.3),
                btVector3(0.3, 1.6, 0.3));
}

}  // namespace
}  // namespace stepslide
