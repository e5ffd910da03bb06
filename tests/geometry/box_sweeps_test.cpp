// A box character's exact sweep against triangles (box_triangle_sweep,
// box_sweeps.h) against Bullet's own convex cast on random pairs, and the
// adapter's sweep against Bullet's convexSweepTest on random meshes.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "geometry/box_sweeps.h"
#include "geometry/box_triangle.h"
#include "stepslide/character.h"
#include "stepslide/collision.h"
#include "support/cast_agreement.h"
#include "support/random_geometry.h"

namespace stepslide::test {
namespace {

/// Against Bullet's cast: the shared tolerances and tally
/// (support/cast_agreement.h), as for the capsule; besides, Bullet's GJK
/// may misjudge a distance and miss a pass into the triangle (then the
/// exact distance decides: ours stops in the band, clear of the triangle).

struct Random : RandomGeometry {
  Random() : RandomGeometry(20261124) {}
};

/// One triangle as a mesh object, as the scenario world makes meshes (a
/// btBvhTriangleMeshShape), with the mesh's margin: 0 as the world's, or
/// 1 cm to exercise the rounded triangle.
struct OneTriangle {
  btTriangleMesh mesh{true, true};
  std::unique_ptr<btBvhTriangleMeshShape> shape;
  btCollisionObject object;
  std::array<btVector3, 3> world;  ///< the vertices, world

  OneTriangle(const std::array<btVector3, 3>& local, const btTransform& pose, double margin) {
    mesh.addTriangle(local[0], local[1], local[2], false);
    shape = std::make_unique<btBvhTriangleMeshShape>(&mesh, true);
    shape->setMargin(margin);
    object.setCollisionShape(shape.get());
    object.setWorldTransform(pose);
    for (int i = 0; i < 3; ++i) world[i] = pose * local[i];
  }
};

struct RandomPair {
  btBoxShape box;
  std::unique_ptr<OneTriangle> triangle;
  btTransform from;
  btVector3 motion;

  RandomPair(Random& random, int i)
      : box(random.within(btVector3(0.05, 0.3, 0.05), btVector3(1.0, 1.0, 1.0))) {
    box.setMargin(box_margin(box.getHalfExtentsWithMargin()));
    std::array<btVector3, 3> local;
    for (btVector3& v : local) v = random.point(1.5);
    const btVector3 origin = random.point(2);
    const btTransform pose(i % 5 == 0 ? random.rotation() : btQuaternion::getIdentity(), origin);
    triangle = std::make_unique<OneTriangle>(local, pose, i % 4 == 3 ? 0.01 : 0.0);
    // Upright and turned about y mostly, as characters are; any rotation otherwise.
    const btQuaternion turn = i % 4 == 0 ? random.rotation() : btQuaternion(btVector3(0, 1, 0), random.uniform(-3, 3));
    const btVector3 centre = (triangle->world[0] + triangle->world[1] + triangle->world[2]) / 3.0;
    const double away = box.getHalfExtentsWithMargin().length() + random.uniform(0.5, 3);
    const btVector3 start = centre + random.point(1).normalized() * away;
    // Aim near a point of the triangle so that about half hit.
    const btVector3 offset = random.point(0.7);
    const double reach = random.uniform(0, 1.2);
    const btVector3& corner = triangle->world[random.engine() % 3];
    const btVector3 aim = centre + (corner - centre) * reach + offset;
    from = btTransform(turn, start);
    motion = (aim - start) * random.uniform(0.3, 2);
  }

  /// The exact gap of the rounded shapes at `fraction`, -1 where the cores touch.
  double gap_at(double fraction, const btVector3& offset = btVector3(0, 0, 0)) const {
    btTransform moved = from;
    moved.setOrigin(from.getOrigin() + motion * fraction + offset);
    const double radius = box.getMargin() + triangle->shape->getMargin();
    const ExactContact c = box_triangle(moved, box.getHalfExtentsWithoutMargin(), radius, triangle->world.data());
    return c.distance + radius > 0 ? c.distance : -1.0;
  }

  /// The closest approach over the motion.
  double closest_approach() const {
    return least_over_motion([this](double fraction) { return gap_at(fraction); });
  }

  ExactSweep ours() const {
    return box_triangle_sweep(from, box.getHalfExtentsWithoutMargin(), box.getMargin(), motion,
                              triangle->world.data(), triangle->shape->getMargin());
  }
};

struct BulletCast {
  bool hit = false;
  double fraction = 1.0;
  btVector3 normal{0, 0, 0};
  btVector3 point{0, 0, 0};
};

/// Bullet's answer: objectQuerySingle, what its convexSweepTest runs for
/// each candidate (for a mesh, btTriangleConvexcastCallback on each triangle).
BulletCast bullet_cast(const RandomPair& pair) {
  const btTransform to(pair.from.getBasis(), pair.from.getOrigin() + pair.motion);
  btCollisionWorld::ClosestConvexResultCallback callback(pair.from.getOrigin(), to.getOrigin());
  btCollisionObject& object = pair.triangle->object;
  btCollisionWorld::objectQuerySingle(&pair.box, pair.from, to, &object, object.getCollisionShape(),
                                      object.getWorldTransform(), callback, 0.0);
  BulletCast cast;
  cast.hit = callback.hasHit();
  cast.fraction = callback.m_closestHitFraction;
  cast.normal = callback.m_hitNormalWorld.normalized();
  cast.point = callback.m_hitPointWorld;
  return cast;
}

TEST(BoxTriangleSweep, MatchesBulletsCastOnRandomPairs) {
  Random random;
  CastAgreement agreement;
  int unanswered = 0;
  int bullet_missed = 0;
  double worst_point = 0.0;
  for (int i = 0; i < 20000; ++i) {
    const RandomPair pair(random, i);
    const ExactSweep ours = pair.ours();
    if (!ours.answered) {  // the core met the triangle mid-advance: the adapter asks Bullet
      ++unanswered;
      continue;
    }
    const BulletCast theirs = bullet_cast(pair);
    if (ours.hit && !theirs.hit && pair.closest_approach() < -kCastGrazingBand) {
      // Bullet's cast missed a triangle the box passes into (its GJK misjudged
      // a distance); the brute-force approach decides: ours stops in the band.
      ++bullet_missed;
      EXPECT_GE(pair.gap_at(ours.fraction), -1e-9) << "case " << i;
      EXPECT_LE(pair.gap_at(ours.fraction), kCastStopDistance + 1e-9) << "case " << i;
      continue;
    }
    const CastPair compared{pair.motion,
                            [&](double fraction, const btVector3& offset) { return pair.gap_at(fraction, offset); },
                            [&] { return pair.closest_approach(); }};
    if (!agreement.add(cast_answer(ours), cast_answer(theirs), compared, i)) continue;
    // Where the box's face lies flush on the triangle the closest points
    // form an area and each picks one of it: only its height along the normal must agree.
    worst_point = std::max(worst_point, std::fabs((ours.point - theirs.point).dot(ours.normal)));
  }
  agreement.print();
  std::printf("points %g m apart along the normal; Bullet missed a pass into the triangle %d, unanswered %d\n",
              worst_point, bullet_missed, unanswered);
  EXPECT_GT(agreement.compared, 15000);
  EXPECT_GT(agreement.hits, 5000);
  EXPECT_LT(worst_point, 1e-6);
  EXPECT_LT(agreement.disagreements() + bullet_missed, 20);  // seen 1
  EXPECT_LT(unanswered, 100);  // the core reaching the triangle during the advance (rounding); seen 0
}

/// Every hit stops within the stop distance of the triangle, never inside
/// it and never past a closer point on the way; no miss passes into it.
TEST(BoxTriangleSweep, StopsWithinTheStopDistanceAndNeverInside) {
  Random random;
  int hits = 0;
  int stepped_past = 0;
  for (int i = 0; i < 5000; ++i) {
    const RandomPair pair(random, i);
    const ExactSweep ours = pair.ours();
    if (!ours.answered) continue;
    const double start_gap = pair.gap_at(0);
    if (ours.hit) {
      ++hits;
      const double gap = pair.gap_at(ours.fraction);
      if (ours.fraction > 0) {
        EXPECT_GE(gap, -1e-9) << "case " << i;
        for (int k = 1; k < 8; ++k) EXPECT_GE(pair.gap_at(ours.fraction * k / 8), gap - 1e-9) << "case " << i;
      }
      EXPECT_LE(gap, kCastStopDistance + 1e-12) << "case " << i;
      EXPECT_LT(ours.normal.dot(pair.motion), 0.0) << "case " << i;
      EXPECT_LT(std::fabs(ours.normal.length() - 1), 1e-12) << "case " << i;
    } else {
      const double approach = pair.closest_approach();
      EXPECT_GE(approach, std::min(start_gap, 0.0) - 1e-9) << "case " << i;
      if (approach < std::min(start_gap, kCastStopDistance)) ++stepped_past;
    }
  }
  std::printf("hits %d, misses grazing within the stop distance %d\n", hits, stepped_past);
  EXPECT_LT(stepped_past, 25);
  EXPECT_GT(hits, 1000);
}

/// How far the box must move along unit `d` from the start to clear the
/// triangle (bisection: the overlapping offsets along a line are an interval).
double exit_along(const RandomPair& pair, const btVector3& d) {
  double lo = 0.0;
  double hi = 5.0;
  for (int round = 0; round < 60; ++round) {
    const double mid = 0.5 * (lo + hi);
    (pair.gap_at(0, d * mid) < 0 ? lo : hi) = mid;
  }
  return hi;
}

/// Started with the box's core on the triangle, Bullet's cast asks EPA for
/// the penetration and answers a hit at 0 along its direction when the motion
/// goes into it, a miss otherwise; ours answers the same from the exact
/// separating axes. EPA's direction is approximate: the normals agree within
/// kOverlapNormalTolerance, and where they do not, the brute-force exit
/// distance decides (ours must need the least translation to clear).
TEST(BoxTriangleSweep, StartingWithTheCoreOnTheTriangleMatchesBulletsPenetrationAnswer) {
  constexpr double kOverlapNormalTolerance = 1e-3;
  Random random;
  int overlapped = 0;
  int hits = 0;
  int normal_off = 0;
  int hit_disagrees = 0;
  double worst_normal = 0.0;
  for (int i = 0; i < 20000 && overlapped < 10000; ++i) {
    RandomPair pair(random, i);
    const btVector3 centre = (pair.triangle->world[0] + pair.triangle->world[1] + pair.triangle->world[2]) / 3.0;
    const btVector3 offset = random.point(0.6);
    const double reach = random.uniform(0, 1);
    pair.from.setOrigin(centre + (pair.triangle->world[i % 3] - centre) * reach + offset);
    if (pair.gap_at(0) >= 0) continue;
    ++overlapped;
    const ExactSweep ours = pair.ours();
    ASSERT_TRUE(ours.answered) << "case " << i;
    const BulletCast theirs = bullet_cast(pair);
    const double exit_ours = exit_along(pair, ours.normal);
    if (ours.hit) {
      ++hits;
      EXPECT_EQ(ours.fraction, 0.0);
    }
    if (theirs.hit && ours.hit) {
      EXPECT_EQ(theirs.fraction, 0.0) << "case " << i;
    }
    if (theirs.normal.length2() > 0.5 && ours.hit && theirs.hit) {
      const double off = (ours.normal - theirs.normal).length();
      if (off > kOverlapNormalTolerance) {
        ++normal_off;
        EXPECT_LE(exit_ours, exit_along(pair, theirs.normal) + 1e-9) << "case " << i;
      } else {
        worst_normal = std::max(worst_normal, off);
      }
    }
    if (ours.hit != theirs.hit) {
      // Only where the motion runs nearly along the penetration direction,
      // or EPA chose another direction (ours needing no more translation).
      ++hit_disagrees;
      const double along = std::fabs(ours.normal.dot(pair.motion.normalized()));
      if (along > 1e-2) {
        EXPECT_LE(exit_ours, 1e-9 + (theirs.hit ? exit_along(pair, theirs.normal) : 5.0)) << "case " << i;
      }
    }
  }
  std::printf("overlapped %d, hits %d, normals within %g; normal off %d, hit/miss disagrees %d\n", overlapped, hits,
              worst_normal, normal_off, hit_disagrees);
  EXPECT_GT(overlapped, 5000);
  EXPECT_LT(normal_off + hit_disagrees, overlapped / 50);
}

TEST(BoxTriangleSweep, DropsOntoAFloorTriangleFaceFirst) {
  const std::array<btVector3, 3> floor = {btVector3(-3, 0, -3), btVector3(3, 0, -3), btVector3(0, 0, 3)};
  const btVector3 core(0.399, 0.499, 0.299);
  const btTransform from(btQuaternion::getIdentity(), btVector3(0.2, 1.5, 0.1));
  const ExactSweep s = box_triangle_sweep(from, core, 0.001, btVector3(0, -2, 0), floor.data(), 0.0);
  ASSERT_TRUE(s.answered);
  ASSERT_TRUE(s.hit);
  EXPECT_DOUBLE_EQ(s.fraction, 0.5);  // the box's bottom (1.5 - 0.5) lands on y = 0 after 1 m of 2
  EXPECT_LT((s.normal - btVector3(0, 1, 0)).length(), 1e-12);
  EXPECT_NEAR(s.point.y(), 0.0, 1e-12);
  // Moving along or away: no hit; far to the side: no hit.
  EXPECT_FALSE(box_triangle_sweep(from, core, 0.001, btVector3(1, 0, 0), floor.data(), 0.0).hit);
  EXPECT_FALSE(box_triangle_sweep(from, core, 0.001, btVector3(0, 1, 0), floor.data(), 0.0).hit);
  const ExactSweep far = box_triangle_sweep(btTransform(btQuaternion::getIdentity(), btVector3(20, 1.5, 0)), core,
                                            0.001, btVector3(0, -2, 0), floor.data(), 0.0);
  EXPECT_TRUE(far.answered);
  EXPECT_FALSE(far.hit);
  // The core 0.2 m into the triangle at the start: a hit at 0 with the face's
  // normal moving down into it, none moving up out of it, as Bullet's EPA answers.
  const btTransform sunk(btQuaternion::getIdentity(), btVector3(0, 0.3, 0));
  const ExactSweep down = box_triangle_sweep(sunk, core, 0.001, btVector3(0.5, -1, 0), floor.data(), 0.0);
  ASSERT_TRUE(down.answered);
  ASSERT_TRUE(down.hit);
  EXPECT_EQ(down.fraction, 0.0);
  EXPECT_LT((down.normal - btVector3(0, 1, 0)).length(), 1e-12);
  const ExactSweep up = box_triangle_sweep(sunk, core, 0.001, btVector3(0.5, 1, 0), floor.data(), 0.0);
  EXPECT_TRUE(up.answered);
  EXPECT_FALSE(up.hit);
}

/// A world holding the level's triangles in one mesh, in the given order.
struct MeshWorld {
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher{&configuration};
  btDbvtBroadphase broadphase;
  btCollisionWorld world{&dispatcher, &broadphase, &configuration};
  btTriangleMesh mesh{true, true};
  std::unique_ptr<btBvhTriangleMeshShape> shape;
  btCollisionObject level;

  MeshWorld(const std::vector<std::array<btVector3, 3>>& triangles, const btTransform& pose) {
    for (const auto& t : triangles) mesh.addTriangle(t[0], t[1], t[2], false);
    shape = std::make_unique<btBvhTriangleMeshShape>(&mesh, true);
    level.setCollisionShape(shape.get());
    level.setWorldTransform(pose);
    world.addCollisionObject(&level);
    world.updateAabbs();
  }
  ~MeshWorld() { world.removeCollisionObject(&level); }
};

/// Bullet's convexSweepTest with the adapter's filter (the closest hit whose
/// normal opposes the motion).
struct OpposingSweep : btCollisionWorld::ConvexResultCallback {
  explicit OpposingSweep(const btVector3& motion) : motion_(motion) {}
  btScalar addSingleResult(btCollisionWorld::LocalConvexResult& result, bool) override {
    if (result.m_hitNormalLocal.dot(motion_) >= -1e-6 * motion_.length()) return m_closestHitFraction;
    m_closestHitFraction = result.m_hitFraction;
    hit = true;
    normal = result.m_hitNormalLocal.normalized();
    return m_closestHitFraction;
  }
  btVector3 motion_;
  bool hit = false;
  btVector3 normal{0, 0, 0};
};

/// The adapter's sweep of a box character over a bumpy turned mesh against
/// Bullet's convexSweepTest with the same filter.
TEST(BoxTriangleSweep, AdapterMatchesBulletsConvexSweepTestOnRandomMeshes) {
  Random random;
  int hits = 0;
  int disagreements = 0;
  for (int w = 0; w < 4; ++w) {
    std::vector<std::array<btVector3, 3>> triangles;
    auto height = [&](int x, int z) { return 0.4 * std::sin(1.3 * x + 0.7 * w) * std::cos(0.9 * z); };
    for (int x = -4; x < 4; ++x) {
      for (int z = -4; z < 4; ++z) {
        const btVector3 a(x, height(x, z), z), b(x + 1, height(x + 1, z), z), c(x, height(x, z + 1), z + 1),
            d(x + 1, height(x + 1, z + 1), z + 1);
        triangles.push_back({a, c, b});
        triangles.push_back({b, c, d});
      }
    }
    MeshWorld level(triangles, btTransform(btQuaternion(btVector3(0, 1, 0), 0.3 * w), btVector3(0.1 * w, 0, 0)));
    CollisionQueries queries(&level.world, nullptr);
    for (int i = 0; i < 500; ++i) {
      btBoxShape box(random.within(btVector3(0.2, 0.4, 0.2), btVector3(0.6, 1.0, 0.6)));
      box.setMargin(box_margin(box.getHalfExtentsWithMargin()));
      const btVector3 start = random.within(btVector3(-3, 1.5, -3), btVector3(3, 3, 3));
      const btTransform from(btQuaternion(btVector3(0, 1, 0), random.uniform(-3, 3)), start);
      const btVector3 to = from.getOrigin() + random.within(btVector3(-1, -3, -1), btVector3(1, 0.2, 1));
      const SweepHit ours = queries.sweep(&box, from, to);
      OpposingSweep theirs(to - from.getOrigin());
      level.world.convexSweepTest(&box, from, btTransform(from.getBasis(), to), theirs, 0.0);
      const double length = (to - from.getOrigin()).length();
      const bool agree = ours.hit == theirs.hit &&
                         (!ours.hit || (std::fabs(ours.fraction - theirs.m_closestHitFraction) * length <=
                                            kCastDistanceTolerance &&
                                        (ours.normal - theirs.normal).length() < kCastNormalTolerance));
      if (!agree) {
        std::printf("world %d sweep %d: ours %d %.17g, Bullet's %d %.17g\n", w, i, ours.hit, ours.fraction,
                    theirs.hit, theirs.m_closestHitFraction);
        ++disagreements;
        continue;
      }
      if (ours.hit) ++hits;
    }
  }
  std::printf("hits %d, disagreements %d\n", hits, disagreements);
  EXPECT_LE(disagreements, 10);
  EXPECT_GT(hits, 800);
}

/// A box coming straight down onto the ridge of two mirror-image triangles
/// touches both at the same fraction: the answer does not depend on which
/// triangle the mesh lists first.
TEST(BoxTriangleSweep, ATieBetweenTrianglesDoesNotDependOnTheirOrder) {
  const std::array<btVector3, 3> left = {btVector3(-2, -1, -2), btVector3(0, 0, -2), btVector3(0, 0, 2)};
  const std::array<btVector3, 3> right = {btVector3(0, 0, -2), btVector3(2, -1, -2), btVector3(0, 0, 2)};
  btBoxShape box(btVector3(0.4, 0.5, 0.3));
  box.setMargin(0.001);
  const btTransform from(btQuaternion::getIdentity(), btVector3(0, 2, 0));
  const btVector3 to(0, 0, 0);
  SweepHit answers[2];
  for (int order = 0; order < 2; ++order) {
    MeshWorld w(order == 0 ? std::vector{left, right} : std::vector{right, left}, btTransform::getIdentity());
    CollisionQueries queries(&w.world, nullptr);
    answers[order] = queries.sweep(&box, from, to);
  }
  ASSERT_TRUE(answers[0].hit);
  EXPECT_EQ(answers[0].fraction, answers[1].fraction);
  EXPECT_EQ(answers[0].normal, answers[1].normal);
  EXPECT_EQ(answers[0].point, answers[1].point);
}

}  // namespace
}  // namespace stepslide::test
