// The compound walker (collision/compound.h): children in index order, each
// at its world pose, skipped where the caller's bounds test refuses its leaf,
// stopped at the first refusal, and every walker declining beyond one limit.
#include <gtest/gtest.h>

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
