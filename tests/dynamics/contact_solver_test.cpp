// The sequential-impulse solver's rows (dynamics/contact_solver.h).
#include "dynamics/contact_solver.h"

#include <gtest/gtest.h>

#include <cmath>

namespace stepslide::dynamics {
namespace {

constexpr double kDt = 1.0 / 60.0;

/// A 2 kg point-like body (no turning) falling at `vy` onto the ground.
SolverBody falling(double vy) {
  SolverBody b;
  b.linear = btVector3(0, vy, 0);
  b.inverse_mass = 0.5;
  return b;
}

Manifold ground_contact(double separation, double friction = 0.0, double restitution = 0.0) {
  Manifold m;
  m.a = 0;
  m.b = -1;
  m.normal = btVector3(0, 1, 0);
  m.friction = friction;
  m.restitution = restitution;
  m.count = 1;
  m.points[0].point = btVector3(0, 0, 0);
  m.points[0].separation = separation;
  return m;
}

TEST(ContactSolver, OneNormalRowStopsTheApproachWithTheImpulseOfTheMomentum) {
  std::vector<SolverBody> bodies{falling(-3.0)};
  std::vector<Manifold> manifolds{ground_contact(0.0)};
  solve_contacts(bodies, manifolds, kDt);
  EXPECT_NEAR(bodies[0].linear.y(), 0.0, 1e-12);
  EXPECT_NEAR(manifolds[0].points[0].normal_impulse, 6.0, 1e-12);  // m·v = 2 kg · 3 m/s
}

TEST(ContactSolver, NormalRowNeverPulls) {
  std::vector<SolverBody> bodies{falling(+1.0)};  // moving away
  std::vector<Manifold> manifolds{ground_contact(0.0)};
  solve_contacts(bodies, manifolds, kDt);
  EXPECT_EQ(bodies[0].linear.y(), 1.0);
  EXPECT_EQ(manifolds[0].points[0].normal_impulse, 0.0);
}

TEST(ContactSolver, SpeculativeContactLetsTheGapCloseAndNoMore) {
  std::vector<SolverBody> bodies{falling(-3.0)};
  std::vector<Manifold> manifolds{ground_contact(0.01)};  // 1 cm apart
  solve_contacts(bodies, manifolds, kDt);
  EXPECT_NEAR(bodies[0].linear.y(), -0.01 / kDt, 1e-12);
}

TEST(ContactSolver, OverlapIsPushedOutByTheBaumgarteFraction) {
  std::vector<SolverBody> bodies{falling(0.0)};
  std::vector<Manifold> manifolds{ground_contact(-0.001)};
  solve_contacts(bodies, manifolds, kDt);
  EXPECT_NEAR(bodies[0].linear.y(), 0.2 * 0.001 / kDt, 1e-12);
}

TEST(ContactSolver, RestitutionReversesTheApproachAboveTheThreshold) {
  std::vector<SolverBody> bodies{falling(-4.0)};
  std::vector<Manifold> manifolds{ground_contact(0.0, 0.0, 0.5)};
  solve_contacts(bodies, manifolds, kDt);
  EXPECT_NEAR(bodies[0].linear.y(), 2.0, 1e-12);
  // Below the threshold a resting contact does not bounce.
  std::vector<SolverBody> slow{falling(-0.1)};
  std::vector<Manifold> resting{ground_contact(0.0, 0.0, 0.5)};
  solve_contacts(slow, resting, kDt);
  EXPECT_NEAR(slow[0].linear.y(), 0.0, 1e-12);
}

TEST(ContactSolver, FrictionStopsASlowSlideAndOnlySlowsAFastOne) {
  // Pressed down at 3 m/s (6 N·s of normal impulse), sliding along x.
  SolverBody slow = falling(-3.0);
  slow.linear.setX(1.0);
  std::vector<SolverBody> bodies{slow};
  std::vector<Manifold> manifolds{ground_contact(0.0, 0.5)};
  solve_contacts(bodies, manifolds, kDt);
  EXPECT_NEAR(bodies[0].linear.x(), 0.0, 1e-12);  // needs 2 N·s, the cone allows 3
  SolverBody fast = falling(-3.0);
  fast.linear.setValue(3.0, -3.0, 4.0);  // 5 m/s across: 10 N·s needed
  bodies = {fast};
  manifolds = {ground_contact(0.0, 0.5)};
  solve_contacts(bodies, manifolds, kDt);
  const ContactPoint& p = manifolds[0].points[0];
  const double friction = std::sqrt(p.tangent_impulse[0] * p.tangent_impulse[0] + p.tangent_impulse[1] * p.tangent_impulse[1]);
  EXPECT_NEAR(friction, 0.5 * p.normal_impulse, 1e-12);
  // The cone keeps the direction: 3 N·s against the 5 m/s, so 1.5 m/s comes off.
  EXPECT_NEAR(bodies[0].linear.x(), 3.0 * (1.0 - 1.5 / 5.0), 1e-12);
  EXPECT_NEAR(bodies[0].linear.z(), 4.0 * (1.0 - 1.5 / 5.0), 1e-12);
}

TEST(ContactSolver, ClampToConeScalesTheImpulseOntoTheCone) {
  double t1 = 3.0, t2 = 4.0;
  clamp_to_cone(&t1, &t2, 2.5);
  EXPECT_DOUBLE_EQ(t1, 1.5);
  EXPECT_DOUBLE_EQ(t2, 2.0);
  double u1 = 0.3, u2 = -0.4;
  clamp_to_cone(&u1, &u2, 1.0);  // inside: unchanged
  EXPECT_EQ(u1, 0.3);
  EXPECT_EQ(u2, -0.4);
  double z1 = 1.0, z2 = 1.0;
  clamp_to_cone(&z1, &z2, 0.0);  // no normal impulse: no friction
  EXPECT_EQ(z1, 0.0);
  EXPECT_EQ(z2, 0.0);
}

TEST(ContactSolver, TangentsAreUnitAndAcrossTheNormal) {
  for (const btVector3& n : {btVector3(0, 1, 0), btVector3(0, 0, -1), btVector3(1, 2, 3).normalized(),
                             btVector3(-0.3, 0.1, 0.9).normalized()}) {
    btVector3 t1, t2;
    tangents(n, &t1, &t2);
    EXPECT_NEAR(t1.length(), 1.0, 1e-15);
    EXPECT_NEAR(t2.length(), 1.0, 1e-15);
    EXPECT_NEAR(t1.dot(n), 0.0, 1e-15);
    EXPECT_NEAR(t2.dot(n), 0.0, 1e-15);
    EXPECT_NEAR(t1.dot(t2), 0.0, 1e-15);
  }
}

TEST(ContactSolver, AnOffCentreContactTurnsTheBody) {
  // A 1 kg unit-inertia body hit at x = 1 from below: the impulse lifts it and turns it about z.
  SolverBody b;
  b.linear = btVector3(0, -1, 0);
  b.inverse_mass = 1.0;
  b.inverse_inertia = btMatrix3x3::getIdentity();
  std::vector<SolverBody> bodies{b};
  Manifold m = ground_contact(0.0);
  m.points[0].point = btVector3(1, 0, 0);
  std::vector<Manifold> manifolds{m};
  solve_contacts(bodies, manifolds, kDt);
  // The point's normal velocity is stopped: v + w × r along y is 0;
  // effective mass 1 / (1 + 1) = 0.5, so an impulse of 0.5.
  EXPECT_NEAR(manifolds[0].points[0].normal_impulse, 0.5, 1e-12);
  EXPECT_NEAR(bodies[0].linear.y(), -0.5, 1e-12);
  EXPECT_NEAR(bodies[0].angular.z(), 0.5, 1e-12);
}


TEST(ContactSolver, ADeepOverlapIsPushedOutNoFasterThanTheCap) {
  std::vector<SolverBody> bodies{falling(0.0)};
  std::vector<Manifold> manifolds{ground_contact(-0.5)};  // Baumgarte alone: 6 m/s
  solve_contacts(bodies, manifolds, kDt);
  EXPECT_NEAR(bodies[0].linear.y(), SolverSettings().max_push_out_speed, 1e-12);
}

TEST(ContactSolver, TheImpulseBoundLeavesASolvableStepAlone) {
  std::vector<SolverBody> bodies{falling(-3.0)};
  std::vector<Manifold> manifolds{ground_contact(0.0)};
  manifolds[0].island_mass = 2.0;
  solve_contacts(bodies, manifolds, kDt);
  EXPECT_NEAR(bodies[0].linear.y(), 0.0, 1e-12);
  EXPECT_NEAR(manifolds[0].points[0].normal_impulse, 6.0, 1e-12);
}

/// A 2 kg body pressed into the ground by a lid that does not move either,
/// solved `steps` times with each step's impulses warm starting the next, at
/// rest again before each step (no gravity): no answer satisfies both rows.
std::vector<Manifold> crushed(double island_mass, int steps) {
  Manifold lid = ground_contact(-0.01);
  lid.normal = btVector3(0, -1, 0);
  lid.points[0].point = btVector3(0, 0.5, 0);
  std::vector<Manifold> manifolds{ground_contact(-0.3), lid};
  for (Manifold& m : manifolds) m.island_mass = island_mass;
  for (int step = 0; step < steps; ++step) {
    std::vector<SolverBody> bodies{falling(0.0)};
    solve_contacts(bodies, manifolds, kDt);
  }
  return manifolds;
}

TEST(ContactSolver, UnboundedACrushedBodysImpulsesGrowEveryStep) {
  // What the bound is for: without it the two rows fight, and each step
  // adds to the last one's warm start.
  const std::vector<Manifold> manifolds = crushed(0.0, 200);
  EXPECT_GT(manifolds[0].points[0].normal_impulse, 1e4);
}

TEST(ContactSolver, ACrushedBodyLeavesSlowlyWhenTheLidTurns) {
  std::vector<Manifold> manifolds = crushed(2.0, 200);
  const SolverSettings settings;
  // Its speed change asked: the capped push-out (3 m/s) of the floor's overlap.
  const double bound = impulse_bound(2.0, settings.max_push_out_speed, settings);
  for (const Manifold& m : manifolds) EXPECT_LE(m.points[0].normal_impulse, bound);
  // The lid's face turns 33 degrees: the body is squeezed out sideways, at
  // a few m/s (unbounded, at thousands).
  manifolds[1].normal = btVector3(0, -0.834, 0.552).normalized();
  std::vector<SolverBody> bodies{falling(0.0)};
  solve_contacts(bodies, manifolds, kDt);
  EXPECT_LT(bodies[0].linear.length(), 2.0 * bound / 2.0);
}

}  // namespace
}  // namespace stepslide::dynamics
