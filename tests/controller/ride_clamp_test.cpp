// A ride is a swept move: the body ridden never carries the shape into or
// through anything else (the tunnel class of the fuzzer).
#include <gtest/gtest.h>

#include <vector>

#include "controller/rig.h"

namespace stepslide::test {
namespace {

/// A 4 cm wall hanging over the platform (its bottom 0.1 m above the
/// platform's top, so the platform passes under it), near face at x 1.98.
BodyDef hanging_wall() { return box({2.0, 1.4, 0}, {0.02, 1.1, 3}); }

MotionDef sliding(double vx, double vz) {
  MotionDef m;
  m.type = MotionType::Linear;
  m.velocity = {vx, 0, vz};
  return m;
}

/// Keeps the ride events and the carry sweeps it is told about.
struct CarryRecorder : ControllerObserver {
  std::vector<RideEvent> rides;
  std::vector<SweepEvent> carries;
  void on_ride(const RideEvent& e) override { rides.push_back(e); }
  void on_sweep(const SweepEvent& e) override {
    if (e.purpose == SweepEvent::Purpose::Carry) carries.push_back(e);
  }
};

// Where the feet stop: the capsule (radius 0.3) a skin (0.01) from the wall.
constexpr double kStopX = 1.98 - 0.3 - 0.01;

TEST(RideClamp, AFastBodyCarriesTheFeetOnlyUpToAWall) {
  // 0.5 m a tick: from x 1.5 the body would carry the feet to 2.0, into the
  // wall (without the sweep, a tick later they would be through it).
  PlatformRig rig(sliding(30, 0), ControllerSettings{}, {hanging_wall()});
  rig.step(CharacterInput{});
  ASSERT_NEAR(rig.controller->state().position.x(), 1.5, 1e-12);
  CarryRecorder recorder;
  rig.controller->set_observer(&recorder);
  rig.step(CharacterInput{});
  const CharacterState& state = rig.controller->state();
  EXPECT_NEAR(state.position.x(), kStopX, 1e-6);
  // The velocity the ride gave the feet is how far they went, not the body's.
  EXPECT_NEAR(state.carried_velocity.x(), (kStopX - 1.5) * 60, 1e-4);
  ASSERT_EQ(recorder.rides.size(), 1u);
  const RideEvent& e = recorder.rides[0];
  EXPECT_EQ(e.kind, RideEvent::Kind::Blocked);
  ASSERT_NE(e.blocker, nullptr);
  EXPECT_FALSE(e.blocker->isKinematicObject());
  EXPECT_NEAR(e.normal.x(), -1.0, 1e-9);
  EXPECT_NEAR(e.wanted.x(), 2.0, 1e-12);
  EXPECT_NEAR(e.velocity.x(), 30.0, 1e-9) << "the body's own velocity at the feet";
  EXPECT_EQ(e.character_velocity, state.carried_velocity);
  ASSERT_EQ(recorder.carries.size(), 1u) << "nothing left to slide along the wall";
  EXPECT_TRUE(recorder.carries[0].hit.hit);
  // The body slides on under the feet; they never pass the wall.
  for (int i = 0; i < 30; ++i) {
    rig.step(CharacterInput{});
    ASSERT_LE(rig.controller->state().position.x(), kStopX + 1e-6) << "tick " << rig.tick;
  }
}

TEST(RideClamp, TheWallTakesOnlyThePartOfTheCarryThatRunsIntoIt) {
  // 0.5 m a tick along x and 0.25 m along z: stopped in x at the wall, the
  // feet still go the whole 0.25 m along it.
  PlatformRig rig(sliding(30, 15), ControllerSettings{}, {hanging_wall()});
  rig.step(CharacterInput{});
  const btVector3 before = rig.controller->state().position;
  ASSERT_NEAR(before.x(), 1.5, 1e-12);
  CarryRecorder recorder;
  rig.controller->set_observer(&recorder);
  rig.step(CharacterInput{});
  const CharacterState& state = rig.controller->state();
  EXPECT_NEAR(state.position.x(), kStopX, 1e-6);
  EXPECT_NEAR(state.position.z() - before.z(), 0.25, 1e-6);
  EXPECT_NEAR(state.position.y(), before.y(), 1e-9);
  EXPECT_NEAR(state.carried_velocity.z(), 15.0, 1e-4);
  ASSERT_EQ(recorder.carries.size(), 2u) << "into the wall, then along it";
  EXPECT_TRUE(recorder.carries[0].hit.hit);
  EXPECT_FALSE(recorder.carries[1].hit.hit);
  ASSERT_EQ(recorder.rides.size(), 1u);
  EXPECT_EQ(recorder.rides[0].kind, RideEvent::Kind::Blocked);
}

TEST(RideClamp, AnOpenPlatformCostsNoSweep) {
  // Nothing but the body ridden (and the floor well below the feet) near the
  // swept bounds: the carry is not cast, and the tick counts no extra sweep.
  PlatformRig open(sliding(3, 0), ControllerSettings{});
  PlatformRig still(sliding(0, 0), ControllerSettings{});
  CarryRecorder recorder;
  open.controller->set_observer(&recorder);
  for (int i = 0; i < 10; ++i) {
    open.world->set_time(++open.tick);
    still.world->set_time(++still.tick);
    const TickReport moving = open.controller->update(CharacterInput{}, kDt60);
    const TickReport resting = still.controller->update(CharacterInput{}, kDt60);
    EXPECT_EQ(moving.sweeps, resting.sweeps) << "tick " << open.tick;
  }
  EXPECT_TRUE(recorder.carries.empty());
  ASSERT_EQ(recorder.rides.size(), 10u);
  EXPECT_EQ(recorder.rides.back().kind, RideEvent::Kind::Carry);
  EXPECT_NEAR(open.controller->state().position.x(), 1.5, 1e-12);
}

}  // namespace
}  // namespace stepslide::test
