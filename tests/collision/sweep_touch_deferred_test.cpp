// capsule_triangle_sweep asks whether the capsule comes within Bullet's
// 1 mm stop at all only when its steps do not settle it (capsule_triangle.cpp,
// sweep_from); eager_sweep below asks at the first step. They must agree bit
// for bit on every case:
// misses the steps end, misses only the question ends (a capsule creeping
// past an edge within a few millimetres), hits the steps reach, hits ending
// just inside the stop distance, and starts within it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "collision/triangle_fixtures.h"
#include "geometry/first_touch.h"

namespace stepslide::test {
namespace {

using namespace triangles;  // NOLINT: the fixtures of these tests

bool same_bits(const btVector3& x, const btVector3& y) {
  return std::memcmp(x.m_floats, y.m_floats, 3 * sizeof(btScalar)) == 0;
}

bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof(double)) == 0; }

/// capsule_triangle_sweep with the question asked at the first step:
/// Bullet's conservative advancement (btContinuousConvexCollision) on exact
/// distances, stopping within kStop, a miss unless the capsule grown by
/// kStop touches the triangle within the motion (first_touch).
ExactSweep eager_sweep(const btVector3& a, const btVector3& b, double radius, const btVector3& m,
                          const Triangle& tri) {
  constexpr double kStop = 0.001;        // btContinuousConvexCollision's `radius`
  constexpr int kIterations = 64;        // and its MAX_ITERATIONS
  constexpr double kCertainWithin = 1e-7;
  constexpr double kFar = std::numeric_limits<double>::infinity();
  const detail::TrianglePlane plane = detail::plane_of(tri);
  const auto comes_within_stop = [&] { return detail::first_touch(a, b, radius + kStop, m, tri, plane).t <= 1.0; };
  ExactSweep result = ExactSweep::miss();
  if (plane.flat) {  // the capsule swept stays on one side of the plane, beyond the stop distance
    const double da = (a - tri.v[0]).dot(plane.unit);
    const double db = (b - tri.v[0]).dot(plane.unit);
    const double dm = m.dot(plane.unit);
    const double lo = std::min(std::min(da, db), std::min(da + dm, db + dm));
    const double hi = std::max(std::max(da, db), std::max(da + dm, db + dm));
    if (lo > radius + kStop || hi < -(radius + kStop)) return result;
  }
  const ExactContact start = detail::capsule_triangle(a, b, radius, tri, plane, kFar);
  if (!start.answered) {  // starting through it: Bullet's rule on the exact push
    const ExactContact deep = detail::capsule_triangle_penetration(a, b, radius, tri, plane);
    if (!deep.answered) {
      result.answered = false;
      return result;
    }
    if (-m.dot(deep.normal) <= SIMD_EPSILON) return result;
    result.answered = true;
    result.hit = true;
    result.fraction = 0.0;
    result.distance = deep.distance;
    result.normal = deep.normal;
    result.point = deep.point;
    return result;
  }
  if (-m.dot(start.normal) <= SIMD_EPSILON) return result;
  double lambda = 0.0;
  double distance = start.distance;
  btVector3 normal = start.normal;
  btVector3 point = start.point;
  bool within_stop = false;
  for (int iterations = 0; distance > kStop;) {
    const double closing = -m.dot(normal);
    if (closing <= SIMD_EPSILON) return result;
    const double next = lambda + distance / closing;
    if (next > 1.0 || next < 0.0 || next <= lambda) return result;
    if (iterations == 0) {
      if (!comes_within_stop()) return result;
      within_stop = true;
    }
    lambda = next;
    const btVector3 moved = m * lambda;
    const ExactContact c = detail::capsule_triangle(a + moved, b + moved, radius, tri, plane, kFar);
    if (!c.answered) {
      if (!within_stop && !comes_within_stop()) return result;
      result.answered = false;
      return result;
    }
    distance = c.distance;
    normal = c.normal;
    point = c.point;
    if (++iterations > kIterations) return result;
  }
  if (lambda > 0.0 && !within_stop && !(distance <= kStop - kCertainWithin) && !comes_within_stop()) return result;
  result.hit = true;
  result.fraction = lambda;
  result.distance = distance;
  result.normal = normal;
  result.point = point;
  return result;
}

/// A capsule whose motion passes 0..3 mm beside the triangle, mostly
/// tangent to it there (past an edge or a corner, or over the face) with a
/// small approach: it comes from up to 2 m back along the motion, and the
/// steps creep in on a curved edge or corner.
struct Grazing {
  btVector3 a;
  btVector3 b;
  double radius;
  btVector3 motion;
};

Grazing grazing(Random& random, const Triangle& t) {
  for (;;) {
    const double radius = random.uniform(0.05, 0.6);
    const double half_height = random.uniform(0.0, 1.0) < 0.3 ? 0.0 : random.uniform(0.0, 0.9);
    const btTransform pose = near_pose(random, t, radius, half_height);
    const btVector3 axis = pose.getBasis().getColumn(1) * half_height;
    const ExactContact c =
        capsule_triangle(pose.getOrigin() - axis, pose.getOrigin() + axis, radius, t, 1e9);
    if (!c.answered || c.beyond) continue;
    // Where the motion passes: a gap of 0..3 mm along the normal.
    const btVector3 shift = c.normal * (random.uniform(0.0, 0.003) - c.distance);
    btVector3 along = random.direction();
    along -= c.normal * along.dot(c.normal);
    if (along.length2() < 1e-6) continue;
    const double press = random.uniform(0.0, 0.005);
    const double length = random.uniform(0.05, 2.0);
    const btVector3 motion = along.normalized() * length - c.normal * press;
    const btVector3 back = motion * random.uniform(0.0, 0.9);
    const btVector3 a = pose.getOrigin() - axis + shift - back;
    const btVector3 b = pose.getOrigin() + axis + shift - back;
    const ExactContact start = capsule_triangle(a, b, radius, t, 1e9);
    if (!start.answered) continue;
    return {a, b, radius, motion};
  }
}

void expect_same(const ExactSweep& x, const ExactSweep& y, int i) {
  ASSERT_EQ(x.answered, y.answered) << "answered";
  ASSERT_EQ(x.hit, y.hit) << "case " << i;
  EXPECT_TRUE(same_bits(x.fraction, y.fraction)) << "case " << i;
  EXPECT_TRUE(same_bits(x.distance, y.distance)) << "case " << i;
  EXPECT_TRUE(same_bits(x.normal, y.normal)) << "case " << i;
  EXPECT_TRUE(same_bits(x.point, y.point)) << "case " << i;
}

TEST(SweepTouchDeferred, GrazingCapsulesGetTheEagerAnswerBitForBit) {
  Random random;
  int hits = 0;
  int misses = 0;
  int late_hits = 0;  // hits after more than one step, the question deferred
  for (int i = 0; i < 20000; ++i) {
    const Triangle t = random_triangle(random);
    const Grazing g = grazing(random, t);
    const ExactSweep ours = capsule_triangle_sweep(g.a, g.b, g.radius, g.motion, t);
    const ExactSweep eager = eager_sweep(g.a, g.b, g.radius, g.motion, t);
    expect_same(ours, eager, i);
    if (ours.hit) {
      ++hits;
      if (ours.fraction > 0.0) ++late_hits;
    }
    if (is_miss(ours)) ++misses;
  }
  EXPECT_GT(hits, 2000);
  EXPECT_GT(late_hits, 1000);
  EXPECT_GT(misses, 2000);
}

TEST(SweepTouchDeferred, AimedCapsulesGetTheEagerAnswerBitForBit) {
  Random random;
  int hits = 0;
  int misses = 0;
  for (int i = 0; i < 20000; ++i) {
    const Triangle t = random_triangle(random);
    const double radius = random.uniform(0.05, 0.6);
    const double half_height = i % 5 == 0 ? 0.0 : random.uniform(0.0, 0.9);
    const btTransform from = near_pose(random, t, radius, half_height);
    const btVector3 axis = from.getBasis().getColumn(1) * half_height;
    const btVector3 a = from.getOrigin() - axis;
    const btVector3 b = from.getOrigin() + axis;
    const btVector3 target = t.v[i % 3] + random.point(0.3);
    const btVector3 motion = (target - from.getOrigin()) * random.uniform(0.3, 1.6);
    const ExactSweep ours = capsule_triangle_sweep(a, b, radius, motion, t);
    expect_same(ours, eager_sweep(a, b, radius, motion, t), i);
    if (ours.hit) ++hits;
    if (is_miss(ours)) ++misses;
  }
  EXPECT_GT(hits, 2000);
  EXPECT_GT(misses, 2000);
}

/// The deferred question still ends a creeping miss: a sphere passing 2 mm
/// beside a corner (outside the stop distance) along a long motion misses,
/// as the eager answer does, however many steps the creep would take.
TEST(SweepTouchDeferred, ACreepingMissPastACornerIsAMiss) {
  const Triangle t{{btVector3(-1, 0, -1), btVector3(0, 0, 1), btVector3(1, 0, -1)}};
  const btVector3 start(1.202, 0, -3);
  const ExactSweep s = capsule_triangle_sweep(start, start, 0.2, btVector3(0, 0, 4), t);
  EXPECT_TRUE(is_miss(s));
  expect_same(s, eager_sweep(start, start, 0.2, btVector3(0, 0, 4), t), 0);
}

}  // namespace
}  // namespace stepslide::test
