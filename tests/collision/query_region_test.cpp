// The shared broadphase region (query_region.h): every query visits exactly
// the candidates, in exactly the order, that Bullet's own walk visits, across
// reuse, regions outgrown and trees changed by a moved body.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "collision/query_bounds.h"
#include "collision/query_region.h"
#include "geometry/shapes.h"

namespace stepslide::test {
namespace {

struct Visits : btBroadphaseAabbCallback {
  bool process(const btBroadphaseProxy* proxy) override {
    seen.push_back(proxy);
    return true;
  }
  std::vector<const btBroadphaseProxy*> seen;
};

struct RayVisits : btBroadphaseRayCallback {
  RayVisits(const btVector3& from, const btVector3& to) {
    detail::aim_ray(this, from, to);
  }
  bool process(const btBroadphaseProxy* proxy) override {
    seen.push_back(proxy);
    return true;
  }
  std::vector<const btBroadphaseProxy*> seen;
};

/// 600 static boxes on a jittered 2 m grid (enough leaves for a region).
struct BoxWorld {
  BoxWorld() : dispatcher(&configuration), world(&dispatcher, &broadphase, &configuration), shape(btVector3(0.4, 0.3, 0.5)) {
    std::mt19937_64 engine(7);
    std::uniform_real_distribution<double> jitter(-0.5, 0.5);
    for (int i = 0; i < 600; ++i) {
      objects.push_back(std::make_unique<btCollisionObject>());
      objects.back()->setCollisionShape(&shape);
      const double dz = jitter(engine);
      const double dy = jitter(engine);
      const double dx = jitter(engine);
      objects.back()->setWorldTransform(
          btTransform(btQuaternion::getIdentity(), btVector3(2.0 * (i % 30) + dx, dy, 2.0 * (i / 30) + dz)));
      world.addCollisionObject(objects.back().get());
    }
    world.updateAabbs();
  }
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher;
  btDbvtBroadphase broadphase;
  btCollisionWorld world;
  btBoxShape shape;
  std::vector<std::unique_ptr<btCollisionObject>> objects;
};

TEST(QueryRegion, VisitsWhatBulletsWalkVisitsInItsOrder) {
  BoxWorld w;
  QueryRegion region;
  std::mt19937_64 engine(11);
  std::uniform_real_distribution<double> step(-0.3, 0.3);
  btVector3 at(10, 0, 10);
  int visited = 0;
  for (int tick = 0; tick < 400; ++tick) {
    const double dz = step(engine);
    const double dy = step(engine);
    const double dx = step(engine);
    at += btVector3(dx + 0.05, dy * 0.2, dz + 0.05);  // a walk that leaves regions
    if (tick % 97 == 50) {
      // A body moved: the tree changes, the region must notice.
      btCollisionObject& moved = *w.objects[tick % w.objects.size()];
      moved.getWorldTransform().setOrigin(at + btVector3(0.3, 0, 0));
      w.world.updateSingleAabb(&moved);
    }
    const btVector3 half(0.4, 1.0, 0.4);
    Visits ours;
    Visits bullets;
    region.aabb_test(&w.broadphase, at - half, at + half, ours);
    w.broadphase.aabbTest(at - half, at + half, bullets);
    ASSERT_EQ(ours.seen, bullets.seen) << "tick " << tick;
    const double ray_z = step(engine);
    const double ray_x = step(engine);
    const btVector3 to = at + btVector3(ray_x * 3, -1.5, ray_z * 3);
    RayVisits ray_ours(at, to);
    RayVisits ray_bullets(at, to);
    region.ray_test(&w.broadphase, at, to, ray_ours, -half, half);
    w.broadphase.rayTest(at, to, ray_bullets, -half, half);
    ASSERT_EQ(ray_ours.seen, ray_bullets.seen) << "tick " << tick;
    RayVisits thin_ours(at, to);
    RayVisits thin_bullets(at, to);
    region.ray_test(&w.broadphase, at, to, thin_ours);
    w.broadphase.rayTest(at, to, thin_bullets);
    ASSERT_EQ(thin_ours.seen, thin_bullets.seen) << "tick " << tick;
    visited += static_cast<int>(ours.seen.size() + ray_ours.seen.size());
  }
  EXPECT_GT(visited, 400);
  EXPECT_GT(region.reuses(), 4 * region.gathers());  // it is reused, not gathered per query
  EXPECT_GT(region.gathers(), 3);                    // and gathered again as the walk goes on
}

TEST(QueryRegion, SmallTreesAreWalkedInBulletsOrder) {
  // Below kMinLeaves no region is gathered: the tree is walked as Bullet
  // walks it, node for node (both trees, second child first), which the
  // visits and their order show; a body moved lands in the dynamic tree.
  BoxWorld w;
  for (size_t i = QueryRegion::kMinLeaves - 1; i < w.objects.size(); ++i) w.world.removeCollisionObject(w.objects[i].get());
  QueryRegion region;
  std::mt19937_64 engine(5);
  std::uniform_real_distribution<double> step(-0.3, 0.3);
  btVector3 at(4, 0, 4);
  int visited = 0;
  for (int tick = 0; tick < 200; ++tick) {
    const double dz = step(engine);
    const double dy = step(engine);
    const double dx = step(engine);
    at += btVector3(dx + 0.1, dy * 0.2, dz + 0.05);
    if (tick % 41 == 20) {
      btCollisionObject& moved = *w.objects[tick % 100];
      moved.getWorldTransform().setOrigin(at + btVector3(0, 0, 0.3));
      w.world.updateSingleAabb(&moved);
    }
    const btVector3 half(0.5, 1.0, 0.5);
    Visits ours;
    Visits bullets;
    region.aabb_test(&w.broadphase, at - half, at + half, ours);
    w.broadphase.aabbTest(at - half, at + half, bullets);
    ASSERT_EQ(ours.seen, bullets.seen) << "tick " << tick;
    const double ray_z = step(engine);
    const double ray_x = step(engine);
    const btVector3 to = at + btVector3(ray_x * 4, -1.5, ray_z * 4);
    RayVisits ray_ours(at, to);
    RayVisits ray_bullets(at, to);
    region.ray_test(&w.broadphase, at, to, ray_ours, -half, half);
    w.broadphase.rayTest(at, to, ray_bullets, -half, half);
    ASSERT_EQ(ray_ours.seen, ray_bullets.seen) << "tick " << tick;
    visited += static_cast<int>(ours.seen.size() + ray_ours.seen.size());
  }
  EXPECT_GT(visited, 200);
  EXPECT_EQ(region.gathers(), 0);
}

TEST(QueryRegion, WalkedAabbTestVisitsWhatBulletsVisitsAtAnySize) {
  // aabb_test_walked (the clearance certificate's) never gathers a region,
  // however many leaves the tree holds.
  BoxWorld w;
  QueryRegion region;
  for (int i = 0; i < 50; ++i) {
    const btVector3 at(1.3 * i, 0, 0.7 * i);
    const btVector3 half(1.5, 1.0, 1.5);
    Visits ours;
    Visits bullets;
    region.aabb_test_walked(&w.broadphase, at - half, at + half, ours);
    w.broadphase.aabbTest(at - half, at + half, bullets);
    ASSERT_EQ(ours.seen, bullets.seen) << i;
  }
  EXPECT_EQ(region.gathers(), 0);
}

}  // namespace
}  // namespace stepslide::test
