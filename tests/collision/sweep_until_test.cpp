// A sweep against a mesh stops each triangle's advancement once it passes a
// hit already found that opposes the motion (triangle_pairs.cpp,
// SweepInShape::until_; capsule_triangle.h, capsule_triangle_sweep's
// `until`): such a later hit could never be reported. The pair alone must
// answer exactly as without `until` except that a hit after it is a miss,
// and a mesh sweep must report to a closest-hit callback exactly what every
// triangle's full answer would, with the tie rules of report_triangle_hits.
#include <gtest/gtest.h>

#include <cstring>

#include "collision/triangle_cache.h"
#include "collision/triangle_fixtures.h"
#include "geometry/shapes.h"

namespace stepslide::test {
namespace {

using namespace triangles;  // NOLINT: the fixtures of these tests

bool same_bits(const btVector3& x, const btVector3& y) {
  return std::memcmp(x.m_floats, y.m_floats, 3 * sizeof(btScalar)) == 0;
}

bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof(double)) == 0; }

TEST(SweepUntil, APairAnswersAsWithoutItButAHitAfterItIsAMiss) {
  Random random;
  int cut = 0;
  int kept = 0;
  for (int i = 0; i < 20000; ++i) {
    const Triangle t = random_triangle(random);
    const double radius = random.uniform(0.05, 0.6);
    const double half_height = i % 5 == 0 ? 0.0 : random.uniform(0.0, 0.9);
    const btTransform from = near_pose(random, t, radius, half_height);
    const btVector3 axis = from.getBasis().getColumn(1) * half_height;
    const btVector3 a = from.getOrigin() - axis;
    const btVector3 b = from.getOrigin() + axis;
    const double reach = random.uniform(0.3, 1.6);
    const btVector3 aim = t.v[i % 3] + random.point(0.3);
    const btVector3 motion = (aim - from.getOrigin()) * reach;
    const ExactSweep full = capsule_triangle_sweep(a, b, radius, motion, t);
    double until = random.uniform(0.0, 1.0);
    if (full.hit) {
      if (i % 4 == 0) until = full.fraction;  // a tie: still the hit
      if (i % 4 == 1) until = std::nextafter(full.fraction, 0.0);
    }
    if (i % 17 == 0) until = 0.0;
    const ExactSweep ours = capsule_triangle_sweep(a, b, radius, motion, t, until);
    if (full.hit && full.fraction > until) {
      EXPECT_TRUE(is_miss(ours)) << "case " << i;
      ++cut;
      continue;
    }
    ASSERT_EQ(ours.answered, full.answered) << "answered";
  ASSERT_EQ(ours.hit, full.hit) << "case " << i;
    EXPECT_TRUE(same_bits(ours.fraction, full.fraction)) << "case " << i;
    EXPECT_TRUE(same_bits(ours.distance, full.distance)) << "case " << i;
    EXPECT_TRUE(same_bits(ours.normal, full.normal)) << "case " << i;
    EXPECT_TRUE(same_bits(ours.point, full.point)) << "case " << i;
    if (full.hit) ++kept;
  }
  EXPECT_GT(cut, 2000);
  EXPECT_GT(kept, 2000);
}

/// The controller's callback's rule (sweeps.cpp, ClosestOpposingSweep):
/// a hit whose normal the motion only grazes (within 1e-6) is skipped; any
/// other closer than the closest so far becomes it.
struct ClosestOpposing : btCollisionWorld::ConvexResultCallback {
  explicit ClosestOpposing(const btVector3& m) : motion(m) {}
  btScalar addSingleResult(btCollisionWorld::LocalConvexResult& r, bool) override {
    if (r.m_hitNormalLocal.dot(motion) >= -1e-6 * motion.length()) return m_closestHitFraction;
    m_closestHitFraction = r.m_hitFraction;
    normal = r.m_hitNormalLocal;
    point = r.m_hitPointLocal;
    ++taken;
    return r.m_hitFraction;
  }
  btVector3 motion;
  btVector3 normal{0, 0, 0};
  btVector3 point{0, 0, 0};
  int taken = 0;
};

/// A rotated bumpy grid with steps in it: many triangles hit at once.
std::vector<Triangle> bumpy_steps() {
  std::vector<Triangle> triangles;
  auto height = [](int i, int j) { return 0.15 * ((i * 7 + j * 3) % 4) + (i > 0 ? 0.3 : 0.0); };
  for (int i = -4; i < 4; ++i) {
    for (int j = -4; j < 4; ++j) {
      const double x = i * 0.4;
      const double z = j * 0.4;
      const btVector3 p00(x, height(i, j), z);
      const btVector3 p10(x + 0.4, height(i + 1, j), z);
      const btVector3 p01(x, height(i, j + 1), z + 0.4);
      const btVector3 p11(x + 0.4, height(i + 1, j + 1), z + 0.4);
      triangles.push_back(Triangle{{p00, p10, p11}});
      triangles.push_back(Triangle{{p00, p11, p01}});
    }
  }
  return triangles;
}

/// What the mesh sweep must report: every triangle's full answer, ordered
/// and handed to `result` by report_triangle_hits. (Which triangle's index
/// comes with it is not compared: hits equal in fraction, normal and point,
/// two triangles' at a shared edge, keep the order they were visited in.) False when a triangle
/// starts touching (the adapter leaves those to Bullet).
bool reference_sweep(const std::vector<Triangle>& triangles, const btCollisionObject& object,
                     const btCapsuleShape& shape, const btTransform& from, const btTransform& to,
                     btCollisionWorld::ConvexResultCallback* result, int* later, int* grazing_first) {
  btVector3 a;
  btVector3 b;
  double radius = 0.0;
  if (!detail::capsule_segment(&shape, from, &a, &b, &radius)) return false;
  const btTransform& pose = object.getWorldTransform();
  const double margin = object.getCollisionShape()->getMargin();
  const btVector3 motion = pose.getBasis().transpose() * (to.getOrigin() - from.getOrigin());
  const btVector3 direction = motion.normalized();
  std::vector<detail::TriangleHit> hits;
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    const ExactSweep s =
        capsule_triangle_sweep(pose.invXform(a), pose.invXform(b), radius + margin, motion, triangles[i]);
    if (!s.answered) return false;
    if (s.hit && s.fraction < result->m_closestHitFraction) {
      hits.push_back({s.fraction, -s.normal.dot(direction), s.normal, s.point, 0, static_cast<int>(i)});
    }
  }
  detail::report_triangle_hits(&hits, &object, margin, result);
  // hits is sorted now: count those a pruned sweep stops early.
  for (const detail::TriangleHit& h : hits) {
    if (h.fraction > hits.front().fraction) ++*later;
  }
  if (!hits.empty() && hits.front().opposing <= 1e-6) ++*grazing_first;
  return true;
}

void expect_reference_answers(bool cached) {
  const std::vector<Triangle> triangles = bumpy_steps();
  Random random;
  Mesh mesh(triangles, btTransform(btQuaternion(btVector3(0, 1, 0), 0.4), btVector3(0.3, -0.2, 0.1)));
  btCapsuleShape shape(0.3, 0.8);
  TriangleCache cache;
  TriangleCache* const from_cache = cached ? &cache : nullptr;
  int compared = 0;
  int later = 0;          // hits after the first, which the pruned sweep cuts short
  int grazing_first = 0;  // sweeps whose first hit the callback skips
  for (int i = 0; i < 1500; ++i) {
    btVector3 start = random.within(btVector3(-1.5, 0.9, -1.5), btVector3(1.5, 1.6, 1.5));
    btVector3 motion = random.within(btVector3(-0.6, -1.2, -0.6), btVector3(0.6, 0.1, 0.6));
    if (i % 3 == 0) motion = btVector3(0, -random.uniform(0.2, 1.5), 0);  // straight down, as step-downs and probes
    if (i % 3 == 1) {
      // Lowered onto the mesh first, then along the face it rests on,
      // pressing into it by 0 to 2e-6 of the motion: a hit at the start
      // the callback skips as grazing (up to 1e-6) or takes.
      const btTransform high(btQuaternion::getIdentity(), start);
      btTransform low = high;
      low.setOrigin(start - btVector3(0, 2.0, 0));
      btCollisionWorld::ClosestConvexResultCallback down(high.getOrigin(), low.getOrigin());
      if (!detail::triangle_sweep_pair(&shape, high, low, &mesh.object, &down, from_cache) || !down.hasHit()) continue;
      start = high.getOrigin().lerp(low.getOrigin(), down.m_closestHitFraction);
      const btVector3 n = down.m_hitNormalWorld.normalized();
      const double along_z = random.uniform(-0.5, 0.5);
      btVector3 along(random.uniform(-0.5, 0.5), 0.0, along_z);
      along -= n * along.dot(n);
      motion = along - n * (along.length() * random.uniform(0.0, 2e-6));
    }
    const btTransform from(btQuaternion::getIdentity(), start);
    btTransform to = from;
    to.setOrigin(start + motion);
    ClosestOpposing ours(motion);
    ClosestOpposing reference(motion);
    if (!reference_sweep(triangles, mesh.object, shape, from, to, &reference, &later, &grazing_first)) continue;
    ASSERT_TRUE(detail::triangle_sweep_pair(&shape, from, to, &mesh.object, &ours, from_cache)) << "case " << i;
    ++compared;
    ASSERT_EQ(ours.taken > 0, reference.taken > 0) << "case " << i;
    EXPECT_TRUE(same_bits(ours.m_closestHitFraction, reference.m_closestHitFraction)) << "case " << i;
    EXPECT_TRUE(same_bits(ours.normal, reference.normal)) << "case " << i;
    EXPECT_TRUE(same_bits(ours.point, reference.point)) << "case " << i;
  }
  EXPECT_GT(compared, 1000);
  EXPECT_GT(later, 500);
  EXPECT_GT(grazing_first, 10);
}

TEST(SweepUntil, AMeshSweepReportsWhatEveryTrianglesFullAnswerWould) { expect_reference_answers(false); }

TEST(SweepUntil, AMeshSweepFromTheTriangleCacheReportsWhatEveryTrianglesFullAnswerWould) {
  expect_reference_answers(true);
}

}  // namespace
}  // namespace stepslide::test
