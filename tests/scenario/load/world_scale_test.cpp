// World building at scale: world bodies never pair with each other,
// the broadphase tree stays shallow whatever the placement, and queries still
// see every body. No wall time is asserted: the pair count and the tree depth
// are what made the crash and the quadratic build, so they are what is checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "scenario/load/world.h"
#include "scenario/run/simulate.h"
#include "scenario/scenario.h"
#include "stepslide/collision.h"
#include "support/test_bodies.h"

namespace stepslide {
namespace {

int pair_count(World& world) {
  return world.collision_world()->getBroadphase()->getOverlappingPairCache()->getNumOverlappingPairs();
}

int depth(const btDbvtNode* node) {
  if (node == nullptr) return 0;
  if (node->isleaf()) return 1;
  return 1 + std::max(depth(node->childs[0]), depth(node->childs[1]));
}

/// Depth of the broadphase tree that holds the world's bodies.
int tree_depth(World& world) {
  auto* dbvt = dynamic_cast<btDbvtBroadphase*>(world.collision_world()->getBroadphase());
  if (dbvt == nullptr) return -1;
  return std::max(depth(dbvt->m_sets[0].m_root), depth(dbvt->m_sets[1].m_root));
}

/// `count` boxes of half size `half`, all centred at `centre`.
std::vector<BodyDef> pile(int count, Vec3 centre, Vec3 half) {
  return std::vector<BodyDef>(static_cast<std::size_t>(count), test::box(centre, half));
}

BodyDef linear_mover(Vec3 centre) {
  BodyDef b = test::box(centre, {1, 1, 1});
  b.motion.type = MotionType::Linear;
  b.motion.velocity = {0.1, 0, 0};
  return b;
}

TEST(WorldScale, WorldBodiesNeverPairWithEachOther) {
  // Before: 3 000 piled static boxes made 4.5 million pairs (35 s, 455 MB), and
  // 15 000 overflowed Bullet's pair cache (SIGSEGV in internalAddPair).
  Scenario s;
  s.world = pile(3000, {0, 0, 0}, {1, 1, 1});
  for (int i = 0; i < 5; ++i) s.world.push_back(linear_mover({0, 0, 0}));
  World world(s);
  EXPECT_EQ(pair_count(world), 0);
  world.set_time(1);
  EXPECT_EQ(pair_count(world), 0);
  world.collision_world()->computeOverlappingPairs();
  EXPECT_EQ(pair_count(world), 0);
}

TEST(WorldScale, QueriesStillSeeStaticAndKinematicBodies) {
  Scenario s;
  s.world = {test::box({0, -0.5, 0}, {1, 0.5, 1}), linear_mover({5, 0, 0})};
  World world(s);
  CollisionQueries queries(world.collision_world(), nullptr);
  const RayHit floor = queries.ray(btVector3(0, 5, 0), btVector3(0, -5, 0));
  ASSERT_TRUE(floor.hit);
  EXPECT_EQ(world.body_name(floor.object), "world[0]");
  const RayHit mover = queries.ray(btVector3(5, 5, 0), btVector3(5, -5, 0));
  ASSERT_TRUE(mover.hit);
  EXPECT_EQ(world.body_name(mover.object), "world[1]");

  btSphereShape ball(0.5);
  btCollisionObject probe;
  probe.setCollisionShape(&ball);
  probe.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, 0.2, 0)));
  std::vector<Contact> contacts;
  queries.contacts(&probe, 0.0, contacts);
  EXPECT_FALSE(contacts.empty());
  const btVector3 ball_from(5, 3, 0);
  EXPECT_TRUE(queries.sweep(&ball, btTransform(btQuaternion::getIdentity(), ball_from), btVector3(5, -3, 0)).hit);
}

TEST(WorldScale, TheTreeStaysShallowWhereverTheBodiesAre) {
  // Added one by one, bodies in a row or in one place made the broadphase
  // tree a list as deep as the body count: building it was quadratic (20 000
  // bodies: 4 s; 200 000: minutes). Built in bulk its depth is logarithmic.
  const int count = 20000;
  Scenario row;
  for (int i = 0; i < count; ++i) row.world.push_back(test::box({10.0 + i, 0, 5}, {0.4, 0.4, 0.4}));
  World row_world(row);
  const int log_depth = static_cast<int>(std::ceil(std::log2(count)));
  EXPECT_LE(tree_depth(row_world), 2 * log_depth);

  Scenario heap;
  heap.world = pile(count, {5, 0, 5}, {1, 1, 1});
  World heap_world(heap);
  EXPECT_LE(tree_depth(heap_world), 2 * log_depth);
}

TEST(WorldScale, TheTreeStaysShallowWhenManyBodiesMoveTogether) {
  // Put back one by one each tick, boxes moving as one make the tree a list
  // again: quadratic in their number.
  const int count = 4000;
  Scenario s;
  s.world.push_back(test::floor_at(0));
  for (int i = 0; i < count; ++i) s.world.push_back(linear_mover({5, 0, 5}));
  World world(s);
  for (std::int64_t tick = 1; tick <= 3; ++tick) world.set_time(tick);
  EXPECT_LE(tree_depth(world), 2 * static_cast<int>(std::ceil(std::log2(count))));
  // The refitted boxes are where their motion says.
  CollisionQueries queries(world.collision_world(), nullptr);
  const double x = 5 + 0.1 * 3 / s.tick_rate;
  const RayHit hit = queries.ray(btVector3(x + 0.99, 5, 5), btVector3(x + 0.99, -0.5, 5));
  ASSERT_TRUE(hit.hit);
  EXPECT_NEAR(hit.point.y(), 1.0, 1e-9);
  EXPECT_FALSE(queries.ray(btVector3(x + 1.01, 5, 5), btVector3(x + 1.01, 0.5, 5)).hit);
}

TEST(WorldScale, TheBodyLimitPiledUnderTheFeetBuildsAndRunsATick) {
  Scenario s;
  s.ticks = 1;
  s.world = pile(static_cast<int>(ScenarioLimits::max_bodies), {0, -0.5, 0}, {2, 0.5, 2});
  const SimulationResult result = simulate(s);
  ASSERT_EQ(result.trajectory.rows.size(), 2u);
  const int grounded = result.trajectory.column_index("grounded");
  ASSERT_GE(grounded, 0);
  EXPECT_EQ(result.trajectory.rows[1][static_cast<std::size_t>(grounded)], 1.0);
}

TEST(WorldScale, TheReferenceControllersGhostStillPairsWithWorldBodies) {
  // Bullet's controller sees the world through its ghost's pairs only.
  Scenario s;
  s.ticks = 30;
  s.world = pile(2000, {0, -0.5, 0}, {2, 0.5, 2});
  s.world.push_back(linear_mover({0, 5, -20}));
  SimulationOptions options;
  options.controller = ControllerKind::Bullet;
  const SimulationResult result = simulate(s, options);
  const int grounded = result.trajectory.column_index("grounded");
  const int y = result.trajectory.column_index("y");
  ASSERT_GE(grounded, 0);
  ASSERT_GE(y, 0);
  EXPECT_EQ(result.trajectory.rows.back()[static_cast<std::size_t>(grounded)], 1.0);
  EXPECT_NEAR(result.trajectory.rows.back()[static_cast<std::size_t>(y)], 0.0, 0.05);
}

}  // namespace
}  // namespace stepslide
