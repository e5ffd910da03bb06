// The composed tick of CharacterController.
#include <gtest/gtest.h>

#include <cmath>

#include "controller/rig.h"

namespace stepslide::test {
namespace {

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

TEST(Controller, AirborneCharacterDoesNotStep) {
  StepRig rig({box({0, 0.1, -1.5}, {1, 0.1, 0.5})});
  rig.place(btVector3(0, 0.6, -0.5));  // falling toward the floor in front of the riser
  rig.controller->state().velocity = btVector3(0, 0, -4);
  CharacterInput in;
  in.use_wish_velocity = true;
  in.wish_velocity = btVector3(0, 0, -4);
  const TickReport r = rig.controller->update(in, kDt60);
  EXPECT_EQ(r.steps.size(), 0u);
}

}  // namespace
}  // namespace stepslide::test
