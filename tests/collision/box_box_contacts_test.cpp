// A box character's box pairs (box_box_contacts.h): a pair the six face
// axes put beyond the query is skipped only when it truly has no contact
// there; where the cores are apart, the exact contact agrees with Bullet's
// GJK (contactPairTest) on random pairs, and its point is one of the pair's
// closest points.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "collision/box_box_contacts.h"
#include "geometry/box_box.h"
#include "geometry/box_distance.h"
#include "stepslide/character.h"
#include "support/random_geometry.h"

namespace stepslide::test {
namespace {

/// Bullet's contacts for one pair, the character first.
struct Reports : btCollisionWorld::ContactResultCallback {
  explicit Reports(const btCollisionObject* character) : character_(character) {}
  btScalar addSingleResult(btManifoldPoint& point, const btCollisionObjectWrapper* wrap0, int, int,
                           const btCollisionObjectWrapper*, int, int) override {
    const double sign = wrap0->getCollisionObject() == character_ ? 1.0 : -1.0;
    normals.push_back(point.m_normalWorldOnB * sign);
    distances.push_back(point.getDistance());
    return 0;
  }
  const btCollisionObject* character_;
  std::vector<btVector3> normals;
  std::vector<double> distances;
};

/// Two boxes with Bullet's margins, the first the character, placed at
/// random: turned now and then, at distances from overlapping to a few
/// centimetres beyond the breaking threshold, along a face or not.
struct RandomPair {
  RandomPair(RandomGeometry& random, int i)
      : box_a(random.vector(0.05, 1.0)), box_b(random.vector(0.05, 2.0)) {
    box_a.setMargin(box_margin(box_a.getHalfExtentsWithMargin()));
    box_b.setMargin(box_margin(box_b.getHalfExtentsWithMargin()));
    a.setCollisionShape(&box_a);
    b.setCollisionShape(&box_b);
    const btQuaternion turn_a = i % 3 == 0 ? random.rotation() : btQuaternion::getIdentity();
    const btQuaternion turn_b = i % 5 == 0 ? random.rotation() : btQuaternion::getIdentity();
    const btVector3 centre_b = random.point(0.5);
    b.setWorldTransform(btTransform(turn_b, centre_b));
    const btVector3 direction = (i % 2 == 0 ? btVector3(0, 1, 0) : random.point(1.0)).normalized();
    const double reach = (box_a.getHalfExtentsWithMargin().length() + box_b.getHalfExtentsWithMargin().length());
    const double along = random.uniform(0.2, 1.2) * reach;
    a.setWorldTransform(btTransform(turn_a, centre_b + direction * along));
  }
  btBoxShape box_a;
  btBoxShape box_b;
  btCollisionObject a;
  btCollisionObject b;
};

/// The rounded boxes' exact signed distance: minus the depth where the cores overlap.
double exact_distance(const RandomPair& p) {
  const btVector3 ha = p.box_a.getHalfExtentsWithoutMargin(), hb = p.box_b.getHalfExtentsWithoutMargin();
  const double ra = p.box_a.getMargin(), rb = p.box_b.getMargin();
  const ExactContact overlap = box_box_overlap(p.a.getWorldTransform(), ha, ra, p.b.getWorldTransform(), hb, rb);
  if (overlap.answered) return overlap.distance;
  return box_box_distance(p.a.getWorldTransform(), ha, ra, p.b.getWorldTransform(), hb, rb).distance;
}

TEST(BoxBoxContacts, SkipsOnlyPairsWithoutAContactWithinTheQuery) {
  RandomGeometry random(4242);
  int skipped = 0;
  int kept_beyond = 0;
  for (int i = 0; i < 3000; ++i) {
    const RandomPair pair(random, i);
    const double max_distance = i % 4 == 0 ? 0.0 : random.uniform(-0.01, 0.2);
    SCOPED_TRACE("case " + std::to_string(i));
    const double distance = exact_distance(pair);
    if (detail::box_box_beyond(&pair.a, &pair.b, max_distance)) {
      EXPECT_GT(distance, max_distance);
      ++skipped;
    } else if (distance > max_distance) {
      ++kept_beyond;  // the bound is a lower bound: some pairs it cannot skip
    }
  }
  EXPECT_GT(skipped, 1000);
  EXPECT_GT(kept_beyond, 15);
}

TEST(BoxBoxContacts, ApartCoresAgreeWithBulletsGjk) {
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher(&configuration);
  btDbvtBroadphase broadphase;
  btCollisionWorld world(&dispatcher, &broadphase, &configuration);
  RandomGeometry random(777);
  int compared = 0;
  int normals_apart = 0;
  int ours_only = 0;
  double worst_distance = 0.0;
  for (int i = 0; i < 20000; ++i) {
    RandomPair pair(random, i);
    const double max_distance = random.uniform(0.0, 0.2);
    std::vector<Contact> ours;
    SCOPED_TRACE("case " + std::to_string(i));
    ASSERT_TRUE(detail::box_box_contacts(&pair.a, &pair.b, max_distance, &ours));
    Reports bullets(&pair.a);
    bullets.m_closestDistanceThreshold = max_distance;
    world.contactPairTest(&pair.a, &pair.b, bullets);
    const btVector3 ha = pair.box_a.getHalfExtentsWithoutMargin(), hb = pair.box_b.getHalfExtentsWithoutMargin();
    const ExactContact overlap = box_box_overlap(pair.a.getWorldTransform(), ha, pair.box_a.getMargin(),
                                                 pair.b.getWorldTransform(), hb, pair.box_b.getMargin());
    if (overlap.answered) continue;  // EPA's pairs: exact_box_box_test.cpp
    ASSERT_LE(ours.size(), 1u);
    ASSERT_LE(bullets.distances.size(), 1u);
    // Bullet reports out to its breaking threshold beyond the query; ours
    // stops at the query. Within it, both report or neither does.
    const bool bullet_within = !bullets.distances.empty() && bullets.distances[0] <= max_distance - 1e-6;
    if (ours.empty()) {
      EXPECT_FALSE(bullet_within);
      continue;
    }
    if (bullets.distances.empty()) {
      EXPECT_GT(ours[0].distance, max_distance - 1e-6);  // at the query's edge
      ++ours_only;
      continue;
    }
    ++compared;
    worst_distance = std::max(worst_distance, std::fabs(ours[0].distance - bullets.distances[0]));
    EXPECT_NEAR(ours[0].distance, bullets.distances[0], 1e-9);  // measured: 1.6e-15
    if (ours[0].normal.dot(bullets.normals[0]) < 1.0 - 1e-6) ++normals_apart;
    // Our point lies on b's rounded surface at a closest point of the pair:
    // a point `distance` from a's rounded surface along the normal.
    const btVector3 on_core_b = ours[0].point - ours[0].normal * pair.box_b.getMargin();
    const ExactContact again =
        box_box_distance(btTransform(btQuaternion::getIdentity(), on_core_b), btVector3(0, 0, 0), 0.0,
                         pair.a.getWorldTransform(), ha, pair.box_a.getMargin());
    EXPECT_NEAR(again.distance, ours[0].distance + pair.box_b.getMargin(), 1e-9);
  }
  EXPECT_GT(compared, 700);
  EXPECT_LE(normals_apart, compared / 100);
  EXPECT_LE(ours_only, 5);
  RecordProperty("compared", compared);  // 848
  RecordProperty("normals_apart", normals_apart);  // 0
  RecordProperty("worst_distance", std::to_string(worst_distance));
}

/// A box character against compounds of one to three turned boxes: each
/// child's contact as contactPairTest reports it (Bullet's compound
/// algorithm, GJK or EPA per child), matched child by child by distance.
TEST(BoxBoxContacts, CompoundsOfBoxesAgreeWithBulletChildByChild) {
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher(&configuration);
  btDbvtBroadphase broadphase;
  btCollisionWorld world(&dispatcher, &broadphase, &configuration);
  RandomGeometry random(2612);
  int compared = 0;
  for (int i = 0; i < 6000; ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    std::vector<std::unique_ptr<btBoxShape>> boxes;
    btCompoundShape compound;
    for (int k = 0; k < 1 + i % 3; ++k) {
      const btVector3 half = random.vector(0.05, 1.0);
      boxes.push_back(std::make_unique<btBoxShape>(half));
      boxes.back()->setMargin(box_margin(half));
      const btQuaternion turn = random.rotation();
      compound.addChildShape(btTransform(turn, random.point(0.8)), boxes.back().get());
    }
    const btVector3 ha = random.vector(0.1, 0.8);
    btBoxShape character_box(ha);
    character_box.setMargin(box_margin(ha));
    btCollisionObject character;
    btCollisionObject other;
    character.setCollisionShape(&character_box);
    other.setCollisionShape(&compound);
    const btQuaternion pose_turn = random.rotation();
    other.setWorldTransform(btTransform(pose_turn, random.point(1.0)));
    const btVector3 direction = random.point(1.0).normalized();
    const double along = random.uniform(0.3, 2.5);
    character.setWorldTransform(btTransform(btQuaternion::getIdentity(), other.getWorldTransform().getOrigin() +
                                                                            direction * along));
    const double max_distance = random.uniform(0.0, 0.2);
    std::vector<Contact> ours;
    ASSERT_TRUE(detail::box_box_contacts(&character, &other, max_distance, &ours));
    Reports bullets(&character);
    bullets.m_closestDistanceThreshold = max_distance;
    world.contactPairTest(&character, &other, bullets);
    // Bullet's, within the query (it also reports some beyond it), deepest
    // first; ours likewise: child by child the same distances and normals.
    std::vector<std::pair<double, btVector3>> theirs;
    for (std::size_t k = 0; k < bullets.distances.size(); ++k) {
      if (bullets.distances[k] <= max_distance) theirs.push_back({bullets.distances[k], bullets.normals[k]});
    }
    std::vector<std::pair<double, btVector3>> mine;
    for (const Contact& c : ours) mine.push_back({c.distance, c.normal});
    const auto deeper = [](const auto& x, const auto& y) { return x.first < y.first; };
    std::sort(theirs.begin(), theirs.end(), deeper);
    std::sort(mine.begin(), mine.end(), deeper);
    // EPA's depth may be shallower than the exact one (exact_box_box_test.cpp):
    // compare the pairs with the cores apart, where both are GJK-exact.
    if (mine.empty() || mine.front().first < -0.05) continue;
    ASSERT_EQ(mine.size(), theirs.size());
    for (std::size_t k = 0; k < mine.size(); ++k) {
      EXPECT_NEAR(mine[k].first, theirs[k].first, 1e-9);
      EXPECT_GT(mine[k].second.dot(theirs[k].second), 1.0 - 1e-6);
      ++compared;
    }
  }
  EXPECT_GT(compared, 400);
  RecordProperty("compared", compared);  // 591
}

TEST(BoxBoxContacts, OnlyBoxPairsAreAnswered) {
  btBoxShape box(btVector3(0.5, 0.5, 0.5));
  btSphereShape sphere(0.5);
  btCollisionObject a;
  btCollisionObject b;
  a.setCollisionShape(&box);
  b.setCollisionShape(&sphere);
  b.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, 10, 0)));
  std::vector<Contact> out;
  EXPECT_FALSE(detail::box_box_contacts(&a, &b, 0.0, &out));
  EXPECT_FALSE(detail::box_box_contacts(&b, &a, 0.0, &out));
  b.setCollisionShape(&box);
  EXPECT_TRUE(detail::box_box_beyond(&a, &b, 0.0));
  EXPECT_FALSE(detail::box_box_beyond(&a, &b, 9.5));  // a threshold reaching it
  EXPECT_TRUE(detail::box_box_contacts(&a, &b, 9.5, &out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].distance, 9.0, 1e-12);  // the rounded boxes' faces
  EXPECT_TRUE(out[0].object == &b);
}

}  // namespace
}  // namespace stepslide::test
