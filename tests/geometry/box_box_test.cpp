// Exact box-box overlap (box_box.h): against a search over directions
// (it is the true penetration depth) and against Bullet's own answer for the
// pair (EPA, which the adapter no longer asks where the cores overlap).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "geometry/box_box.h"
#include "stepslide/character.h"
#include "stepslide/collision.h"
#include "support/random_geometry.h"

namespace stepslide::test {
namespace {

struct Random : RandomGeometry {
  Random() : RandomGeometry(13013013) {}
};

/// Support of the rounded box (core h at pose, radius r) along unit u.
double support(const btTransform& pose, const btVector3& h, double r, const btVector3& u) {
  const btVector3 local = pose.getBasis().transpose() * u;
  return pose.getOrigin().dot(u) + h.x() * std::fabs(local.x()) + h.y() * std::fabs(local.y()) +
         h.z() * std::fabs(local.z()) + r;
}

/// Signed separation of a from b along u (pointing from b toward a).
double separation(const btTransform& a, const btVector3& ha, double ra, const btTransform& b, const btVector3& hb,
                  double rb, const btVector3& u) {
  return -support(a, ha, ra, -u) - support(b, hb, rb, u);
}

struct Case {
  btTransform a, b;
  btVector3 ha, hb;  // outer half extents (Bullet's box)
  double ra = 0.0, rb = 0.0;
};

Case random_case(Random& random) {
  Case c;
  c.ha = random.vector(0.05, 1.0);
  c.hb = random.vector(0.05, 3.0);
  c.ra = box_margin(c.ha);
  c.rb = box_margin(c.hb);
  const btVector3 b_origin = random.point(1.0);
  c.b = btTransform(random.rotation(), b_origin);
  // a's centre near b's surface or inside it, so most cores overlap.
  const btVector3 a_origin = c.b * random.point(1.2);
  c.a = btTransform(random.rotation(), a_origin);
  return c;
}

btVector3 core(const btVector3& h, double r) { return h - btVector3(r, r, r); }

TEST(ExactBoxBox, IsTheTruePenetrationDepthOnRandomCases) {
  Random random;
  int overlapping = 0;
  for (int i = 0; i < 2000; ++i) {
    const Case c = random_case(random);
    const ExactContact o = box_box_overlap(c.a, core(c.ha, c.ra), c.ra, c.b, core(c.hb, c.rb), c.rb);
    if (!o.answered) continue;
    ++overlapping;
    SCOPED_TRACE("case " + std::to_string(i));
    EXPECT_NEAR(o.normal.length(), 1.0, 1e-12);
    // The normal separates by exactly the reported distance ...
    EXPECT_NEAR(separation(c.a, core(c.ha, c.ra), c.ra, c.b, core(c.hb, c.rb), c.rb, o.normal), o.distance, 1e-9);
    // ... and no direction does better (the signed distance is the largest
    // separation over all directions).
    for (int k = 0; k < 300; ++k) {
      const btVector3 u = random.point(1.0).normalized();
      EXPECT_LE(separation(c.a, core(c.ha, c.ra), c.ra, c.b, core(c.hb, c.rb), c.rb, u), o.distance + 1e-9);
    }
  }
  EXPECT_GT(overlapping, 1000);
}

TEST(ExactBoxBox, RestingFaceOnFaceGivesTheLowerBoxsFaceAndAPointUnderTheUpperOne) {
  const btVector3 hb(5, 0.5, 5), ha(0.3, 0.5, 0.3);
  const btTransform b(btQuaternion::getIdentity(), btVector3(0, -0.5, 0));
  const btTransform a(btQuaternion(btVector3(0, 1, 0), 0.3), btVector3(1, 0.5 - 0.01, 2));  // 1 cm into it
  const ExactContact o = box_box_overlap(a, core(ha, 0.001), 0.001, b, core(hb, 0.001), 0.001);
  ASSERT_TRUE(o.answered);
  EXPECT_NEAR(o.distance, -0.01, 1e-12);
  EXPECT_EQ(o.normal, btVector3(0, 1, 0));
  EXPECT_NEAR((o.point - btVector3(1, 0, 2)).length(), 0.0, 1e-12);
}

TEST(ExactBoxBox, ApartCoresAreLeftToBullet) {
  const btVector3 h(0.5, 0.5, 0.5);
  const btTransform b(btQuaternion::getIdentity(), btVector3(0, 0, 0));
  const btTransform a(btQuaternion::getIdentity(), btVector3(0, 1.0 - 0.0015, 0));  // rounded boxes overlap 1.5 mm
  EXPECT_FALSE(box_box_overlap(a, core(h, 0.001), 0.001, b, core(h, 0.001), 0.001).answered);
}

/// Bullet's answer for the pair: the deepest of contactPairTest's contacts.
struct BulletPair {
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher{&configuration};
  btDbvtBroadphase broadphase;
  btCollisionWorld world{&dispatcher, &broadphase, &configuration};
  struct Deepest : btCollisionWorld::ContactResultCallback {
    btScalar addSingleResult(btManifoldPoint& p, const btCollisionObjectWrapper*, int, int,
                             const btCollisionObjectWrapper*, int, int) override {
      if (!found || p.getDistance() < distance) {
        found = true;
        distance = p.getDistance();
        normal = p.m_normalWorldOnB;  // from b (object 1) toward a (object 0)
      }
      return 0;
    }
    bool found = false;
    double distance = 0.0;
    btVector3 normal;
  };
  Deepest ask(const Case& c) {
    btBoxShape sa(c.ha), sb(c.hb);
    sa.setMargin(c.ra);
    sb.setMargin(c.rb);
    btCollisionObject a, b;
    a.setCollisionShape(&sa);
    b.setCollisionShape(&sb);
    a.setWorldTransform(c.a);
    b.setWorldTransform(c.b);
    Deepest deepest;
    world.contactPairTest(&a, &b, deepest);
    return deepest;
  }
};

// Bullet's EPA on 10 000 random pairs (about 9 000 with overlapping cores):
// the depths agree to 1e-6 m on all but a few, where EPA's is shallower,
// never deeper (measured: 1 of 9 021, by 0.81 m, an EPA failure).
TEST(ExactBoxBox, AgreesWithBulletsEpaOnRandomPairs) {
  Random random;
  BulletPair bullet;
  int compared = 0, shallower = 0;
  double worst = 0.0;
  for (int i = 0; i < 10000; ++i) {
    Case c = random_case(random);
    c.ra = kBoxMargin;  // Bullet's own boxes in the scenarios: 1 mm (box_margin)
    c.rb = kBoxMargin;
    const ExactContact o = box_box_overlap(c.a, core(c.ha, c.ra), c.ra, c.b, core(c.hb, c.rb), c.rb);
    if (!o.answered) continue;
    const BulletPair::Deepest d = bullet.ask(c);
    SCOPED_TRACE("case " + std::to_string(i));
    ASSERT_TRUE(d.found);
    ++compared;
    const double gap = d.distance - o.distance;  // >= 0: Bullet's is no deeper than the true depth
    EXPECT_GE(gap, -1e-6);
    worst = std::max(worst, gap);
    if (gap > 1e-6) ++shallower;
  }
  EXPECT_GT(compared, 5000);
  EXPECT_LT(shallower, compared / 100);
  RecordProperty("worst_gap", std::to_string(worst));
}

}  // namespace
}  // namespace stepslide::test
