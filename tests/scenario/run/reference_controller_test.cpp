// Bullet's btKinematicCharacterController as the reference controller: it is
// set up correctly (falls along -up, lands, stands), and its sweeps are
// really counted.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionDispatch/btGhostObject.h>
#include <BulletDynamics/Character/btKinematicCharacterController.h>

#include <cmath>
#include <memory>

#include "scenario/load/world.h"
#include "scenario/run/reference_controller.h"
#include "support/test_bodies.h"

namespace stepslide {
namespace {

constexpr double kDt = 1.0 / 60.0;

using test::box;

BodyDef floor_box() { return test::floor_at(0, 20); }

/// A world plus Bullet's controller with a 1.8 m capsule, r 0.3.
struct ReferenceRig {
  Scenario scenario;
  std::unique_ptr<World> world;
  std::unique_ptr<ReferenceController> controller;

  explicit ReferenceRig(std::vector<BodyDef> bodies, btVector3 up = btVector3(0, 1, 0)) {
    scenario.ticks = 1;
    scenario.world = std::move(bodies);
    world = std::make_unique<World>(scenario);
    controller = std::make_unique<ReferenceController>(world->collision_world(), CharacterShapeDesc{},
                                                       ControllerSettings{}, up, up * -9.81);
  }
};

TEST(ReferenceController, FallsAndLandsOnTheFloor) {
  ReferenceRig rig({floor_box()});
  rig.controller->reset(btVector3(1, 2, -1), btVector3(0, 0, 0));
  EXPECT_NEAR(rig.controller->state().position.y(), 2.0, 1e-12);

  int airborne_ticks = 0;
  for (int tick = 0; tick < 120; ++tick) {
    rig.controller->update(CharacterInput{}, kDt);
    if (!rig.controller->state().grounded) ++airborne_ticks;
  }
  const CharacterState& s = rig.controller->state();
  // It fell and rests on the floor (a capsule lying along X or Z, the
  // classic wrong-up mistake, would rest 0.6 m lower).
  EXPECT_GT(airborne_ticks, 10);
  EXPECT_TRUE(s.grounded);
  EXPECT_NEAR(s.position.y(), 0.0, 1e-6);
  EXPECT_NEAR(s.position.x(), 1.0, 1e-9);
  EXPECT_NEAR(s.position.z(), -1.0, 1e-9);
  EXPECT_NEAR(s.velocity.length(), 0.0, 1e-6);
  EXPECT_LT(rig.controller->penetration_depth(), 1e-6);
}

TEST(ReferenceController, FallsAlongMinusUpWhenUpIsNotY) {
  // Z up: the same drop along Z. Nothing may move along Y.
  BodyDef floor = box({0, 0, -0.5}, {20, 20, 0.5});
  ReferenceRig rig({floor}, btVector3(0, 0, 1));
  rig.controller->reset(btVector3(0, 0, 2), btVector3(0, 0, 0));
  for (int tick = 0; tick < 120; ++tick) rig.controller->update(CharacterInput{}, kDt);
  const CharacterState& s = rig.controller->state();
  EXPECT_TRUE(s.grounded);
  EXPECT_NEAR(s.position.z(), 0.0, 1e-6);
  EXPECT_NEAR(s.position.y(), 0.0, 1e-9);
}

TEST(ReferenceController, SweepsWithNoAllowedPenetration) {
  // Bullet's default lets every sweep end up to 4 cm inside what it hits, and
  // its recovery ignores overlaps under 0.2 m: the character would stand 4 cm
  // deep in every floor. The reference turns that allowance off.
  ReferenceRig rig({floor_box()});
  EXPECT_EQ(rig.world->collision_world()->getDispatchInfo().m_allowedCcdPenetration, 0.0);
  rig.world->collision_world()->getDispatchInfo().m_allowedCcdPenetration = 0.04;  // Bullet's default
  rig.controller->reset(btVector3(0, 1, 0), btVector3(0, 0, 0));
  for (int tick = 0; tick < 60; ++tick) rig.controller->update(CharacterInput{}, kDt);
  EXPECT_NEAR(rig.controller->state().position.y(), -0.04, 1e-3);
  EXPECT_NEAR(rig.controller->penetration_depth(), 0.04, 1e-3);
}

TEST(ReferenceController, BulletsDefaultUpIsXAndTurningItRotatesTheGhost) {
  // Why the reference passes its up axis explicitly and poses the ghost last.
  btPairCachingGhostObject ghost;
  btCapsuleShape capsule(0.3, 1.2);
  ghost.setCollisionShape(&capsule);
  btKinematicCharacterController defaulted(&ghost, &capsule, 0.35);
  EXPECT_EQ(defaulted.getUp(), btVector3(1, 0, 0));
  const btVector3 axis_before = quatRotate(ghost.getWorldTransform().getRotation(), btVector3(0, 1, 0));
  defaulted.setUp(btVector3(0, 1, 0));
  const btVector3 axis_after = quatRotate(ghost.getWorldTransform().getRotation(), btVector3(0, 1, 0));
  EXPECT_LT(axis_before.dot(axis_after), 0.5);  // the capsule no longer stands along Y

  ReferenceRig rig({floor_box()});
  rig.controller->reset(btVector3(0, 1, 0), btVector3(0, 0, 0));
  EXPECT_EQ(rig.controller->bullet().getUp(), btVector3(0, 1, 0));
  const btVector3 axis = quatRotate(rig.controller->ghost().getWorldTransform().getRotation(), btVector3(0, 1, 0));
  EXPECT_NEAR(axis.y(), 1.0, 1e-12);
}

TEST(ReferenceController, WalksWhereTheStickPoints) {
  ReferenceRig rig({floor_box()});
  rig.controller->reset(btVector3(0, 0.01, 0), btVector3(0, 0, 0));
  for (int tick = 0; tick < 30; ++tick) rig.controller->update(CharacterInput{}, kDt);  // settle
  CharacterInput forward;
  forward.move_forward = 1.0;
  for (int tick = 0; tick < 60; ++tick) rig.controller->update(forward, kDt);
  const CharacterState& s = rig.controller->state();
  // Yaw 0 looks along -Z; after a second at up to 5 m/s it has covered metres.
  EXPECT_LT(s.position.z(), -3.0);
  EXPECT_NEAR(s.position.x(), 0.0, 1e-9);
  EXPECT_NEAR(s.velocity.z(), -5.0, 0.05);
}

TEST(ReferenceController, CountsThreeSweepsPerTickInFreeFall) {
  // Bullet's playerStep in free fall: one sweep up by the step height, none
  // forward (no walk direction), one down and, having hit nothing, one more
  // twice as far down.
  ReferenceRig rig({});
  rig.controller->reset(btVector3(0, 100, 0), btVector3(0, 0, 0));
  for (int tick = 0; tick < 10; ++tick) {
    const TickReport report = rig.controller->update(CharacterInput{}, kDt);
    EXPECT_EQ(report.sweeps, 3) << "tick " << tick;
  }
  EXPECT_EQ(rig.controller->total_sweeps(), 30);
}

TEST(ReferenceController, TallyCountsEveryGhostSweepAndChangesNoHit) {
  // A floor box, a flight of stairs (compound) and a triangle mesh, all
  // overlapping the ghost, so each sweep meets every kind of narrow phase.
  BodyDef stairs;
  stairs.shape.type = ShapeType::Stairs;
  stairs.shape.steps = 4;
  stairs.shape.rise = 0.2;
  stairs.shape.run = 0.3;
  stairs.shape.width = 2;
  stairs.position = {0, 0, 0.1};
  BodyDef mesh;
  mesh.shape.type = ShapeType::Mesh;
  mesh.shape.vertices = {{-2, 0.05, -2}, {2, 0.05, -2}, {2, 0.05, 2}, {-2, 0.05, 2}};
  mesh.shape.triangles = {{0, 2, 1}, {0, 3, 2}};
  ReferenceRig rig({floor_box(), stairs, mesh});
  rig.controller->reset(btVector3(0, -0.1, 0), btVector3(0, 0, 0));
  rig.world->collision_world()->computeOverlappingPairs();

  btGhostObject* ghost = btGhostObject::upcast(&rig.controller->ghost());
  ASSERT_NE(ghost, nullptr);
  ASSERT_GE(ghost->getNumOverlappingObjects(), 4);  // the tally and three bodies

  btCapsuleShape capsule(0.3, 1.2);
  const btTransform from(btQuaternion::getIdentity(), btVector3(0, 1.5, 0.5));
  const std::int64_t before = rig.controller->total_sweeps();
  const int sweeps = 7;
  for (int i = 0; i < sweeps; ++i) {
    const btTransform to(btQuaternion::getIdentity(), btVector3(0.1 * i, -1.0, 0.5 - 0.2 * i));
    btCollisionWorld::ClosestConvexResultCallback through_ghost(from.getOrigin(), to.getOrigin());
    ghost->convexSweepTest(&capsule, from, to, through_ghost);
    btCollisionWorld::ClosestConvexResultCallback through_world(from.getOrigin(), to.getOrigin());
    through_world.m_collisionFilterMask = btBroadphaseProxy::AllFilter ^ btBroadphaseProxy::CharacterFilter;
    rig.world->collision_world()->convexSweepTest(&capsule, from, to, through_world);
    ASSERT_TRUE(through_world.hasHit());
    EXPECT_TRUE(through_ghost.hasHit()) << "sweep " << i;
    EXPECT_EQ(through_ghost.m_closestHitFraction, through_world.m_closestHitFraction) << "sweep " << i;
  }
  EXPECT_EQ(rig.controller->total_sweeps() - before, sweeps);
}

}  // namespace
}  // namespace stepslide
