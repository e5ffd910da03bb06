// Small worlds with a capsule controller in them, shared by the controller's
// stage tests.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "scenario/load/world.h"
#include "stepslide/controller.h"
#include "support/test_bodies.h"

namespace stepslide::test {

constexpr double kDt60 = 1.0 / 60.0;

/// A world plus a capsule controller standing in it.
struct Rig {
  Scenario scenario;
  std::unique_ptr<World> world;
  std::unique_ptr<CharacterController> controller;

  explicit Rig(std::vector<BodyDef> bodies, ControllerSettings settings = {}) {
    scenario.ticks = 1;
    scenario.world = std::move(bodies);
    world = std::make_unique<World>(scenario);
    CharacterShapeDesc capsule;  // r 0.3, h 1.8
    controller = std::make_unique<CharacterController>(world->collision_world(), capsule, settings,
                                                       btVector3(0, 1, 0), btVector3(0, -9.81, 0));
  }
  const CharacterContext& ctx() const { return controller->context(); }
  void place(const btVector3& feet) { controller->reset(feet, btVector3(0, 0, 0)); }
};

/// A floor at y = 0 and a riser ahead (toward -Z) to step onto.
struct StepRig : Rig {
  explicit StepRig(std::vector<BodyDef> extra, ControllerSettings settings = {}) : Rig(with_floor(extra), settings) {}
  static std::vector<BodyDef> with_floor(std::vector<BodyDef> extra) {
    extra.insert(extra.begin(), floor_at(0));
    return extra;
  }
  /// Walks into the riser facing -Z and returns the step attempt at contact.
  StepUpResult attempt(double forward = 0.08) {
    const btVector3 start(0, 0, 0);
    const SweepHit hit = ctx().queries->sweep(ctx().sweep_shape, ctx().sweep_transform_at(start),
                                              ctx().sweep_transform_at(start + btVector3(0, 0, -2)).getOrigin());
    EXPECT_TRUE(hit.hit);
    const btVector3 at = start + btVector3(0, 0, -2) * hit.fraction;
    return step_up(ctx(), at, btVector3(0, 0, -forward), hit.normal, hit.point);
  }
};

/// A character on a kinematic platform, stepped with the world moving first.
struct PlatformRig {
  Scenario scenario;
  std::unique_ptr<World> world;
  std::unique_ptr<CharacterController> controller;
  std::int64_t tick = 0;

  /// A 6 m square platform with its top at y 0.2 moving by `motion` over a
  /// floor at y 0, the feet at (1, 0.2, 0), and `extra` static bodies.
  PlatformRig(MotionDef motion, ControllerSettings settings, std::vector<BodyDef> extra = {}) {
    scenario.tick_rate = 60;
    scenario.ticks = 1000;
    BodyDef platform = box({0, 0.1, 0}, {3, 0.1, 3});
    platform.motion = motion;
    scenario.world = {floor_at(0), platform};
    scenario.world.insert(scenario.world.end(), extra.begin(), extra.end());
    world = std::make_unique<World>(scenario);
    controller = std::make_unique<CharacterController>(world->collision_world(), CharacterShapeDesc{}, settings,
                                                       btVector3(0, 1, 0), btVector3(0, -9.81, 0));
    controller->reset(btVector3(1, 0.2, 0), btVector3(0, 0, 0));
  }
  void step(const CharacterInput& input) {
    world->set_time(++tick);
    controller->update(input, kDt60);
  }
};

inline MotionDef sliding_along_x(double speed) {
  MotionDef m;
  m.type = MotionType::Linear;
  m.velocity = {speed, 0, 0};
  return m;
}

}  // namespace stepslide::test
