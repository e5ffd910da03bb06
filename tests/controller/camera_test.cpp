// Stepped height and the camera that absorbs it.
#include <gtest/gtest.h>

#include <cmath>

#include "controller/rig.h"

namespace stepslide::test {
namespace {

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

}  // namespace
}  // namespace stepslide::test
