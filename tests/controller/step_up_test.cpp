// Step-up attempts and the rule that accepts or refuses each.
#include <gtest/gtest.h>

#include <cmath>

#include "controller/rig.h"

namespace stepslide::test {
namespace {

TEST(StepUp, AcceptsAnOrdinaryStep) {
  StepRig rig({box({0, 0.1, -1.5}, {1, 0.1, 0.5})});  // riser at z = -1, 0.2 high
  const StepUpResult r = rig.attempt(0.3);
  EXPECT_EQ(r.rule, StepRule::Accepted) << step_rule_name(r.rule);
  EXPECT_GT(r.height, 0.05);
  EXPECT_LE(r.height, 0.2 + 1e-6);
}

TEST(StepUp, RefusesAWallWithOneRay) {
  StepRig rig({box({0, 1, -1.5}, {1, 1, 0.5})});  // 2 m high
  const int sweeps_before = rig.ctx().queries->counts().sweeps;
  EXPECT_EQ(rig.attempt().rule, StepRule::RiserTooTall);
  EXPECT_EQ(rig.ctx().queries->counts().sweeps, sweeps_before + 1);  // only attempt()'s own sweep
}

TEST(StepUp, NeverStepsHigherThanMaxStepHeight) {
  // 0.5 m riser: the raised shape's rounded bottom meets the edge; it must not
  // ride up over it.
  StepRig rig({box({0, 0.25, -1.5}, {1, 0.25, 0.5})});
  for (double forward : {0.05, 0.1, 0.3, 0.6}) {
    const StepUpResult r = rig.attempt(forward);
    EXPECT_NE(r.rule, StepRule::Accepted) << "forward " << forward;
  }
}

TEST(StepUp, RefusesAStepTooNarrowToStandOn) {
  StepRig rig({box({0, 0.1, -1.025}, {1, 0.1, 0.025})});  // 5 cm deep, then the floor again
  EXPECT_EQ(rig.attempt(0.3).rule, StepRule::NoRoomToStand);
}

TEST(StepUp, RefusesUnderALowCeiling) {
  // Ceiling 1 mm above the head.
  StepRig rig({box({0, 0.1, -1.5}, {1, 0.1, 0.5}), box({0, 1.801 + 0.5, 0}, {5, 0.5, 5})});
  EXPECT_EQ(rig.attempt().rule, StepRule::BlockedByCeiling);
}

TEST(StepUp, RefusesWhenTheLandingIsTooSteep) {
  // A low block whose top is a 60-degree incline.
  BodyDef wedge;
  wedge.shape.type = ShapeType::ConvexHull;
  wedge.shape.points = {{-1, 0, -1}, {1, 0, -1}, {-1, 0, -1.4}, {1, 0, -1.4},
                        {-1, 0.05, -1}, {1, 0.05, -1}, {-1, 0.05 + 0.4 * std::sqrt(3.0) / 2.0 * 0.0 + 0.3, -1.4},
                        {1, 0.35, -1.4}};
  StepRig rig({wedge});
  const StepUpResult r = rig.attempt(0.3);
  EXPECT_TRUE(r.rule == StepRule::LandingTooSteep || r.rule == StepRule::RiserNotSteep ||
              r.rule == StepRule::NoHeightGained)
      << step_rule_name(r.rule);
  EXPECT_NE(r.rule, StepRule::Accepted);
}

TEST(StepUp, RefusesWhenNoHeightIsGained) {
  StepRig rig({box({0, 0.1, -1.5}, {1, 0.1, 0.5})});
  // Too little forward motion to get over the riser.
  const StepUpResult r = rig.attempt(1e-4);
  EXPECT_EQ(r.rule, StepRule::NoHeightGained) << "height " << r.height << " landing y " << r.position.y() << " z " << r.position.z();
}

TEST(StepUp, RefusesAWalkableSurfaceAsARiser) {
  StepRig rig({});
  const StepUpResult r = step_up(rig.ctx(), btVector3(0, 0, 0), btVector3(0, 0, -0.1),
                                 btVector3(0, 0.9, 0.436).normalized(), btVector3(0, 0, -0.3));
  EXPECT_EQ(r.rule, StepRule::RiserNotSteep);
}

TEST(StepUp, RefusesWhenThereIsNothingToLandOn) {
  // Raised and moved forward over empty space: the down sweep finds nothing.
  Rig rig({box({0, -0.5, 20}, {1, 0.5, 1})});  // something far away, nothing below
  const StepUpResult r =
      step_up(rig.ctx(), btVector3(0, 0, 0), btVector3(0, 0, -0.1), btVector3(0, 0, 1), btVector3(0, 0.1, -0.31));
  EXPECT_EQ(r.rule, StepRule::NoLanding) << step_rule_name(r.rule);
}

}  // namespace
}  // namespace stepslide::test
