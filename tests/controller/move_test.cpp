// The move stage: one tick's walk, and whether it may include a step.
#include <gtest/gtest.h>

#include "controller/rig.h"
#include "stepslide/stages.h"

namespace stepslide::test {
namespace {

/// Walks the character of `rig` toward -Z into its 0.2 m riser for `ticks`
/// ticks of the move stage alone, with `may_step_up` as the tick sets it,
/// and returns the feet.
btVector3 walk_into_riser(StepRig& rig, bool may_step_up, int ticks) {
  rig.place(btVector3(0, 0, -0.6));
  CharacterState& state = rig.controller->state();
  for (int i = 0; i < ticks; ++i) {
    Intent intent;
    intent.horizontal = btVector3(0, 0, -3);
    intent.velocity = intent.horizontal;
    intent.was_grounded = true;
    intent.may_step_up = may_step_up;
    move_character(rig.ctx(), state, intent, kDt60);
    classify_ground(rig.ctx(), state);
  }
  return state.position;
}

// A depenetration that already lifted the feet this tick was the tick's
// step: the move must stop at a riser it would otherwise climb.
TEST(MoveCharacter, TakesNoStepWhenTheTickHasAlreadyStepped) {
  StepRig rig({box({0, 0.1, -1.5}, {1, 0.1, 0.5})});  // riser at z = -1, 0.2 high
  const btVector3 held = walk_into_riser(rig, false, 20);
  EXPECT_NEAR(held.y(), 0.0, 1e-6);                           // still on the floor
  EXPECT_GT(held.z(), -1.0 + 0.3 - 0.05);                      // stopped at the riser (capsule radius 0.3)
  EXPECT_EQ(rig.controller->state().grounded, true);
}

TEST(MoveCharacter, StepsUpTheSameRiserWhenAllowed) {
  StepRig rig({box({0, 0.1, -1.5}, {1, 0.1, 0.5})});
  const btVector3 climbed = walk_into_riser(rig, true, 20);
  EXPECT_NEAR(climbed.y(), 0.2, 1e-3);  // on the tread
  EXPECT_LT(climbed.z(), -1.0);
}

}  // namespace
}  // namespace stepslide::test
