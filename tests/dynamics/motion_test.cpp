// A rigid body's own motion (dynamics/motion.h).
#include "dynamics/motion.h"

#include <gtest/gtest.h>

#include <cmath>

namespace stepslide::dynamics {
namespace {

TEST(Motion, BoxInertiaIsATwelfthOfMassTimesTheOtherSidesSquared) {
  const btVector3 i = box_inertia(12.0, btVector3(0.5, 1.0, 1.5));  // sides 1, 2, 3
  EXPECT_DOUBLE_EQ(i.x(), 1.0 * (4.0 + 9.0));
  EXPECT_DOUBLE_EQ(i.y(), 1.0 * (1.0 + 9.0));
  EXPECT_DOUBLE_EQ(i.z(), 1.0 * (1.0 + 4.0));
  EXPECT_DOUBLE_EQ(sphere_inertia(5.0, 2.0).y(), 0.4 * 5.0 * 4.0);
  const btVector3 inverse = inverse_moments(btVector3(2.0, 0.0, 4.0));
  EXPECT_EQ(inverse, btVector3(0.5, 0.0, 0.25));
}

TEST(Motion, WorldInverseInertiaTurnsWithTheBody) {
  // A quarter turn about z swaps the x and y moments.
  const btMatrix3x3 quarter(btQuaternion(btVector3(0, 0, 1), 0.5 * M_PI));
  const btMatrix3x3 w = world_inverse_inertia(quarter, btVector3(1.0, 2.0, 3.0));
  EXPECT_NEAR(w[0][0], 2.0, 1e-15);
  EXPECT_NEAR(w[1][1], 1.0, 1e-15);
  EXPECT_NEAR(w[2][2], 3.0, 1e-15);
  EXPECT_NEAR(w[0][1], 0.0, 1e-15);
}

TEST(Motion, GravityThenDampingOnTheVelocity) {
  btVector3 v(1, 0, 0), w(0, 2, 0);
  integrate_velocity(v, w, btVector3(0, -9.81, 0), 0.1, 0.0, 0.0);
  EXPECT_DOUBLE_EQ(v.y(), -0.981);
  EXPECT_EQ(w, btVector3(0, 2, 0));
  btVector3 d(2, 0, 0), a(0, 2, 0);
  integrate_velocity(d, a, btVector3(0, 0, 0), 0.5, 1.0, 0.5);
  EXPECT_DOUBLE_EQ(d.x(), 2.0 / 1.5);
  EXPECT_DOUBLE_EQ(a.y(), 2.0 / 1.25);
}

TEST(Motion, ASpinningBodyTurnsByItsRateAndStaysAUnitQuaternion) {
  // 1 rad/s about y for one second in 600 steps: within (w·dt)²/2 per step.
  btQuaternion q = btQuaternion::getIdentity();
  const btVector3 w(0, 1, 0);
  for (int i = 0; i < 600; ++i) q = integrate_orientation(q, w, 1.0 / 600.0);
  EXPECT_NEAR(q.length(), 1.0, 1e-15);
  EXPECT_NEAR(q.getAngle(), 1.0, 1e-5);
  EXPECT_NEAR(q.getAxis().y(), 1.0, 1e-12);
  // A body at rest does not turn at all.
  const btQuaternion tilted(btVector3(1, 0, 0), 0.3);
  const btQuaternion still = integrate_orientation(tilted, btVector3(0, 0, 0), 1.0 / 60.0);
  EXPECT_NEAR(still.x(), tilted.x(), 1e-15);  // renormalised: the last bit may move
  EXPECT_NEAR(still.w(), tilted.w(), 1e-15);
}

}  // namespace
}  // namespace stepslide::dynamics
