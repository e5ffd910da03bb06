// box_triangle (box_triangle.h) against a brute-force search over
// directions, and the adapter's contacts of a box character with a mesh.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btTriangleMesh.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "geometry/box_triangle.h"
#include "stepslide/collision.h"
#include "support/random_geometry.h"

namespace stepslide::test {
namespace {

struct Random : RandomGeometry {
  Random() : RandomGeometry(20261123) {}
};

/// The signed distance of box and triangle along `u` (from the triangle
/// toward the box): how far apart their projections are. The signed distance
/// of two convex sets is the largest of these over all directions (negative:
/// the least penetration), so any direction gives a lower bound.
double separation(const btTransform& box, const btVector3& h, double radius, const btVector3 tri[3],
                  const btVector3& u) {
  const btVector3 local = box.getBasis().transpose() * u;
  const double box_low = box.getOrigin().dot(u) - (h.x() * std::fabs(local.x()) + h.y() * std::fabs(local.y()) +
                                                   h.z() * std::fabs(local.z()));
  const double tri_high = std::max({tri[0].dot(u), tri[1].dot(u), tri[2].dot(u)});
  return box_low - tri_high - radius;
}

/// Brute force: a dense set of directions, the best few of them then
/// refined by random perturbations that shrink when they stop helping.
double brute_force_distance(const btTransform& box, const btVector3& h, double radius, const btVector3 tri[3],
                            Random& random) {
  constexpr int kDirections = 3000;
  constexpr std::size_t kRefined = 12;
  const double golden = M_PI * (3.0 - std::sqrt(5.0));
  std::vector<std::pair<double, btVector3>> sampled;
  for (int i = 0; i < kDirections; ++i) {
    const double y = 1.0 - 2.0 * (i + 0.5) / kDirections;
    const double r = std::sqrt(1.0 - y * y);
    const btVector3 u(std::cos(golden * i) * r, y, std::sin(golden * i) * r);
    sampled.emplace_back(separation(box, h, radius, tri, u), u);
  }
  std::partial_sort(sampled.begin(), sampled.begin() + kRefined, sampled.end(),
                    [](const auto& a, const auto& b) { return a.first > b.first; });
  double best = -1e30;
  for (std::size_t c = 0; c < kRefined; ++c) {
    auto [value, u] = sampled[c];
    for (double step = 0.05; step > 1e-9; step *= 0.7) {
      for (int k = 0; k < 30; ++k) {
        const btVector3 v = (u + random.point(step)).normalized();
        const double s = separation(box, h, radius, tri, v);
        if (s > value) {
          value = s;
          u = v;
        }
      }
    }
    best = std::max(best, value);
  }
  return best;
}

double distance_to_triangle(const btVector3& x, const btVector3 tri[3]) {
  // Sampled densely enough for a test of "lies on it" within 1e-9: the
  // closest point of the plane, if inside, else the closest edge point.
  const btVector3 n = (tri[1] - tri[0]).cross(tri[2] - tri[0]).normalized();
  const btVector3 onto = x - n * (x - tri[0]).dot(n);
  bool inside = true;
  for (int j = 0; j < 3; ++j) {
    const btVector3 edge = tri[(j + 1) % 3] - tri[j];
    if (edge.cross(onto - tri[j]).dot(n) < -1e-12) inside = false;
  }
  if (inside) return (x - onto).length();
  double best = 1e30;
  for (int j = 0; j < 3; ++j) {
    const btVector3 a = tri[j], b = tri[(j + 1) % 3];
    const double t = std::clamp((x - a).dot(b - a) / (b - a).length2(), 0.0, 1.0);
    best = std::min(best, (x - (a + (b - a) * t)).length());
  }
  return best;
}

struct Case {
  btTransform box;
  btVector3 half;
  double radius;
  btVector3 tri[3];
};

Case random_case(Random& random, int i) {
  Case c;
  const btVector3 origin = random.point(0.5);
  c.box = btTransform(random.rotation(), origin);
  c.half = random.vector(0.05, 0.8);
  c.radius = (i % 3 == 0) ? 0.0 : random.uniform(0.0, 0.01);
  const double spread = (i % 4 == 0) ? 3.0 : 1.2;
  for (auto& v : c.tri) v = random.point(spread);
  if (i % 5 == 0) {
    // A box resting on (or just into, or just above) a large triangle under
    // one of its faces: the tie between the triangle's face and the box's.
    const btVector3 down = -(c.box.getBasis().getColumn(1));
    const double gap = random.uniform(-0.02, 0.02);
    const btVector3 base = c.box.getOrigin() + down * (c.half.y() + c.radius + gap);
    const btVector3 a = c.box.getBasis().getColumn(0), b = c.box.getBasis().getColumn(2);
    c.tri[0] = base + a * 5.0;
    c.tri[1] = base - a * 2.0 + b * 4.0;
    c.tri[2] = base - a * 2.0 - b * 4.0;
  }
  return c;
}

TEST(ExactBoxTriangle, MatchesBruteForceOnRandomCases) {
  Random random;
  int overlapping = 0;
  int separated = 0;
  for (int i = 0; i < 1000; ++i) {
    const Case c = random_case(random, i);
    const ExactContact exact = box_triangle(c.box, c.half, c.radius, c.tri);
    SCOPED_TRACE("case " + std::to_string(i));
    // The reported normal achieves the reported distance (so the true
    // signed distance, the largest over all directions, is at least it) ...
    EXPECT_NEAR(separation(c.box, c.half, c.radius, c.tri, exact.normal), exact.distance, 1e-9);
    EXPECT_NEAR(exact.normal.length(), 1.0, 1e-12);
    // ... and the brute-force search finds no direction doing better.
    const double brute = brute_force_distance(c.box, c.half, c.radius, c.tri, random);
    EXPECT_LE(brute, exact.distance + 1e-9);
    // The point lies on the triangle.
    EXPECT_LT(distance_to_triangle(exact.point, c.tri), 1e-9);
    if (exact.distance > 0) {
      // Separated: the point plus the distance along the normal is on the
      // rounded box's surface.
      ++separated;
      // And a pair of points, one in each shape, is that far apart: the
      // distance cannot be more (with the lower bound above: exact).
      const btVector3 local = c.box.invXform(exact.point + exact.normal * (exact.distance + c.radius));
      const btVector3 clamped(std::clamp(local.x(), -c.half.x(), c.half.x()),
                              std::clamp(local.y(), -c.half.y(), c.half.y()),
                              std::clamp(local.z(), -c.half.z(), c.half.z()));
      EXPECT_LT((local - clamped).length(), 1e-9);
    } else {
      ++overlapping;
    }
  }
  // Both kinds are well represented.
  EXPECT_GT(overlapping, 200);
  EXPECT_GT(separated, 200);
}

// The cutoff (most triangles a query's bounds gather are farther
// than it asks for) changes nothing the caller keeps: at or below the cutoff
// the answer is bit-for-bit the full one; above it, so is the full answer.
TEST(ExactBoxTriangle, CutoffDropsOnlyWhatIsBeyondIt) {
  Random random;
  int cut = 0;
  int kept = 0;
  for (int i = 0; i < 2000; ++i) {
    const Case c = random_case(random, i);
    const ExactContact full = box_triangle(c.box, c.half, c.radius, c.tri);
    const double cutoff = random.uniform(-0.2, 0.5);
    const ExactContact quick = box_triangle(c.box, c.half, c.radius, c.tri, cutoff);
    SCOPED_TRACE("case " + std::to_string(i));
    if (quick.distance > cutoff) {
      ++cut;
      EXPECT_GT(full.distance, cutoff);
      EXPECT_LE(quick.distance, full.distance + 1e-12);  // a lower bound
    } else {
      ++kept;
      EXPECT_EQ(quick.distance, full.distance);
      EXPECT_EQ(quick.normal, full.normal);
      EXPECT_EQ(quick.point, full.point);
    }
  }
  EXPECT_GT(cut, 200);
  EXPECT_GT(kept, 200);
}

TEST(ExactBoxTriangle, BoxOnAFloorReportsTheFaceAndTheMiddleOfTheOverlap) {
  const btVector3 floor[3] = {btVector3(-10, 0, -10), btVector3(10, 0, -10), btVector3(0, 0, 10)};
  const btTransform box(btQuaternion::getIdentity(), btVector3(1, 0.5 - 0.003, 2));
  const ExactContact c = box_triangle(box, btVector3(0.499, 0.499, 0.499), 0.001, floor);
  EXPECT_NEAR(c.distance, -0.003, 1e-12);
  EXPECT_NEAR(c.normal.y(), 1.0, 1e-12);
  EXPECT_NEAR(c.point.x(), 1.0, 1e-12);
  EXPECT_NEAR(c.point.y(), 0.0, 1e-12);
  EXPECT_NEAR(c.point.z(), 2.0, 1e-12);
}

TEST(ExactBoxTriangle, BoxOverARidgeIsSeparatedByTheRoundedCorner) {
  // A slope falling away at 45 degrees from its top edge (x = -1, y = 0);
  // the bottom-left edge of the box's core 1.5 mm from it along the
  // diagonal, rounded by 1 mm: 0.5 mm apart, edge to edge. (A sharp box of
  // the same outer size would be 0.086 mm away: the rounding counts.)
  const btVector3 ridge[3] = {btVector3(-1, 0, -5), btVector3(-1, 0, 5), btVector3(-3, -2, 0)};
  const double d = 0.0015 / std::sqrt(2.0);
  const btVector3 half(0.5, 0.5, 0.5);
  const btTransform box(btQuaternion::getIdentity(), btVector3(-1 + d + 0.5, d + 0.5, 0));
  const ExactContact c = box_triangle(box, half, 0.001, ridge);
  // Core edge to ridge edge: 1.5 mm; less the 1 mm rounding.
  EXPECT_NEAR(c.distance, 0.0005, 1e-12);
  EXPECT_NEAR(c.point.x(), -1.0, 1e-12);
  EXPECT_NEAR(c.point.y(), 0.0, 1e-12);
}

TEST(ExactBoxTriangle, DegenerateTrianglesAreAPointOrASegment) {
  const btTransform box(btQuaternion(btVector3(1, 2, 3).normalized(), 0.7), btVector3(0.1, 0.2, 0.3));
  const btVector3 half(0.4, 0.3, 0.2);
  Random random;
  for (int i = 0; i < 200; ++i) {
    const btVector3 a = random.point(1.0);
    const btVector3 b = random.point(1.0);
    const btVector3 point[3] = {a, a, a};
    const btVector3 segment[3] = {a, b, a + (b - a) * 0.5};
    for (const btVector3* tri : {point, segment}) {
      const ExactContact c = box_triangle(box, half, 0.001, tri);
      ASSERT_TRUE(std::isfinite(c.distance));
      EXPECT_NEAR(c.normal.length(), 1.0, 1e-12);
      EXPECT_NEAR(separation(box, half, 0.001, tri, c.normal), c.distance, 1e-9);
      EXPECT_LE(brute_force_distance(box, half, 0.001, tri, random), c.distance + 1e-9);
    }
  }
}

/// A world with one mesh of the given triangles.
struct MeshWorld {
  explicit MeshWorld(const std::vector<std::array<btVector3, 3>>& triangles) {
    for (const auto& t : triangles) mesh.addTriangle(t[0], t[1], t[2], false);
    shape = std::make_unique<btBvhTriangleMeshShape>(&mesh, true);
    level.setCollisionShape(shape.get());
    level.setWorldTransform(btTransform(btQuaternion(btVector3(0, 1, 0), 0.3), btVector3(0.2, -0.1, 0.4)));
    world.addCollisionObject(&level);
    world.updateAabbs();
  }
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher{&configuration};
  btDbvtBroadphase broadphase;
  btCollisionWorld world{&dispatcher, &broadphase, &configuration};
  btTriangleMesh mesh{true, true};
  std::unique_ptr<btBvhTriangleMeshShape> shape;
  btCollisionObject level;
};

TEST(ExactBoxTriangle, AdapterAnswersABoxCharactersTrianglesExactly) {
  // Two triangles forming a ridge; a box character straddling it.
  const std::vector<std::array<btVector3, 3>> triangles = {
      {btVector3(-2, -1, -2), btVector3(0, 0, -2), btVector3(0, 0, 2)},
      {btVector3(0, 0, -2), btVector3(2, -0.5, -2), btVector3(0, 0, 2)},
  };
  MeshWorld w(triangles);
  btBoxShape shape(btVector3(0.4, 0.5, 0.3));
  shape.setMargin(0.001);
  btCollisionObject character;
  character.setCollisionShape(&shape);
  const btTransform pose(btQuaternion(btVector3(0, 1, 0), 0.2), w.level.getWorldTransform() * btVector3(0.1, 0.49, 0));
  character.setWorldTransform(pose);
  CollisionQueries queries(&w.world, nullptr);
  std::vector<Contact> contacts;
  queries.contacts(&character, 0.0, contacts);
  ASSERT_EQ(contacts.size(), 2u);
  double deepest = 0.0;
  for (const auto& t : triangles) {
    const btVector3 world_tri[3] = {w.level.getWorldTransform() * t[0], w.level.getWorldTransform() * t[1],
                                    w.level.getWorldTransform() * t[2]};
    deepest = std::min(deepest, box_triangle(pose, shape.getHalfExtentsWithoutMargin(), 0.001, world_tri).distance);
  }
  EXPECT_EQ(contacts.front().distance, deepest);
  EXPECT_EQ(contacts.front().object, &w.level);
  EXPECT_DOUBLE_EQ(queries.penetration_depth(&character), -deepest);
  // Lifted clear by a millimetre: no contact (max_distance 0 reports overlaps only).
  character.setWorldTransform(btTransform(pose.getBasis(), pose.getOrigin() + btVector3(0, -deepest + 0.001, 0)));
  queries.contacts(&character, 0.0, contacts);
  EXPECT_TRUE(contacts.empty());
}

}  // namespace
}  // namespace stepslide::test
