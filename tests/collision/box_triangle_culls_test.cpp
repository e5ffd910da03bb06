// A box character's triangle pairs skip the triangles outside their query's
// box before the exact pair (box_sweep_pairs.cpp, box_triangle_contacts.cpp)
// and take their triangles from the triangle cache when it is active: their
// answers are bit for bit the brute force's, which asks the exact pair
// (box_triangle_sweep, box_triangle) for every triangle of the shape, on a
// turned box wandering over a heightfield and a mesh.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "collision/box_sweep_pairs.h"
#include "collision/box_triangle_contacts.h"
#include "collision/triangle_cache.h"
#include "geometry/box_sweeps.h"
#include "geometry/box_triangle.h"
#include "support/random_geometry.h"

namespace stepslide::test {
namespace {

/// Every triangle of a shape, in its own frame.
struct AllTriangles : btTriangleCallback {
  void processTriangle(btVector3* v, int, int) override {
    triangles.push_back({v[0], v[1], v[2]});
  }
  struct Triangle {
    btVector3 v[3];
  };
  std::vector<Triangle> triangles;
};

struct Ground {
  explicit Ground(bool field) {
    RandomGeometry random(3);
    for (int j = 0; j < 17; ++j) {
      for (int i = 0; i < 17; ++i)
        heights.push_back(0.5 * std::sin(0.8 * i) * std::cos(0.6 * j) + random.uniform(0, 0.1));
    }
    if (field) {
      shape = std::make_unique<btHeightfieldTerrainShape>(17, 17, heights.data(), 1.0, -0.7, 0.7, 1, PHY_DOUBLE,
                                                          false);
    } else {
      for (int j = 0; j + 1 < 17; ++j) {
        for (int i = 0; i + 1 < 17; ++i) {
          const auto at = [&](int x, int z) { return btVector3(x - 8.0, heights[z * 17 + x], z - 8.0); };
          mesh.addTriangle(at(i, j), at(i + 1, j), at(i + 1, j + 1));
          mesh.addTriangle(at(i, j), at(i + 1, j + 1), at(i, j + 1));
        }
      }
      shape = std::make_unique<btBvhTriangleMeshShape>(&mesh, true);
    }
    object.setCollisionShape(shape.get());
    object.setWorldTransform(btTransform(btQuaternion(btVector3(0, 1, 0), 0.3), btVector3(0.5, -0.2, 0.25)));
    static_cast<btConcaveShape*>(shape.get())
        ->processAllTriangles(&all, btVector3(-100, -100, -100), btVector3(100, 100, 100));
  }
  std::vector<double> heights;
  btTriangleMesh mesh;
  std::unique_ptr<btCollisionShape> shape;
  btCollisionObject object;
  AllTriangles all;
};

bool same(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

void expect_as_brute_force(bool field) {
  Ground ground(field);
  ASSERT_GT(ground.all.triangles.size(), 400u);
  const btTransform& pose = ground.object.getWorldTransform();
  btBoxShape box(btVector3(0.3, 0.6, 0.2));
  box.setMargin(0.04);
  btCollisionObject character;
  character.setCollisionShape(&box);
  const btVector3 core = box.getHalfExtentsWithoutMargin();
  TriangleCache cache;
  RandomGeometry random(field ? 71 : 72);
  int hits = 0;
  int contacts = 0;
  for (int step = 0; step < 300; ++step) {
    SCOPED_TRACE(std::string(field ? "heightfield" : "mesh") + " step " + std::to_string(step));
    const btVector3 at = random.within(btVector3(-5, -0.2, -5), btVector3(5, 1.0, 5));
    const btTransform from(step % 2 == 0 ? random.rotation() : btQuaternion::getIdentity(), at);
    const btVector3 motion = random.within(btVector3(-0.8, -1.2, -0.8), btVector3(0.8, 0.3, 0.8));
    const btTransform to(from.getBasis(), at + motion);
    // The sweep: the earliest fraction of every triangle's own sweep.
    btCollisionWorld::ClosestConvexResultCallback ours(at, at + motion);
    bool answered = false;
    answered = detail::box_triangle_sweep_pair(&box, from, to, &ground.object, &ours,
                                               step % 3 == 0 ? nullptr : &cache);  // with and without the cache
    const btTransform start = pose.inverseTimes(from);
    const btVector3 local_motion = pose.getBasis().transpose() * (to.getOrigin() - from.getOrigin());
    bool all_answered = true;
    double earliest = 1.0;
    for (const auto& t : ground.all.triangles) {
      const ExactSweep s = box_triangle_sweep(start, core, box.getMargin(), local_motion, t.v, ground.shape->getMargin());
      if (!s.answered) all_answered = false;
      if (s.answered && s.hit && s.fraction < earliest) earliest = s.fraction;
    }
    if (!all_answered) continue;  // Bullet's: nothing to compare
    ASSERT_TRUE(answered);
    ASSERT_EQ(ours.hasHit(), earliest < 1.0);
    if (ours.hasHit()) {
      ASSERT_TRUE(same(ours.m_closestHitFraction, earliest))
          << ours.m_closestHitFraction << " vs " << earliest;
      ++hits;
    }
    // The contacts within a threshold: every triangle's own, one each.
    character.setWorldTransform(from);
    const double max_distance = random.uniform(0.0, 0.3);
    std::vector<Contact> found;
    ASSERT_TRUE(detail::box_triangle_contacts(&character, &ground.object, max_distance, &found,
                                              step % 3 == 1 ? nullptr : &cache));
    std::vector<double> distances;
    for (const auto& t : ground.all.triangles) {
      const btVector3 world[3] = {pose * t.v[0], pose * t.v[1], pose * t.v[2]};
      const ExactContact c = box_triangle(from, core, box.getMargin(), world);
      const double distance = c.distance - ground.shape->getMargin();
      if (distance <= max_distance) distances.push_back(distance);
    }
    std::vector<double> ours_distances;
    for (const Contact& c : found) ours_distances.push_back(c.distance);
    std::sort(distances.begin(), distances.end());
    std::sort(ours_distances.begin(), ours_distances.end());
    ASSERT_EQ(ours_distances.size(), distances.size());
    for (std::size_t i = 0; i < distances.size(); ++i) ASSERT_TRUE(same(ours_distances[i], distances[i]));
    contacts += static_cast<int>(found.size());
  }
  EXPECT_GT(hits, 60);
  EXPECT_GT(contacts, 100);
  EXPECT_GT(cache.reuses(), 0);
}

TEST(BoxTriangleCulls, HeightfieldSweepsAndContactsAreTheBruteForces) { expect_as_brute_force(true); }

TEST(BoxTriangleCulls, MeshSweepsAndContactsAreTheBruteForces) { expect_as_brute_force(false); }

}  // namespace
}  // namespace stepslide::test
