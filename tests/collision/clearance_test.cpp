// The clearance certificate (clearance.h) through the collision adapter: when
// an overlap query is answered without Bullet, and when it is not.
#include <gtest/gtest.h>

#include <btBulletCollisionCommon.h>

#include <memory>
#include <vector>

#include "collision/clearance.h"
#include "stepslide/collision.h"

namespace stepslide::test {
namespace {

/// A bare Bullet world with a capsule (r 0.3, 1.2 between the centres) to query.
struct Scene {
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher{&configuration};
  btDbvtBroadphase broadphase;
  btCollisionWorld world{&dispatcher, &broadphase, &configuration};
  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<std::unique_ptr<btCollisionObject>> bodies;
  btCapsuleShape capsule{0.3, 1.2};
  btCollisionObject character;
  CollisionQueries queries{&world, &character};

  Scene() { character.setCollisionShape(&capsule); }
  ~Scene() {
    for (auto& b : bodies) world.removeCollisionObject(b.get());
  }

  btCollisionObject* add_box(const btVector3& center, const btVector3& half, bool kinematic = false) {
    shapes.push_back(std::make_unique<btBoxShape>(half));
    shapes.back()->setMargin(0.001);
    bodies.push_back(std::make_unique<btCollisionObject>());
    btCollisionObject* body = bodies.back().get();
    body->setCollisionShape(shapes.back().get());
    body->setWorldTransform(btTransform(btQuaternion::getIdentity(), center));
    if (kinematic) body->setCollisionFlags(body->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
    world.addCollisionObject(body);
    world.updateSingleAabb(body);  // grown by the contact threshold, as a stepped world's are
    return body;
  }
  void move(btCollisionObject* body, const btVector3& center) {
    body->setWorldTransform(btTransform(btQuaternion::getIdentity(), center));
    world.updateSingleAabb(body);
  }
  /// Puts the capsule's centre at `center` and asks for its overlaps.
  std::vector<Contact> overlaps_at(const btVector3& center) {
    character.setWorldTransform(btTransform(btQuaternion::getIdentity(), center));
    std::vector<Contact> out;
    queries.contacts(&character, 0.0, out);
    return out;
  }
  int reused() const { return queries.counts().reused_contacts; }
};

constexpr double kStanding = 0.9;  // capsule centre height when its bottom is at 0

TEST(ClearanceCertificate, ACertifiedPoseIsAnsweredWithoutBulletButNotItsPenetrationDepth) {
  Scene s;
  s.add_box(btVector3(0, -0.5, 0), btVector3(10, 0.5, 10));
  const btVector3 sunk(0, kStanding - 0.05, 0);  // 5 cm into the floor
  ASSERT_FALSE(s.overlaps_at(sunk).empty());
  EXPECT_EQ(s.reused(), 0);
  // A (false) certificate is believed: the adapter does not ask Bullet...
  s.queries.certify_clear(&s.character, s.character.getWorldTransform(), 0.01);
  EXPECT_TRUE(s.overlaps_at(sunk).empty());
  EXPECT_EQ(s.reused(), 1);
  // ...but the measurement the fuzzer checks against always does.
  EXPECT_NEAR(s.queries.penetration_depth(&s.character), 0.05, 1e-6);
  s.queries.forget_clearance();
  EXPECT_FALSE(s.overlaps_at(sunk).empty());
  EXPECT_EQ(s.reused(), 1);
}

TEST(ClearanceCertificate, HoldsWithinTheStaticClearanceOnly) {
  Scene s;
  s.add_box(btVector3(0, -0.5, 0), btVector3(10, 0.5, 10));
  const btVector3 standing(0, kStanding + 0.001, 0);
  s.overlaps_at(standing);
  s.queries.certify_clear(&s.character, s.character.getWorldTransform(), 0.001);
  s.overlaps_at(standing + btVector3(0.0005, 0, 0));  // moved less than the clearance
  EXPECT_EQ(s.reused(), 1);
  s.overlaps_at(standing + btVector3(0, -0.0011, 0));  // more, with the floor's box near
  EXPECT_EQ(s.reused(), 1);
  s.overlaps_at(standing + btVector3(0, 3, 0));  // more, but far from every static box
  EXPECT_EQ(s.reused(), 2);
}

TEST(ClearanceCertificate, AMovingBodyThatCameNearOrAnAddedObjectEndsIt) {
  Scene s;
  s.add_box(btVector3(0, -0.5, 0), btVector3(10, 0.5, 10));
  btCollisionObject* door = s.add_box(btVector3(5, 1, 0), btVector3(0.1, 1, 1), true);
  const btVector3 standing(0, kStanding + 0.001, 0);
  s.overlaps_at(standing);
  s.queries.certify_clear(&s.character, s.character.getWorldTransform(), 0.001);
  s.overlaps_at(standing);
  EXPECT_EQ(s.reused(), 1);
  s.move(door, btVector3(0.2, 1, 0));  // swung into the character
  EXPECT_FALSE(s.overlaps_at(standing).empty());
  EXPECT_EQ(s.reused(), 1);
  s.move(door, btVector3(5, 1, 0));
  s.overlaps_at(standing);
  EXPECT_EQ(s.reused(), 2);
  s.add_box(btVector3(0, kStanding, 0), btVector3(0.5, 0.5, 0.5));  // a static box dropped on it
  EXPECT_FALSE(s.overlaps_at(standing).empty());
  EXPECT_EQ(s.reused(), 2);
}

TEST(ClearanceCertificate, HoldsWhileTheBodyStoodOnCarriesTheCharacterRigidly) {
  Scene s;
  btCollisionObject* lift = s.add_box(btVector3(0, -0.5, 0), btVector3(2, 0.5, 2), true);
  const btVector3 standing(0, kStanding + 0.001, 0);
  s.overlaps_at(standing);
  s.queries.certify_clear(&s.character, s.character.getWorldTransform(), 0.001);
  // Lift and character both rise 10 cm: nothing static is near, the lift is
  // where it was relative to the character.
  s.move(lift, btVector3(0, -0.4, 0));
  s.overlaps_at(standing + btVector3(0, 0.1, 0));
  EXPECT_EQ(s.reused(), 1);
  // The lift rises again but the character stays: it must be asked.
  s.move(lift, btVector3(0, -0.3, 0));
  EXPECT_FALSE(s.overlaps_at(standing + btVector3(0, 0.1, 0)).empty());
  EXPECT_EQ(s.reused(), 1);
}

}  // namespace
}  // namespace stepslide::test
