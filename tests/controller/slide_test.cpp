// Collide-and-slide: the skin, creases and walls.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>

#include "controller/rig.h"

namespace stepslide::test {
namespace {

SlidePlanes planes_of(std::initializer_list<btVector3> normals) {
  SlidePlanes planes;
  for (const btVector3& n : normals) planes.add(n);
  return planes;
}

TEST(ConstrainToPlanes, ProjectsOntoTheHitPlane) {
  const btVector3 n = btVector3(1, 0, 1).normalized();
  const PlaneSolution out = constrain_to_planes(btVector3(0, 0, -1), planes_of({n}));
  EXPECT_NEAR(out.direction.dot(n), 0.0, 1e-12);
  EXPECT_NEAR(out.direction.x(), 0.5, 1e-12);
  EXPECT_NEAR(out.direction.z(), -0.5, 1e-12);
  EXPECT_EQ(out.active, 1);
  EXPECT_FALSE(out.blocked);
}

TEST(ConstrainToPlanes, FollowsTheCreaseOfAnAcuteCorner) {
  // Two walls leaning into each other like a roof over a corridor: moving up
  // into one and sliding along it would push into the other; the crease is
  // the corridor's direction (Z).
  const btVector3 a = btVector3(1, -1, 0).normalized();
  const btVector3 b = btVector3(-1, -1, 0).normalized();
  const PlaneSolution out = constrain_to_planes(btVector3(0.3, 1, -1), planes_of({a, b}));
  EXPECT_NEAR(out.direction.x(), 0.0, 1e-12);
  EXPECT_NEAR(out.direction.y(), 0.0, 1e-12);
  EXPECT_NEAR(out.direction.z(), -1.0, 1e-12);
  EXPECT_EQ(out.active, 2);
}

TEST(ConstrainToPlanes, KeepsThePlaneProjectionWhenTheCornerIsOpen) {
  // Floor then wall (a right angle): sliding along the wall does not push into
  // the floor, so no crease is needed.
  const btVector3 floor(0, 1, 0), wall(0, 0, 1);
  const PlaneSolution out = constrain_to_planes(btVector3(1, 0, -1), planes_of({floor, wall}));
  EXPECT_NEAR(out.direction.x(), 1.0, 1e-12);
  EXPECT_NEAR(out.direction.z(), 0.0, 1e-12);
  EXPECT_EQ(out.active, 1);
}

TEST(ConstrainToPlanes, AnObtuseCornerPushedIntoBlocksTheMotion) {
  // A 126 degree corner pushed into along its bisector. Clipped
  // against the second wall alone, the motion runs back out along it (away
  // from the first wall); solved together, nothing is left.
  const btVector3 a(0, 0, 1);
  const btVector3 b(-0.809017, 0, 0.587785);
  const btVector3 push = -(a + b).normalized();
  const btVector3 along_b = push - b * push.dot(b);
  EXPECT_LT(along_b.dot(push), 1.0);  // (what the latest plane alone gives: it moves)
  EXPECT_GT(along_b.length(), 0.1);
  const PlaneSolution out = constrain_to_planes(push, planes_of({a, b}));
  EXPECT_TRUE(out.blocked);
  EXPECT_EQ(out.direction, btVector3(0, 0, 0));
}

TEST(ConstrainToPlanes, ALaterPlaneCannotUndoAnEarlierOne) {
  // corner_on_ledge_edge (oa_dm3): a ledge's tilted edge under the feet, the
  // wall behind, a diagonal wall ahead. Clipping one plane after the other
  // sent the character off the edge; together the three block a push into
  // the corner, and every plane is kept whatever the order.
  const btVector3 edge(0.588375, 0.808588, 0), wall(1, 0, 0), diagonal(0.587642, 0, -0.809121);
  const btVector3 push(-0.0106, 0, 0.0047);
  for (const SlidePlanes& planes : {planes_of({edge, wall, diagonal}), planes_of({diagonal, edge, wall})}) {
    const PlaneSolution out = constrain_to_planes(push, planes);
    EXPECT_TRUE(out.blocked);
  }
  // Away from the corner it slides: along the wall, up the edge.
  const PlaneSolution free = constrain_to_planes(btVector3(-0.01, 0, -0.01), planes_of({edge, wall, diagonal}));
  EXPECT_FALSE(free.blocked);
  for (const btVector3& n : {edge, wall, diagonal}) EXPECT_GE(free.direction.dot(n), -1e-12);
}

TEST(ConstrainToPlanes, RightAngleDoesNotFlipOnTheLastBit) {
  // A wall at right angles to the floor, its normal off by one part in 1e16
  // either way (as Bullet's normals differ between CPUs): the same answer
  // both ways, to the last few bits.
  const btVector3 floor(0, 1, 0);
  const btVector3 motion(-1, 0, -1);
  for (double noise : {1e-16, -1e-16}) {
    const btVector3 wall = btVector3(1, noise, 0).normalized();
    const PlaneSolution out = constrain_to_planes(motion, planes_of({floor, wall}));
    EXPECT_EQ(out.active, 1) << noise;
    EXPECT_NEAR(out.direction.z(), -1.0, 1e-15) << noise;
  }
}

TEST(ConstrainToPlanes, IsTheClosestAllowedMotionForRandomPlanes) {
  // Against brute force: no allowed direction on a fine grid of the sphere
  // (scaled to every length) is closer to the wanted motion.
  std::uint32_t seed = 12345;
  const auto next = [&seed]() {
    seed = seed * 1664525u + 1013904223u;
    return (seed >> 8) / double(1 << 24) * 2.0 - 1.0;
  };
  for (int trial = 0; trial < 200; ++trial) {
    SlidePlanes planes;
    const int count = 1 + trial % 4;
    for (int i = 0; i < count; ++i) {
      const double nz = next();
      const double ny = next();
      planes.add(btVector3(next(), ny, nz).normalized());
    }
    const double wz = next();
    const double wy = next();
    const btVector3 wanted(next(), wy, wz);
    const PlaneSolution out = constrain_to_planes(wanted, planes);
    for (int i = 0; i < planes.count; ++i) EXPECT_GE(out.direction.dot(planes.normals[i]), -1e-9);
    const double best = (wanted - out.direction).length();
    for (int u = 0; u < 24; ++u) {
      for (int v = 0; v <= 12; ++v) {
        const double theta = u * 2 * 3.14159265358979 / 24, phi = v * 3.14159265358979 / 12;
        const btVector3 dir(std::sin(phi) * std::cos(theta), std::cos(phi), std::sin(phi) * std::sin(theta));
        const btVector3 candidate = dir * std::max(0.0, wanted.dot(dir));
        bool allowed = true;
        for (int i = 0; i < planes.count; ++i) allowed = allowed && candidate.dot(planes.normals[i]) >= 0;
        if (allowed) {
          EXPECT_GE((wanted - candidate).length(), best - 1e-9) << trial;
        }
      }
    }
  }
}

TEST(SlidePlanes, NearlyParallelNormalsAreOnePlane) {
  // A dense mesh's flat wall answers with its face normal and with normals
  // blended with its triangles' edges (2 degrees off): one plane, the newest
  // normal kept, so a slide along the wall is never stopped by a crease of
  // the wall with itself.
  SlidePlanes planes;
  EXPECT_TRUE(planes.add(btVector3(0, 0, 1)));
  const btVector3 blended = btVector3(-0.0322, 0, 0.9995).normalized();
  EXPECT_FALSE(planes.add(blended));
  EXPECT_EQ(planes.count, 1);
  EXPECT_EQ(planes.normals[0], blended);
  EXPECT_TRUE(planes.contains(btVector3(0, 0, 1)));
  const PlaneSolution along = constrain_to_planes(btVector3(-1, 0, -0.2), planes);
  EXPECT_FALSE(along.blocked);
  EXPECT_LT(along.direction.x(), -0.99);
  EXPECT_TRUE(planes.add(btVector3(1, 0, 0)));  // a wall at right angles is another plane
  EXPECT_EQ(planes.count, 2);
}

TEST(ClipWalkingVelocity, NeverCreasesWithAFloorEdgeIntoUpwardVelocity) {
  // A sill's edge hit by the capsule's round bottom (normal tilted
  // 37 degrees, walkable) then a jamb beside it. The crease of the two planes
  // climbs; a walk must keep its horizontal speed along the jamb and gain no
  // upward velocity (it would leave the ground and fly for 26 ticks). The
  // walkable edge is not among a walk's velocity planes.
  const btVector3 up(0, 1, 0);
  const btVector3 jamb(-1, 0, 0);
  const btVector3 velocity(1.36479, 0, 4.81013);
  const btVector3 out = clip_walking_velocity(velocity, planes_of({jamb}), up);
  EXPECT_EQ(out.x(), 0.0);
  EXPECT_EQ(out.y(), 0.0);
  EXPECT_DOUBLE_EQ(out.z(), 4.81013);
  // With the edge among the planes, the crease climbs.
  const btVector3 edge = btVector3(0, 0.796394, -0.604778).normalized();
  EXPECT_GT(constrain_to_planes(velocity, planes_of({edge, jamb})).direction.y(), 2.0);
}

TEST(LimitRise, AnEdgeMetInTheAirSlidesTheVelocityAlongAndDownItNotUp) {
  // Falling at 0.98 m/s while running at 5 m/s, the capsule's round bottom
  // meets the far edge of a hole (normal tilted 59 degrees from up). The
  // plane alone turns the run into 1.51 m/s upward; limited, the run is
  // stopped by the edge (nothing of it lies along the edge's line) and the
  // fall slides down the edge, back into the hole.
  const btVector3 up(0, 1, 0);
  const btVector3 edge = btVector3(-0.854, 0.521, 0).normalized();
  const btVector3 velocity(5, -0.98, 0);
  const SlidePlanes planes = planes_of({edge});
  const PlaneSolution clipped = constrain_to_planes(velocity, planes);
  EXPECT_GT(clipped.direction.y(), 1.5);
  const PlaneSolution out = limit_rise(velocity, clipped, planes, up);
  const btVector3 fall(0, -0.98, 0);
  const btVector3 down_the_edge = fall - edge * fall.dot(edge);
  EXPECT_NEAR((out.direction - down_the_edge).length(), 0.0, 1e-12);
  EXPECT_LT(out.direction.y(), 0.0);
  EXPECT_LT(out.direction.x(), 0.0);
  EXPECT_GE(out.direction.dot(edge), -1e-12);
  // Met at an angle, the part along the edge's line is kept too.
  const btVector3 slanted(5, -0.98, 2);
  const PlaneSolution along = limit_rise(slanted, constrain_to_planes(slanted, planes), planes, up);
  EXPECT_NEAR((along.direction - (down_the_edge + btVector3(0, 0, 2))).length(), 0.0, 1e-12);
  EXPECT_FALSE(along.blocked);
}

TEST(LimitRise, PushingIntoTwoEdgesNeitherLiftsNorHoldsUp) {
  // Walking diagonally into the corner of a square hole's rim, the capsule
  // meets both edges with normals 3.4 degrees above horizontal: their crease
  // climbs, so the planes alone send the push up it. Limited, the push is
  // stopped and the fall goes on down the crease.
  const btVector3 up(0, 1, 0);
  const btVector3 a = btVector3(-0.998, 0.06, 0).normalized();
  const btVector3 b = btVector3(0, 0.06, -0.998).normalized();
  const SlidePlanes planes = planes_of({a, b});
  const btVector3 velocity(3, -0.16, 4);
  const PlaneSolution clipped = constrain_to_planes(velocity, planes);
  EXPECT_GT(clipped.direction.y(), 0.0);
  const PlaneSolution out = limit_rise(velocity, clipped, planes, up);
  EXPECT_LT(out.direction.y(), -0.15);
  EXPECT_GE(out.direction.dot(a), -1e-12);
  EXPECT_GE(out.direction.dot(b), -1e-12);
  EXPECT_FALSE(out.blocked);
}

TEST(LimitRise, ARisingVelocityKeepsAtMostItsOwnRise) {
  // A jump grazing a riser's top edge (normal 19 degrees above horizontal):
  // the plane turns 4.35 m/s upward into 5.4; limited, it rises at 4.35 and
  // still pushes into nothing.
  const btVector3 up(0, 1, 0);
  const btVector3 edge = btVector3(0, 0.33, 0.94).normalized();
  const btVector3 velocity(0, 4.35, -5);
  const SlidePlanes planes = planes_of({edge});
  const PlaneSolution clipped = constrain_to_planes(velocity, planes);
  EXPECT_GT(clipped.direction.y(), 5.3);
  const PlaneSolution out = limit_rise(velocity, clipped, planes, up);
  EXPECT_NEAR(out.direction.y(), 4.35, 1e-12);
  EXPECT_GE(out.direction.dot(edge), -1e-12);
  EXPECT_LT(out.direction.z(), 0.0);
}

TEST(LimitRise, LeavesWhatRisesNoFasterAlone) {
  const btVector3 up(0, 1, 0);
  // A wall: the clip is horizontal, nothing to limit.
  const SlidePlanes wall = planes_of({btVector3(0, 0, 1)});
  const btVector3 velocity(1, -2, -3);
  const PlaneSolution clipped = constrain_to_planes(velocity, wall);
  const PlaneSolution out = limit_rise(velocity, clipped, wall, up);
  EXPECT_EQ(out.direction, clipped.direction);
  // A ceiling's underside turns the rise down: kept.
  const SlidePlanes ceiling = planes_of({btVector3(0, -1, 1).normalized()});
  const btVector3 rising(0, 3, -1);
  const PlaneSolution under = constrain_to_planes(rising, ceiling);
  EXPECT_EQ(limit_rise(rising, under, ceiling, up).direction, under.direction);
}

TEST(ClipWalkingVelocity, StopsInACornerOfTwoWalls) {
  const btVector3 up(0, 1, 0);
  const btVector3 a(1, 0, 0), b = btVector3(-1, 0, 1).normalized();  // an acute corner
  EXPECT_NEAR(clip_walking_velocity(btVector3(-3, 0, -4), planes_of({a, b}), up).length(), 0.0, 1e-12);
  const btVector3 c = btVector3(0.8, 0, -0.6);  // an obtuse one
  EXPECT_NEAR(clip_walking_velocity(-(a + c).normalized() * 5, planes_of({a, c}), up).length(), 0.0, 1e-12);
}

TEST(ClipWalkingVelocity, DropsOnlyTheUpwardPart) {
  // Walking into a surface facing down (a sloping underside, slid along as
  // it is) deflects the velocity downward: kept, the ground snap takes it.
  const btVector3 up(0, 1, 0);
  const btVector3 underside = btVector3(0, -0.5, 0.866).normalized();
  const btVector3 out = clip_walking_velocity(btVector3(0, 0, -2), planes_of({underside}), up);
  EXPECT_LT(out.y(), 0.0);
  EXPECT_NEAR(out.dot(underside), 0.0, 1e-12);
  // Moving away from the plane: untouched.
  const btVector3 away(0, 0, 3);
  EXPECT_EQ(clip_walking_velocity(away, planes_of({underside}), up), away);
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
}  // namespace stepslide::test
