// The adapter's mesh and heightfield pairs (triangle_pairs.h) against
// Bullet's answers on shapes of many triangles: contacts one per triangle,
// sweeps independent of the order the triangles are visited in.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>

#include "collision/triangle_fixtures.h"

namespace stepslide::test {
namespace {

using namespace triangles;  // NOLINT: the fixtures of these tests

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
    if (!used[k]) {
      EXPECT_GT(ours[k].distance, -1e-6) << "case " << case_number << ": an overlap Bullet does not report";
    }
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
  const btVector3 origin = random.point(1);
  const btTransform pose(random.rotation(), origin);
  Mesh mesh(triangles, pose);
  w.world.addCollisionObject(&mesh.object);
  int compared = 0;
  for (int i = 0; i < 400; ++i) {
    const double radius = random.uniform(0.1, 0.5);
    const double half_height = random.uniform(0.0, 0.6);
    const double z = random.uniform(-1.5, 1.5);
    const double y = random.uniform(-0.1, 0.6) + radius + half_height;
    const btVector3 local(random.uniform(-1.5, 1.5), y, z);
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
    const double z = random.uniform(-1, 1);
    const btVector3 start(random.uniform(-1, 1), 0.0, z);
    // Lowered onto the mesh first, so the motion starts in contact.
    btCollisionWorld::ClosestConvexResultCallback down(start, start);
    const btTransform high(btQuaternion::getIdentity(), start + btVector3(0, 1.5, 0));
    btTransform low = high;
    low.setOrigin(start + btVector3(0, 0.5, 0));
    ASSERT_TRUE(detail::triangle_sweep_pair(&shape, high, low, &first.object, &down));
    const btTransform from(btQuaternion::getIdentity(),
                           high.getOrigin().lerp(low.getOrigin(), down.hasHit() ? down.m_closestHitFraction : 1.0));
    btTransform to = from;
    to.setOrigin(from.getOrigin() + random.within(btVector3(-0.5, -0.2, -0.5), btVector3(0.5, 0.0, 0.5)));
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
    const double z = random.uniform(-1.2, 1.2);
    const double y = random.uniform(-0.2, 0.6) + radius + half_height;
    const btVector3 at(random.uniform(-1.5, 1.5), y, z);
    Capsule capsule(radius, half_height, btTransform(btQuaternion::getIdentity(), at));
    w.world.addCollisionObject(&capsule.object);
    w.world.updateAabbs();
    expect_same_contacts(w.world, capsule.object, i % 2 == 0 ? 0.0 : 0.05, i, &compared);
    w.world.removeCollisionObject(&capsule.object);
    // Down and across onto the terrain, from above it.
    const btTransform from(btQuaternion::getIdentity(), at + btVector3(0, 1.0, 0));
    btTransform to = from;
    const double down_z = random.uniform(-0.5, 0.5);
    to.setOrigin(from.getOrigin() + btVector3(random.uniform(-0.5, 0.5), -1.5, down_z));
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
