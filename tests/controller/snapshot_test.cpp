// ControllerSnapshot: save_state / restore_state, the value a game keeps
// per tick for rollback, and same_snapshot, its bitwise comparison.
#include <gtest/gtest.h>

#include <vector>

#include "controller/rig.h"

namespace stepslide::test {
namespace {

CharacterInput walk_and_jump(int tick) {
  CharacterInput input;
  input.move_forward = 1.0;
  input.yaw_deg = 3.0 * tick;
  input.jump = tick % 40 > 30;
  return input;
}

TEST(Snapshot, RewindingAndSteppingAgainGivesTheSameBits) {
  Rig rig({floor_at(0), box({0, 0.2, -3}, {2, 0.2, 0.5})});
  rig.place(btVector3(0, 0, 0));
  std::vector<ControllerSnapshot> saved;
  for (int tick = 0; tick < 120; ++tick) {
    saved.push_back(rig.controller->save_state());
    rig.controller->update(walk_and_jump(tick), kDt60);
  }
  const ControllerSnapshot end = rig.controller->save_state();
  for (const int back : {1, 7, 60, 119}) {
    rig.controller->restore_state(saved[static_cast<std::size_t>(120 - back)]);
    for (int tick = 120 - back; tick < 120; ++tick) {
      EXPECT_TRUE(same_snapshot(rig.controller->save_state(), saved[static_cast<std::size_t>(tick)])) << tick;
      rig.controller->update(walk_and_jump(tick), kDt60);
    }
    EXPECT_TRUE(same_snapshot(rig.controller->save_state(), end)) << back;
  }
}

TEST(Snapshot, ASnapshotMovesToAnotherControllerOfTheSameShape) {
  Rig rig({floor_at(0)});
  rig.place(btVector3(0, 0.5, 0));
  for (int tick = 0; tick < 30; ++tick) rig.controller->update(walk_and_jump(tick), kDt60);
  const ControllerSnapshot at30 = rig.controller->save_state();
  CharacterController other(rig.world->collision_world(), CharacterShapeDesc{}, ControllerSettings{},
                            btVector3(0, 1, 0), btVector3(0, -9.81, 0));
  other.restore_state(at30);
  for (int tick = 30; tick < 60; ++tick) {
    rig.controller->update(walk_and_jump(tick), kDt60);
    other.update(walk_and_jump(tick), kDt60);
    ASSERT_TRUE(same_snapshot(other.save_state(), rig.controller->save_state())) << tick;
  }
}

TEST(Snapshot, SameSnapshotComparesEveryFieldToTheBit) {
  ControllerSnapshot a;
  a.state.position = btVector3(1, 2, 3);
  ControllerSnapshot b = a;
  EXPECT_TRUE(same_snapshot(a, b));
  b.state.position.setY(2 + 1e-15);
  EXPECT_FALSE(same_snapshot(a, b));
  b = a;
  b.state.jump_was_held = true;
  EXPECT_FALSE(same_snapshot(a, b));
  b = a;
  b.state.ground_transform.setOrigin(btVector3(0, 1e-300, 0));
  EXPECT_FALSE(same_snapshot(a, b));
  b = a;
  b.state.camera_dy = -0.0;  // +0 == -0: the same state
  EXPECT_TRUE(same_snapshot(a, b));
}

}  // namespace
}  // namespace stepslide::test
