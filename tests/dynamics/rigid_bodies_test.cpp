// The dynamic bodies' step (dynamics/rigid_bodies.h) on a small Bullet world.
#include "dynamics/rigid_bodies.h"

#include <gtest/gtest.h>

#include <memory>

#include "dynamics/motion.h"

namespace stepslide::dynamics {
namespace {

struct TestWorld {
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher{&config};
  btDbvtBroadphase broadphase;
  btCollisionWorld world{&dispatcher, &broadphase, &config};
  btBoxShape floor_shape{btVector3(10, 0.5, 10)};
  btBoxShape crate_shape{btVector3(0.3, 0.3, 0.3)};
  btCollisionObject floor;
  std::vector<std::unique_ptr<btRigidBody>> crates;
  RigidBodies bodies{world, btVector3(0, -9.81, 0)};

  TestWorld() {
    floor.setCollisionShape(&floor_shape);
    floor.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, -0.5, 0)));
    floor.setUserIndex(0);
    world.addCollisionObject(&floor);
    bodies.add(&floor, 0);
  }
  btRigidBody& crate(const btVector3& at) {
    const btVector3 inertia = local_inertia(crate_shape, 5.0);
    btRigidBody::btRigidBodyConstructionInfo info(5.0, nullptr, &crate_shape, inertia);
    info.m_startWorldTransform.setOrigin(at);
    crates.push_back(std::make_unique<btRigidBody>(info));
    btRigidBody& body = *crates.back();
    const auto index = static_cast<int>(crates.size());
    body.setUserIndex(index);
    world.addCollisionObject(&body);
    bodies.add(&body, static_cast<std::size_t>(index));
    return body;
  }
  void step(int ticks) {
    for (int i = 0; i < ticks; ++i) {
      bodies.step(1.0 / 60.0);
      for (const auto& c : crates) world.updateSingleAabb(c.get());
    }
  }
};

TEST(RigidBodies, AFallingCrateLandsOnTheFloorWithoutSinking) {
  TestWorld w;
  btRigidBody& crate = w.crate(btVector3(0, 2.0, 0));
  w.step(120);
  EXPECT_NEAR(crate.getWorldTransform().getOrigin().y(), 0.3, 1e-3);
  EXPECT_LT(crate.getLinearVelocity().length(), 1e-6);
}

TEST(RigidBodies, AStackWrittenOnItselfStaysPutAndFallsAsleep) {
  TestWorld w;
  btRigidBody& c0 = w.crate(btVector3(1.5, 0.3, 0));
  w.crate(btVector3(1.5, 0.9, 0));
  btRigidBody& c2 = w.crate(btVector3(1.5, 1.5, 0));
  w.step(240);
  EXPECT_NEAR(c0.getWorldTransform().getOrigin().y(), 0.3, 1e-4);
  EXPECT_NEAR(c2.getWorldTransform().getOrigin().y(), 1.5, 1e-4);
  EXPECT_NEAR(c2.getWorldTransform().getOrigin().x(), 1.5, 1e-3);
  EXPECT_EQ(c2.getActivationState(), ISLAND_SLEEPING);
  EXPECT_EQ(c2.getLinearVelocity(), btVector3(0, 0, 0));
  // An impulse wakes it (as the character's push does) and it moves.
  c2.activate(true);
  c2.setLinearVelocity(btVector3(1, 0, 0));
  w.step(1);
  EXPECT_NE(c2.getActivationState(), ISLAND_SLEEPING);
  EXPECT_GT(c2.getWorldTransform().getOrigin().x(), 1.5);
}

TEST(RigidBodies, TheSameWorldStepsToTheSameBits) {
  TestWorld a, b;
  btRigidBody& first = a.crate(btVector3(0.1, 1.0, 0.2));
  btRigidBody& second = b.crate(btVector3(0.1, 1.0, 0.2));
  first.setAngularVelocity(btVector3(1, 2, 3));
  second.setAngularVelocity(btVector3(1, 2, 3));
  a.step(90);
  b.step(90);
  EXPECT_EQ(first.getWorldTransform().getOrigin(), second.getWorldTransform().getOrigin());
  EXPECT_EQ(first.getWorldTransform().getBasis(), second.getWorldTransform().getBasis());
}

}  // namespace
}  // namespace stepslide::dynamics
