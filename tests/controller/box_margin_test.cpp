// Box margins: a box character's collision margin depends
// on its size, never on which axis is its thinnest, and never inverts its
// core; a box whose core a game inverted anyway is left to Bullet.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "geometry/capsule_box.h"
#include "stepslide/character.h"
#include "stepslide/collision.h"

namespace stepslide::test {
namespace {

std::unique_ptr<btBoxShape> box_character(const btVector3& half_extents) {
  CharacterShapeDesc desc;
  desc.kind = CharacterShapeDesc::Kind::Box;
  desc.half_extents = half_extents;
  std::unique_ptr<btConvexShape> shape = make_character_shape(desc, 0.0);
  return std::unique_ptr<btBoxShape>(static_cast<btBoxShape*>(shape.release()));
}

/// The three turns of `h` that put its components on other axes.
std::vector<btVector3> turns(const btVector3& h) {
  return {h, btVector3(h.y(), h.z(), h.x()), btVector3(h.z(), h.x(), h.y())};
}

TEST(BoxCharacterMargin, IsTheSameWhicheverAxisIsThinnest) {
  for (const btVector3& size : {btVector3(0.05, 0.9, 0.3), btVector3(0.0004, 0.9, 0.3), btVector3(0.3, 0.9, 0.3)}) {
    const double expected = std::min(0.001, 0.5 * std::min({size.x(), size.y(), size.z()}));
    for (const btVector3& h : turns(size)) {
      SCOPED_TRACE(testing::Message() << "half extents " << h.x() << " " << h.y() << " " << h.z());
      EXPECT_EQ(box_character(h)->getMargin(), expected);
    }
  }
}

TEST(BoxCharacterMargin, NeverInvertsTheCore) {
  for (const btVector3& size : {btVector3(0.0004, 0.9, 0.3), btVector3(0.3, 0.9, 0.00002), btVector3(0.3, 0.0008, 0.3)}) {
    for (const btVector3& h : turns(size)) {
      SCOPED_TRACE(testing::Message() << "half extents " << h.x() << " " << h.y() << " " << h.z());
      const auto box = box_character(h);
      EXPECT_LE(box->getMargin(), 0.5 * std::min({h.x(), h.y(), h.z()}));
      const btVector3 core = box->getHalfExtentsWithoutMargin();
      EXPECT_GE(std::min({core.x(), core.y(), core.z()}), 0.0);
      // The outer size is kept: the margin is carved out of the box.
      EXPECT_NEAR((box->getHalfExtentsWithMargin() - h).length(), 0.0, 1e-12);
    }
  }
}

TEST(CapsuleBox, AnInvertedCoreIsLeftToBullet) {
  // A game's 2 cm board with Bullet's default 4 cm margin: its core is -3 cm thick.
  const ExactContact c = capsule_box(btVector3(0.5, 0.2, 0.9), btVector3(0.5, 1.4, 0.9), 0.34,
                                     btTransform::getIdentity(), btVector3(-0.03, 0.96, 0.96));
  EXPECT_FALSE(c.answered);
}

TEST(BoxContacts, ABoxWithAnInvertedCoreGetsBulletsAnswer) {
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher(&configuration);
  btDbvtBroadphase broadphase;
  btCollisionWorld world(&dispatcher, &broadphase, &configuration);
  btBoxShape board(btVector3(0.01, 1, 1));
  board.setMargin(0.04);  // Bullet's default margin on a 2 cm board: the core is inverted
  ASSERT_LT(board.getHalfExtentsWithoutMargin().x(), 0.0);
  btCollisionObject body;
  body.setCollisionShape(&board);
  world.addCollisionObject(&body);
  btCapsuleShape capsule(0.3, 1.2);
  btCollisionObject character;
  character.setCollisionShape(&capsule);
  CollisionQueries queries(&world, &character);
  // Overlapping the board's face, and its vertical edge.
  for (const btVector3& centre : {btVector3(0.3, 0, 0.2), btVector3(0.25, 0.1, 1.12)}) {
    SCOPED_TRACE(testing::Message() << "capsule at " << centre.x() << " " << centre.y() << " " << centre.z());
    character.setWorldTransform(btTransform(btQuaternion::getIdentity(), centre));
    std::vector<Contact> out;
    queries.contacts(&character, 0.0, out);
    ASSERT_FALSE(out.empty());
    double deepest = 0.0;
    for (const Contact& c : out) deepest = std::min(deepest, c.distance);
    EXPECT_NEAR(-deepest, queries.penetration_depth(&character), 1e-9);
  }
  world.removeCollisionObject(&body);
}

}  // namespace
}  // namespace stepslide::test
