// capsule_triangle_penetration (capsule_triangle.h): a capsule whose segment
// touches or crosses a triangle, against a brute-force search over
// directions (the reference), against Bullet's contactPairTest (GJK/EPA,
// what the adapter asked before), against capsule_triangle at the boundary,
// and on closed-form cases (a segment through an edge shared by two
// triangles: exactly opposite normals, where EPA's answer hangs on rounding).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "collision/triangle_fixtures.h"
#include "geometry/capsule_triangle.h"

namespace stepslide::test {
namespace {

using namespace triangles;  // NOLINT: the fixtures of these tests
using detail::capsule_triangle_penetration;

/// Tolerances. Against the brute force: ours within 1e-9 m of the search's
/// least push (ours is the least over the polytope's face normals, which
/// holds the least over all directions). Against EPA: depth within 1e-4 m
/// and normal within 1e-3 count as agreeing; where EPA disagrees, the true
/// push along its normal is no less than ours (EPA never finds a shallower
/// way out than ours).
constexpr double kSearch = 1e-9;
constexpr double kEpaDepth = 1e-4;
constexpr double kEpaNormal = 1e-3;

/// A capsule whose segment passes through a point of a random triangle,
/// anywhere along the segment (a sphere, every fifth, centred on it).
struct DeepPair {
  Triangle t;
  double radius;
  double half_height;
  btTransform pose;
  btVector3 a;
  btVector3 b;
};

DeepPair random_deep_pair(Random& random, int i) {
  DeepPair p;
  p.t = random_triangle(random);
  p.radius = random.uniform(0.05, 0.6);
  p.half_height = i % 5 == 0 ? 0.0 : random.uniform(0.0, 0.9);
  const double u = random.uniform(0, 1);
  const double v = random.uniform(0, 1 - u);
  const btVector3 on = p.t.v[0] + (p.t.v[1] - p.t.v[0]) * u + (p.t.v[2] - p.t.v[0]) * v;
  const btQuaternion turn = random.rotation();
  const btVector3 axis = btMatrix3x3(turn).getColumn(1) * p.half_height;
  const double along = random.uniform(-1, 1);
  const btVector3 centre = on - axis * along;
  p.pose = btTransform(turn, centre);
  p.a = centre - axis;
  p.b = centre + axis;
  return p;
}

/// The push that takes the segment off the triangle along the unit `u`,
/// written independently of the library's.
double push_along(const DeepPair& p, const btVector3& u) {
  const double reach = std::max({p.t.v[0].dot(u), p.t.v[1].dot(u), p.t.v[2].dot(u)});
  return reach - std::min(p.a.dot(u), p.b.dot(u));
}

/// The least push along the great circle perpendicular to the unit `pole`:
/// 720 angles, then a ternary search down to 1e-13 rad around each sampled
/// local least.
double least_on_circle(const DeepPair& p, const btVector3& pole, double best) {
  constexpr int kAngles = 720;
  const double step = 2 * M_PI / kAngles;
  const btVector3 t1 = pole.cross(std::fabs(pole.x()) < 0.9 ? btVector3(1, 0, 0) : btVector3(0, 1, 0)).normalized();
  const btVector3 t2 = pole.cross(t1);
  const auto at = [&](double angle) { return t1 * std::cos(angle) + t2 * std::sin(angle); };
  double sampled[kAngles];
  for (int k = 0; k < kAngles; ++k) sampled[k] = push_along(p, at(step * k));
  for (int k = 0; k < kAngles; ++k) {
    if (sampled[k] > sampled[(k + 1) % kAngles] || sampled[k] > sampled[(k + kAngles - 1) % kAngles]) continue;
    double lo = step * (k - 1);
    double hi = step * (k + 1);
    while (hi - lo > 1e-13) {
      const double m1 = lo + (hi - lo) / 3;
      const double m2 = hi - (hi - lo) / 3;
      if (push_along(p, at(m1)) < push_along(p, at(m2))) {
        hi = m2;
      } else {
        lo = m1;
      }
    }
    best = std::min({best, sampled[k], push_along(p, at(0.5 * (lo + hi)))});
  }
  return best;
}

/// The least push over directions, by search: 2 000 directions spread over
/// the sphere, and the great circles where the push is not smooth (where
/// two corners of the triangle tie: perpendicular to an edge; where the
/// segment's lowest end changes: perpendicular to it). Between those circles
/// the push is linear in u, so its least is on one of them.
double brute_force_push(const DeepPair& p) {
  constexpr int kSpread = 2000;
  const double golden = M_PI * (3.0 - std::sqrt(5.0));
  double best = std::numeric_limits<double>::infinity();
  for (int k = 0; k < kSpread; ++k) {
    const double y = 1.0 - 2.0 * (k + 0.5) / kSpread;
    const double across = std::sqrt(1.0 - y * y);
    best = std::min(best, push_along(p, btVector3(std::cos(golden * k) * across, y, std::sin(golden * k) * across)));
  }
  for (int i = 0; i < 3; ++i) best = least_on_circle(p, (p.t.v[(i + 1) % 3] - p.t.v[i]).normalized(), best);
  const btVector3 d = p.b - p.a;
  if (d.length() > 1e-9) best = least_on_circle(p, d.normalized(), best);
  return best;
}

TEST(CapsuleTrianglePenetration, IsTheLeastPushOverAllDirections) {
  Random random;
  double worst = 0.0;
  for (int i = 0; i < 3000; ++i) {
    const DeepPair p = random_deep_pair(random, i);
    const ExactContact c = capsule_triangle_penetration(p.a, p.b, p.radius, p.t);
    ASSERT_TRUE(c.answered) << "case " << i;
    const double depth = -c.distance - p.radius;
    ASSERT_GE(depth, -kSearch) << "case " << i;
    // The push along its own normal is what it says.
    EXPECT_NEAR(push_along(p, c.normal), depth, 1e-12) << "case " << i;
    EXPECT_NEAR(c.normal.length(), 1.0, 1e-15) << "case " << i;
    const double searched = brute_force_push(p);
    EXPECT_LE(depth, searched + kSearch) << "case " << i;
    EXPECT_GE(depth, searched - kSearch) << "case " << i;
    worst = std::max(worst, std::fabs(depth - searched));
    // The point is on the triangle, touched by the pushed segment.
    EXPECT_LT(to_triangle(c.point, p.t), 1e-12) << "case " << i;
    const btVector3 shift = c.normal * depth;
    EXPECT_LT(capsule_gap(p.a + shift, p.b + shift, 0.0, {p.t}), 1e-9) << "case " << i;
  }
  std::printf("penetration vs search: worst %.3g m\n", worst);
}

TEST(CapsuleTrianglePenetration, AgreesWithBulletsEpaOrIsShallower) {
  Random random;
  BulletWorld w;
  int compared = 0;
  int agree = 0;
  int same_depth = 0;  ///< the depth agrees, the normal not (a tie of directions)
  double worst_tie = 0.0;
  double worst_shallower = 0.0;
  for (int i = 0; i < 3000; ++i) {
    const DeepPair p = random_deep_pair(random, i);
    Mesh mesh({p.t}, btTransform::getIdentity());
    Capsule capsule(p.radius, p.half_height, p.pose);
    const double margin = mesh.shape->getMargin();
    const ExactContact ours = capsule_triangle_penetration(p.a, p.b, p.radius + margin, p.t);
    ASSERT_TRUE(ours.answered) << "case " << i;
    BulletContacts theirs;
    theirs.m_closestDistanceThreshold = 0.0;
    w.world.contactPairTest(&capsule.object, &mesh.object, theirs);
    if (theirs.found.size() != 1) continue;
    ++compared;
    const Contact& c = theirs.found[0];
    if (std::fabs(ours.distance - c.distance) < kEpaDepth && (ours.normal - c.normal).length() < kEpaNormal) {
      ++agree;
      continue;
    }
    // EPA elsewhere: the true push along its normal is no shallower than
    // ours (ours is the least). Mostly EPA's depth is ours but its normal
    // another: on a tie of directions another way out as short (a sphere
    // centred on the face goes either way; a segment through an edge or a
    // corner has a fan of them), or one along which the true push is deeper
    // than the depth it reports. Else EPA's depth is off, too shallow (its
    // tolerance on the rounded capsule), never deeper than ours.
    const double ours_depth = -ours.distance - p.radius - margin;
    const double theirs_depth = -c.distance - p.radius - margin;
    const double along_theirs = push_along(p, c.normal);
    EXPECT_GE(along_theirs, ours_depth - 1e-9) << "case " << i;
    EXPECT_LE(theirs_depth, ours_depth + kEpaDepth) << "case " << i;
    if (std::fabs(theirs_depth - ours_depth) < kEpaDepth) {
      ++same_depth;
      worst_tie = std::max(worst_tie, along_theirs - ours_depth);
    } else {
      worst_shallower = std::max(worst_shallower, ours_depth - theirs_depth);
    }
  }
  std::printf("penetration vs EPA: %d of %d agree; %d at the same depth along another normal (true push there "
              "up to %.3g m more); %d shallower by up to %.3g m\n",
              agree, compared, same_depth, worst_tie, compared - agree - same_depth, worst_shallower);
  EXPECT_GT(compared, 2500);
  EXPECT_GT(agree, compared * 8 / 10);
  EXPECT_GT(agree + same_depth, compared * 99 / 100);
}

/// A sweep that starts with the segment through the triangle, through the
/// adapter (triangle_sweep_pair), against Bullet's cast: Bullet's rule (a hit
/// at 0 along the penetration's normal when the motion goes against it, else
/// a miss) on the exact push. Compared where EPA's normal agrees with ours
/// (1e-3) and the motion is not within 0.05 of along it: hit or miss agree,
/// and a hit is at 0 along ours on both.
TEST(CapsuleTrianglePenetration, ASweepStartingThroughItFollowsBulletsRule) {
  Random random;
  BulletWorld w;
  int compared = 0;
  int hits = 0;
  for (int i = 0; i < 2000; ++i) {
    const DeepPair p = random_deep_pair(random, i);
    Mesh mesh({p.t}, btTransform::getIdentity());
    Capsule capsule(p.radius, p.half_height, p.pose);
    const double margin = mesh.shape->getMargin();
    const ExactContact deep = capsule_triangle_penetration(p.a, p.b, p.radius + margin, p.t);
    ASSERT_TRUE(deep.answered) << "case " << i;
    const btVector3 heading = random.direction();
    const btVector3 motion = heading * random.uniform(0.01, 0.5);
    const double into = -motion.normalized().dot(deep.normal);
    // Ours alone: Bullet's rule on the exact push.
    const ExactSweep ours = capsule_triangle_sweep(p.a, p.b, p.radius + margin, motion, p.t);
    ASSERT_TRUE(ours.answered) << "case " << i;
    ASSERT_EQ(ours.hit, -motion.dot(deep.normal) > SIMD_EPSILON) << "case " << i;
    if (ours.hit) {
      EXPECT_EQ(ours.fraction, 0.0) << "case " << i;
      EXPECT_EQ(ours.normal, deep.normal) << "case " << i;
    }
    // Against Bullet's cast, where EPA finds our normal.
    BulletContacts epa;
    w.world.contactPairTest(&capsule.object, &mesh.object, epa);
    if (epa.found.size() != 1 || (epa.found[0].normal - deep.normal).length() > kEpaNormal) continue;
    if (std::fabs(into) < 0.05) continue;
    btTransform to = p.pose;
    to.setOrigin(p.pose.getOrigin() + motion);
    const SweepAnswers s = both_sweeps(capsule.shape, p.pose, to, mesh.object);
    ASSERT_TRUE(s.ours_answered) << "case " << i;
    ++compared;
    EXPECT_EQ(s.ours_hit, s.bullet_hit) << "case " << i;
    if (!s.ours_hit || !s.bullet_hit) continue;
    ++hits;
    EXPECT_EQ(s.ours_fraction, 0.0) << "case " << i;
    EXPECT_EQ(s.bullet_fraction, 0.0) << "case " << i;
    EXPECT_LT((s.ours_normal - s.bullet_normal).length(), kEpaNormal) << "case " << i;
  }
  std::printf("sweeps from through the triangle: %d compared with Bullet's cast, %d hits\n", compared, hits);
  EXPECT_GT(compared, 1000);
  EXPECT_GT(hits, 400);
}

TEST(CapsuleTrianglePenetration, MeetsCapsuleTriangleAtTheBoundary) {
  // Just off the face the separated answer, just on it the penetration:
  // the same normal, the distance continuous through -radius.
  const Triangle t{{btVector3(-1, 0, -1), btVector3(1, 0, -1), btVector3(0, 0, 1)}};
  const ExactContact apart = capsule_triangle(btVector3(0.1, 2e-9, 0.2), btVector3(0.3, 1, 0.2), 0.3, t, 1.0);
  const ExactContact on = capsule_triangle_penetration(btVector3(0.1, -2e-9, 0.2), btVector3(0.3, 1, 0.2), 0.3, t);
  ASSERT_TRUE(apart.answered);
  ASSERT_TRUE(on.answered);
  EXPECT_EQ(apart.normal, btVector3(0, 1, 0));
  EXPECT_EQ(on.normal, btVector3(0, 1, 0));
  EXPECT_NEAR(apart.distance, on.distance, 5e-9);
  EXPECT_NEAR(on.point.distance(btVector3(0.1, 0, 0.2)), 0.0, 1e-15);
}

TEST(CapsuleTrianglePenetration, ThroughTheFaceItIsPushedOutTheShortWay) {
  const Triangle t{{btVector3(-1, 0, -1), btVector3(1, 0, -1), btVector3(0, 0, 1)}};
  const ExactContact up = capsule_triangle_penetration(btVector3(0, -0.1, 0), btVector3(0, 1, 0), 0.25, t);
  ASSERT_TRUE(up.answered);
  EXPECT_EQ(up.normal, btVector3(0, 1, 0));
  EXPECT_DOUBLE_EQ(up.distance, -0.1 - 0.25);
  EXPECT_EQ(up.face_normal, btVector3(0, 1, 0));
  EXPECT_EQ(up.point, btVector3(0, 0, 0));
  const ExactContact down = capsule_triangle_penetration(btVector3(0, -1, 0), btVector3(0, 0.1, 0), 0.25, t);
  EXPECT_EQ(down.normal, btVector3(0, -1, 0));
  EXPECT_DOUBLE_EQ(down.distance, -0.1 - 0.25);
  // A sphere centred just below the face.
  // A sphere centred on the face: no push either way, the face's normal
  // (the winding's side on the exact tie).
  const ExactContact sphere = capsule_triangle_penetration(btVector3(0.2, 0, 0), btVector3(0.2, 0, 0), 0.3, t);
  EXPECT_EQ(std::fabs(sphere.normal.y()), 1.0);
  EXPECT_EQ(sphere.distance, -0.3);
  EXPECT_EQ(sphere.face_normal, sphere.normal);
}

TEST(CapsuleTrianglePenetration, ThroughAnEdgeItIsPushedAcrossTheEdge) {
  // Upright through the edge z = -1, reaching 0.5 above and below it: half
  // a metre either way along the face's normal, nothing across the edge.
  const Triangle t{{btVector3(-1, 0, -1), btVector3(1, 0, -1), btVector3(0, 0, 1)}};
  const ExactContact c = capsule_triangle_penetration(btVector3(0.3, -0.5, -1), btVector3(0.3, 0.5, -1), 0.2, t);
  ASSERT_TRUE(c.answered);
  EXPECT_EQ(c.normal, btVector3(0, 0, -1));
  EXPECT_EQ(c.distance, -0.2);
  EXPECT_EQ(c.face_normal, btVector3(0, 0, 0));
  EXPECT_LT(c.point.distance(btVector3(0.3, 0, -1)), 1e-15);
}

TEST(CapsuleTrianglePenetration, ThroughARidgeTheTwoSidesPushExactlyApart) {
  // Two triangles of a heightfield-like ridge sharing the edge (0,0,0)-(1,0.3,-1);
  // an upright segment through a point of it: each side pushes the capsule
  // off across the edge, horizontally, by nothing, the two normals exactly
  // opposite (Bullet's EPA answered one of them tilted, by its rounding).
  const btVector3 p0(0, 0, 0);
  const btVector3 p1(1, 0.3, -1);
  const Triangle left{{p0, p1, btVector3(-0.2, 0.1, -1)}};
  const Triangle right{{p0, btVector3(1, -0.2, 0.1), p1}};
  const btVector3 on = p0 + (p1 - p0) * 0.5;
  const btVector3 a = on - btVector3(0, 0.4, 0);
  const btVector3 b = on + btVector3(0, 1.2, 0);
  const ExactContact l = capsule_triangle_penetration(a, b, 0.204, left);
  const ExactContact r = capsule_triangle_penetration(a, b, 0.204, right);
  ASSERT_TRUE(l.answered);
  ASSERT_TRUE(r.answered);
  EXPECT_EQ(l.normal, -r.normal);
  EXPECT_EQ(l.normal.y(), 0.0);
  EXPECT_NEAR(l.normal.x(), std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(l.normal.z(), std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(l.distance, -0.204, 1e-15);
  EXPECT_NEAR(r.distance, -0.204, 1e-15);
}

TEST(CapsuleTrianglePenetration, LyingOnTheFaceItIsPushedAlongTheFacesNormal) {
  const Triangle t{{btVector3(-1, 0, -1), btVector3(1, 0, -1), btVector3(0, 0, 1)}};
  // In the face's plane: no push either way; the face's normal (the
  // triangle's winding side on the exact tie), not a crossed axis.
  const ExactContact flat = capsule_triangle_penetration(btVector3(-0.2, 0, 0), btVector3(0.2, 0, 0), 0.3, t);
  ASSERT_TRUE(flat.answered);
  EXPECT_EQ(flat.distance, -0.3);
  EXPECT_EQ(std::fabs(flat.normal.y()), 1.0);
  EXPECT_EQ(flat.face_normal, flat.normal);
  // Nearly flat, dipping 1e-10 m below: pushed up by that, along the face's normal.
  const ExactContact dip = capsule_triangle_penetration(btVector3(-0.2, -1e-10, 0), btVector3(0.2, 5e-10, 0), 0.3, t);
  EXPECT_EQ(dip.normal, btVector3(0, 1, 0));
  EXPECT_NEAR(dip.distance, -0.3 - 1e-10, 1e-16);
}

TEST(CapsuleTrianglePenetration, ATriangleWithNoAreaIsLeftToBullet) {
  const Triangle t{{btVector3(0, 0, 0), btVector3(1, 0, 0), btVector3(2, 0, 0)}};
  EXPECT_FALSE(capsule_triangle_penetration(btVector3(0.5, -1, 0), btVector3(0.5, 1, 0), 0.3, t).answered);
}

}  // namespace
}  // namespace stepslide::test
