// A box character's box pairs (box_box_contacts.h): a pair the six face
// axes put beyond what Bullet's contactPairTest reports is skipped, and on
// random pairs at every distance Bullet reports nothing for every one
// skipped, while it does report pairs just inside the bound (the bound is
// not so loose that it never skips, nor so tight that it drops a contact).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "controller/box_box_contacts.h"
#include "stepslide/box_margin.h"
#include "support/random_geometry.h"

namespace stepslide::test {
namespace {

/// Counts what Bullet reports for one pair.
struct Reports : btCollisionWorld::ContactResultCallback {
  btScalar addSingleResult(btManifoldPoint&, const btCollisionObjectWrapper*, int, int, const btCollisionObjectWrapper*,
                           int, int) override {
    ++count;
    return 0;
  }
  int count = 0;
};

TEST(BoxBoxContacts, SkipsOnlyPairsBulletReportsNothingFor) {
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher(&configuration);
  btDbvtBroadphase broadphase;
  btCollisionWorld world(&dispatcher, &broadphase, &configuration);
  RandomGeometry random(4242);
  int skipped = 0;
  int reported = 0;
  int reported_near_the_bound = 0;
  for (int i = 0; i < 3000; ++i) {
    const btVector3 ha = random.vector(0.05, 1.0);
    const btVector3 hb = random.vector(0.05, 2.0);
    btBoxShape box_a(ha);
    btBoxShape box_b(hb);
    box_a.setMargin(box_margin(ha));
    box_b.setMargin(box_margin(hb));
    btCollisionObject a;
    btCollisionObject b;
    a.setCollisionShape(&box_a);
    b.setCollisionShape(&box_b);
    // Turned now and then, at distances from overlapping to a few
    // centimetres beyond the breaking threshold, along a face or not.
    const bool turned = i % 3 == 0 || i % 5 == 0;
    const btQuaternion turn_a = i % 3 == 0 ? random.rotation() : btQuaternion::getIdentity();
    const btQuaternion turn_b = i % 5 == 0 ? random.rotation() : btQuaternion::getIdentity();
    b.setWorldTransform(btTransform(turn_b, random.point(0.5)));
    const btVector3 direction = (i % 2 == 0 ? btVector3(0, 1, 0) : random.point(1.0)).normalized();
    const double reach = ha.length() + hb.length();
    a.setWorldTransform(
        btTransform(turn_a, b.getWorldTransform().getOrigin() + direction * random.uniform(0.2, 1.2) * reach));
    const double max_distance = i % 4 == 0 ? 0.0 : random.uniform(-0.01, 0.2);
    Reports bullets;
    bullets.m_closestDistanceThreshold = max_distance;
    world.contactPairTest(&a, &b, bullets);
    const bool skip = detail::box_box_beyond_reports(&a, &b, max_distance);
    SCOPED_TRACE("case " + std::to_string(i));
    if (skip) {
      EXPECT_EQ(bullets.count, 0);
      ++skipped;
    } else if (bullets.count > 0) {
      ++reported;
      // Reported, yet apart along a face axis by more than the radii: the
      // pairs the bound must keep.
      const btVector3 d = a.getWorldTransform().getOrigin() - b.getWorldTransform().getOrigin();
      if (!turned && i % 2 == 0 && std::fabs(d.y()) > ha.y() + hb.y())
        ++reported_near_the_bound;
    }
  }
  EXPECT_GT(skipped, 1000);
  EXPECT_GT(reported, 300);
  EXPECT_GT(reported_near_the_bound, 20);
}

TEST(BoxBoxContacts, OnlyBoxPairsAreSkipped) {
  btBoxShape box(btVector3(0.5, 0.5, 0.5));
  btSphereShape sphere(0.5);
  btCollisionObject a;
  btCollisionObject b;
  a.setCollisionShape(&box);
  b.setCollisionShape(&sphere);
  b.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, 10, 0)));
  EXPECT_FALSE(detail::box_box_beyond_reports(&a, &b, 0.0));
  b.setCollisionShape(&box);
  EXPECT_TRUE(detail::box_box_beyond_reports(&a, &b, 0.0));
  EXPECT_FALSE(detail::box_box_beyond_reports(&a, &b, 9.5));  // a threshold reaching it
}

}  // namespace
}  // namespace stepslide::test
