// The exact queries (capsule_box.h, ray_box.h) against Bullet's own answers
// on random cases, and the adapter's rays against Bullet's rayTest on random
// worlds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "geometry/capsule_box.h"
#include "geometry/ray_box.h"
#include "stepslide/collision.h"
#include "support/random_geometry.h"

namespace stepslide::test {
namespace {

/// Tolerances against Bullet's ray cast (a subsimplex convex cast that stops
/// iterating within about a micrometre): fraction times ray length within 1e-5 m,
/// and the normal within 1e-3 (0.06 degrees). Rays that pass within 1 mm of
/// an edge are compared on the fraction only (the normal of an edge is any of
/// its two faces'), and those that graze the box within 1 mm (hit or miss
/// depends on which side of the edge a rounding falls) are skipped; the test
/// counts them and requires them to be rare.
constexpr double kDistanceTolerance = 1e-5;
constexpr double kNormalTolerance = 1e-3;
constexpr double kEdgeBand = 1e-3;

struct Random : RandomGeometry {
  Random() : RandomGeometry(20261122) {}
};

ExactRay bullet_ray(const btVector3& from, const btVector3& to, btCollisionObject& object) {
  btCollisionWorld::ClosestRayResultCallback callback(from, to);
  btCollisionWorld::rayTestSingle(btTransform(btMatrix3x3::getIdentity(), from),
                                  btTransform(btMatrix3x3::getIdentity(), to), &object, object.getCollisionShape(),
                                  object.getWorldTransform(), callback);
  ExactRay hit;
  hit.answered = true;
  hit.hit = callback.hasHit();
  hit.fraction = callback.m_closestHitFraction;
  hit.normal = callback.m_hitNormalWorld.normalized();
  return hit;
}

/// Whether a hit of the box of `half` at `pose`, at `point`, lies within
/// `band` of one of its edges (on two faces' planes at once, nearly).
bool near_edge(const btTransform& pose, const btVector3& half, const btVector3& point, double band) {
  const btVector3 local = pose.invXform(point);
  int on_faces = 0;
  for (int i = 0; i < 3; ++i) on_faces += std::fabs(std::fabs(local[i]) - half[i]) < band ? 1 : 0;
  return on_faces >= 2;
}

/// How far `point` is outside the box of `half` at `pose` (0 inside or on it).
double outside_box(const btTransform& pose, const btVector3& half, const btVector3& point) {
  const btVector3 local = pose.invXform(point);
  btVector3 excess(0, 0, 0);
  for (int i = 0; i < 3; ++i) excess[i] = std::max(0.0, std::fabs(local[i]) - half[i]);
  return excess.length();
}

/// How far `point` is from the surface of `object`'s shape (a box, a
/// compound of boxes or a sphere).
double off_surface(const btCollisionObject& object, const btVector3& point) {
  const btCollisionShape* shape = object.getCollisionShape();
  const btTransform& pose = object.getWorldTransform();
  if (shape->getShapeType() == SPHERE_SHAPE_PROXYTYPE) {
    return std::fabs((point - pose.getOrigin()).length() - static_cast<const btSphereShape*>(shape)->getRadius());
  }
  if (shape->getShapeType() == BOX_SHAPE_PROXYTYPE) {
    return outside_box(pose, static_cast<const btBoxShape*>(shape)->getHalfExtentsWithMargin(), point);
  }
  const auto* compound = static_cast<const btCompoundShape*>(shape);
  double nearest = 1e300;
  for (int c = 0; c < compound->getNumChildShapes(); ++c) {
    const auto* box = static_cast<const btBoxShape*>(compound->getChildShape(c));
    nearest = std::min(nearest, outside_box(pose * compound->getChildTransform(c), box->getHalfExtentsWithMargin(), point));
  }
  return nearest;
}

TEST(RayBox, MatchesBulletOnRandomRaysAndBoxes) {
  Random random;
  int compared = 0;
  int hits = 0;
  int grazing = 0;
  int bullet_false_hits = 0;
  for (int i = 0; i < 5000; ++i) {
    const btVector3 half = random.vector(0.02, 3);
    btBoxShape shape(half);
    shape.setMargin(i % 2 == 0 ? 0.001 : 0.04);  // the scenario world's margin, and Bullet's default
    btCollisionObject object;
    object.setCollisionShape(&shape);
    const btVector3 origin = random.point(5);
    const btTransform pose(random.rotation(), origin);
    object.setWorldTransform(pose);
    // Aim at a point near the box, so that about half the rays hit.
    const btVector3 from = pose.getOrigin() + random.point(8);
    const btVector3 target = pose * (random.vector(-1.5, 1.5) * half);
    const btVector3 to = from + (target - from) * random.uniform(0.5, 3);
    const ExactRay ours = ray_box(from, to, pose, half);
    if (!ours.answered) continue;  // starts inside: the adapter asks Bullet then
    // A ray whose answer flips when the box grows or shrinks by the edge band
    // grazes it: skip (counted).
    const bool grown = ray_box(from, to, pose, half + btVector3(kEdgeBand, kEdgeBand, kEdgeBand)).hit;
    const bool shrunk = ray_box(from, to, pose, half - btVector3(kEdgeBand, kEdgeBand, kEdgeBand) * 0.5).hit;
    if (grown != shrunk) {
      ++grazing;
      continue;
    }
    const ExactRay theirs = bullet_ray(from, to, object);
    ++compared;
    if (ours.hit != theirs.hit) {
      // Bullet's subsimplex cast sometimes reports a hit off the box (by up
      // to its margin and more, seen up to 1.4 m): then ours must be the
      // one that is right, the point Bullet gives being clear of the box.
      ASSERT_TRUE(theirs.hit) << "case " << i << ": a hit Bullet does not find";
      EXPECT_GT(outside_box(pose, half, from.lerp(to, theirs.fraction)), kEdgeBand) << "case " << i;
      ++bullet_false_hits;
      continue;
    }
    if (!ours.hit) continue;
    ++hits;
    const double length = (to - from).length();
    EXPECT_NEAR(ours.fraction * length, theirs.fraction * length, kDistanceTolerance) << "case " << i;
    const btVector3 point = from.lerp(to, ours.fraction);
    if (!near_edge(pose, half, point, kEdgeBand)) {
      EXPECT_NEAR((ours.normal - theirs.normal).length(), 0.0, kNormalTolerance) << "case " << i;
    }
  }
  EXPECT_GT(compared, 4000);
  EXPECT_GT(hits, 1000);
  EXPECT_LT(grazing, 100);
  EXPECT_LT(bullet_false_hits, 25);  // 0.5 %: seen 5 of 5000
}

TEST(RayBox, StartingInsideIsLeftToBullet) {
  const ExactRay hit = ray_box(btVector3(0, 0.5, 0), btVector3(0, -5, 0), btTransform::getIdentity(),
                               btVector3(1, 1, 1));
  EXPECT_FALSE(hit.answered);
  EXPECT_FALSE(hit.hit);
}

TEST(RayBox, ParallelToAFaceOutsideMissesAndOnTheFaceLineHits) {
  const ExactRay miss =
      ray_box(btVector3(-5, 1.5, 0), btVector3(5, 1.5, 0), btTransform::getIdentity(), btVector3(1, 1, 1));
  EXPECT_TRUE(miss.answered);
  EXPECT_FALSE(miss.hit);
  const ExactRay hit =
      ray_box(btVector3(-5, 0.25, 0), btVector3(5, 0.25, 0), btTransform::getIdentity(), btVector3(1, 1, 1));
  ASSERT_TRUE(hit.answered);
  ASSERT_TRUE(hit.hit);
  EXPECT_DOUBLE_EQ(hit.fraction, 0.4);
  EXPECT_EQ(hit.normal, btVector3(-1, 0, 0));
}

/// The adapter's ray (exact for boxes and compounds of boxes, Bullet for the
/// rest) against Bullet's own world rayTest, on random worlds.
TEST(CollisionQueriesRay, MatchesBulletsRayTestOnRandomWorlds) {
  Random random;
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher(&configuration);
  btDbvtBroadphase broadphase;
  btCollisionWorld world(&dispatcher, &broadphase, &configuration);
  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<std::unique_ptr<btCollisionObject>> objects;
  for (int i = 0; i < 60; ++i) {
    std::unique_ptr<btCollisionShape> shape;
    const btVector3 half = random.vector(0.1, 1.5);
    if (i % 4 == 0) {
      auto compound = std::make_unique<btCompoundShape>();
      for (int c = 0; c < 3; ++c) {
        shapes.push_back(std::make_unique<btBoxShape>(half * 0.5));
        shapes.back()->setMargin(0.001);
        const btVector3 origin = random.point(1);
        compound->addChildShape(btTransform(random.rotation(), origin), shapes.back().get());
      }
      shape = std::move(compound);
    } else if (i % 4 == 1) {
      shape = std::make_unique<btSphereShape>(half.x());
    } else {
      shape = std::make_unique<btBoxShape>(half);
      shape->setMargin(0.001);
    }
    auto object = std::make_unique<btCollisionObject>();
    object->setCollisionShape(shape.get());
    const btVector3 origin = random.point(10);
    object->setWorldTransform(btTransform(random.rotation(), origin));
    world.addCollisionObject(object.get());
    shapes.push_back(std::move(shape));
    objects.push_back(std::move(object));
  }
  world.updateAabbs();
  CollisionQueries queries(&world, nullptr);
  int hits = 0;
  int bullet_false_hits = 0;
  int bullet_off_spheres = 0;
  for (int i = 0; i < 2000; ++i) {
    const btVector3 from = random.point(12);
    const btVector3 to = random.point(12);
    btCollisionWorld::ClosestRayResultCallback bullet(from, to);
    world.rayTest(from, to, bullet);
    const RayHit ours = queries.ray(from, to);
    const bool same_hit = ours.hit == bullet.hasHit() &&
                          (!ours.hit || std::fabs(ours.fraction - bullet.m_closestHitFraction) * (to - from).length() <=
                                            kDistanceTolerance);
    if (!same_hit) {
      // Only where Bullet's closest hit is off the surface of what it says
      // it hit (its subsimplex cast's false hits on boxes, above; on a
      // sphere, whose ray is exact now (ray_capsule), a hit a few
      // micrometres off the surface, which a slanting ray turns into more
      // along it).
      ASSERT_TRUE(bullet.hasHit()) << "ray " << i << ": a hit Bullet does not find";
      const bool round = bullet.m_collisionObject->getCollisionShape()->getShapeType() == SPHERE_SHAPE_PROXYTYPE;
      EXPECT_GT(off_surface(*bullet.m_collisionObject, bullet.m_hitPointWorld), round ? 1e-7 : kEdgeBand)
          << "ray " << i;
      if (round && ours.hit) {
        EXPECT_LT(off_surface(*ours.object, from + (to - from) * ours.fraction), 1e-9) << "ray " << i;
      }
      ++(round ? bullet_off_spheres : bullet_false_hits);
      continue;
    }
    if (!ours.hit) continue;
    ++hits;
    const double length = (to - from).length();
    EXPECT_NEAR(ours.fraction * length, bullet.m_closestHitFraction * length, kDistanceTolerance) << "ray " << i;
    if (ours.object == bullet.m_collisionObject) {
      EXPECT_LT((ours.normal - bullet.m_hitNormalWorld.normalized()).length(), 0.05) << "ray " << i;
    }
  }
  EXPECT_GT(hits, 200);
  EXPECT_LT(bullet_false_hits, 20);  // 1 %
  EXPECT_LT(bullet_off_spheres, 60);
}

}  // namespace
}  // namespace stepslide::test

namespace stepslide::test {
namespace {

struct FirstContact : btCollisionWorld::ContactResultCallback {
  bool found = false;
  double distance = 0.0;
  btVector3 normal{0, 0, 0};  // from the box toward the capsule
  btScalar addSingleResult(btManifoldPoint& point, const btCollisionObjectWrapper* wrap0, int, int,
                           const btCollisionObjectWrapper*, int, int) override {
    found = true;
    distance = point.getDistance();
    const bool capsule_is_0 = wrap0->getCollisionShape()->getShapeType() == CAPSULE_SHAPE_PROXYTYPE;
    normal = (capsule_is_0 ? point.m_normalWorldOnB : -point.m_normalWorldOnB).normalized();
    return 0;
  }
};

/// capsule_box against Bullet's contactPairTest (GJK/EPA) on random capsules
/// and boxes, with Bullet's box as it is: its core grown by the margin, as the
/// adapter passes it. Tolerances: distance 1e-6 m, normal 1e-4 (Bullet's EPA
/// on the margin-grown shapes), on every overlapping pair Bullet reports;
/// every pair we find overlapping by more than 1e-6, Bullet finds too.
TEST(CapsuleBox, MatchesBulletsContactOnRandomPairs) {
  Random random;
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher(&configuration);
  btDbvtBroadphase broadphase;
  btCollisionWorld world(&dispatcher, &broadphase, &configuration);
  int compared = 0;
  for (int i = 0; i < 10000; ++i) {
    const btVector3 half = random.vector(0.05, 2);
    btBoxShape box(half);
    box.setMargin(i % 2 == 0 ? 0.001 : 0.04);
    btCollisionObject box_object;
    box_object.setCollisionShape(&box);
    const btTransform box_pose(random.rotation(), btVector3(0, 0, 0));
    box_object.setWorldTransform(box_pose);
    const double radius = random.uniform(0.05, 0.6);
    const double half_height = random.uniform(0, 1);
    btCapsuleShape capsule(radius, 2 * half_height);
    btCollisionObject capsule_object;
    capsule_object.setCollisionShape(&capsule);
    // Near the box's surface: a point on the box pushed out along a random direction.
    const btVector3 on_box = box_pose * (random.vector(-1, 1) * half);
    const btVector3 out = random.point(1).normalized();
    const double away = half.length() + random.uniform(-0.6, 0.1) + half_height;
    const btTransform capsule_pose(random.rotation(), on_box + out * away);
    capsule_object.setWorldTransform(capsule_pose);
    const btVector3 axis = capsule_pose.getBasis().getColumn(1) * half_height;
    const ExactContact ours = capsule_box(capsule_pose.getOrigin() - axis, capsule_pose.getOrigin() + axis,
                                          radius + box.getMargin(), box_pose, box.getHalfExtentsWithoutMargin());
    if (!ours.answered) continue;  // capsule_box_penetration's (capsule_box_penetration_test.cpp)
    FirstContact theirs;
    world.contactPairTest(&capsule_object, &box_object, theirs);
    if (ours.distance < -1e-6) {
      ASSERT_TRUE(theirs.found) << "case " << i << ": overlap by " << -ours.distance << " Bullet does not report";
    }
    if (!theirs.found || theirs.distance > 0) continue;  // Bullet reports some gaps, never all: not compared
    ++compared;
    EXPECT_NEAR(ours.distance, theirs.distance, 1e-6) << "case " << i;
    EXPECT_LT((ours.normal - theirs.normal).length(), 1e-4) << "case " << i;
  }
  EXPECT_GT(compared, 1000);
}

TEST(CapsuleBox, ASegmentIntoTheBoxIsNotSeparated) {  // capsule_box_penetration answers it
  const ExactContact c = capsule_box(btVector3(0, -2, 0), btVector3(0, 2, 0), 0.3, btTransform::getIdentity(),
                                     btVector3(1, 1, 1));
  EXPECT_FALSE(c.answered);
}

TEST(CapsuleBox, ASphereAboveAFaceIsExactlyThere) {
  const ExactContact c = capsule_box(btVector3(0.2, 1.5, -0.1), btVector3(0.2, 1.5, -0.1), 0.3,
                                     btTransform::getIdentity(), btVector3(1, 1, 1));
  ASSERT_TRUE(c.answered);
  EXPECT_DOUBLE_EQ(c.distance, 0.2);
  EXPECT_EQ(c.normal, btVector3(0, 1, 0));
  EXPECT_EQ(c.point, btVector3(0.2, 1, -0.1));
}

}  // namespace
}  // namespace stepslide::test
