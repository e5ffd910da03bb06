// The fuzzer's failure classes at the level of the stages: headroom over a
// tread, blocked means blocked, terminal velocity (the crease tolerance is
// tested with the plane solver, slide_test.cpp).
#include <gtest/gtest.h>

#include "controller/rig.h"

namespace stepslide::test {
namespace {

TEST(StepUp, RefusesATreadWithoutHeadroomNamingTheCeiling) {
  // A 0.2 m step whose tread has 1.79 m under a slab: the 1.8 m capsule could
  // rise onto it (the slab starts beyond the riser) but not stand there.
  StepRig rig({box({0, 0.1, -1.5}, {1, 0.1, 0.5}), box({0, 1.99 + 0.5, -2.0}, {2, 0.5, 0.99})});
  const StepUpResult r = rig.attempt(0.3);
  EXPECT_EQ(r.rule, StepRule::NoHeadroom) << step_rule_name(r.rule);
  EXPECT_NE(std::string(step_rule_name(r.rule)).find("ceiling"), std::string::npos);
}

TEST(StepUp, AcceptsATreadWithHeadroom) {
  // The same slab 6 cm higher: 1.85 m of headroom is enough.
  StepRig rig({box({0, 0.1, -1.5}, {1, 0.1, 0.5}), box({0, 2.05 + 0.5, -2.0}, {2, 0.5, 0.99})});
  EXPECT_EQ(rig.attempt(0.3).rule, StepRule::Accepted);
}

/// Walks the rig's capsule toward -Z for `ticks` ticks.
void walk_forward(Rig& rig, int ticks) {
  CharacterInput input;
  input.move_forward = 1.0;
  for (int i = 0; i < ticks; ++i) rig.controller->update(input, kDt60);
}

TEST(Controller, BlockedByHeadroomReportsNoSpeed) {
  // Before: the step was "accepted" every tick with the feet back where they
  // started, and the velocity stayed at walk speed.
  Rig rig({floor_at(0), box({0, 0.1, -1.5}, {1, 0.1, 0.5}), box({0, 1.99 + 0.5, -2.0}, {2, 0.5, 0.99})});
  rig.place(btVector3(0, 0, 0));
  walk_forward(rig, 60);
  const btVector3 before = rig.controller->state().position;
  walk_forward(rig, 1);
  const CharacterState& s = rig.controller->state();
  EXPECT_NEAR((s.position - before).length(), 0.0, 1e-9);
  EXPECT_LT(horizontal_part(s.velocity, btVector3(0, 1, 0)).length(), 1e-6);
  EXPECT_NEAR(s.position.y(), 0.0, 1e-9);
}

TEST(Controller, CurbUnderALowCeilingIsNotRiddenUp) {
  // An 8 cm curb under a slab 1.85 m up: its edge is walkable for the
  // capsule's rounded bottom, but there is no room to stand on the curb.
  Rig rig({floor_at(0), box({0, 0.04, -2}, {1, 0.04, 1}), box({0, 2.1, -2.5}, {2, 0.25, 2})});
  rig.place(btVector3(0, 0, 0));
  walk_forward(rig, 60);
  const CharacterState& s = rig.controller->state();
  EXPECT_NEAR(s.position.y(), 0.0, 1e-9);
  EXPECT_LT(horizontal_part(s.velocity, btVector3(0, 1, 0)).length(), 1e-6);
}

TEST(LimitFallSpeed, CapsOnlyThePartAlongGravity) {
  const btVector3 v = limit_fall_speed(btVector3(3, -60, 1), btVector3(0, -9.81, 0), 50);
  EXPECT_DOUBLE_EQ(v.x(), 3);
  EXPECT_DOUBLE_EQ(v.y(), -50);
  EXPECT_DOUBLE_EQ(v.z(), 1);
  const btVector3 up = limit_fall_speed(btVector3(0, 20, 0), btVector3(0, -9.81, 0), 5);
  EXPECT_DOUBLE_EQ(up.y(), 20);
}

}  // namespace
}  // namespace stepslide::test
