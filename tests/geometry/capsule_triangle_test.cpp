// The exact capsule-vs-triangle queries (capsule_triangle.h) against Bullet's
// own answers on random single triangles (contactPairTest: GJK/EPA;
// objectQuerySingle: the conservative-advancement convex cast), with the
// tolerances stated at each test, and their closed-form cases.
#include <gtest/gtest.h>

#include "collision/triangle_fixtures.h"

namespace stepslide::test {
namespace {

using namespace triangles;  // NOLINT: the fixtures of these tests

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
    const ExactContact ours = capsule_triangle(capsule.a, capsule.b, radius, t, threshold);
    if (!ours.answered) {
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
    if (!parallel && !parallel_to_face) {
      EXPECT_LT((ours.point - c.point).length(), 1e-4) << "case " << i;
    }
    if (ours.face_normal != btVector3(0, 0, 0)) {
      EXPECT_LT((ours.face_normal - ours.normal).length(), 1e-6) << "case " << i;
    }
  }
  EXPECT_GT(compared, 2000);
  EXPECT_LT(touching, 1500);
}

TEST(CapsuleTriangle, ASphereAboveTheFaceIsExactlyThere) {
  const Triangle t{{btVector3(-1, 0, -1), btVector3(1, 0, -1), btVector3(0, 0, 1)}};
  const ExactContact c = capsule_triangle(btVector3(0.1, 0.7, 0), btVector3(0.1, 0.7, 0), 0.5, t, 1.0);
  ASSERT_TRUE(c.answered);
  EXPECT_DOUBLE_EQ(c.distance, 0.2);
  EXPECT_EQ(c.normal, btVector3(0, 1, 0));
  EXPECT_EQ(c.face_normal, btVector3(0, 1, 0));
  EXPECT_EQ(c.point, btVector3(0.1, 0, 0));
}

TEST(CapsuleTriangle, BeyondTheThresholdIsCulledAndAnAxisThroughItIsLeftToBullet) {
  const Triangle t{{btVector3(-1, 0, -1), btVector3(1, 0, -1), btVector3(0, 0, 1)}};
  EXPECT_TRUE(capsule_triangle(btVector3(0, 2, 0), btVector3(0, 3, 0), 0.5, t, 0.1).beyond);
  EXPECT_FALSE(capsule_triangle(btVector3(0, -1, 0), btVector3(0, 1, 0), 0.5, t, 0.1).answered);
}

TEST(CapsuleTriangle, BeyondAnEdgeTheNormalLeansOverIt) {
  const Triangle t{{btVector3(-1, 0, -1), btVector3(1, 0, -1), btVector3(0, 0, 1)}};
  // Above and beyond the edge z = -1: closest to the edge, the normal between up and -z.
  const ExactContact c = capsule_triangle(btVector3(0, 0.3, -1.4), btVector3(0, 1.3, -1.4), 0.1, t, 1.0);
  ASSERT_TRUE(c.answered);
  EXPECT_NEAR(c.distance, 0.5 - 0.1, 1e-12);
  EXPECT_NEAR(c.normal.dot(btVector3(0, 0.6, -0.8)), 1.0, 1e-12);
  EXPECT_EQ(c.face_normal, btVector3(0, 0, 0));
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
  for (int i = 0; i < 6000; ++i) {
    const Triangle t = random_triangle(random);
    const btVector3 origin = random.point(2);
    const btTransform pose(random.rotation(), origin);
    Mesh mesh({t}, pose);
    const Triangle world{{pose * t.v[0], pose * t.v[1], pose * t.v[2]}};
    const double radius = random.uniform(0.05, 0.6);
    const double half_height = i % 5 == 0 ? 0.0 : random.uniform(0.0, 0.9);
    btCapsuleShape shape(radius, 2 * half_height);
    // Start clear of the triangle, aimed at a point near it.
    const btVector3 away = random.direction() * 2.5;
    const btVector3 start = pose * (random.point(1) + away);
    const btTransform from(random.rotation(), start);
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
    const ExactSweep touch = detail::capsule_triangle_touch(a, b, radius, motion, world);
    if (touch.hit) {
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
    EXPECT_LT((s.ours_normal - s.bullet_normal).length(), 1e-4) << "case " << i;
    EXPECT_LT(to_triangle(s.ours_point, world), 1e-9) << "case " << i;
    EXPECT_LT(s.ours_normal.dot(motion), 0.0) << "case " << i;
  }
  EXPECT_GT(both, 1500);
  EXPECT_LT(disagree, 30);  // 0.5 %
}

TEST(CapsuleTriangleSweep, FallingOntoTheFaceStopsAtTheTouch) {
  const Triangle t{{btVector3(-1, 0, -1), btVector3(0, 0, 1), btVector3(1, 0, -1)}};
  const ExactSweep s =
      detail::capsule_triangle_touch(btVector3(0, 1.5, 0), btVector3(0, 2.5, 0), 0.5, btVector3(0, -2, 0), t);
  ASSERT_TRUE(s.hit);
  EXPECT_DOUBLE_EQ(s.fraction, 0.5);
  EXPECT_EQ(s.normal, btVector3(0, 1, 0));
  EXPECT_EQ(s.point, btVector3(0, 0, 0));
}

TEST(CapsuleTriangleSweep, LikeBulletsCastItStopsOnAFaceAtTheTouchAndHitsWhatItPassesWithinAMillimetre) {
  const Triangle t{{btVector3(-1, 0, -1), btVector3(0, 0, 1), btVector3(1, 0, -1)}};
  const ExactSweep face =
      capsule_triangle_sweep(btVector3(0, 1.5, 0), btVector3(0, 2.5, 0), 0.5, btVector3(0, -2, 0), t);
  ASSERT_TRUE(face.hit);
  EXPECT_DOUBLE_EQ(face.fraction, 0.5);  // one step: a face's distance closes at the closing speed
  // A sphere passing 0.5 mm beside the corner (1, 0, -1), moving along z.
  const btVector3 start(1.2005, 0, -3);
  const ExactSweep graze = capsule_triangle_sweep(start, start, 0.2, btVector3(0, 0, 4), t);
  ASSERT_TRUE(graze.hit);
  EXPECT_TRUE(is_miss(detail::capsule_triangle_touch(start, start, 0.2, btVector3(0, 0, 4), t)));
  EXPECT_LE(capsule_triangle(start + btVector3(0, 0, 4) * graze.fraction, start + btVector3(0, 0, 4) * graze.fraction,
                             0.2, t, 1.0)
                .distance,
            1e-3);
}

TEST(CapsuleTriangleSweep, TouchingAndMovingAlongOrAwayMissesMovingInHitsAtZero) {
  const Triangle t{{btVector3(-1, 0, -1), btVector3(0, 0, 1), btVector3(1, 0, -1)}};
  const btVector3 a(0, 0.5, 0);
  const btVector3 b(0, 1.5, 0);
  EXPECT_TRUE(is_miss(capsule_triangle_sweep(a, b, 0.5, btVector3(0.3, 0, 0), t)));
  EXPECT_TRUE(is_miss(capsule_triangle_sweep(a, b, 0.5, btVector3(0, 0.3, 0), t)));
  const ExactSweep in = capsule_triangle_sweep(a, b, 0.5, btVector3(0.1, -0.3, 0), t);
  ASSERT_TRUE(in.hit);
  EXPECT_EQ(in.fraction, 0.0);
  EXPECT_EQ(in.normal, btVector3(0, 1, 0));
  // The segment through the face at x = -0.1: its least push out is across
  // the nearer edge, from (-1, 0, -1) to (0, 0, 1), horizontally along
  // (-2, 0, 1)/sqrt(5), 0.8/sqrt(5) m; moving up runs along it (a miss),
  // moving toward +x into it (a hit at 0 along it).
  const btVector3 low(-0.1, -1, 0);
  const btVector3 high(-0.1, 1.5, 0);
  EXPECT_TRUE(is_miss(capsule_triangle_sweep(low, high, 0.5, btVector3(0, 1, 0), t)));
  const ExactSweep through = capsule_triangle_sweep(low, high, 0.5, btVector3(0.3, 0, 0), t);
  ASSERT_TRUE(through.hit);
  EXPECT_EQ(through.fraction, 0.0);
  EXPECT_LT((through.normal - btVector3(-2, 0, 1) / std::sqrt(5.0)).length(), 1e-15);
  EXPECT_NEAR(through.distance, -0.8 / std::sqrt(5.0) - 0.5, 1e-15);
}

TEST(CapsuleTriangleSweep, TheSideOfTheCapsuleMeetsAnEdge) {
  // A horizontal capsule along x falls past a triangle standing in the plane
  // x = 0: its side, not an end, first comes within the radius of the edge
  // from (0, 0, -1) to (0, -1, 1), at a point inside both.
  const Triangle t{{btVector3(0, 0, -1), btVector3(0, -2, -1), btVector3(0, -1, 1)}};
  const ExactSweep s =
      detail::capsule_triangle_touch(btVector3(-1, 1, 0), btVector3(1, 1, 0), 0.25, btVector3(0, -3, 0), t);
  ASSERT_TRUE(s.hit);
  const btVector3 edge = (btVector3(0, -1, 1) - btVector3(0, 0, -1)).normalized();
  const btVector3 rel = btVector3(0, 1 - 3 * s.fraction, 0) - btVector3(0, 0, -1);
  EXPECT_NEAR((rel - edge * rel.dot(edge)).length(), 0.25, 1e-12);
  EXPECT_NEAR(s.point.x(), 0.0, 1e-12);
  EXPECT_NEAR(s.normal.x(), 0.0, 1e-12);
}

}  // namespace
}  // namespace stepslide::test
