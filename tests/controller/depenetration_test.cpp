// Depenetration: the exact solve and pushing out of overlaps.
#include <gtest/gtest.h>

#include <cmath>

#include "controller/internal.h"
#include "controller/rig.h"

namespace stepslide::test {
namespace {

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

/// A capsule (r 0.3) beside a box's top edge (the box's top at y = 1, its
/// side at x = 0.5), its round bottom 1 mm into the edge along a normal
/// tilted 30 degrees from up: walkable-looking, but an edge's, not a face's.
btVector3 feet_on_edge() {
  const btVector3 normal(0.5, std::sqrt(0.75), 0.0);
  const btVector3 edge(0.5, 1.0, 0.0);
  const btVector3 centre = edge + normal * (0.3 - 0.001);
  return centre - btVector3(0, 0.3, 0);
}

TEST(Depenetrate, RisingPastAnEdgeThePushOutDoesNotLiftTheFeet) {
  // Rising beside a ramp's side edge as fast as the edge rises under the
  // round bottom, each tick's push out along the edge's rounded normal
  // restored the skin gap up the normal and lifted the feet 0.8 to 1.2 cm:
  // the flight climbed above its ballistic apex.
  Rig rig({box({0, 0.5, 0}, {0.5, 0.5, 0.5})});
  const btVector3 start = feet_on_edge();
  const DepenetrationResult r = depenetrate(rig.ctx(), start, true, true);
  EXPECT_TRUE(r.converged);
  EXPECT_GE(r.iterations, 1);
  EXPECT_NEAR(r.position.y(), start.y(), 1e-9) << "pushed across up, not up the edge";
  EXPECT_GT(r.position.x(), start.x());
  rig.controller->state().position = r.position;
  EXPECT_LE(rig.controller->penetration_depth(), 1e-6);
}

TEST(Depenetrate, FallingOntoAnEdgeThePushOutIsALanding) {
  // Falling, the same contact is a landing: pushed out along its normal.
  Rig rig({box({0, 0.5, 0}, {0.5, 0.5, 0.5})});
  const btVector3 start = feet_on_edge();
  const DepenetrationResult r = depenetrate(rig.ctx(), start, true, false);
  EXPECT_TRUE(r.converged);
  EXPECT_GT(r.position.y(), start.y() + 0.005);
}

TEST(Depenetrate, RisingOutOfAWalkableFaceThePushOutKeepsItsNormal) {
  // A face, not an edge: a weak jump up a ramp that rises faster is caught
  // by it (the push out along its normal, then the landing).
  Rig rig({floor_at(0)});
  const btVector3 start(0, -0.001, 0);
  const DepenetrationResult r = depenetrate(rig.ctx(), start, true, true);
  EXPECT_TRUE(r.converged);
  EXPECT_GT(r.position.y(), 0.0);
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

TEST(Depenetrate, WedgedWithinTheSkinOfEverythingItStaysWhereItStarted) {
  // Two walls 2 and 4 mm into a capsule of radius 0.3: no correction clears
  // both by the skin, so no pass converges. Resting within the skin of both
  // is allowed; moving toward a balance point would only push it into
  // whatever is there (another character, in the fuzzer's worlds).
  Rig rig({box({-0.296 - 0.5, 1, 0}, {0.5, 1, 2}), box({0.298 + 0.5, 1, 0}, {0.5, 1, 2})});
  const btVector3 start(0, 0.5, 0);
  const DepenetrationResult r = depenetrate(rig.ctx(), start, false);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.position.x(), start.x());
  EXPECT_EQ(r.position.y(), start.y());
  EXPECT_EQ(r.position.z(), start.z());
}

TEST(PenetrationAt, KeepsTheLevelAndMovingBodiesApart) {
  // A capsule 2 cm into the floor and 3 cm into a moving box beside it.
  BodyDef moving = box({0.3 + 0.5 - 0.03, 1, 0}, {0.5, 1, 0.5});
  moving.motion = sliding_along_x(0.0);
  Rig rig({floor_at(0), moving});
  const Penetration p = penetration_at(rig.ctx(), btVector3(0, -0.02, 0));
  EXPECT_NEAR(p.level, 0.02, 1e-6);
  EXPECT_NEAR(p.moving, 0.03, 1e-6);
}

TEST(DepenetrateMoveEnd, ClearsAMovingBodyAlongItsNormalWithoutTheLevel) {
  // The end of a move 3 cm into a moving box's side, feet on the floor: the
  // move is pushed out sideways (the box did not push), the floor kept.
  BodyDef moving = box({0.3 + 0.5 - 0.03, 1, 0}, {0.5, 1, 0.5});
  moving.motion = sliding_along_x(0.0);
  Rig rig({floor_at(0), moving});
  const DepenetrationResult r = depenetrate_move_end(rig.ctx(), btVector3(0, 0, 0));
  EXPECT_TRUE(r.converged);
  EXPECT_NEAR(r.position.x(), -0.03 - rig.ctx().settings->skin_width, 1e-6);
  EXPECT_NEAR(r.position.y(), 0.0, 1e-9);
  const Penetration after = penetration_at(rig.ctx(), r.position);
  EXPECT_LE(after.level, 1e-6);
  EXPECT_LE(after.moving, 1e-6);
}

TEST(DepenetrateMoveEnd, RefusesToLiftTheFeetMoreThanAStepOutOfAMovingBody) {
  // Sunk 0.5 m into a moving slab from above: clearing it would lift the feet
  // more than max_step_height; it is not cleared (the move is undone).
  BodyDef slab = box({0, 0.25, 0}, {2, 0.25, 2});
  slab.motion = sliding_along_x(0.0);
  Rig rig({floor_at(0), slab});
  const DepenetrationResult r = depenetrate_move_end(rig.ctx(), btVector3(0, 0.0, 0));
  EXPECT_FALSE(r.converged);
}

TEST(Depenetrate, ItsThreePassesAskForTheirCommonStartOnce) {
  // Pinned under a moving slab sunk 0.5 m into it: every pass (pushed by the
  // slab, squeezed out, the level alone) starts with the overlaps at the same
  // position. One query answers all three: none is asked again, not even of
  // the contact memo (whose 16 entries a pass of 8 iterations would flush).
  BodyDef slab = box({0, 0.25, 0}, {2, 0.25, 2});
  slab.motion = sliding_along_x(0.0);
  Rig rig({floor_at(0), slab});
  rig.ctx().queries->begin_tick();
  const DepenetrationResult r = depenetrate(rig.ctx(), btVector3(0, 0, 0));
  EXPECT_EQ(rig.ctx().queries->counts().repeated_contacts, 0);
  rig.ctx().queries->end_tick();
  EXPECT_FALSE(r.converged);  // left pinned: the level pass clears nothing
  EXPECT_EQ(r.iterations, 0);
  EXPECT_EQ(r.position, btVector3(0, 0, 0));
}

TEST(Depenetrate, InTheAirAMovingBodyHoldingStillLiftsTheFeetNoHigherThanASkin) {
  // Rising through a moving slab that holds still (a keyframed box that came
  // down on the character and stopped): its top 0.2 m above the feet, within
  // a step. Grounded, that is a step onto it; in the air there is no step,
  // and the slab rose nothing this tick: the character is left inside it,
  // stuck, not popped up 0.2 m onto it.
  BodyDef slab = box({0, 0.25, 0}, {2, 0.25, 2});
  slab.motion = sliding_along_x(0.0);
  Rig rig({slab});
  const double skin = rig.ctx().settings->skin_width;
  const btVector3 start(0, 0.3, 0);
  const DepenetrationResult grounded = depenetrate(rig.ctx(), start, false);
  EXPECT_TRUE(grounded.converged);
  EXPECT_NEAR(grounded.position.y(), 0.5 + skin, 1e-9);
  const DepenetrationResult airborne = depenetrate(rig.ctx(), start, true);
  EXPECT_FALSE(airborne.converged);
  EXPECT_EQ(airborne.position, start);
  // A shallow overlap (within a skin) is still cleared along the normal.
  const btVector3 shallow(0, 0.5 - 0.5 * skin, 0);
  const DepenetrationResult landed = depenetrate(rig.ctx(), shallow, true);
  EXPECT_TRUE(landed.converged);
  EXPECT_NEAR(landed.position.y(), 0.5 + skin, 1e-9);
}

TEST(Depenetrate, InTheAirAMovingBodyLiftsTheFeetByAsMuchAsItRose) {
  // A slab rising 0.3 m a tick under an airborne character, its top now
  // 0.2 m above the feet: it pushes them up along its motion, by the overlap
  // plus the skin, no more than it rose (plus the skin).
  BodyDef slab = box({0, 0.25 - 0.3, 0}, {2, 0.25, 2});
  MotionDef rising;
  rising.type = MotionType::Linear;
  rising.velocity = {0, 0.3 * 60, 0};
  slab.motion = rising;
  Rig rig({slab});
  rig.world->set_time(1);
  const double skin = rig.ctx().settings->skin_width;
  const DepenetrationResult r = depenetrate(rig.ctx(), btVector3(0, 0.3, 0), true);
  EXPECT_TRUE(r.converged);
  EXPECT_NEAR(r.position.y(), 0.5 + skin, 1e-9);
}

TEST(DepenetrateMoveEnd, InTheAirAMovingBodyHoldingStillLiftsTheFeetNoHigherThanASkin) {
  // The end of an airborne move 0.2 m into a moving slab holding still:
  // within a step, but in the air nothing may lift the feet that far.
  BodyDef slab = box({0, 0.25, 0}, {2, 0.25, 2});
  slab.motion = sliding_along_x(0.0);
  Rig rig({slab});
  EXPECT_TRUE(depenetrate_move_end(rig.ctx(), btVector3(0, 0.3, 0), false).converged);
  EXPECT_FALSE(depenetrate_move_end(rig.ctx(), btVector3(0, 0.3, 0), true).converged);
}

}  // namespace
}  // namespace stepslide::test
