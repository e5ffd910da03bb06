// The exact capsule-vs-triangle queries (exact_triangle.h) and the adapter's
// mesh and heightfield pairs (triangle_pairs.h) against Bullet's own answers
// (contactPairTest: GJK/EPA; objectQuerySingle: the conservative-advancement
// convex cast) on random cases, with the tolerances stated at each test.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "controller/exact_triangle.h"
#include "controller/triangle_pairs.h"
#include "stepslide/collision.h"

namespace stepslide::test {
namespace {

using detail::capsule_triangle;
using detail::capsule_triangle_sweep;
using detail::Triangle;
using detail::TriangleContact;
using detail::TriangleSweep;

struct Random {
  std::mt19937_64 engine{20261123};
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(engine); }
  btVector3 point(double r) { return btVector3(uniform(-r, r), uniform(-r, r), uniform(-r, r)); }
  btVector3 direction() {
    for (;;) {
      const btVector3 d = point(1);
      if (d.length2() > 1e-3 && d.length2() <= 1) return d.normalized();
    }
  }
  btQuaternion rotation() {
    btQuaternion q(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
    return q.length2() < 1e-6 ? btQuaternion::getIdentity() : q.normalized();
  }
};

/// One Bullet world with the pair's objects in it, as the adapter sees them.
struct BulletWorld {
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher{&configuration};
  btDbvtBroadphase broadphase;
  btCollisionWorld world{&dispatcher, &broadphase, &configuration};
};

/// A mesh of the given triangles at `pose`.
struct Mesh {
  Mesh(const std::vector<Triangle>& triangles, const btTransform& pose) {
    for (const Triangle& t : triangles) mesh.addTriangle(t.v[0], t.v[1], t.v[2], false);
    shape = std::make_unique<btBvhTriangleMeshShape>(&mesh, true);
    object.setCollisionShape(shape.get());
    object.setWorldTransform(pose);
  }
  btTriangleMesh mesh{true, true};
  std::unique_ptr<btBvhTriangleMeshShape> shape;
  btCollisionObject object;
};

struct Capsule {
  Capsule(double radius, double half_height, const btTransform& pose) : shape(radius, 2 * half_height) {
    object.setCollisionShape(&shape);
    object.setWorldTransform(pose);
    const btVector3 axis = pose.getBasis().getColumn(1) * half_height;
    a = pose.getOrigin() - axis;
    b = pose.getOrigin() + axis;
  }
  btCapsuleShape shape;
  btCollisionObject object;
  btVector3 a;
  btVector3 b;
};

/// Bullet's contacts, normals from the world toward the capsule.
struct BulletContacts : btCollisionWorld::ContactResultCallback {
  std::vector<Contact> found;
  btScalar addSingleResult(btManifoldPoint& point, const btCollisionObjectWrapper* wrap0, int, int,
                           const btCollisionObjectWrapper*, int, int) override {
    const bool capsule_is_0 = wrap0->getCollisionShape()->getShapeType() == CAPSULE_SHAPE_PROXYTYPE;
    Contact c;
    c.distance = point.getDistance();
    c.normal = (capsule_is_0 ? point.m_normalWorldOnB : -point.m_normalWorldOnB).normalized();
    c.point = capsule_is_0 ? point.getPositionWorldOnB() : point.getPositionWorldOnA();
    found.push_back(c);
    return 0;
  }
};

/// Distance from `p` to the triangle (brute force over its plane and edges).
double to_triangle(const btVector3& p, const Triangle& t) {
  const TriangleContact c = capsule_triangle(p, p, 0.0, t, std::numeric_limits<double>::infinity());
  return c.separated ? c.distance : 0.0;
}

Triangle random_triangle(Random& random) {
  return Triangle{{random.point(1), random.point(1), random.point(1)}};
}

/// A capsule near the triangle: a point of it pushed out along a random
/// direction by about the capsule's size, sometimes into it.
btTransform near_pose(Random& random, const Triangle& t, double radius, double half_height) {
  const double u = random.uniform(0, 1);
  const double v = random.uniform(0, 1 - u);
  const btVector3 on = t.v[0] + (t.v[1] - t.v[0]) * u + (t.v[2] - t.v[0]) * v;
  const btVector3 out = random.direction();
  return btTransform(random.rotation(), on + out * (radius + half_height * random.uniform(0, 1.2) +
                                                    random.uniform(-0.3, 0.3)));
}

/// capsule_triangle against Bullet's contactPairTest on a one-triangle mesh.
/// Tolerances: distance 1e-6 m and normal 1e-4 (GJK's on separated cores,
/// EPA's when the capsule's surface overlaps), on every pair both report;
/// the closest point on the triangle within 1e-4 m of Bullet's, except where
/// the segment lies parallel to the face within 1e-3 (closest points are
/// then a whole segment and either answer is right: ours is checked to be
/// on the triangle at the reported distance). A pair only one reports must
/// lie within 1e-6 m of the threshold.
TEST(CapsuleTriangle, MatchesBulletsContactOnRandomPairs) {
  Random random;
  BulletWorld w;
  int compared = 0;
  int touching = 0;
  for (int i = 0; i < 6000; ++i) {
    const Triangle t = random_triangle(random);
    Mesh mesh({t}, btTransform::getIdentity());
    const double radius = random.uniform(0.05, 0.6);
    const double half_height = i % 5 == 0 ? 0.0 : random.uniform(0.0, 0.9);
    Capsule capsule(radius, half_height, near_pose(random, t, radius, half_height));
    const double threshold = i % 2 == 0 ? 0.0 : 0.05;
    const TriangleContact ours = capsule_triangle(capsule.a, capsule.b, radius, t, threshold);
    if (!ours.separated) {
      ++touching;
      continue;  // the adapter asks Bullet then
    }
    BulletContacts theirs;
    theirs.m_closestDistanceThreshold = threshold;
    w.world.contactPairTest(&capsule.object, &mesh.object, theirs);
    ASSERT_LE(theirs.found.size(), 1u);  // one contact per triangle
    const bool ours_found = !ours.beyond;
    const bool theirs_found = !theirs.found.empty() && theirs.found[0].distance <= threshold;
    if (ours_found != theirs_found) {
      const double d = ours_found ? ours.distance : theirs.found[0].distance;
      EXPECT_NEAR(d, threshold, 1e-6) << "case " << i << ": only " << (ours_found ? "ours" : "Bullet's");
      continue;
    }
    if (!ours_found) continue;
    ++compared;
    const Contact& c = theirs.found[0];
    EXPECT_NEAR(ours.distance, c.distance, 1e-6) << "case " << i;
    EXPECT_LT((ours.normal - c.normal).length(), 1e-4) << "case " << i;
    EXPECT_LT(to_triangle(ours.point, t), 1e-9) << "case " << i;
    const btVector3 axis = (capsule.b - capsule.a).normalized();
    const btVector3 n = (t.v[1] - t.v[0]).cross(t.v[2] - t.v[0]).normalized();
    const bool parallel = half_height > 0 && std::fabs(axis.dot(ours.normal)) < 1e-3;
    const bool parallel_to_face = half_height > 0 && std::fabs(axis.dot(n)) < 1e-3;
    if (!parallel && !parallel_to_face) EXPECT_LT((ours.point - c.point).length(), 1e-4) << "case " << i;
    if (ours.face_normal != btVector3(0, 0, 0)) EXPECT_LT((ours.face_normal - ours.normal).length(), 1e-6) << "case " << i;
  }
  EXPECT_GT(compared, 2000);
  EXPECT_LT(touching, 1500);
}

TEST(CapsuleTriangle, ASphereAboveTheFaceIsExactlyThere) {
  const Triangle t{{btVector3(-1, 0, -1), btVector3(1, 0, -1), btVector3(0, 0, 1)}};
  const TriangleContact c = capsule_triangle(btVector3(0.1, 0.7, 0), btVector3(0.1, 0.7, 0), 0.5, t, 1.0);
  ASSERT_TRUE(c.separated);
  EXPECT_DOUBLE_EQ(c.distance, 0.2);
  EXPECT_EQ(c.normal, btVector3(0, 1, 0));
  EXPECT_EQ(c.face_normal, btVector3(0, 1, 0));
  EXPECT_EQ(c.point, btVector3(0.1, 0, 0));
}

TEST(CapsuleTriangle, BeyondTheThresholdIsCulledAndAnAxisThroughItIsLeftToBullet) {
  const Triangle t{{btVector3(-1, 0, -1), btVector3(1, 0, -1), btVector3(0, 0, 1)}};
  EXPECT_TRUE(capsule_triangle(btVector3(0, 2, 0), btVector3(0, 3, 0), 0.5, t, 0.1).beyond);
  EXPECT_FALSE(capsule_triangle(btVector3(0, -1, 0), btVector3(0, 1, 0), 0.5, t, 0.1).separated);
}

TEST(CapsuleTriangle, BeyondAnEdgeTheNormalLeansOverIt) {
  const Triangle t{{btVector3(-1, 0, -1), btVector3(1, 0, -1), btVector3(0, 0, 1)}};
  // Above and beyond the edge z = -1: closest to the edge, the normal between up and -z.
  const TriangleContact c = capsule_triangle(btVector3(0, 0.3, -1.4), btVector3(0, 1.3, -1.4), 0.1, t, 1.0);
  ASSERT_TRUE(c.separated);
  EXPECT_NEAR(c.distance, 0.5 - 0.1, 1e-12);
  EXPECT_NEAR(c.normal.dot(btVector3(0, 0.6, -0.8)), 1.0, 1e-12);
  EXPECT_EQ(c.face_normal, btVector3(0, 0, 0));
}

/// Bullet's cast of the capsule against the mesh (the adapter's fallback),
/// and ours through the adapter's pair function, each with Bullet's
/// closest-hit callback.
struct SweepAnswers {
  bool bullet_hit = false;
  double bullet_fraction = 1.0;
  btVector3 bullet_normal{0, 0, 0};
  bool ours_answered = false;
  bool ours_hit = false;
  double ours_fraction = 1.0;
  btVector3 ours_normal{0, 0, 0};
  btVector3 ours_point{0, 0, 0};
};

SweepAnswers both_sweeps(const btCapsuleShape& shape, const btTransform& from, const btTransform& to,
                         const btCollisionObject& object) {
  SweepAnswers s;
  btCollisionWorld::ClosestConvexResultCallback bullet(from.getOrigin(), to.getOrigin());
  btCollisionWorld::objectQuerySingle(&shape, from, to, const_cast<btCollisionObject*>(&object),
                                      object.getCollisionShape(), object.getWorldTransform(), bullet, 0.0);
  s.bullet_hit = bullet.hasHit();
  s.bullet_fraction = bullet.m_closestHitFraction;
  s.bullet_normal = bullet.m_hitNormalWorld.normalized();
  btCollisionWorld::ClosestConvexResultCallback ours(from.getOrigin(), to.getOrigin());
  s.ours_answered = detail::triangle_sweep_pair(&shape, from, to, &object, &ours);
  s.ours_hit = ours.hasHit();
  s.ours_fraction = ours.m_closestHitFraction;
  s.ours_normal = ours.m_hitNormalWorld;
  s.ours_point = ours.m_hitPointWorld;
  return s;
}

/// Distance from the capsule of `radius` about a→b to the triangles.
double capsule_gap(const btVector3& a, const btVector3& b, double radius, const std::vector<Triangle>& triangles) {
  double gap = std::numeric_limits<double>::infinity();
  for (const Triangle& t : triangles) {
    const TriangleContact c = capsule_triangle(a, b, radius, t, std::numeric_limits<double>::infinity());
    gap = std::min(gap, c.separated ? c.distance : -radius);
  }
  return gap;
}

/// The sweep against Bullet's convex cast on random capsules moving past
/// random triangles (one-triangle meshes at a random pose), through the
/// adapter's pair function. Both run the same conservative advancement,
/// ours on exact distances, Bullet's on GJK's: hit or miss agree, except
/// where a step lands within 1e-6 m of the 1 mm stop distance and the two
/// take a different number of steps (counted, rare); otherwise fraction times
/// motion length within 1e-6 m and normals within 1e-4. The exact touch
/// (capsule_triangle_touch) is never earlier than the cast's stop, and the
/// capsule there is at 1e-9 m of the triangle.
TEST(CapsuleTriangleSweep, MatchesBulletsCastOnRandomMotions) {
  Random random;
  int both = 0;
  int disagree = 0;
  double worst_fraction = 0.0;
  double worst_normal = 0.0;
  for (int i = 0; i < 6000; ++i) {
    const Triangle t = random_triangle(random);
    const btTransform pose(random.rotation(), random.point(2));
    Mesh mesh({t}, pose);
    const Triangle world{{pose * t.v[0], pose * t.v[1], pose * t.v[2]}};
    const double radius = random.uniform(0.05, 0.6);
    const double half_height = i % 5 == 0 ? 0.0 : random.uniform(0.0, 0.9);
    btCapsuleShape shape(radius, 2 * half_height);
    // Start clear of the triangle, aimed at a point near it.
    const btTransform from(random.rotation(), pose * (random.point(1) + random.direction() * 2.5));
    const btVector3 target = pose * (random.point(1.2));
    const btVector3 motion = (target - from.getOrigin()) * random.uniform(0.3, 1.6);
    btTransform to = from;
    to.setOrigin(from.getOrigin() + motion);
    const btVector3 axis = from.getBasis().getColumn(1) * half_height;
    const btVector3 a = from.getOrigin() - axis;
    const btVector3 b = from.getOrigin() + axis;
    if (capsule_gap(a, b, radius, {world}) < 1e-3) continue;
    const SweepAnswers s = both_sweeps(shape, from, to, mesh.object);
    ASSERT_TRUE(s.ours_answered) << "case " << i;
    const TriangleSweep touch = detail::capsule_triangle_touch(a, b, radius, motion, world);
    if (touch.kind == TriangleSweep::Kind::Hit) {
      const btVector3 at_touch = motion * touch.fraction;
      EXPECT_NEAR(capsule_gap(a + at_touch, b + at_touch, radius, {world}), 0.0, 1e-9) << "case " << i;
      EXPECT_LT(to_triangle(touch.point, world), 1e-9) << "case " << i;
      ASSERT_TRUE(s.ours_hit) << "case " << i;
      EXPECT_LE(s.ours_fraction, touch.fraction + 1e-12) << "case " << i;
    }
    if (s.ours_hit != s.bullet_hit) {
      ++disagree;
      continue;
    }
    if (!s.ours_hit) continue;
    ++both;
    const double off = std::fabs(s.ours_fraction - s.bullet_fraction) * motion.length();
    if (off > 1e-6) {
      ++disagree;  // a different number of steps: the step before stopped within 1e-6 m of 1 mm
      const btVector3 at_ours = motion * s.ours_fraction;
      EXPECT_LE(capsule_gap(a + at_ours, b + at_ours, radius, {world}), 1e-3) << "case " << i;
      continue;
    }
    worst_fraction = std::max(worst_fraction, off);
    worst_normal = std::max(worst_normal, (s.ours_normal - s.bullet_normal).length());
    EXPECT_LT((s.ours_normal - s.bullet_normal).length(), 1e-4) << "case " << i;
    EXPECT_LT(to_triangle(s.ours_point, world), 1e-9) << "case " << i;
    EXPECT_LT(s.ours_normal.dot(motion), 0.0) << "case " << i;
  }
  std::printf("sweeps: %d both hit, %d disagree, worst %g m, normal %g\n", both, disagree, worst_fraction, worst_normal);
  EXPECT_GT(both, 1500);
  EXPECT_LT(disagree, 30);  // 0.5 %
}

TEST(CapsuleTriangleSweep, FallingOntoTheFaceStopsAtTheTouch) {
  const Triangle t{{btVector3(-1, 0, -1), btVector3(0, 0, 1), btVector3(1, 0, -1)}};
  const TriangleSweep s =
      detail::capsule_triangle_touch(btVector3(0, 1.5, 0), btVector3(0, 2.5, 0), 0.5, btVector3(0, -2, 0), t);
  ASSERT_EQ(s.kind, TriangleSweep::Kind::Hit);
  EXPECT_DOUBLE_EQ(s.fraction, 0.5);
  EXPECT_EQ(s.normal, btVector3(0, 1, 0));
  EXPECT_EQ(s.point, btVector3(0, 0, 0));
}

TEST(CapsuleTriangleSweep, LikeBulletsCastItStopsOnAFaceAtTheTouchAndHitsWhatItPassesWithinAMillimetre) {
  const Triangle t{{btVector3(-1, 0, -1), btVector3(0, 0, 1), btVector3(1, 0, -1)}};
  const TriangleSweep face =
      capsule_triangle_sweep(btVector3(0, 1.5, 0), btVector3(0, 2.5, 0), 0.5, btVector3(0, -2, 0), t);
  ASSERT_EQ(face.kind, TriangleSweep::Kind::Hit);
  EXPECT_DOUBLE_EQ(face.fraction, 0.5);  // one step: a face's distance closes at the closing speed
  // A sphere passing 0.5 mm beside the corner (1, 0, -1), moving along z.
  const btVector3 start(1.2005, 0, -3);
  const TriangleSweep graze = capsule_triangle_sweep(start, start, 0.2, btVector3(0, 0, 4), t);
  ASSERT_EQ(graze.kind, TriangleSweep::Kind::Hit);
  EXPECT_EQ(detail::capsule_triangle_touch(start, start, 0.2, btVector3(0, 0, 4), t).kind, TriangleSweep::Kind::Miss);
  EXPECT_LE(capsule_triangle(start + btVector3(0, 0, 4) * graze.fraction, start + btVector3(0, 0, 4) * graze.fraction,
                             0.2, t, 1.0)
                .distance,
            1e-3);
}

TEST(CapsuleTriangleSweep, TouchingAndMovingAlongOrAwayMissesMovingInHitsAtZero) {
  const Triangle t{{btVector3(-1, 0, -1), btVector3(0, 0, 1), btVector3(1, 0, -1)}};
  const btVector3 a(0, 0.5, 0);
  const btVector3 b(0, 1.5, 0);
  EXPECT_EQ(capsule_triangle_sweep(a, b, 0.5, btVector3(0.3, 0, 0), t).kind, TriangleSweep::Kind::Miss);
  EXPECT_EQ(capsule_triangle_sweep(a, b, 0.5, btVector3(0, 0.3, 0), t).kind, TriangleSweep::Kind::Miss);
  const TriangleSweep in = capsule_triangle_sweep(a, b, 0.5, btVector3(0.1, -0.3, 0), t);
  ASSERT_EQ(in.kind, TriangleSweep::Kind::Hit);
  EXPECT_EQ(in.fraction, 0.0);
  EXPECT_EQ(in.normal, btVector3(0, 1, 0));
  EXPECT_EQ(capsule_triangle_sweep(btVector3(0, -1, 0), b, 0.5, btVector3(0, 1, 0), t).kind,
            TriangleSweep::Kind::Unknown);
}

TEST(CapsuleTriangleSweep, TheSideOfTheCapsuleMeetsAnEdge) {
  // A horizontal capsule along x falls past a triangle standing in the plane
  // x = 0: its side, not an end, first comes within the radius of the edge
  // from (0, 0, -1) to (0, -1, 1), at a point inside both.
  const Triangle t{{btVector3(0, 0, -1), btVector3(0, -2, -1), btVector3(0, -1, 1)}};
  const TriangleSweep s =
      detail::capsule_triangle_touch(btVector3(-1, 1, 0), btVector3(1, 1, 0), 0.25, btVector3(0, -3, 0), t);
  ASSERT_EQ(s.kind, TriangleSweep::Kind::Hit);
  const btVector3 edge = (btVector3(0, -1, 1) - btVector3(0, 0, -1)).normalized();
  const btVector3 rel = btVector3(0, 1 - 3 * s.fraction, 0) - btVector3(0, 0, -1);
  EXPECT_NEAR((rel - edge * rel.dot(edge)).length(), 0.25, 1e-12);
  EXPECT_NEAR(s.point.x(), 0.0, 1e-12);
  EXPECT_NEAR(s.normal.x(), 0.0, 1e-12);
}

/// (For the heightfield, also its sweeps, with the tolerances of the sweep
/// test above, and our normal is the contact normal where it stops.)
/// Every overlap Bullet's contactTest reports against a mesh of many
/// triangles (a random rotated grid of bumps) or a heightfield, ours
/// reports too, and no other, through the adapter (CollisionQueries::contacts
/// with the exact pairs): one per triangle, within the tolerances above.
/// Gaps (distance > 0, with a threshold) are not compared here: against
/// many triangles Bullet reports some within the threshold and not others
/// (and some beyond it); ours reports all within it, and the one-triangle
/// test above compares gaps where Bullet does report them.
void expect_same_contacts(btCollisionWorld& world, btCollisionObject& capsule, double threshold, int case_number,
                          int* compared) {
  CollisionQueries queries(&world, nullptr);
  std::vector<Contact> ours;
  queries.contacts(&capsule, threshold, ours);
  BulletContacts theirs;
  theirs.m_closestDistanceThreshold = threshold;
  world.contactTest(&capsule, theirs);
  std::vector<Contact> expected;
  for (const Contact& c : theirs.found) {
    if (c.distance <= 0.0) expected.push_back(c);
  }
  std::vector<bool> used(ours.size(), false);
  for (const Contact& c : expected) {
    bool matched = false;
    for (std::size_t k = 0; k < ours.size() && !matched; ++k) {
      if (used[k] || std::fabs(ours[k].distance - c.distance) > 1e-6 || (ours[k].normal - c.normal).length() > 1e-4)
        continue;
      used[k] = matched = true;
    }
    EXPECT_TRUE(matched) << "case " << case_number << ": Bullet's contact at " << c.distance << " not found";
  }
  for (std::size_t k = 0; k < ours.size(); ++k) {
    if (!used[k]) EXPECT_GT(ours[k].distance, -1e-6) << "case " << case_number << ": an overlap Bullet does not report";
  }
  *compared += static_cast<int>(expected.size());
}

TEST(TrianglePairs, MeshContactsMatchBulletsOnePerTriangle) {
  Random random;
  std::vector<Triangle> triangles;
  auto height = [](double x, double z) { return 0.3 * std::sin(1.7 * x) * std::cos(1.3 * z); };
  for (int i = -4; i < 4; ++i) {
    for (int j = -4; j < 4; ++j) {
      const btVector3 p00(i * 0.5, height(i * 0.5, j * 0.5), j * 0.5);
      const btVector3 p10((i + 1) * 0.5, height((i + 1) * 0.5, j * 0.5), j * 0.5);
      const btVector3 p01(i * 0.5, height(i * 0.5, (j + 1) * 0.5), (j + 1) * 0.5);
      const btVector3 p11((i + 1) * 0.5, height((i + 1) * 0.5, (j + 1) * 0.5), (j + 1) * 0.5);
      triangles.push_back(Triangle{{p00, p10, p11}});
      triangles.push_back(Triangle{{p00, p11, p01}});
    }
  }
  BulletWorld w;
  const btTransform pose(random.rotation(), random.point(1));
  Mesh mesh(triangles, pose);
  w.world.addCollisionObject(&mesh.object);
  int compared = 0;
  for (int i = 0; i < 400; ++i) {
    const double radius = random.uniform(0.1, 0.5);
    const double half_height = random.uniform(0.0, 0.6);
    const btVector3 local(random.uniform(-1.5, 1.5), random.uniform(-0.1, 0.6) + radius + half_height,
                          random.uniform(-1.5, 1.5));
    Capsule capsule(radius, half_height, btTransform(pose.getRotation(), pose * local));
    w.world.addCollisionObject(&capsule.object);
    w.world.updateAabbs();
    expect_same_contacts(w.world, capsule.object, i % 2 == 0 ? 0.0 : 0.05, i, &compared);
    w.world.removeCollisionObject(&capsule.object);
  }
  EXPECT_GT(compared, 300);
}

/// A triangle the motion passes within 1 mm of is a hit (as Bullet's cast
/// reports one), also where it lies just outside the swept shape's bounds,
/// which Bullet's tree walk would not visit.
TEST(TrianglePairs, ASweepPassingWithinAMillimetreOfATriangleOutsideItsBoundsHitsIt) {
  // The edge x = 0.2005, z = 0 runs along y; the sphere's centre passes at x = 0.
  Mesh mesh({Triangle{{btVector3(0.2005, -1, 0), btVector3(1, -1, 0), btVector3(0.2005, 1, 0)}}},
            btTransform::getIdentity());
  btSphereShape sphere(0.2);
  const btTransform from(btQuaternion::getIdentity(), btVector3(0, 0, -3));
  const btTransform to(btQuaternion::getIdentity(), btVector3(0, 0, 3));
  btCollisionWorld::ClosestConvexResultCallback ours(from.getOrigin(), to.getOrigin());
  ASSERT_TRUE(detail::triangle_sweep_pair(&sphere, from, to, &mesh.object, &ours));
  ASSERT_TRUE(ours.hasHit());
  const double stop_z = -3 + 6 * ours.m_closestHitFraction;
  EXPECT_LT(stop_z, 0.0);
  EXPECT_LE(capsule_triangle(btVector3(0, 0, stop_z), btVector3(0, 0, stop_z), 0.2,
                             Triangle{{btVector3(0.2005, -1, 0), btVector3(1, -1, 0), btVector3(0.2005, 1, 0)}}, 1.0)
                .distance,
            1e-3);
}

/// The same triangles in another order (so another tree, walked in another
/// order) give bit-identical sweeps: ties are broken by the hits themselves.
/// The motions start touching a ridge of the grid, where several triangles
/// hit at fraction 0 at once.
TEST(TrianglePairs, SweepsDoNotDependOnTheTrianglesOrder) {
  Random random;
  std::vector<Triangle> triangles;
  for (int i = -3; i < 3; ++i) {
    for (int j = -3; j < 3; ++j) {
      const double x = i * 0.5;
      const double z = j * 0.5;
      const btVector3 p00(x, (i + j) % 2 == 0 ? 0.0 : 0.2, z);
      const btVector3 p10(x + 0.5, 0.1, z);
      const btVector3 p01(x, 0.1, z + 0.5);
      const btVector3 p11(x + 0.5, (i + j) % 2 == 0 ? 0.2 : 0.0, z + 0.5);
      triangles.push_back(Triangle{{p00, p10, p11}});
      triangles.push_back(Triangle{{p00, p11, p01}});
    }
  }
  std::vector<Triangle> shuffled = triangles;
  std::shuffle(shuffled.begin(), shuffled.end(), random.engine);
  Mesh first(triangles, btTransform::getIdentity());
  Mesh second(shuffled, btTransform::getIdentity());
  btCapsuleShape shape(0.3, 0.8);
  int hits = 0;
  for (int i = 0; i < 300; ++i) {
    const btVector3 start(random.uniform(-1, 1), 0.0, random.uniform(-1, 1));
    // Lowered onto the mesh first, so the motion starts in contact.
    btCollisionWorld::ClosestConvexResultCallback down(start, start);
    const btTransform high(btQuaternion::getIdentity(), start + btVector3(0, 1.5, 0));
    btTransform low = high;
    low.setOrigin(start + btVector3(0, 0.5, 0));
    ASSERT_TRUE(detail::triangle_sweep_pair(&shape, high, low, &first.object, &down));
    const btTransform from(btQuaternion::getIdentity(),
                           high.getOrigin().lerp(low.getOrigin(), down.hasHit() ? down.m_closestHitFraction : 1.0));
    btTransform to = from;
    to.setOrigin(from.getOrigin() + btVector3(random.uniform(-0.5, 0.5), random.uniform(-0.2, 0.0),
                                              random.uniform(-0.5, 0.5)));
    btCollisionWorld::ClosestConvexResultCallback a(from.getOrigin(), to.getOrigin());
    btCollisionWorld::ClosestConvexResultCallback b(from.getOrigin(), to.getOrigin());
    ASSERT_TRUE(detail::triangle_sweep_pair(&shape, from, to, &first.object, &a));
    ASSERT_TRUE(detail::triangle_sweep_pair(&shape, from, to, &second.object, &b));
    ASSERT_EQ(a.hasHit(), b.hasHit()) << "case " << i;
    if (!a.hasHit()) continue;
    ++hits;
    EXPECT_EQ(a.m_closestHitFraction, b.m_closestHitFraction) << "case " << i;
    EXPECT_EQ(a.m_hitNormalWorld, b.m_hitNormalWorld) << "case " << i;
    EXPECT_EQ(a.m_hitPointWorld, b.m_hitPointWorld) << "case " << i;
  }
  EXPECT_GT(hits, 100);
}

TEST(TrianglePairs, HeightfieldContactsAndSweepsMatchBullets) {
  Random random;
  const int columns = 9;
  const int rows = 7;
  std::vector<double> heights(columns * rows);
  for (double& h : heights) h = random.uniform(-0.4, 0.4);
  btHeightfieldTerrainShape terrain(columns, rows, heights.data(), -0.4, 0.4, 1, false);
  terrain.setLocalScaling(btVector3(0.5, 1.0, 0.5));
  btCollisionObject ground;
  ground.setCollisionShape(&terrain);
  ground.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0.3, 0.1, -0.2)));
  BulletWorld w;
  w.world.addCollisionObject(&ground);
  int compared = 0;
  int swept = 0;
  int ties = 0;
  for (int i = 0; i < 300; ++i) {
    const double radius = random.uniform(0.1, 0.4);
    const double half_height = random.uniform(0.0, 0.5);
    const btVector3 at(random.uniform(-1.5, 1.5), random.uniform(-0.2, 0.6) + radius + half_height,
                       random.uniform(-1.2, 1.2));
    Capsule capsule(radius, half_height, btTransform(btQuaternion::getIdentity(), at));
    w.world.addCollisionObject(&capsule.object);
    w.world.updateAabbs();
    expect_same_contacts(w.world, capsule.object, i % 2 == 0 ? 0.0 : 0.05, i, &compared);
    w.world.removeCollisionObject(&capsule.object);
    // Down and across onto the terrain, from above it.
    const btTransform from(btQuaternion::getIdentity(), at + btVector3(0, 1.0, 0));
    btTransform to = from;
    to.setOrigin(from.getOrigin() + btVector3(random.uniform(-0.5, 0.5), -1.5, random.uniform(-0.5, 0.5)));
    const SweepAnswers s = both_sweeps(capsule.shape, from, to, ground);
    if (!s.ours_answered || !s.bullet_hit || !s.ours_hit) continue;
    ++swept;
    const double length = (to.getOrigin() - from.getOrigin()).length();
    EXPECT_LT(std::fabs(s.ours_fraction - s.bullet_fraction) * length, 1e-6) << "case " << i;
    // Two triangles sharing the edge or corner hit may stop at the same
    // fraction (to rounding) with different normals: Bullet keeps the one it
    // visits first, ours the least in (fraction, normal) order. Counted.
    if ((s.ours_normal - s.bullet_normal).length() > 1e-4) ++ties;
    // Ours is the contact normal where it stops, as the contact query reports it there.
    const btVector3 stop = from.getOrigin() + (to.getOrigin() - from.getOrigin()) * s.ours_fraction;
    const btVector3 axis(0, half_height, 0);
    std::vector<Contact> there;
    ASSERT_TRUE(detail::triangle_contacts(stop - axis, stop + axis, radius, &ground, 1e-3, &there));
    bool same = false;
    for (const Contact& c : there) same = same || (c.normal - s.ours_normal).length() < 1e-9;
    EXPECT_TRUE(same) << "case " << i;
  }
  EXPECT_GT(compared, 100);
  EXPECT_GT(swept, 100);
  EXPECT_LT(ties, 5);
}

}  // namespace
}  // namespace stepslide::test
