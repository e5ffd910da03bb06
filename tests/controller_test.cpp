// Unit tests for each stage of a controller tick, on small hand-built worlds.
#include <gtest/gtest.h>

#include <cmath>

#include "stepslide/controller.h"
#include "test_bodies.h"
#include "scenario/world.h"

namespace stepslide {
namespace {

constexpr double kDt60 = 1.0 / 60.0;

using test::box;
using test::floor_at;
using test::ramp;
using test::stairs;

/// A world plus a capsule controller standing in it.
struct Rig {
  Scenario scenario;
  std::unique_ptr<World> world;
  std::unique_ptr<CharacterController> controller;

  explicit Rig(std::vector<BodyDef> bodies, ControllerSettings settings = {}) {
    scenario.ticks = 1;
    scenario.world = std::move(bodies);
    world = std::make_unique<World>(scenario);
    CharacterShapeDesc capsule;  // r 0.3, h 1.8
    controller = std::make_unique<CharacterController>(world->collision_world(), capsule, settings,
                                                       btVector3(0, 1, 0), btVector3(0, -9.81, 0));
  }
  const CharacterContext& ctx() const { return controller->context(); }
  void place(const btVector3& feet) { controller->reset(feet, btVector3(0, 0, 0)); }
};

// ---- Precision ----------------------------------------------------------------

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

// ---- Slide ------------------------------------------------------------------

TEST(SlideDirection, ProjectsOntoTheHitPlane) {
  const btVector3 n = btVector3(1, 0, 1).normalized();
  const btVector3 out = slide_direction(btVector3(0, 0, -1), n, btVector3(0, 0, 0));
  EXPECT_NEAR(out.dot(n), 0.0, 1e-12);
  EXPECT_NEAR(out.x(), 0.5, 1e-12);
  EXPECT_NEAR(out.z(), -0.5, 1e-12);
}

TEST(SlideDirection, FollowsTheCreaseOfAnAcuteCorner) {
  // Two walls leaning into each other like a roof over a corridor: moving up
  // into one and sliding along it would push into the other; the crease is
  // the corridor's direction (Z).
  const btVector3 a = btVector3(1, -1, 0).normalized();
  const btVector3 b = btVector3(-1, -1, 0).normalized();
  const btVector3 motion(0.3, 1, -1);
  const btVector3 out = slide_direction(motion, b, a);
  EXPECT_NEAR(out.x(), 0.0, 1e-12);
  EXPECT_NEAR(out.y(), 0.0, 1e-12);
  EXPECT_NEAR(out.z(), -1.0, 1e-12);
}

TEST(SlideDirection, KeepsThePlaneProjectionWhenTheCornerIsOpen) {
  // Floor then wall (a right angle): sliding along the wall does not push into
  // the floor, so no crease is needed.
  const btVector3 floor(0, 1, 0), wall(0, 0, 1);
  const btVector3 out = slide_direction(btVector3(1, 0, -1), wall, floor);
  EXPECT_NEAR(out.x(), 1.0, 1e-12);
  EXPECT_NEAR(out.z(), 0.0, 1e-12);
}

TEST(Slide, KeepsTheSkinAlongTheNormalAtGlancingAngles) {
  // Approaching a wall at 0.5 degrees: backing off along the motion would
  // need 1.15 m to open a 1 cm gap; the gap must still be the skin.
  Rig rig({floor_at(0), box({0, 1, -2}, {20, 1, 0.5})});  // face at z = -1.5
  const double angle = 0.5 * M_PI / 180.0;
  const btVector3 motion = btVector3(std::cos(angle), 0, -std::sin(angle)) * 60.0;
  SlideOptions options;
  options.grounded = true;
  options.max_iterations = 1;
  const btVector3 start(-10, 0, -1.5 + 0.3 + 0.2);
  const SlideResult r = slide(rig.ctx(), start, motion, btVector3(0, 0, 0), options);
  const double gap = (r.position.z() - 0.3) - (-1.5);
  EXPECT_GE(gap, 0.01 - 1e-9);
  EXPECT_LE(gap, 0.01 + 1.5e-3);  // Bullet's sweep stops within a millimetre
}

TEST(Slide, DoesNotCreepIntoTheSkinWithSmallMoves) {
  // Moves shorter than the skin toward a wall the character already keeps
  // a skin from must not close the gap (no tick-to-tick jitter in corners).
  Rig rig({floor_at(0), box({0, 1, -2}, {20, 1, 0.5})});
  SlideOptions options;
  options.grounded = true;
  btVector3 p(0, 0, -1.5 + 0.3 + 0.01);
  for (int i = 0; i < 10; ++i) p = slide(rig.ctx(), p, btVector3(0, 0, -0.004), btVector3(0, 0, 0), options).position;
  EXPECT_GE(p.z() - 0.3 + 1.5, 0.01 - 1e-9);
}

TEST(Slide, StopsASkinShortOfAWallAndSlidesAlongIt) {
  Rig rig({floor_at(0), box({0, 1, -2}, {5, 1, 0.5})});  // wall face at z = -1.5
  rig.place(btVector3(0, 0, 0));
  SlideOptions options;
  options.grounded = true;
  const SlideResult r = slide(rig.ctx(), btVector3(0, 0, 0), btVector3(1, 0, -2), btVector3(1, 0, -2), options);
  // Capsule radius 0.3 plus the skin from the face (Bullet's sweep stops within 1 mm).
  EXPECT_GE(r.position.z(), -1.5 + 0.3 + 0.01 - 1e-9);
  EXPECT_LE(r.position.z(), -1.5 + 0.3 + 0.01 + 1.5e-3);
  EXPECT_GT(r.position.x(), 0.9);  // kept the motion along the wall
  EXPECT_NEAR(r.velocity.z(), 0.0, 1e-9);
  EXPECT_NEAR(r.velocity.x(), 1.0, 1e-9);
  EXPECT_GE(r.iterations, 2);
}

TEST(Slide, GroundedWalkDoesNotClimbASteepIncline) {
  Rig rig({floor_at(0), ramp(4, 4, 60, {0, 0, -1})});
  rig.place(btVector3(0, 0, 0));
  SlideOptions options;
  options.grounded = true;
  const SlideResult r = slide(rig.ctx(), btVector3(0, 0, 0), btVector3(0, 0, -2), btVector3(0, 0, -5), options);
  EXPECT_LT(r.position.y(), 0.02);
  EXPECT_GT(r.position.z(), -1.0);  // stopped at the foot of the incline
}

// ---- Depenetration ------------------------------------------------------------

TEST(SolveDepenetration, OneContactIsResolvedExactly) {
  const btVector3 c = solve_depenetration({btVector3(0, 1, 0)}, {0.25});
  EXPECT_NEAR(c.y(), 0.25, 1e-12);
  EXPECT_NEAR(c.x(), 0.0, 1e-12);
}

TEST(SolveDepenetration, FloorAndWallAreResolvedTogether) {
  const std::vector<btVector3> n = {btVector3(0, 1, 0), btVector3(1, 0, 0)};
  const std::vector<double> d = {0.1, 0.2};
  const btVector3 c = solve_depenetration(n, d, 64);
  EXPECT_GE(n[0].dot(c), d[0] - 1e-8);
  EXPECT_GE(n[1].dot(c), d[1] - 1e-8);
  EXPECT_LT(c.length(), 0.2237);  // no more than needed
}

TEST(SolveDepenetration, TwoOpposingOverlapsSettleOnTheBalancePoint) {
  // Squeezed between two walls: both cannot be cleared; the correction must
  // not flip-flop between them but split the difference.
  const std::vector<btVector3> n = {btVector3(1, 0, 0), btVector3(-1, 0, 0)};
  const btVector3 c = solve_depenetration(n, {0.3, 0.1}, 64);
  EXPECT_NEAR(c.x(), 0.1, 1e-9);
}

TEST(SolveDepenetration, ThreeOverlapsInANarrowWedge) {
  // Floor plus two walls leaning toward each other (a V seen from above) plus
  // a third wall closing it: all three normals have opposing components.
  const std::vector<btVector3> n = {btVector3(1, 0, 0.2).normalized(), btVector3(-1, 0, 0.2).normalized(),
                                    btVector3(0, 1, 0)};
  const std::vector<double> d = {0.05, 0.05, 0.02};
  const btVector3 c = solve_depenetration(n, d, 64);
  for (std::size_t i = 0; i < n.size(); ++i) EXPECT_GE(n[i].dot(c), d[i] - 1e-6) << "contact " << i;
  EXPECT_NEAR(c.x(), 0.0, 1e-9);  // symmetric wedge: no sideways drift
}

TEST(Depenetrate, PushesACapsuleOutOfACornerInOneCall) {
  Rig rig({floor_at(0), box({1, 1, 0}, {0.5, 1, 5}), box({0, 1, 1}, {5, 1, 0.5})});
  // Feet 5 cm into the floor, 10 cm into the wall at x = 0.5, 5 cm into the wall at z = 0.5.
  const btVector3 start(0.5 - 0.3 + 0.1, -0.05, 0.5 - 0.3 + 0.05);
  const DepenetrationResult r = depenetrate(rig.ctx(), start);
  EXPECT_TRUE(r.converged);
  EXPECT_GE(r.iterations, 1);
  EXPECT_LE(r.iterations, 4);
  rig.controller->state().position = r.position;
  EXPECT_LE(rig.controller->penetration_depth(), 1e-6);
  EXPECT_LE(r.position.x(), 0.2 - 0.01 + 1e-6);
  EXPECT_GE(r.position.y(), 0.0);
}

TEST(Depenetrate, IsDeterministic) {
  Rig rig({floor_at(0), box({1, 1, 0}, {0.5, 1, 5})});
  const btVector3 start(0.35, -0.02, 0);
  const DepenetrationResult a = depenetrate(rig.ctx(), start);
  const DepenetrationResult b = depenetrate(rig.ctx(), start);
  EXPECT_EQ(a.position.x(), b.position.x());
  EXPECT_EQ(a.position.y(), b.position.y());
  EXPECT_EQ(a.position.z(), b.position.z());
}

TEST(Depenetrate, DoesNotIgnoreAShallowOverlap) {
  Rig rig({floor_at(0)});
  const DepenetrationResult r = depenetrate(rig.ctx(), btVector3(0, -0.002, 0));
  EXPECT_EQ(r.iterations, 1);
  EXPECT_GE(r.position.y(), 0.0);
}

// ---- Ground -----------------------------------------------------------------

TEST(ProbeGround, MeasuresTheExactDistanceToFlatGround) {
  Rig rig({floor_at(0.25)});
  const GroundInfo g = probe_ground(rig.ctx(), btVector3(0, 0.3, 0), 0.2);
  ASSERT_TRUE(g.found);
  EXPECT_TRUE(g.walkable);
  EXPECT_NEAR(g.distance, 0.05, 1e-9);
  EXPECT_NEAR(g.normal.y(), 1.0, 1e-12);
}

TEST(ProbeGround, ReportsTheFaceNormalNotTheEdgeNormal) {
  // Feet hanging 0.15 m past the edge of a ledge whose top is at y = 0.
  Rig rig({box({0, -0.5, 0.5}, {2, 0.5, 0.5})});  // top face z in [0, 1]
  const GroundInfo g = probe_ground(rig.ctx(), btVector3(0, 0.1, -0.15), 0.5);
  ASSERT_TRUE(g.found);
  EXPECT_TRUE(g.walkable);
  EXPECT_NEAR(g.normal.y(), 1.0, 1e-9);
}

TEST(ProbeGround, SteepSlopeIsNotWalkable) {
  Rig rig({ramp(6, 6, 60, {0, 0, 2})});
  const GroundInfo g = probe_ground(rig.ctx(), btVector3(0, 3.0, 0), 3.0);
  ASSERT_TRUE(g.found);
  EXPECT_FALSE(g.walkable);
}

TEST(Controller, StandingOnFlatGroundReportsFeetExactlyOnIt) {
  Rig rig({floor_at(0.7)});
  rig.place(btVector3(0, 1.0, 0));
  for (int i = 0; i < 120; ++i) rig.controller->update(CharacterInput{}, kDt60);
  EXPECT_TRUE(rig.controller->state().grounded);
  EXPECT_NEAR(rig.controller->state().position.y(), 0.7, 1e-9);
  // Resting: no creep, no flicker.
  const btVector3 before = rig.controller->state().position;
  for (int i = 0; i < 60; ++i) {
    rig.controller->update(CharacterInput{}, kDt60);
    ASSERT_TRUE(rig.controller->state().grounded);
  }
  EXPECT_NEAR((rig.controller->state().position - before).length(), 0.0, 1e-12);
}

TEST(Controller, NotGroundedAtTheTopOfAJump) {
  Rig rig({floor_at(0)});
  rig.place(btVector3(0, 0, 0));
  CharacterInput jump;
  jump.jump = true;
  rig.controller->update(CharacterInput{}, kDt60);
  rig.controller->update(jump, kDt60);
  double apex = 0;
  for (int i = 0; i < 40; ++i) {
    rig.controller->update(jump, kDt60);
    apex = std::max(apex, rig.controller->state().position.y());
    if (std::fabs(rig.controller->state().velocity.y()) < 0.2) {
      EXPECT_FALSE(rig.controller->state().grounded);
    }
  }
  EXPECT_GT(apex, 1.0);
  // Holding the button does not jump again after landing.
  for (int i = 0; i < 60; ++i) rig.controller->update(jump, kDt60);
  EXPECT_TRUE(rig.controller->state().grounded);
  EXPECT_NEAR(rig.controller->state().position.y(), 0.0, 1e-9);
}

// ---- Step up ----------------------------------------------------------------

struct StepRig : Rig {
  explicit StepRig(std::vector<BodyDef> extra, ControllerSettings settings = {}) : Rig(with_floor(extra), settings) {}
  static std::vector<BodyDef> with_floor(std::vector<BodyDef> extra) {
    extra.insert(extra.begin(), floor_at(0));
    return extra;
  }
  /// Walks into the riser facing -Z and returns the step attempt at contact.
  StepUpResult attempt(double forward = 0.08) {
    const btVector3 start(0, 0, 0);
    SlideOptions options;
    options.grounded = true;
    const SweepHit hit = ctx().queries->sweep(ctx().sweep_shape, ctx().sweep_transform_at(start),
                                              ctx().sweep_transform_at(start + btVector3(0, 0, -2)).getOrigin());
    EXPECT_TRUE(hit.hit);
    const btVector3 at = start + btVector3(0, 0, -2) * hit.fraction;
    return step_up(ctx(), at, btVector3(0, 0, -forward), hit.normal, hit.point);
  }
};

TEST(StepUp, AcceptsAnOrdinaryStep) {
  StepRig rig({box({0, 0.1, -1.5}, {1, 0.1, 0.5})});  // riser at z = -1, 0.2 high
  const StepUpResult r = rig.attempt(0.3);
  EXPECT_EQ(r.rule, StepRule::Accepted) << step_rule_name(r.rule);
  EXPECT_GT(r.height, 0.05);
  EXPECT_LE(r.height, 0.2 + 1e-6);
}

TEST(StepUp, RefusesAWallWithOneRay) {
  StepRig rig({box({0, 1, -1.5}, {1, 1, 0.5})});  // 2 m high
  const int sweeps_before = rig.ctx().queries->counts().sweeps;
  EXPECT_EQ(rig.attempt().rule, StepRule::RiserTooTall);
  EXPECT_EQ(rig.ctx().queries->counts().sweeps, sweeps_before + 1);  // only attempt()'s own sweep
}

TEST(StepUp, NeverStepsHigherThanMaxStepHeight) {
  // 0.5 m riser: the raised shape's rounded bottom meets the edge; it must not
  // ride up over it.
  StepRig rig({box({0, 0.25, -1.5}, {1, 0.25, 0.5})});
  for (double forward : {0.05, 0.1, 0.3, 0.6}) {
    const StepUpResult r = rig.attempt(forward);
    EXPECT_NE(r.rule, StepRule::Accepted) << "forward " << forward;
  }
}

TEST(StepUp, RefusesAStepTooNarrowToStandOn) {
  StepRig rig({box({0, 0.1, -1.025}, {1, 0.1, 0.025})});  // 5 cm deep, then the floor again
  EXPECT_EQ(rig.attempt(0.3).rule, StepRule::NoRoomToStand);
}

TEST(StepUp, RefusesUnderALowCeiling) {
  // Ceiling 1 mm above the head.
  StepRig rig({box({0, 0.1, -1.5}, {1, 0.1, 0.5}), box({0, 1.801 + 0.5, 0}, {5, 0.5, 5})});
  EXPECT_EQ(rig.attempt().rule, StepRule::BlockedByCeiling);
}

TEST(StepUp, RefusesWhenTheLandingIsTooSteep) {
  // A low block whose top is a 60-degree incline.
  BodyDef wedge;
  wedge.shape.type = ShapeType::ConvexHull;
  wedge.shape.points = {{-1, 0, -1}, {1, 0, -1}, {-1, 0, -1.4}, {1, 0, -1.4},
                        {-1, 0.05, -1}, {1, 0.05, -1}, {-1, 0.05 + 0.4 * std::sqrt(3.0) / 2.0 * 0.0 + 0.3, -1.4},
                        {1, 0.35, -1.4}};
  StepRig rig({wedge});
  const StepUpResult r = rig.attempt(0.3);
  EXPECT_TRUE(r.rule == StepRule::LandingTooSteep || r.rule == StepRule::RiserNotSteep ||
              r.rule == StepRule::NoHeightGained)
      << step_rule_name(r.rule);
  EXPECT_NE(r.rule, StepRule::Accepted);
}

TEST(StepUp, RefusesWhenNoHeightIsGained) {
  StepRig rig({box({0, 0.1, -1.5}, {1, 0.1, 0.5})});
  // Too little forward motion to get over the riser.
  const StepUpResult r = rig.attempt(1e-4);
  EXPECT_EQ(r.rule, StepRule::NoHeightGained) << "height " << r.height << " landing y " << r.position.y() << " z " << r.position.z();
}

TEST(StepUp, RefusesAWalkableSurfaceAsARiser) {
  StepRig rig({});
  const StepUpResult r = step_up(rig.ctx(), btVector3(0, 0, 0), btVector3(0, 0, -0.1),
                                 btVector3(0, 0.9, 0.436).normalized(), btVector3(0, 0, -0.3));
  EXPECT_EQ(r.rule, StepRule::RiserNotSteep);
}

TEST(Controller, AirborneCharacterDoesNotStep) {
  StepRig rig({box({0, 0.1, -1.5}, {1, 0.1, 0.5})});
  rig.place(btVector3(0, 0.6, -0.5));  // falling toward the floor in front of the riser
  rig.controller->state().velocity = btVector3(0, 0, -4);
  CharacterInput in;
  in.use_wish_velocity = true;
  in.wish_z = -4;
  const TickReport r = rig.controller->update(in, kDt60);
  EXPECT_EQ(r.steps.size(), 0u);
}

// ---- Velocity and camera ------------------------------------------------------

TEST(Velocity, WishDirectionTurnsWithYaw) {
  CharacterInput in;
  in.move_forward = 1;
  btVector3 w = wish_direction(in, btVector3(0, 1, 0));
  EXPECT_NEAR(w.z(), -1.0, 1e-12);
  in.yaw_deg = 90;  // positive turns left: forward becomes -X
  w = wish_direction(in, btVector3(0, 1, 0));
  EXPECT_NEAR(w.x(), -1.0, 1e-12);
  EXPECT_NEAR(w.z(), 0.0, 1e-12);
  in = CharacterInput{};
  in.move_right = 1;
  in.move_forward = 1;
  EXPECT_NEAR(wish_direction(in, btVector3(0, 1, 0)).length(), 1.0, 1e-12);  // clamped
}

TEST(Velocity, GroundAccelerationReachesWalkSpeedAndNoFurther) {
  ControllerSettings s;
  btVector3 v(0, 0, 0);
  const btVector3 wish(0, 0, -1);
  v = ground_velocity(v, wish, s, kDt60);
  EXPECT_NEAR(v.z(), -s.ground_acceleration * kDt60, 1e-12);
  for (int i = 0; i < 600; ++i) v = ground_velocity(v, wish, s, kDt60);
  EXPECT_NEAR(v.z(), -s.walk_speed, 1e-12);
}

TEST(Velocity, FrictionDecaysUnwantedVelocityExponentiallyThenStops) {
  ControllerSettings s;
  const btVector3 v = ground_velocity(btVector3(2, 0, 0), btVector3(0, 0, 0), s, kDt60);
  EXPECT_NEAR(v.x(), 2 * std::exp(-s.friction * kDt60), 1e-12);
  EXPECT_EQ(ground_velocity(btVector3(s.stop_speed * 0.5, 0, 0), btVector3(0, 0, 0), s, kDt60).x(), 0.0);
  // Sideways velocity decays while the stick's direction accelerates.
  const btVector3 turned = ground_velocity(btVector3(3, 0, 0), btVector3(0, 0, -1), s, kDt60);
  EXPECT_NEAR(turned.x(), 3 * std::exp(-s.friction * kDt60), 1e-12);
}

TEST(Velocity, AccelerationNeverRaisesSpeedAboveTheTarget) {
  ControllerSettings s;
  // Moving at the target speed, stick at 45 degrees to the motion: turning
  // toward the stick must not add speed.
  const btVector3 v(s.walk_speed, 0, 0);
  const btVector3 wish = btVector3(1, 0, -1).normalized();
  for (const btVector3& out : {ground_velocity(v, wish, s, kDt60), air_velocity(v, wish, s, kDt60)}) {
    EXPECT_LE(out.length(), s.walk_speed + 1e-12);
  }
  // Faster than the target (a platform's push): acceleration keeps it from
  // growing further; on the ground friction brings it down.
  const btVector3 fast(9, 0, 0);
  EXPECT_LE(air_velocity(fast, wish, s, kDt60).length(), 9 + 1e-12);
  EXPECT_LT(ground_velocity(fast, wish, s, kDt60).length(), 9);
}

TEST(Velocity, AirControlHasNoFriction) {
  ControllerSettings s;
  const btVector3 v = air_velocity(btVector3(2, 0, 0), btVector3(0, 0, 0), s, kDt60);
  EXPECT_EQ(v.x(), 2.0);
  const btVector3 a = air_velocity(btVector3(0, 0, 0), btVector3(1, 0, 0), s, kDt60);
  EXPECT_NEAR(a.x(), s.air_acceleration * kDt60, 1e-12);
}

TEST(Camera, AbsorbsAStepThenDecaysIndependentlyOfTickRate) {
  const double k = 12.0;
  double at60 = update_camera(0.0, 0.2, k, kDt60);
  EXPECT_DOUBLE_EQ(at60, -0.2);
  for (int i = 0; i < 30; ++i) at60 = update_camera(at60, 0.0, k, 1.0 / 60);
  double at240 = update_camera(0.0, 0.2, k, 1.0 / 240);
  for (int i = 0; i < 120; ++i) at240 = update_camera(at240, 0.0, k, 1.0 / 240);
  EXPECT_NEAR(at60, -0.2 * std::exp(-k * 0.5), 1e-12);
  EXPECT_NEAR(at240, at60, 1e-12);
}

}  // namespace
}  // namespace stepslide

namespace stepslide {
namespace {

TEST(CarryWithGround, FollowsTheArcOfATurningBody) {
  // A point 2 m from the axis of a body turning 90 degrees stays 2 m from it.
  const btTransform before = btTransform::getIdentity();
  const btTransform after(btQuaternion(btVector3(0, 1, 0), M_PI / 2), btVector3(0, 0, 0));
  const btVector3 carried = carry_with_ground(btVector3(2, 0.5, 0), before, after);
  EXPECT_NEAR(carried.x(), 0.0, 1e-12);
  EXPECT_NEAR(carried.z(), -2.0, 1e-12);
  EXPECT_NEAR(carried.y(), 0.5, 1e-12);
  EXPECT_NEAR(btVector3(carried.x(), 0, carried.z()).length(), 2.0, 1e-12);
}

TEST(CarryWithGround, TranslatesExactlyWithALinearBody) {
  const btTransform before(btQuaternion::getIdentity(), btVector3(1, 2, 3));
  const btTransform after(btQuaternion::getIdentity(), btVector3(1.5, 2.25, 3));
  const btVector3 carried = carry_with_ground(btVector3(0, 2.5, 0), before, after);
  EXPECT_NEAR(carried.x(), 0.5, 1e-15);
  EXPECT_NEAR(carried.y(), 2.75, 1e-15);
}

}  // namespace
}  // namespace stepslide

namespace stepslide {
namespace {

TEST(YawAbout, MeasuresTurnsAboutUpCounterClockwise) {
  EXPECT_NEAR(yaw_about(btQuaternion(btVector3(0, 1, 0), M_PI / 6), btVector3(0, 1, 0)), 30.0, 1e-9);
  EXPECT_NEAR(yaw_about(btQuaternion(btVector3(0, 1, 0), -M_PI / 2), btVector3(0, 1, 0)), -90.0, 1e-9);
  EXPECT_NEAR(yaw_about(btQuaternion(btVector3(1, 0, 0), 0.3), btVector3(0, 1, 0)), 0.0, 1e-9);  // a tilt, not a turn
}

/// A character on a kinematic platform, stepped with the world moving first.
struct PlatformRig {
  Scenario scenario;
  std::unique_ptr<World> world;
  std::unique_ptr<CharacterController> controller;
  std::int64_t tick = 0;

  PlatformRig(MotionDef motion, ControllerSettings settings) {
    scenario.tick_rate = 60;
    scenario.ticks = 1000;
    BodyDef platform = box({0, 0.1, 0}, {3, 0.1, 3});
    platform.motion = motion;
    scenario.world = {floor_at(0), platform};
    world = std::make_unique<World>(scenario);
    controller = std::make_unique<CharacterController>(world->collision_world(), CharacterShapeDesc{}, settings,
                                                       btVector3(0, 1, 0), btVector3(0, -9.81, 0));
    controller->reset(btVector3(1, 0.2, 0), btVector3(0, 0, 0));
  }
  void step(const CharacterInput& input) {
    world->set_time(++tick);
    controller->update(input, kDt60);
  }
};

MotionDef sliding_along_x(double speed) {
  MotionDef m;
  m.type = MotionType::Linear;
  m.velocity = {speed, 0, 0};
  return m;
}

TEST(RideGround, JumpingOffAMovingBodyKeepsItsVelocity) {
  ControllerSettings s;
  PlatformRig rig(sliding_along_x(3), s);
  for (int i = 0; i < 10; ++i) rig.step(CharacterInput{});
  ASSERT_TRUE(rig.controller->state().grounded);
  EXPECT_NEAR(rig.controller->state().carried_velocity.x(), 3.0, 1e-9);
  CharacterInput jump;
  jump.jump = true;
  rig.step(jump);
  EXPECT_FALSE(rig.controller->state().grounded);
  EXPECT_NEAR(rig.controller->state().velocity.x(), 3.0, 1e-9);
}

TEST(RideGround, WithoutInheritanceTheCharacterLeavesWithItsOwnVelocity) {
  ControllerSettings s;
  s.inherit_ground_velocity = 0;
  PlatformRig rig(sliding_along_x(3), s);
  for (int i = 0; i < 10; ++i) rig.step(CharacterInput{});
  CharacterInput jump;
  jump.jump = true;
  rig.step(jump);
  EXPECT_FALSE(rig.controller->state().grounded);
  EXPECT_NEAR(rig.controller->state().velocity.x(), 0.0, 1e-9);
}

TEST(RideGround, TurnWithGroundAccumulatesThePlatformsYaw) {
  MotionDef spin;
  spin.type = MotionType::Spin;
  spin.axis = {0, 1, 0};
  spin.deg_per_s = 90;
  ControllerSettings s;
  s.turn_with_ground = 1;
  PlatformRig rig(spin, s);
  for (int i = 0; i < 60; ++i) rig.step(CharacterInput{});
  EXPECT_NEAR(rig.controller->state().ground_yaw_deg, 90.0, 1e-6);
  // Off by default: the stick stays in the camera's frame.
  PlatformRig fixed(spin, ControllerSettings{});
  for (int i = 0; i < 60; ++i) fixed.step(CharacterInput{});
  EXPECT_EQ(fixed.controller->state().ground_yaw_deg, 0.0);
}

}  // namespace
}  // namespace stepslide

namespace stepslide {
namespace {

TEST(StepUp, RefusesWhenThereIsNothingToLandOn) {
  // Raised and moved forward over empty space: the down sweep finds nothing.
  Rig rig({box({0, -0.5, 20}, {1, 0.5, 1})});  // something far away, nothing below
  const StepUpResult r =
      step_up(rig.ctx(), btVector3(0, 0, 0), btVector3(0, 0, -0.1), btVector3(0, 0, 1), btVector3(0, 0.1, -0.31));
  EXPECT_EQ(r.rule, StepRule::NoLanding) << step_rule_name(r.rule);
}

TEST(StepDown, SnapsDownAStepInOneTickAndReportsIt) {
  // Standing on a 0.2 m step near its edge, walking off it toward +Z.
  Rig rig({floor_at(0), box({0, 0.1, -2}, {2, 0.1, 1})});  // step top z in [-3, -1]
  rig.place(btVector3(0, 0.2, -1.05));
  rig.controller->state().velocity = btVector3(0, 0, 5);
  CharacterInput in;
  in.move_forward = -1;  // forward is -Z: walk backwards off the edge toward +Z
  double reported = 0;
  for (int i = 0; i < 20; ++i) {
    const TickReport r = rig.controller->update(in, kDt60);
    ASSERT_TRUE(rig.controller->state().grounded) << "tick " << i;
    reported += r.step_dy;
  }
  EXPECT_NEAR(rig.controller->state().position.y(), 0.0, 1e-9);
  EXPECT_NEAR(reported, -0.2, 1e-9);  // the whole descent reaches the camera
}

TEST(SteppedHeight, IsWhatTheGroundPlaneDoesNotExplain) {
  const btVector3 up(0, 1, 0);
  const btVector3 flat(0, 1, 0);
  EXPECT_EQ(stepped_height(btVector3(0, 0, 0), flat, btVector3(0, 1e-17, -0.1), up), 0.0);
  EXPECT_NEAR(stepped_height(btVector3(0, 0, 0), flat, btVector3(0, 0.18, -0.08), up), 0.18, 1e-15);
  // Walking up a uniform 30-degree slope is not stepping.
  const btVector3 slope = btVector3(0, std::cos(M_PI / 6), std::sin(M_PI / 6));
  EXPECT_NEAR(stepped_height(btVector3(0, 0, 0), slope, btVector3(0, 0.1 * std::tan(M_PI / 6), -0.1), up), 0.0,
              1e-15);
}

TEST(Camera, AbsorbsTheWholeRiseOfAStaircaseAndTheEyeRisesSmoothly) {
  Rig rig({floor_at(0), stairs(6, 0.2, 0.3, 2, {0, 0, -1}), box({0, 0.6, -1 - 1.8 - 3}, {1, 0.6, 3})});
  rig.place(btVector3(0, 0, 0));
  CharacterInput in;
  in.move_forward = 1;
  // Climbing 0.2 m rises over 0.3 m runs at 5 m/s averages 0.056 m of height
  // per tick; the feet move in jumps well above that, the eye (feet plus
  // camera offset) close to the average.
  const double average_rise = 0.2 / 0.3 * 5.0 / 60.0;
  double stepped = 0, biggest_feet_move = 0, biggest_eye_move = 0;
  double feet = 0, eye = 0;
  for (int i = 0; i < 90; ++i) {
    stepped += rig.controller->update(in, kDt60).step_dy;
    const CharacterState& s = rig.controller->state();
    ASSERT_TRUE(s.grounded) << "tick " << i;
    biggest_feet_move = std::max(biggest_feet_move, std::fabs(s.position.y() - feet));
    biggest_eye_move = std::max(biggest_eye_move, std::fabs(s.position.y() + s.camera_dy - eye));
    feet = s.position.y();
    eye = feet + s.camera_dy;
  }
  EXPECT_NEAR(rig.controller->state().position.y(), 1.2, 1e-9);
  EXPECT_NEAR(stepped, 1.2, 1e-9);
  EXPECT_GT(biggest_feet_move, 1.8 * average_rise);
  EXPECT_LT(biggest_eye_move, 1.1 * average_rise);
}

TEST(Slide, SlidingAlongAWallGainsNoSpeed) {
  Rig rig({floor_at(0), box({0, 1, -2}, {30, 1, 0.5})});  // wall face at z = -1.5
  rig.place(btVector3(0, 0, -1.5 + 0.31));
  CharacterInput in;
  in.move_right = 0.7071;
  in.move_forward = 0.7071;  // diagonally into the wall
  double last_x = 0;
  for (int i = 0; i < 120; ++i) {
    rig.controller->update(in, kDt60);
    const CharacterState& s = rig.controller->state();
    const double speed = btVector3(s.velocity.x(), 0, s.velocity.z()).length();
    ASSERT_LE(speed, ControllerSettings{}.walk_speed + 1e-9) << "tick " << i;
    ASSERT_NEAR(s.position.y(), 0.0, 1e-9) << "no step onto a wall";
    ASSERT_LE(s.position.x() - last_x, ControllerSettings{}.walk_speed * kDt60 + 1e-9);
    last_x = s.position.x();
  }
  EXPECT_GT(last_x, 2.0);  // it does slide along
}

}  // namespace
}  // namespace stepslide
