// The compound walker (collision/compound.h): children in index order, each
// at its world pose, skipped where the caller's bounds test refuses its leaf,
// stopped at the first refusal, and every walker declining beyond one limit.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "collision/compound.h"

namespace stepslide::test {
namespace {

using detail::all_children;
using detail::any_child;
using detail::kMaxCompoundChildren;
using detail::walk_children;

/// A compound of `n` unit boxes along +X, child i at x = 3 i, with the tree
/// over its children Bullet builds by default.
struct Row {
  explicit Row(int n) {
    box = std::make_unique<btBoxShape>(btVector3(1, 1, 1));
    for (int i = 0; i < n; ++i) {
      compound.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(3.0 * i, 0, 0)), box.get());
    }
  }
  std::unique_ptr<btBoxShape> box;
  btCompoundShape compound;
};

const auto kEveryLeaf = [](const btVector3&, const btVector3&) { return true; };

TEST(CompoundWalk, VisitsEveryChildInIndexOrderAtItsWorldPose) {
  Row row(4);
  const btTransform pose(btQuaternion(btVector3(0, 1, 0), SIMD_HALF_PI), btVector3(10, 2, 0));
  std::vector<int> order;
  std::vector<btVector3> origins;
  const bool whole = walk_children(row.compound, pose, kEveryLeaf,
                                   [&](const btCollisionShape* shape, const btTransform& child, int index) {
                                     EXPECT_EQ(shape, row.box.get());
                                     order.push_back(index);
                                     origins.push_back(child.getOrigin());
                                     return true;
                                   });
  EXPECT_TRUE(whole);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3}));
  // A quarter turn about Y takes local +X to world -Z.
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(origins[i].x(), 10.0, 1e-12);
    EXPECT_NEAR(origins[i].y(), 2.0, 1e-12);
    EXPECT_NEAR(origins[i].z(), -3.0 * i, 1e-12);
  }
}

TEST(CompoundWalk, SkipsChildrenWhoseLeafTheBoundsTestRefuses) {
  Row row(5);
  // Only leaves reaching past x = 5.5 in the compound's frame: children 2, 3, 4.
  const auto beyond = [](const btVector3&, const btVector3& high) { return high.x() > 5.5; };
  std::vector<int> order;
  EXPECT_TRUE(walk_children(row.compound, btTransform::getIdentity(), beyond,
                            [&](const btCollisionShape*, const btTransform&, int index) {
                              order.push_back(index);
                              return true;
                            }));
  EXPECT_EQ(order, (std::vector<int>{2, 3, 4}));
}

TEST(CompoundWalk, StopsAtTheFirstVisitThatRefuses) {
  Row row(5);
  std::vector<int> order;
  EXPECT_FALSE(walk_children(row.compound, btTransform::getIdentity(), kEveryLeaf,
                             [&](const btCollisionShape*, const btTransform&, int index) {
                               order.push_back(index);
                               return index < 1;
                             }));
  EXPECT_EQ(order, (std::vector<int>{0, 1}));
}

TEST(CompoundWalk, AllAndAnyAskEveryChildShape) {
  Row row(3);
  btSphereShape sphere(0.5);
  row.compound.addChildShape(btTransform::getIdentity(), &sphere);
  const auto is_box = [](const btCollisionShape* shape) { return shape->getShapeType() == BOX_SHAPE_PROXYTYPE; };
  const auto is_sphere = [](const btCollisionShape* shape) {
    return shape->getShapeType() == SPHERE_SHAPE_PROXYTYPE;
  };
  EXPECT_FALSE(all_children(row.compound, is_box));
  EXPECT_TRUE(any_child(row.compound, is_sphere));
  EXPECT_FALSE(any_child(Row(3).compound, is_sphere));
  EXPECT_TRUE(all_children(Row(3).compound, is_box));
}

TEST(CompoundWalk, EveryWalkerDeclinesBeyondTheOneLimit) {
  const auto any = [](const btCollisionShape*) { return true; };
  int visits = 0;
  const auto count = [&](const btCollisionShape*, const btTransform&, int) { return ++visits > 0; };

  Row at_limit(kMaxCompoundChildren);
  EXPECT_TRUE(all_children(at_limit.compound, any));
  EXPECT_TRUE(any_child(at_limit.compound, any));
  EXPECT_TRUE(walk_children(at_limit.compound, btTransform::getIdentity(), kEveryLeaf, count));
  EXPECT_EQ(visits, kMaxCompoundChildren);

  Row beyond(kMaxCompoundChildren + 1);
  visits = 0;
  EXPECT_FALSE(all_children(beyond.compound, any));
  EXPECT_FALSE(any_child(beyond.compound, any));
  EXPECT_FALSE(walk_children(beyond.compound, btTransform::getIdentity(), kEveryLeaf, count));
  EXPECT_EQ(visits, 0);  // declined before any child is visited
}

}  // namespace
}  // namespace stepslide::test

namespace stepslide::test {
namespace {

bool same_bits(const btTransform& a, const btTransform& b) {
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      if (std::memcmp(&a.getBasis()[r][c], &b.getBasis()[r][c], sizeof(double)) != 0) return false;
    }
    if (std::memcmp(&a.getOrigin()[r], &b.getOrigin()[r], sizeof(double)) != 0) return false;
  }
  return true;
}

TEST(ChildPoses, AreTheComposedPosesToTheBitAndFollowAMovedBody) {
  Row row(5);
  btCollisionObject object;
  object.setCollisionShape(&row.compound);
  object.setWorldTransform(btTransform(btQuaternion(btVector3(1, 2, 3).normalized(), 0.7), btVector3(1, -2, 5)));
  detail::ChildPoses poses;
  for (int round = 0; round < 3; ++round) {
    if (round == 2) object.getWorldTransform().setOrigin(btVector3(-3, 0.25, 1));  // moved by the game
    const detail::CompoundPoses* found = poses.of(&object);
    ASSERT_NE(found, nullptr);
    const btTransform& pose = object.getWorldTransform();
    EXPECT_TRUE(same_bits(found->inverse, pose.inverse()));
    for (int i = 0; i < 5; ++i) {
      EXPECT_TRUE(same_bits(found->children[i], pose * row.compound.getChildTransform(i))) << round << " " << i;
    }
  }
  // A child added: Bullet counts it in the shape's revision.
  row.compound.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(0, 7, 0)), row.box.get());
  const detail::CompoundPoses* grown = poses.of(&object);
  ASSERT_NE(grown, nullptr);
  EXPECT_TRUE(same_bits(grown->children[5], object.getWorldTransform() * row.compound.getChildTransform(5)));
  // A child moved in place: Bullet does not count that (nor is a mesh's
  // vertex moved in place seen); the game forgets (forget_clearance).
  row.compound.updateChildTransform(1, btTransform(btQuaternion::getIdentity(), btVector3(0, 9, 0)));
  poses.forget();
  const detail::CompoundPoses* found = poses.of(&object);
  ASSERT_NE(found, nullptr);
  EXPECT_TRUE(same_bits(found->children[1], object.getWorldTransform() * row.compound.getChildTransform(1)));
}

TEST(ChildPoses, KeepsNoMovingBodyAndNoOtherShape) {
  Row row(2);
  btCollisionObject moving;
  moving.setCollisionShape(&row.compound);
  moving.setCollisionFlags(btCollisionObject::CF_KINEMATIC_OBJECT);
  detail::ChildPoses poses;
  EXPECT_EQ(poses.of(&moving), nullptr);
  btCollisionObject plain;
  plain.setCollisionShape(row.box.get());
  EXPECT_EQ(poses.of(&plain), nullptr);
}

TEST(ChildPoses, WithinATickAnObjectCheckedOnceIsTrusted) {
  Row row(2);
  btCollisionObject object;
  object.setCollisionShape(&row.compound);
  detail::ChildPoses poses;
  poses.begin_tick();
  const detail::CompoundPoses* first = poses.of(&object);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(poses.of(&object), first);
  poses.end_tick();
  // Between ticks the world may move: checked again.
  object.getWorldTransform().setOrigin(btVector3(0, 1, 0));
  poses.begin_tick();
  const detail::CompoundPoses* moved = poses.of(&object);
  ASSERT_NE(moved, nullptr);
  EXPECT_EQ(moved->children[0].getOrigin(), btVector3(0, 1, 0));
  poses.end_tick();
}

}  // namespace
}  // namespace stepslide::test
