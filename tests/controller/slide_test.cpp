// Collide-and-slide: the skin, creases and walls.
#include <gtest/gtest.h>

#include <cmath>

#include "controller/rig.h"

namespace stepslide::test {
namespace {

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

TEST(ClipWalkingVelocity, NeverCreasesWithAFloorEdgeIntoUpwardVelocity) {
  // Issue #15: a sill's edge hit by the capsule's round bottom (normal tilted
  // 37 degrees, walkable) then a jamb beside it. The crease of the two planes
  // climbs; a walk must keep its horizontal speed along the jamb and gain no
  // upward velocity (it would leave the ground and fly for 26 ticks).
  const btVector3 up(0, 1, 0);
  const btVector3 jamb(-1, 0, 0);
  const btVector3 velocity(1.36479, 0, 4.81013);
  const btVector3 out = clip_walking_velocity(velocity, jamb, btVector3(0, 0, 0), up);
  EXPECT_EQ(out.x(), 0.0);
  EXPECT_EQ(out.y(), 0.0);
  EXPECT_DOUBLE_EQ(out.z(), 4.81013);
  // What the air slide's clip would give with the edge as the previous plane:
  // the climbing crease, which is what used to be reported.
  const btVector3 edge(0, 0.796394, -0.604778);
  EXPECT_GT(slide_direction(velocity, jamb, edge.normalized()).y(), 2.0);
}

TEST(ClipWalkingVelocity, StopsInACornerOfTwoWalls) {
  const btVector3 up(0, 1, 0);
  const btVector3 a(1, 0, 0), b = btVector3(-1, 0, 1).normalized();  // an acute corner
  const btVector3 first = clip_walking_velocity(btVector3(-3, 0, -4), a, btVector3(0, 0, 0), up);
  const btVector3 out = clip_walking_velocity(first, b, a, up);
  EXPECT_NEAR(out.length(), 0.0, 1e-12);
}

TEST(ClipWalkingVelocity, DropsOnlyTheUpwardPart) {
  // Walking into a surface facing down (a sloping underside, slid along as
  // it is) deflects the velocity downward: kept, the ground snap takes it.
  const btVector3 up(0, 1, 0);
  const btVector3 underside = btVector3(0, -0.5, 0.866).normalized();
  const btVector3 out = clip_walking_velocity(btVector3(0, 0, -2), underside, btVector3(0, 0, 0), up);
  EXPECT_LT(out.y(), 0.0);
  EXPECT_NEAR(out.dot(underside), 0.0, 1e-12);
  // Moving away from the plane: untouched.
  const btVector3 away(0, 0, 3);
  EXPECT_EQ(clip_walking_velocity(away, underside, btVector3(0, 0, 0), up), away);
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
