// World::save_moving / restore_moving put the broadphase back as it was,
// its trees' shape included: the walk order decides which of two equally
// close hits a sweep reports, and moving bodies reshape the tree.
#include <gtest/gtest.h>

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>

#include <string>
#include <vector>

#include "scenario/load/world.h"
#include "stepslide/broadphase_state.h"
#include "support/test_bodies.h"

namespace stepslide {
namespace {

/// Each tree's nodes in Bullet's walk order (second child first): a leaf as
/// its body's index, an inner node as "(" and ")" around its children, with
/// every node's bounds.
struct Walk {
  std::vector<std::string> shape;
  std::vector<btVector3> bounds;
  bool operator==(const Walk& o) const { return shape == o.shape && bounds == o.bounds; }
};

void walk(const btDbvtNode* node, Walk* out) {
  if (node == nullptr) return;
  out->bounds.push_back(node->volume.Mins());
  out->bounds.push_back(node->volume.Maxs());
  if (node->isleaf()) {
    const auto* proxy = static_cast<const btBroadphaseProxy*>(node->data);
    out->shape.push_back(std::to_string(static_cast<const btCollisionObject*>(proxy->m_clientObject)->getUserIndex()));
    return;
  }
  out->shape.push_back("(");
  walk(node->childs[1], out);
  walk(node->childs[0], out);
  out->shape.push_back(")");
}

Walk walk_of(World& world) {
  auto* dbvt = dynamic_cast<btDbvtBroadphase*>(world.collision_world()->getBroadphase());
  Walk out;
  if (dbvt == nullptr) return out;
  walk(dbvt->m_sets[0].m_root, &out);
  out.shape.push_back("|");
  walk(dbvt->m_sets[1].m_root, &out);
  return out;
}

std::string text(const Walk& w) {
  std::string out;
  for (const std::string& s : w.shape) out += s + " ";
  return out;
}

/// Static boxes on a grid and bodies crossing it, moving, turning and
/// keyframed: every tick some leaves leave their grown bounds and are
/// inserted again elsewhere.
Scenario crossing_world() {
  Scenario s;
  s.tick_rate = 60;
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 4; ++j) s.world.push_back(test::box({4.0 * i - 8 + j, 0, 3.0 * j - 4.5}, {1, 1 + 0.2 * j, 1}));
  }
  const double speeds[][3] = {{30, 0, 0}, {-25, 0, 3}, {5, 2, -20}, {-3, 0, 12}};
  for (const auto& v : speeds) {
    BodyDef mover = test::box({-v[0] * 0.3, 0.5, -v[2] * 0.3}, {0.5, 0.5, 0.5});
    mover.motion.type = MotionType::Linear;
    mover.motion.velocity = {v[0], v[1], v[2]};
    s.world.push_back(mover);
  }
  BodyDef spinner = test::box({1, 1, 1}, {3, 0.2, 0.2});
  spinner.motion.type = MotionType::Spin;
  spinner.motion.axis = {0.2, 1, 0.1};
  spinner.motion.deg_per_s = 200;
  s.world.push_back(spinner);
  return s;
}

TEST(WorldRollback, RestoringTheMovingBodiesPutsTheTreesShapeBack) {
  const Scenario s = crossing_world();
  int reshaped = 0;
  for (std::int64_t at = 1; at <= 30; ++at) {
    for (std::int64_t span = 1; span <= 16; span += 3) {
      World world(s);
      for (std::int64_t tick = 1; tick <= at; ++tick) world.set_time(tick);
      const Walk before = walk_of(world);
      const World::MovingState saved = world.save_moving();
      for (std::int64_t tick = at + 1; tick <= at + span; ++tick) world.set_time(tick);
      if (!(walk_of(world) == before)) ++reshaped;
      world.restore_moving(saved);
      ASSERT_TRUE(walk_of(world) == before) << "rewound to tick " << at << " from " << at + span << ":\n"
                                            << text(walk_of(world)) << "\n" << text(before);
      // And the world steps on from there as it did the first time.
      for (std::int64_t tick = at + 1; tick <= at + span; ++tick) world.set_time(tick);
      World again(s);
      for (std::int64_t tick = 1; tick <= at + span; ++tick) again.set_time(tick);
      ASSERT_TRUE(walk_of(world) == walk_of(again)) << text(walk_of(world)) << "\n" << text(walk_of(again));
    }
  }
  EXPECT_GT(reshaped, 100) << "the bodies' travel should reshape the tree";
}

/// Characters' bodies (World::add_character) in a world with no moving body
/// of its own: each update moves their leaves and reshapes the tree just as
/// a keyframed body does, so restore_moving must put the tree back for them
/// too (with three characters meeting, a replay took the other of two tied
/// hits and ended one ulp apart).
TEST(WorldRollback, RestoringCharactersPutsTheTreesShapeBackWithoutMovingBodies) {
  Scenario s;
  s.tick_rate = 60;
  for (int i = 0; i < 6; ++i) s.world.push_back(test::box({3.0 * i - 7.5, -0.5, 0}, {1.4, 0.5, 4}));
  btCapsuleShape shape(0.3, 1.2);
  const btVector3 velocities[] = {{9, 0, 1}, {-7, 0.5, 2}, {1, 0, -8}};
  int reshaped = 0;
  for (std::int64_t at = 1; at <= 20; ++at) {
    for (std::int64_t span = 1; span <= 16; span += 5) {
      World world(s);
      std::vector<btCollisionObject> characters(3);
      for (std::size_t c = 0; c < characters.size(); ++c) {
        characters[c].setCollisionShape(&shape);
        characters[c].setCollisionFlags(btCollisionObject::CF_KINEMATIC_OBJECT);
        characters[c].setUserIndex(-1);
        characters[c].setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(-3.0 + 3.0 * static_cast<double>(c), 1, 0)));
        world.collision_world()->addCollisionObject(&characters[c], btBroadphaseProxy::KinematicFilter,
                                                    btBroadphaseProxy::DefaultFilter);
        world.add_character(&characters[c], "c" + std::to_string(c));
      }
      const auto move_to = [&](std::int64_t tick) {
        for (std::size_t c = 0; c < characters.size(); ++c) {
          const btVector3 at_tick = btVector3(-3.0 + 3.0 * static_cast<double>(c), 1, 0) + velocities[c] * (static_cast<double>(tick) / 60.0);
          characters[c].setWorldTransform(btTransform(btQuaternion::getIdentity(), at_tick));
          world.collision_world()->updateSingleAabb(&characters[c]);
        }
      };
      for (std::int64_t tick = 1; tick <= at; ++tick) move_to(tick);
      const Walk before = walk_of(world);
      const World::MovingState saved = world.save_moving();
      for (std::int64_t tick = at + 1; tick <= at + span; ++tick) move_to(tick);
      if (!(walk_of(world) == before)) ++reshaped;
      world.restore_moving(saved);
      ASSERT_TRUE(walk_of(world) == before) << "rewound to tick " << at << " from " << at + span << ":\n"
                                            << text(walk_of(world)) << "\n" << text(before);
      for (btCollisionObject& character : characters) world.collision_world()->removeCollisionObject(&character);
    }
  }
  EXPECT_GT(reshaped, 20) << "the characters' travel should reshape the tree";
}

TEST(BroadphaseTrees, AreNotRestoredIntoATreeHoldingOtherLeaves) {
  const Scenario s = crossing_world();
  World world(s);
  auto* dbvt = dynamic_cast<btDbvtBroadphase*>(world.collision_world()->getBroadphase());
  ASSERT_NE(dbvt, nullptr);
  const BroadphaseTreeState saved = save_broadphase_trees(*dbvt);
  world.set_time(10);
  btCollisionObject extra;
  btBoxShape shape(btVector3(1, 1, 1));
  extra.setCollisionShape(&shape);
  world.collision_world()->addCollisionObject(&extra);
  const Walk with_extra = walk_of(world);
  EXPECT_FALSE(restore_broadphase_trees(*dbvt, saved));
  EXPECT_TRUE(walk_of(world) == with_extra);  // untouched
  world.collision_world()->removeCollisionObject(&extra);
  EXPECT_TRUE(restore_broadphase_trees(*dbvt, saved));
}

}  // namespace
}  // namespace stepslide
