// Shared by the capsule-vs-triangle tests (exact_triangle_test.cpp,
// triangle_pairs_test.cpp): random cases, Bullet worlds holding the pair,
// and Bullet's own answers to compare with.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "collision/triangle_pairs.h"
#include "geometry/capsule_triangle.h"
#include "stepslide/collision.h"
#include "support/random_geometry.h"

namespace stepslide::test::triangles {


using detail::capsule_triangle;
using detail::capsule_triangle_sweep;
using detail::Triangle;

struct Random : RandomGeometry {
  Random() : RandomGeometry(20261123) {}
  btVector3 direction() {
    for (;;) {
      const btVector3 d = point(1);
      if (d.length2() > 1e-3 && d.length2() <= 1) return d.normalized();
    }
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

/// An answered sweep that hit nothing.
inline bool is_miss(const ExactSweep& s) { return s.answered && !s.hit; }

/// Distance from `p` to the triangle (brute force over its plane and edges).
inline double to_triangle(const btVector3& p, const Triangle& t) {
  const ExactContact c = capsule_triangle(p, p, 0.0, t, std::numeric_limits<double>::infinity());
  return c.answered ? c.distance : 0.0;
}

inline Triangle random_triangle(Random& random) {
  Triangle t;
  for (btVector3& v : t.v) v = random.point(1);
  return t;
}

/// A capsule near the triangle: a point of it pushed out along a random
/// direction by about the capsule's size, sometimes into it.
inline btTransform near_pose(Random& random, const Triangle& t, double radius, double half_height) {
  const double u = random.uniform(0, 1);
  const double v = random.uniform(0, 1 - u);
  const btVector3 on = t.v[0] + (t.v[1] - t.v[0]) * u + (t.v[2] - t.v[0]) * v;
  const btVector3 out = random.direction();
  const double lift = half_height * random.uniform(0, 1.2);
  const double away = radius + lift + random.uniform(-0.3, 0.3);
  return btTransform(random.rotation(), on + out * away);
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

inline SweepAnswers both_sweeps(const btCapsuleShape& shape, const btTransform& from, const btTransform& to,
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
inline double capsule_gap(const btVector3& a, const btVector3& b, double radius, const std::vector<Triangle>& triangles) {
  double gap = std::numeric_limits<double>::infinity();
  for (const Triangle& t : triangles) {
    const ExactContact c = capsule_triangle(a, b, radius, t, std::numeric_limits<double>::infinity());
    gap = std::min(gap, c.answered ? c.distance : -radius);
  }
  return gap;
}

}  // namespace stepslide::test::triangles
