// The exact sweeps (box_sweeps.h) against Bullet's own convex cast on
// random cases, and the adapter's sweep against Bullet's convexSweepTest on
// random worlds of boxes and compounds of boxes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "geometry/box_sweeps.h"
#include "geometry/capsule_box.h"
#include "stepslide/collision.h"
#include "support/cast_agreement.h"
#include "support/random_geometry.h"

namespace stepslide::test {
namespace {

/// Against Bullet's cast the stopping points and normals agree within the
/// shared tolerances (support/cast_agreement.h); seen at most 2.8e-11 m and
/// 2.8e-12 on 14 000 hits. Boxes have the margins the scenario world gives
/// them: with a margin over half an extent, Bullet's core is inverted and
/// its answers are off by centimetres (the adapter leaves those boxes to Bullet).

struct Random : RandomGeometry {
  Random() : RandomGeometry(20261123) {}
};

/// A capsule or (radius only) a sphere, as the character's shapes are made.
struct Caster {
  std::unique_ptr<btConvexShape> shape;
  double radius = 0.0;
  double half_height = 0.0;  ///< 0: a sphere

  Caster(double r, double h) : radius(r), half_height(h) {
    if (h > 0) {
      shape = std::make_unique<btCapsuleShape>(r, 2 * h);
    } else {
      shape = std::make_unique<btSphereShape>(r);
    }
  }
  btVector3 a(const btTransform& pose) const { return pose * btVector3(0, -half_height, 0); }
  btVector3 b(const btTransform& pose) const { return pose * btVector3(0, half_height, 0); }
};

/// The exact distance of the capsule at `fraction` of the motion from the box.
double distance_at(const Caster& caster, const btTransform& from, const btVector3& motion, double fraction,
                   const btTransform& box, const btBoxShape& shape) {
  const btVector3 shift = motion * fraction;
  const ExactContact c = capsule_box(caster.a(from) + shift, caster.b(from) + shift, caster.radius + shape.getMargin(),
                                     box, shape.getHalfExtentsWithoutMargin());
  return c.answered ? c.distance : -1.0;
}

/// The closest approach of the moving capsule to the box over the motion.
double closest_approach(const Caster& caster, const btTransform& from, const btVector3& motion,
                        const btTransform& box, const btBoxShape& shape) {
  return least_over_motion([&](double fraction) { return distance_at(caster, from, motion, fraction, box, shape); },
                           40);
}

struct RandomPair {
  Caster caster;
  btBoxShape shape;
  btCollisionObject object;
  btTransform box;
  btTransform from;
  btTransform to;

  RandomPair(Random& random, int i) : caster(random_caster(random, i)), shape(random.vector(0.02, 3)) {
    const btVector3 half = shape.getHalfExtentsWithMargin();
    // The scenario world's margin, and Bullet's default, at most half the
    // thinnest extent as the world makes them (a core is never inverted).
    shape.setMargin(std::min(i % 2 == 0 ? 0.001 : 0.04, 0.5 * half[half.minAxis()]));
    object.setCollisionShape(&shape);
    const btVector3 origin = random.point(3);
    box = btTransform(random.rotation(), origin);
    object.setWorldTransform(box);
    // Upright most of the time, as characters are; any rotation otherwise.
    const btQuaternion turn = i % 4 == 0 ? random.rotation() : btQuaternion::getIdentity();
    // Start outside, aim at a point near the box so that about half hit.
    const double away = half.length() + random.uniform(0, 4);
    const btVector3 start = box.getOrigin() + random.point(1).normalized() * away;
    const btVector3 target = box * (random.vector(-1.5, 1.5) * half);
    from = btTransform(turn, start);
    to = btTransform(turn, start + (target - start) * random.uniform(0.3, 2));
  }

  /// A sphere every third pair (the half height is drawn before the radius).
  static Caster random_caster(Random& random, int i) {
    const double half_height = i % 3 == 0 ? 0.0 : random.uniform(0.05, 1.0);
    return Caster(random.uniform(0.05, 0.6), half_height);
  }

  /// The exact gap at `fraction` with the start moved by `offset`.
  double gap_at(const btVector3& offset, double fraction) const {
    btTransform moved = from;
    moved.setOrigin(from.getOrigin() + offset);
    return distance_at(caster, moved, to.getOrigin() - from.getOrigin(), fraction, box, shape);
  }

  ExactSweep ours() const {
    return capsule_box_sweep(caster.a(from), caster.b(from), caster.radius, to.getOrigin() - from.getOrigin(), box,
                             shape.getHalfExtentsWithoutMargin(), shape.getMargin());
  }
};

TEST(CapsuleBoxSweep, MatchesBulletsCastOnRandomPairs) {
  Random random;
  CastAgreement agreement;
  int unanswered = 0;
  for (int i = 0; i < 20000; ++i) {
    RandomPair pair(random, i);
    const ExactSweep ours = pair.ours();
    if (!ours.answered) {  // rounding put the cores together along the way: the adapter asks Bullet
      ++unanswered;
      continue;
    }
    const CastAnswer theirs = bullet_cast(pair.caster.shape.get(), pair.from, pair.to, pair.object);
    const btVector3 motion = pair.to.getOrigin() - pair.from.getOrigin();
    const CastPair compared{
        motion, [&](double fraction, const btVector3& offset) { return pair.gap_at(offset, fraction); },
        [&] { return closest_approach(pair.caster, pair.from, motion, pair.box, pair.shape); }};
    agreement.add(cast_answer(ours), cast_answer(theirs), compared, i);
  }
  agreement.print();
  std::printf("unanswered %d\n", unanswered);
  EXPECT_GT(agreement.compared, 15000);
  EXPECT_GT(agreement.hits, 5000);
  EXPECT_LT(agreement.disagreements(), 10);  // seen 0
  EXPECT_LT(unanswered, 100);                // seen 0 (16 before overlapped starts were answered)
}

/// Every hit stops within the stop distance of the box and never passed
/// through it on the way; no miss passes through it.
TEST(CapsuleBoxSweep, StopsWithinTheStopDistanceAndNeverInside) {
  Random random;
  int hits = 0;
  int stepped_past = 0;
  for (int i = 0; i < 5000; ++i) {
    RandomPair pair(random, i);
    const ExactSweep ours = pair.ours();
    if (!ours.answered) continue;
    const btVector3 motion = pair.to.getOrigin() - pair.from.getOrigin();
    const double start_gap = distance_at(pair.caster, pair.from, motion, 0, pair.box, pair.shape);
    if (ours.hit) {
      ++hits;
      const double gap = distance_at(pair.caster, pair.from, motion, ours.fraction, pair.box, pair.shape);
      if (ours.fraction > 0) {
        EXPECT_GE(gap, -1e-9) << "case " << i;
        // Convex: the gap along the way to the stop is least at the stop.
        for (int k = 1; k < 8; ++k) {
          EXPECT_GE(distance_at(pair.caster, pair.from, motion, ours.fraction * k / 8, pair.box, pair.shape), gap - 1e-9)
              << "case " << i;
        }
      }
      EXPECT_LE(gap, kCastStopDistance + 1e-12) << "case " << i;
      EXPECT_LT(ours.normal.dot(motion), 0.0) << "case " << i;
      EXPECT_LT(std::fabs(ours.normal.length() - 1), 1e-12) << "case " << i;
      // The point is on the rounded box, below the capsule along the normal.
      const btVector3 local = pair.box.invXform(ours.point);
      btVector3 excess(0, 0, 0);
      for (int axis = 0; axis < 3; ++axis) {
        excess[axis] = std::max(0.0, std::fabs(local[axis]) - pair.shape.getHalfExtentsWithoutMargin()[axis]);
      }
      EXPECT_NEAR(excess.length(), pair.shape.getMargin(), 1e-9) << "case " << i;
    } else {
      // A miss never goes deeper than it starts. Like Bullet's, a cast that
      // grazes within the stop distance of it may step past that band (its
      // steps are only conservative for touching): counted, rare.
      const double approach = closest_approach(pair.caster, pair.from, motion, pair.box, pair.shape);
      EXPECT_GE(approach, std::min(start_gap, 0.0) - 1e-9) << "case " << i;
      if (approach < std::min(start_gap, kCastStopDistance)) ++stepped_past;
    }
  }
  std::printf("hits %d, misses grazing within the stop distance %d\n", hits, stepped_past);
  EXPECT_LT(stepped_past, 25);
  EXPECT_GT(hits, 1500);
}

/// The choice this file documents: like Bullet's cast, the sweep stops at
/// the first step within kCastStopDistance, not at exact touching. Head on
/// to a face the first step lands on it exactly; at an edge, approached
/// obliquely, it stops a little short (the controller's kGroundClearance
/// and kMinStepGain allow for that).
TEST(CapsuleBoxSweep, StopsAtTheFirstStepWithinBulletsMillimetre) {
  const btVector3 core(0.96, 0.96, 0.96);  // a unit box with Bullet's default margin 0.04
  const ExactSweep face = capsule_box_sweep(btVector3(0.2, 2, 0.1), btVector3(0.2, 2, 0.1), 0.5, btVector3(0, -2, 0),
                                            btTransform::getIdentity(), core, 0.04);
  ASSERT_TRUE(face.answered);
  ASSERT_TRUE(face.hit);
  EXPECT_EQ(face.fraction, 0.25);  // the sphere rests on the face at y = 1.5
  EXPECT_EQ(face.normal, btVector3(0, 1, 0));
  EXPECT_EQ(face.point, btVector3(0.2, 1, 0.1));
  // Down past the edge x = 1 (rounded by 0.04 + 0.5), 0.3 m beyond it.
  const btVector3 from(1.3, 2.5, 0);
  const btVector3 motion(-0.6, -2, 0);
  const ExactSweep edge =
      capsule_box_sweep(from, from, 0.5, motion, btTransform::getIdentity(), core, 0.04);
  ASSERT_TRUE(edge.hit);
  const btVector3 centre = from + motion * edge.fraction;
  const double gap = (centre - btVector3(0.96, 0.96, 0)).length() - 0.54;
  EXPECT_GT(gap, 0.0);
  EXPECT_LE(gap, kCastStopDistance);
  EXPECT_LT((edge.normal - (centre - btVector3(0.96, 0.96, 0)).normalized()).length(), 1e-12);
}

TEST(CapsuleBoxSweep, StartingOverlappedIsAHitAtZeroWhenMovingIn) {
  const btVector3 core(0.96, 0.96, 0.96);
  // The sphere's surface 1 cm into the top face, its centre above the core.
  const btVector3 centre(0.1, 1.49, 0);
  const ExactSweep in = capsule_box_sweep(centre, centre, 0.5, btVector3(0.3, -0.1, 0), btTransform::getIdentity(),
                                          core, 0.04);
  ASSERT_TRUE(in.answered);
  ASSERT_TRUE(in.hit);
  EXPECT_EQ(in.fraction, 0.0);
  EXPECT_EQ(in.normal, btVector3(0, 1, 0));
  // Moving out or along it: no hit (sliding along a surface touched is not one).
  EXPECT_FALSE(capsule_box_sweep(centre, centre, 0.5, btVector3(0.3, 0.1, 0), btTransform::getIdentity(), core, 0.04)
                   .hit);
  EXPECT_FALSE(capsule_box_sweep(centre, centre, 0.5, btVector3(0.3, 0, 0), btTransform::getIdentity(), core, 0.04)
                   .hit);
  // The centre on the core: answered from the exact penetration
  // (capsule_box_sweep_overlap_test.cpp).
  EXPECT_TRUE(capsule_box_sweep(btVector3(0.1, 0.9, 0), btVector3(0.1, 0.9, 0), 0.5, btVector3(0, -1, 0),
                                btTransform::getIdentity(), core, 0.04)
                  .answered);
}

/// Bullet's convexSweepTest with the adapter's filter: the closest hit whose
/// normal opposes the motion (queries.cpp's ClosestOpposingSweep).
struct OpposingSweep : btCollisionWorld::ConvexResultCallback {
  explicit OpposingSweep(const btVector3& motion) : motion_(motion) {}
  btScalar addSingleResult(btCollisionWorld::LocalConvexResult& result, bool) override {
    if (result.m_hitNormalLocal.dot(motion_) >= -1e-6 * motion_.length()) return m_closestHitFraction;
    m_closestHitFraction = result.m_hitFraction;
    hit = true;
    normal = result.m_hitNormalLocal.normalized();
    object = result.m_hitCollisionObject;
    return m_closestHitFraction;
  }
  btVector3 motion_;
  bool hit = false;
  btVector3 normal{0, 0, 0};
  const btCollisionObject* object = nullptr;
};

/// A world of boxes (turned, or square to the axes as levels mostly are),
/// compounds of boxes (stairs, with and without the compound's tree) and
/// spheres (left to Bullet), as the scenario world makes them.
struct RandomWorld {
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher{&configuration};
  btDbvtBroadphase broadphase;
  btCollisionWorld world{&dispatcher, &broadphase, &configuration};
  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<std::unique_ptr<btCollisionObject>> objects;

  btBoxShape* box(Random& random, double size, int i) {
    const btVector3 half = random.vector(0.02, size);
    auto box = std::make_unique<btBoxShape>(half);
    box->setMargin(std::min(i % 2 == 0 ? 0.001 : 0.04, 0.5 * half[half.minAxis()]));
    shapes.push_back(std::move(box));
    return static_cast<btBoxShape*>(shapes.back().get());
  }

  explicit RandomWorld(Random& random) {
    for (int i = 0; i < 40; ++i) {
      btCollisionShape* shape = nullptr;
      if (i % 4 == 0) {
        auto compound = std::make_unique<btCompoundShape>(i % 8 == 0);
        for (int c = 0; c < 1 + i % 6; ++c) {
          const btQuaternion turn = c % 2 == 0 ? btQuaternion::getIdentity() : random.rotation();
          btBoxShape* child = box(random, 0.8, c);
          compound->addChildShape(btTransform(turn, random.point(1.5)), child);
        }
        shapes.push_back(std::move(compound));
        shape = shapes.back().get();
      } else if (i % 4 == 1) {
        shapes.push_back(std::make_unique<btSphereShape>(random.uniform(0.1, 1)));
        shape = shapes.back().get();
      } else {
        shape = box(random, 1.5, i);
      }
      auto object = std::make_unique<btCollisionObject>();
      object->setCollisionShape(shape);
      const btQuaternion turn = i % 3 == 0 ? random.rotation() : btQuaternion::getIdentity();
      object->setWorldTransform(btTransform(turn, random.point(8)));
      world.addCollisionObject(object.get());
      objects.push_back(std::move(object));
    }
    world.updateAabbs();
  }
};

/// The adapter's sweep (exact for capsules and spheres against boxes and
/// compounds of boxes, Bullet for the rest) against Bullet's convexSweepTest
/// with the same filter, on random worlds, with the tolerances above.
TEST(CollisionQueriesSweep, MatchesBulletsConvexSweepTestOnRandomWorlds) {
  Random random;
  int hits = 0;
  int disagreements = 0;
  for (int w = 0; w < 4; ++w) {
    RandomWorld level(random);
    CollisionQueries queries(&level.world, nullptr);
    for (int i = 0; i < 500; ++i) {
      const double half_height = i % 3 == 0 ? 0.0 : random.uniform(0.2, 0.8);
      const Caster caster(random.uniform(0.1, 0.5), half_height);
      // Toward one of the objects, so that most sweeps hit something.
      const btVector3 offset = random.point(1);
      const btCollisionObject& aimed = *level.objects[random.engine() % level.objects.size()];
      const btVector3 target = aimed.getWorldTransform().getOrigin() + offset;
      const double away = random.uniform(1, 4);
      const btTransform from(btQuaternion::getIdentity(), target + random.point(1).normalized() * away);
      const btVector3 to = from.getOrigin() + (target - from.getOrigin()) * random.uniform(0.3, 1.5);
      const SweepHit ours = queries.sweep(caster.shape.get(), from, to);
      OpposingSweep theirs(to - from.getOrigin());
      level.world.convexSweepTest(caster.shape.get(), from, btTransform(btQuaternion::getIdentity(), to), theirs, 0.0);
      const double length = (to - from.getOrigin()).length();
      const bool agree = ours.hit == theirs.hit &&
                         (!ours.hit || (std::fabs(ours.fraction - theirs.m_closestHitFraction) * length <=
                                            kCastDistanceTolerance &&
                                        (ours.normal - theirs.normal).length() < kCastNormalTolerance &&
                                        ours.object == theirs.object));
      if (!agree) {
        // Only where a rounding decides (a pass grazing the stop distance,
        // a step more on one side: the pair test above characterises them).
        std::printf("world %d sweep %d: ours %d %.17g, Bullet's %d %.17g\n", w, i, ours.hit, ours.fraction,
                    theirs.hit, theirs.m_closestHitFraction);
        ++disagreements;
        continue;
      }
      if (ours.hit) ++hits;
    }
  }
  EXPECT_LE(disagreements, 2);  // seen 0 in 2 000
  EXPECT_GT(hits, 1000);
}

/// Two mirror-image slabs leaning together into a ridge, and a sphere
/// coming straight down onto the ridge: both children are hit at the same
/// fraction with different normals, and the answer is the same whichever
/// child comes first.
TEST(CollisionQueriesSweep, ATieBetweenChildrenDoesNotDependOnTheirOrder) {
  const btQuaternion left(btVector3(0, 0, 1), 0.5);
  const btQuaternion right(btVector3(0, 0, 1), -0.5);
  btBoxShape slab(btVector3(1, 0.1, 1));
  slab.setMargin(0.001);
  const btTransform left_pose(left, btVector3(-0.8, 0, 0));
  const btTransform right_pose(right, btVector3(0.8, 0, 0));
  const btVector3 core = slab.getHalfExtentsWithoutMargin();
  const btVector3 from(0, 3, 0);
  const btVector3 motion(0, -3, 0);
  const ExactSweep l = capsule_box_sweep(from, from, 0.3, motion, left_pose, core, 0.001);
  const ExactSweep r = capsule_box_sweep(from, from, 0.3, motion, right_pose, core, 0.001);
  ASSERT_TRUE(l.hit && r.hit);
  ASSERT_EQ(l.fraction, r.fraction);  // a true tie
  ASSERT_NE(l.normal, r.normal);
  SweepHit answers[2];
  for (int order = 0; order < 2; ++order) {
    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher(&configuration);
    btDbvtBroadphase broadphase;
    btCollisionWorld world(&dispatcher, &broadphase, &configuration);
    btCompoundShape ridge;
    ridge.addChildShape(order == 0 ? left_pose : right_pose, &slab);
    ridge.addChildShape(order == 0 ? right_pose : left_pose, &slab);
    btCollisionObject object;
    object.setCollisionShape(&ridge);
    object.setWorldTransform(btTransform::getIdentity());
    world.addCollisionObject(&object);
    world.updateAabbs();
    btSphereShape sphere(0.3);
    CollisionQueries queries(&world, nullptr);
    answers[order] = queries.sweep(&sphere, btTransform(btQuaternion::getIdentity(), from), from + motion);
    world.removeCollisionObject(&object);
  }
  ASSERT_TRUE(answers[0].hit);
  EXPECT_EQ(answers[0].fraction, answers[1].fraction);
  EXPECT_EQ(answers[0].normal, answers[1].normal);
  EXPECT_EQ(answers[0].point, answers[1].point);
}

}  // namespace
}  // namespace stepslide::test
