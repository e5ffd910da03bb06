// World building: generator placement (docs/format.md §1.1) and kinematic motion.
#include <gtest/gtest.h>

#include <cmath>

#include "scenario/load/world.h"
#include "stepslide/collision.h"
#include "support/test_bodies.h"

namespace stepslide {
namespace {

double surface_height(World& world, double x, double z) {
  CollisionQueries q(world.collision_world(), nullptr);
  const RayHit hit = q.ray(btVector3(x, 50, z), btVector3(x, -50, z));
  return hit.hit ? hit.point.y() : -1e9;
}

TEST(World, StairsClimbAlongLocalMinusZFromTheFirstRiser) {
  Scenario s;
  s.world.push_back(test::stairs(3, 0.2, 0.3, 2, {1, 0.5, -1}));
  World w(s);
  EXPECT_EQ(surface_height(w, 1, -0.95), -1e9);  // before the first riser
  EXPECT_NEAR(surface_height(w, 1, -1.05), 0.7, 1e-9);
  EXPECT_NEAR(surface_height(w, 1, -1.35), 0.9, 1e-9);
  EXPECT_NEAR(surface_height(w, 1.9, -1.65), 1.1, 1e-9);
  EXPECT_EQ(surface_height(w, 1, -1.95), -1e9);  // past the last step
  EXPECT_EQ(surface_height(w, 2.1, -1.05), -1e9);  // beyond the width
}

TEST(World, RotatedStairsFollowTheBodyRotation) {
  Scenario s;
  s.world.push_back(test::stairs(2, 0.2, 0.5, 1, {0, 0, 0}, {0, 90, 0}));  // local -Z becomes world -X
  World w(s);
  EXPECT_NEAR(surface_height(w, -0.25, 0), 0.2, 1e-9);
  EXPECT_NEAR(surface_height(w, -0.75, 0), 0.4, 1e-9);
}

TEST(World, RampRisesAlongLocalMinusZFromItsBottomEdge) {
  Scenario s;
  s.world.push_back(test::ramp(2, 1, 30, {0, 1, 0}));
  World w(s);
  const double run = 1.0;  // horizontal distance from the bottom edge
  EXPECT_NEAR(surface_height(w, 0, -run), 1 + run * std::tan(M_PI / 6), 1e-9);
  EXPECT_NEAR(surface_height(w, 0, -2 * std::cos(M_PI / 6) + 0.01), 1 + (2 * std::cos(M_PI / 6) - 0.01) * std::tan(M_PI / 6),
              1e-9);
}

TEST(World, HeightfieldIsCentredAtHeightZeroRowMajorAlongZ) {
  Scenario s;
  BodyDef terrain;
  terrain.shape.type = ShapeType::Heightfield;
  terrain.shape.rows = 2;
  terrain.shape.columns = 3;
  terrain.shape.cell_size = 2;
  terrain.shape.heights = {0, 0, 0, 1, 1, 1};  // row 1 (z = +1) is 1 m high
  terrain.position = {10, 0, 0};
  s.world.push_back(terrain);
  World w(s);
  EXPECT_NEAR(surface_height(w, 10, -0.999), 0.0005, 1e-6);
  EXPECT_NEAR(surface_height(w, 10, 0), 0.5, 1e-9);
  EXPECT_NEAR(surface_height(w, 11.5, 0.999), 0.9995, 1e-6);
}

TEST(World, KeyframesStartFromTheBodyPlacementAndHoldTheLastKey) {
  Scenario s;
  s.tick_rate = 60;
  BodyDef b;
  b.shape.type = ShapeType::Box;
  b.position = {0, 1, 0};
  b.motion.type = MotionType::Keyframes;
  b.motion.keys = {{60, {0, 2, 0}, {0, 0, 0}}, {120, {3, 2, 0}, {0, 90, 0}}};
  s.world.push_back(b);
  World w(s);
  EXPECT_NEAR(w.body_pose(0, 0).getOrigin().y(), 1.0, 1e-12);
  EXPECT_NEAR(w.body_pose(0, 30).getOrigin().y(), 1.5, 1e-12);
  EXPECT_NEAR(w.body_pose(0, 90).getOrigin().x(), 1.5, 1e-12);
  EXPECT_NEAR(w.body_pose(0, 90).getRotation().getAngle(), M_PI / 4, 1e-9);
  EXPECT_NEAR(w.body_pose(0, 500).getOrigin().x(), 3.0, 1e-12);
}

TEST(World, LinearAndSpinMotionsAreFunctionsOfTime) {
  Scenario s;
  s.tick_rate = 100;
  BodyDef mover;
  mover.position = {1, 0, 0};
  mover.motion.type = MotionType::Linear;
  mover.motion.velocity = {2, 0, 0};
  BodyDef spinner;
  spinner.motion.type = MotionType::Spin;
  spinner.motion.axis = {0, 1, 0};
  spinner.motion.deg_per_s = 90;
  s.world = {mover, spinner};
  World w(s);
  EXPECT_NEAR(w.body_pose(0, 50).getOrigin().x(), 2.0, 1e-12);
  EXPECT_NEAR(w.body_pose(1, 100).getRotation().getAngle(), M_PI / 2, 1e-9);
  w.set_time(50);
  EXPECT_NEAR(w.bodies()[0].object->getWorldTransform().getOrigin().x(), 2.0, 1e-12);
}

TEST(World, BodyNameIsTheGivenNameOrTheIndexInTheWorldArray) {
  Scenario s;
  BodyDef named = test::box({0, 0, 0}, {1, 1, 1});
  named.name = "crate";
  s.world = {named, test::box({5, 0, 0}, {1, 1, 1})};
  World w(s);
  ASSERT_EQ(w.bodies().size(), 2u);
  EXPECT_EQ(w.body_name(w.bodies()[0].object), "crate");
  EXPECT_EQ(w.body_name(w.bodies()[1].object), "world[1]");
  EXPECT_EQ(w.bodies()[1].name, "world[1]");
}

TEST(World, BodyNameOfAnObjectNotFromTheScenarioIsEmpty) {
  Scenario s;
  s.world = {test::floor_at(0)};
  World w(s);
  EXPECT_EQ(w.body_name(nullptr), "");
  btCollisionObject character;  // user index -1, as for the character's own object
  EXPECT_EQ(w.body_name(&character), "");
  btCollisionObject stray;
  stray.setUserIndex(7);  // past the end of the world
  EXPECT_EQ(w.body_name(&stray), "");
}

}  // namespace
}  // namespace stepslide

namespace stepslide {
namespace {

/// A 1 kg crate named `name` at `center`, 0.3 m half extents.
BodyDef crate(const char* name, Vec3 center) {
  BodyDef b = test::box(center, {0.3, 0.3, 0.3});
  b.name = name;
  b.dynamics.mass = 1.0;
  return b;
}

// 0.9 - 0.3 is 0.6000000000000001: the upper crate, written exactly on the
// lower one, is a rounding apart from it. Bullet's box-box detector gave no
// contact there, and the crate fell freely (g dt^2 = 2.7 mm) for a step
// before meeting it; the dynamics step's speculative contacts meet it at once.
TEST(World, ACrateWrittenOnAnotherIsMetOnTheFirstStep) {
  Scenario s;
  s.world.push_back(test::floor_at(0.0));
  s.world.push_back(crate("low", {0, 0.3, 0}));
  s.world.push_back(crate("high", {0, 0.9, 0}));
  ASSERT_GT(0.9 - 0.3, 0.3 + 0.3);  // the gap this is about
  World w(s);
  w.step(1);
  const double low = w.body_pose(1, 1).getOrigin().y(), high = w.body_pose(2, 1).getOrigin().y();
  EXPECT_NEAR(low, 0.3, 2e-4);
  EXPECT_NEAR(high, 0.9, 2e-4) << "fell " << 0.9 - high << " m on the first step";
}

// The speculative contact is at its true distance: a crate 1 mm above
// another is not held there, it falls the millimetre within the step (it
// would fall g dt^2 = 2.7 mm freely) and lands on it, not into it.
TEST(World, ACrateAMillimetreAboveAnotherStillFalls) {
  Scenario s;
  s.world.push_back(test::floor_at(0.0));
  s.world.push_back(crate("low", {0, 0.3, 0}));
  s.world.push_back(crate("high", {0, 0.901, 0}));
  World w(s);
  w.step(1);
  EXPECT_NEAR(w.body_pose(2, 1).getOrigin().y(), 0.9, 1e-5);
  w.step(2);
  EXPECT_NEAR(w.body_pose(2, 2).getOrigin().y(), 0.9, 1e-5);
}

}  // namespace
}  // namespace stepslide
