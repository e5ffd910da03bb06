// The bounds tests that let contacts and rays skip boxes (query_bounds.h):
// each skip is sound (the exact answer was "nothing" there) on random cases,
// and the adapter's answers against a compound of boxes are bit-identical
// to those against the same compound without Bullet's child tree (where
// nothing can be skipped).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "collision/query_bounds.h"
#include "geometry/capsule_box.h"
#include "geometry/ray_box.h"
#include "stepslide/collision.h"
#include "support/random_geometry.h"

namespace stepslide::test {
namespace {

struct Random : RandomGeometry {
  Random() : RandomGeometry(20261123) {}
  btVector3 extents() { return vector(0.05, 1.5); }
  /// Rotated half the time, axis-aligned (a level's stairs) otherwise.
  btTransform pose(double r) {
    const bool turn = uniform(0, 1) < 0.5;
    const btVector3 origin = point(r);
    return btTransform(turn ? rotation() : btQuaternion::getIdentity(), origin);
  }
};

/// Distance from segment a→b to the box of `core` half extents at `pose`
/// (0 when it touches or enters), by the exact capsule_box.
double segment_box_distance(const btVector3& a, const btVector3& b, const btTransform& pose, const btVector3& core) {
  const ExactContact e = capsule_box(a, b, 0.0, pose, core);
  return e.answered ? e.distance : 0.0;
}

/// A compound of `count` random boxes, with or without Bullet's child tree.
std::unique_ptr<btCompoundShape> random_compound(Random& random, int count, bool tree,
                                                 std::vector<std::unique_ptr<btBoxShape>>* boxes) {
  auto compound = std::make_unique<btCompoundShape>(tree);
  for (int i = 0; i < count; ++i) {
    boxes->push_back(std::make_unique<btBoxShape>(random.extents()));
    boxes->back()->setMargin(random.uniform(0.0, 0.04));
    compound->addChildShape(random.pose(2.5), boxes->back().get());
  }
  return compound;
}

TEST(QueryBounds, AChildOutsideTheBoundsIsNeitherTouchedNorHit) {
  Random random;
  int skipped = 0;
  for (int world = 0; world < 200; ++world) {
    std::vector<std::unique_ptr<btBoxShape>> boxes;
    const auto compound = random_compound(random, 8, true, &boxes);
    const btTransform pose = random.pose(1.0);
    for (int query = 0; query < 50; ++query) {
      const btVector3 a = random.point(4.0);
      const btVector3 b = a + random.point(1.0);
      const double reach = random.uniform(0.0, 0.8);
      const detail::Bounds near = detail::Bounds::of_segment(pose.invXform(a), pose.invXform(b), reach);
      for (int i = 0; i < compound->getNumChildShapes(); ++i) {
        if (detail::child_may_touch(*compound, i, near)) continue;
        ++skipped;
        const btTransform child = pose * compound->getChildTransform(i);
        const btBoxShape& box = *boxes[i];
        // The contact query's use: the segment is farther than reach from the rounded box.
        ASSERT_GT(segment_box_distance(a, b, child, box.getHalfExtentsWithoutMargin()) - box.getMargin(), reach);
        // The ray's use: no hit, and the ray does not start inside.
        const ExactRay hit = ray_box(a, b, child, box.getHalfExtentsWithMargin());
        ASSERT_TRUE(hit.answered);
        ASSERT_FALSE(hit.hit);
      }
    }
  }
  EXPECT_GT(skipped, 10000);
}

/// One static compound in its own world, queried by the adapter.
struct CompoundWorld {
  explicit CompoundWorld(btCompoundShape* shape, const btTransform& pose)
      : dispatcher(&configuration), world(&dispatcher, &broadphase, &configuration) {
    object.setCollisionShape(shape);
    object.setWorldTransform(pose);
    world.addCollisionObject(&object);
    world.updateAabbs();
  }
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher;
  btDbvtBroadphase broadphase;
  btCollisionWorld world;
  btCollisionObject object;
};

/// Whether segment a→b enters (or touches) a child box's core, or `point` lies in a child box.
bool enters_a_child(const btCompoundShape& compound, const btTransform& pose, const btVector3& a, const btVector3& b,
                    const btVector3& point) {
  for (int i = 0; i < compound.getNumChildShapes(); ++i) {
    const auto* box = static_cast<const btBoxShape*>(compound.getChildShape(i));
    const btTransform child = pose * compound.getChildTransform(i);
    if (!capsule_box(a, b, 0.0, child, box->getHalfExtentsWithoutMargin()).answered) return true;
    const btVector3 local = child.invXform(point);
    const btVector3& half = box->getHalfExtentsWithMargin();
    if (local.absolute().x() <= half.x() && local.absolute().y() <= half.y() && local.absolute().z() <= half.z())
      return true;
  }
  return false;
}

bool same_bits(const btVector3& a, const btVector3& b) { return std::memcmp(&a, &b, 3 * sizeof(double)) == 0; }

TEST(QueryBounds, ContactsAndRaysAreBitIdenticalWithAndWithoutSkipping) {
  Random random;
  int contacts = 0;
  int hits = 0;
  int not_compared = 0;
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<std::unique_ptr<btBoxShape>> boxes;
    Random copy = random;  // the same boxes twice
    const auto culled = random_compound(random, 10, true, &boxes);
    const auto whole = random_compound(copy, 10, false, &boxes);
    const btTransform pose = random.pose(0.5);
    CompoundWorld with_tree(culled.get(), pose);
    CompoundWorld without_tree(whole.get(), pose);
    CollisionQueries fast(&with_tree.world, nullptr);
    CollisionQueries reference(&without_tree.world, nullptr);
    btCapsuleShape capsule(0.3, 1.0);
    btCollisionObject character;
    character.setCollisionShape(&capsule);
    for (int query = 0; query < 40; ++query) {
      const btVector3 at = random.point(3.0);
      character.setWorldTransform(btTransform(btQuaternion::getIdentity(), at));
      const double max_distance = random.uniform(0.0, 0.2);
      const btVector3 from = random.point(3.0);
      const btVector3 to = from + random.point(2.0);
      // Where the capsule's axis enters a child, or the ray starts in one,
      // both ask Bullet's compound algorithm, which itself walks the child
      // tree or not (and may then report different points): not compared.
      if (enters_a_child(*culled, pose, at - btVector3(0, 0.5, 0), at + btVector3(0, 0.5, 0), from)) {
        ++not_compared;
        continue;
      }
      std::vector<Contact> got;
      std::vector<Contact> want;
      fast.contacts(&character, max_distance, got);
      reference.contacts(&character, max_distance, want);
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].distance, want[i].distance);
        EXPECT_TRUE(same_bits(got[i].normal, want[i].normal));
        EXPECT_TRUE(same_bits(got[i].point, want[i].point));
        EXPECT_TRUE(same_bits(got[i].face_normal, want[i].face_normal));
      }
      contacts += static_cast<int>(got.size());
      const RayHit r1 = fast.ray(from, to);
      const RayHit r2 = reference.ray(from, to);
      ASSERT_EQ(r1.hit, r2.hit);
      EXPECT_EQ(r1.fraction, r2.fraction);
      EXPECT_TRUE(same_bits(r1.normal, r2.normal));
      hits += r1.hit;
    }
  }
  EXPECT_GT(contacts, 100);
  EXPECT_GT(hits, 100);
  EXPECT_LT(not_compared, 60 * 40 / 2);
}

}  // namespace
}  // namespace stepslide::test
