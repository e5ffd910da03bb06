// The ground probe and snapping down.
#include <gtest/gtest.h>

#include <cmath>

#include "controller/rig.h"

namespace stepslide::test {
namespace {

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

}  // namespace
}  // namespace stepslide::test
