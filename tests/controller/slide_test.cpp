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
