// The collision adapter: Bullet double precision, sweeps, contacts and rays.
#include <gtest/gtest.h>

#include <cmath>

#include "controller/rig.h"

namespace stepslide::test {
namespace {

TEST(BulletPrecision, HeadersAndLinkedLibraryAreBothDouble) {
  static_assert(sizeof(btScalar) == 8, "BT_USE_DOUBLE_PRECISION must be defined");
  EXPECT_EQ(sizeof(btVector3), 4 * sizeof(double));
  // A float build of the library would be ABI-incompatible with these headers
  // (garbage or a crash), and a float computation cannot place a hit 12 km
  // from the origin to a nanometre.
  Rig rig({box({12345.678901234, 0, 0}, {1, 1, 1})});
  CollisionQueries& q = *rig.ctx().queries;
  const RayHit hit = q.ray(btVector3(12000, 0, 0), btVector3(12400, 0, 0));
  ASSERT_TRUE(hit.hit);
  EXPECT_NEAR(hit.point.x(), 12344.678901234, 1e-8);
}

TEST(CollisionQueries, PenetrationDepthIsTheDeepestOverlap) {
  Rig rig({floor_at(0), box({0, 0.5, -0.25}, {1, 0.5, 0.1})});  // a wall whose face is at z = -0.15
  rig.place(btVector3(0, -0.05, 0));                              // 5 cm into the floor, 15 cm into the wall
  EXPECT_NEAR(rig.controller->penetration_depth(), 0.15, 1e-6);
  rig.place(btVector3(0, 0, 2));  // standing: touching is not overlapping
  EXPECT_NEAR(rig.controller->penetration_depth(), 0.0, 1e-9);
  rig.place(btVector3(0, 1, 2));  // in the air: nothing at all
  EXPECT_EQ(rig.controller->penetration_depth(), 0.0);
}

}  // namespace
}  // namespace stepslide::test
