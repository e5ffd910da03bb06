// The random worlds' later features (random_features.cpp) and their
// invariants (feature_invariants.cpp): generated, loadable, and each
// invariant raised when the state is broken on purpose, quiet otherwise.
#include <gtest/gtest.h>

#include <string>

#include "fuzz/invariants.h"
#include "fuzz/random_world.h"
#include "scenario/load/load.h"
#include "scenario/load/world.h"
#include "support/load_text.h"
#include "stepslide/controller.h"

namespace stepslide {
namespace {

using test::load_or_fail;

TEST(FuzzFeatures, GeneratedWorldsHoldEveryFeatureAndLoad) {
  int dynamic = 0, stacks = 0, planks = 0, one_way = 0, drop = 0, crouch = 0, layers = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const nlohmann::ordered_json world = generate_fuzz_scenario(seed);
    ASSERT_TRUE(load_scenario_text(world.dump(), "generated.json").scenario) << seed;
    const std::string text = world.dump();
    dynamic += text.find("\"mass\"") != std::string::npos;
    stacks += text.find("\"stack") != std::string::npos;
    planks += text.find("_pivot\"") != std::string::npos;
    one_way += text.find("\"one_way\"") != std::string::npos;
    drop += text.find("\"drop\"") != std::string::npos;
    crouch += text.find("\"crouch_shape\"") != std::string::npos;
    layers += text.find("\"collides_with\"") != std::string::npos;
  }
  EXPECT_GT(dynamic, 30);
  EXPECT_GT(stacks, 3);
  EXPECT_GT(planks, 3);
  EXPECT_GT(one_way, 25);
  EXPECT_GT(drop, 10);
  EXPECT_GT(crouch, 25);
  EXPECT_GT(layers, 10);
}

/// A stack at rest beside a crate and a seesaw, the character walking
/// toward the crate.
const char* kBodies = R"({"format": "stepslide/scenario@1", "ticks": 90,
  "world": [
    {"name": "floor", "shape": {"type": "box", "half_extents": [10, 0.5, 10]}, "position": [0, -0.5, 0]},
    {"name": "crate", "shape": {"type": "box", "half_extents": [0.3, 0.3, 0.3]}, "position": [0, 0.3, -1.5], "mass": 10},
    {"name": "stack0_0", "shape": {"type": "box", "half_extents": [0.4, 0.3, 0.4]}, "position": [4, 0.3, 0], "mass": 20},
    {"name": "stack0_1", "shape": {"type": "box", "half_extents": [0.3, 0.2, 0.3]}, "position": [4, 0.8, 0], "mass": 10}
  ],
  "character": {"position": [0, 0.02, 0]},
  "input": [{"tick": 0, "move": [0, 1]}]})";

TEST(FuzzFeatures, BodiesPushedAndAtRestRaiseNothing) {
  const InvariantReport report = check_invariants(load_or_fail(kBodies));
  EXPECT_TRUE(report.ok()) << format_violations(report);
}

TEST(FuzzFeatures, AStackThatMovesWithNothingNearIsRaised) {
  InvariantOptions options;
  options.check_rerun = false;
  options.before_check = [](const TickView& view) {
    if (view.tick != 30) return;
    for (const auto& body : view.world.bodies()) {
      btTransform moved = body.object->getWorldTransform();
      if (moved.getOrigin().x() < 3.0) continue;
      moved.getOrigin() += btVector3(0, 0, 0.2);  // the stack, 4 m from anything
      body.object->setWorldTransform(moved);
    }
  };
  const InvariantReport report = check_invariants(load_or_fail(kBodies), options);
  const Violation* v = report.first(InvariantKind::Rest);
  ASSERT_NE(v, nullptr) << format_violations(report);
  EXPECT_EQ(v->tick, 30);
}

TEST(FuzzFeatures, AStackWithABoxTakenOutIsNoLongerAtRest) {
  // The shrinker drops bodies one by one: without its bottom box the top
  // one falls, which is no stack moving (fresh world 9529584's finding was
  // shrunk to this, a box falling alone, and saved as a rest finding).
  std::string text = kBodies;
  const std::size_t bottom = text.find(R"({"name": "stack0_0")");
  ASSERT_NE(bottom, std::string::npos);
  text.erase(bottom, text.find('\n', bottom) + 1 - bottom);
  const InvariantReport report = check_invariants(load_or_fail(text));
  EXPECT_EQ(report.first(InvariantKind::Rest), nullptr) << format_violations(report);
}

TEST(FuzzFeatures, ASpeedFromNowhereIsRaised) {
  InvariantOptions options;
  options.check_rerun = false;
  options.before_check = [](const TickView& view) {
    if (view.tick == 30) view.controller.state().velocity += btVector3(0, 0, -20);
  };
  const InvariantReport report = check_invariants(load_or_fail(kBodies), options);
  const Violation* v = report.first(InvariantKind::Speed);
  ASSERT_NE(v, nullptr) << format_violations(report);
  EXPECT_EQ(v->tick, 30);
}

TEST(FuzzFeatures, TheCentrePassingThroughADynamicBoxIsRaised) {
  // A ball standing on a plank that lies on the floor, put below the plank
  // in one tick.
  const char* plank = R"({"format": "stepslide/scenario@1", "ticks": 20,
    "world": [
      {"name": "floor", "shape": {"type": "box", "half_extents": [10, 0.5, 10]}, "position": [0, -0.5, 0]},
      {"name": "plank", "shape": {"type": "box", "half_extents": [2, 0.05, 2]}, "position": [0, 0.05, 0], "mass": 10}
    ],
    "character": {"shape": {"type": "sphere", "radius": 0.2}, "position": [0, 0.11, 0]}})";
  InvariantOptions options;
  options.check_rerun = false;
  options.before_check = [](const TickView& view) {
    if (view.tick == 5) view.controller.state().position = btVector3(0, -0.5, 0);
  };
  const InvariantReport report = check_invariants(load_or_fail(plank), options);
  const Violation* v = report.first(InvariantKind::BodyTunnel);
  ASSERT_NE(v, nullptr) << format_violations(report);
  EXPECT_EQ(v->tick, 5);
  EXPECT_EQ(check_invariants(load_or_fail(plank)).first(InvariantKind::BodyTunnel), nullptr);
}

/// Standing on a one-way platform that rises 7 cm a tick (a keyframed
/// lift): the contact point is above the feet of the tick's start by more
/// than the filter's 1 cm, and the filter let the platform swallow the
/// character (fresh fuzz worlds, seeds 1095 and 2303 of the generator then).
const char* kRisingOneWay = R"({"format": "stepslide/scenario@1", "ticks": 40,
  "world": [
    {"name": "floor", "shape": {"type": "box", "half_extents": [10, 0.5, 10]}, "position": [0, -0.5, 0]},
    {"name": "lift", "shape": {"type": "box", "half_extents": [1.5, 0.1, 1.5]}, "position": [0, 0.5, 0], "one_way": true,
     "motion": {"type": "keyframes", "keys": [{"tick": 13, "position": [0, 1.4, 0]}]}}
  ],
  "character": {"position": [0, 0.61, 0]}})";

TEST(FuzzFeatures, AOneWayLiftRisingFasterThanTheToleranceCarriesTheCharacter) {
  const InvariantReport report = check_invariants(load_or_fail(kRisingOneWay));
  EXPECT_EQ(report.first(InvariantKind::OneWay), nullptr) << format_violations(report);
  EXPECT_TRUE(report.ok()) << format_violations(report);
  const SimulationResult run = simulate(load_or_fail(kRisingOneWay));
  ASSERT_EQ(run.trajectory.rows.size(), 41u);
  EXPECT_NEAR(run.trajectory.rows.back()[3], 1.5, 0.02);  // y: on the lift's top
}

TEST(FuzzFeatures, EndingInsideAOneWayBodyFromAboveIsRaised) {
  InvariantOptions options;
  options.check_rerun = false;
  options.before_check = [](const TickView& view) {
    if (view.tick == 30) view.controller.state().position -= btVector3(0, 0.1, 0);
  };
  const InvariantReport report = check_invariants(load_or_fail(kRisingOneWay), options);
  const Violation* v = report.first(InvariantKind::OneWay);
  ASSERT_NE(v, nullptr) << format_violations(report);
  EXPECT_EQ(v->tick, 30);
  // One-way is no longer open: its violation fails a run.
  EXPECT_FALSE(invariant_is_open(InvariantKind::OneWay));
  EXPECT_TRUE(report.failing());
}

/// A stored finding, as `stepslide fuzz` saved it (scenarios/fuzz/).
Scenario stored_finding(const std::string& file) {
  const LoadResult load = load_scenario_file(std::string(STEPSLIDE_SOURCE_DIR) + "/scenarios/fuzz/" + file);
  EXPECT_TRUE(load.errors.empty()) << file;
  return load.scenario.value_or(Scenario{});
}

TEST(FuzzFeatures, LeavingARiddenBodyByCrouchingKeepsItsSpeedWithinTheBound) {
  // Riding the edge of a fast keyframed box on a wide shape, the character
  // crouches to a slim one that misses the edge: it leaves the box with the
  // box's velocity. The bound counts the box because the character reached
  // it at the tick's start, with the shape it had then.
  for (const char* file : {"seed5137876_speed.json", "seed6033787_speed.json"}) {
    const InvariantReport report = check_invariants(stored_finding(file));
    EXPECT_EQ(report.first(InvariantKind::Speed), nullptr) << file << "\n" << format_violations(report);
  }
}

TEST(FuzzFeatures, LeavingATurningBodyWithTheFeetBeyondItsOutlineKeepsItsSpeedWithinTheBound) {
  // Standing with the feet beyond the edge of a box that moves and turns,
  // the feet are carried at their own distance from its centre, farther than
  // any point of the box: the bound counts the ridden body's carry of the feet.
  const InvariantReport report = check_invariants(stored_finding("seed6027322_speed_characters.json"));
  EXPECT_EQ(report.first(InvariantKind::Speed), nullptr) << format_violations(report);
}

TEST(FuzzFeatures, APushTakenFromACharacterThatStoppedSinceIsWithinTheBound) {
  // npc1 pushed the player (after the player's update) while walking at
  // 5 m/s, then stopped against it: the player takes that push at the start
  // of its next tick, when npc1's speed is 0. The bound starts from the row
  // before's velocity plus that pending push.
  const InvariantReport report = check_invariants(stored_finding("seed8694990_speed_characters.json"));
  EXPECT_EQ(report.first(InvariantKind::Speed), nullptr) << format_violations(report);
}

TEST(FuzzFeatures, APushTakenFromAnotherCharacterStillBoundsTheSpeed) {
  // The pending push is counted as it is, no more: speed beyond it and the
  // characters within reach (npc1 walked at 5 m/s the tick before) is raised.
  InvariantOptions options;
  options.check_rerun = false;
  options.before_check = [](const TickView& view) {
    if (view.tick == 130) view.controller.state().velocity *= 4.0;
  };
  const InvariantReport report = check_invariants(stored_finding("seed8694990_speed_characters.json"), options);
  const Violation* v = report.first(InvariantKind::Speed);
  ASSERT_NE(v, nullptr) << format_violations(report);
  EXPECT_EQ(v->tick, 130);
  EXPECT_NE(v->message.find("with the characters' push"), std::string::npos) << v->message;
}

TEST(FuzzFeatures, RidingOffACharacterThatMovedAfterTheRiderIsWithinTheBound) {
  // The player stood on npc1, which walked off at 7.49 m/s in its update of
  // the tick before (after the player's); this tick the player rides that
  // motion and leaves npc1 with the velocity it gave the feet, while npc1's
  // own speed and travel this tick are small. The bound counts each other
  // character's tick before too.
  const InvariantReport report = check_invariants(stored_finding("seed9546275_speed_characters.json"));
  EXPECT_EQ(report.first(InvariantKind::Speed), nullptr) << format_violations(report);
}

TEST(FuzzFeatures, FollowingAPushedPlankInTheAirGainsNoSpeed) {
  for (const char* file : {"seed8328017_speed.json", "seed8736661_speed.json"}) {
    const InvariantReport report = check_invariants(stored_finding(file));
    EXPECT_TRUE(report.ok()) << file << "\n" << format_violations(report);
  }
}

TEST(FuzzFeatures, ABoxComingDownOnACharacterOnAOneWayPlatformDoesNotPushItThrough) {
  // The crushing push-out pressed the character deep into the platform,
  // whose contacts then faced sideways and were not taken as blocking.
  const InvariantReport report = check_invariants(stored_finding("seed5011118_one_way.json"));
  EXPECT_EQ(report.first(InvariantKind::OneWay), nullptr) << format_violations(report);
}

/// Crouching under a low ceiling and standing up past its edge.
const char* kCrouch = R"({"format": "stepslide/scenario@1", "ticks": 120,
  "world": [
    {"name": "floor", "shape": {"type": "box", "half_extents": [10, 0.5, 10]}, "position": [0, -0.5, 0]},
    {"name": "ceiling", "shape": {"type": "box", "half_extents": [2, 0.1, 1]}, "position": [0, 1.3, -2]}
  ],
  "character": {"position": [0, 0.02, 0], "crouch_shape": {"type": "capsule", "radius": 0.3, "height": 1.0}},
  "input": [{"tick": 0, "move": [0, 1], "crouch": true}, {"tick": 30, "crouch": false}]})";

TEST(FuzzFeatures, CrouchingUnderACeilingRaisesNothing) {
  const InvariantReport report = check_invariants(load_or_fail(kCrouch));
  EXPECT_TRUE(report.ok()) << format_violations(report);
}

}  // namespace
}  // namespace stepslide
