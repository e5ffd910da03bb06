// Scenario loader, dynamic bodies (scenario/load/bodies.cpp): "mass" makes a
// body dynamic; friction, restitution and damping with their defaults; and
// the errors: a mass on a static-only shape, a mass out of range, a dynamic
// body with a motion or without a name, damping without a mass.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scenario/load/load.h"
#include "scenario/load/load_test_util.h"

namespace stepslide {
namespace {

using test::errors_of;
using test::loaded_with;
using Lines = std::vector<std::string>;

TEST(LoadDynamicBodies, AMassMakesABodyDynamicWithBulletsDefaults) {
  const Scenario s = loaded_with(R"("world": [
      {"name": "crate", "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "mass": 10},
      {"shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}}])");
  ASSERT_EQ(s.world.size(), 2u);
  EXPECT_TRUE(s.world[0].dynamic());
  EXPECT_EQ(s.world[0].dynamics.mass, 10.0);
  EXPECT_EQ(s.world[0].dynamics.friction, 0.5);
  EXPECT_EQ(s.world[0].dynamics.restitution, 0.0);
  EXPECT_EQ(s.world[0].dynamics.linear_damping, 0.0);
  EXPECT_EQ(s.world[0].dynamics.angular_damping, 0.0);
  EXPECT_FALSE(s.world[1].dynamic());
}

TEST(LoadDynamicBodies, FrictionRestitutionAndDampingAreRead) {
  const Scenario s = loaded_with(R"("world": [
      {"name": "ball", "shape": {"type": "sphere", "radius": 0.2}, "mass": 2, "friction": 0.8,
       "restitution": 0.3, "linear_damping": 0.1, "angular_damping": 0.2},
      {"shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "friction": 1.5}])");
  EXPECT_EQ(s.world[0].dynamics.friction, 0.8);
  EXPECT_EQ(s.world[0].dynamics.restitution, 0.3);
  EXPECT_EQ(s.world[0].dynamics.linear_damping, 0.1);
  EXPECT_EQ(s.world[0].dynamics.angular_damping, 0.2);
  EXPECT_EQ(s.world[1].dynamics.friction, 1.5);  // static bodies have a friction too
}

TEST(LoadDynamicBodies, AMassOnAStaticOnlyShapeIsRefused) {
  EXPECT_EQ(errors_of(R"("world": [{"name": "m", "shape": {"type": "mesh", "vertices": [[0,0,0],[1,0,0],[0,0,1]],
                                   "triangles": [[0,1,2]]}, "mass": 1}])"),
            Lines{"/world/0/mass: expected no \"mass\": mesh bodies are static only"});
  EXPECT_EQ(errors_of(R"("world": [{"name": "h", "shape": {"type": "heightfield", "rows": 2, "columns": 2, "cell_size": 1,
                                   "heights": [0,0,0,0]}, "mass": 1}])"),
            Lines{"/world/0/mass: expected no \"mass\": heightfield bodies are static only"});
  EXPECT_EQ(errors_of(R"("world": [{"name": "s", "shape": {"type": "stairs", "steps": 2, "rise": 0.2, "run": 0.3,
                                   "width": 1}, "mass": 1}])"),
            Lines{"/world/0/mass: expected no \"mass\": stairs bodies are static only"});
}

TEST(LoadDynamicBodies, AMassMustBePositiveAndFinite) {
  EXPECT_EQ(errors_of(R"("world": [{"name": "c", "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "mass": 0}])"),
            Lines{"/world/0/mass: expected a number > 0, got 0"});
  EXPECT_EQ(errors_of(R"("world": [{"name": "c", "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "mass": -2}])"),
            Lines{"/world/0/mass: expected a number > 0, got -2"});
  EXPECT_EQ(errors_of(R"("world": [{"name": "c", "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "mass": 1e999}])").size(), 1u);
}

TEST(LoadDynamicBodies, FrictionMustBeANumberInRange) {
  EXPECT_EQ(errors_of(R"("world": [{"name": "c", "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "mass": 1, "friction": -1}])"),
            Lines{"/world/0/friction: expected a number >= 0, got -1"});
  EXPECT_EQ(errors_of(R"("world": [{"name": "c", "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "mass": 1, "friction": "NaN"}])"),
            Lines{"/world/0/friction: expected a number, got \"NaN\""});
  EXPECT_EQ(errors_of(R"("world": [{"name": "c", "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "mass": 1, "restitution": 2}])"),
            Lines{"/world/0/restitution: expected a number <= 1, got 2"});
}

TEST(LoadDynamicBodies, ADynamicBodyHasNoMotion) {
  EXPECT_EQ(errors_of(R"("world": [{"name": "c", "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "mass": 1,
                                   "motion": {"type": "linear", "velocity": [1, 0, 0]}}])"),
            Lines{"/world/0/motion: expected no \"motion\" on a body with a \"mass\": a dynamic body is moved by the "
                  "physics"});
}

TEST(LoadDynamicBodies, ADynamicBodyIsNamedForItsColumns) {
  EXPECT_EQ(errors_of(R"("world": [{"shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "mass": 1}])"),
            Lines{"/world/0: missing required key \"name\" (a dynamic body's trajectory columns are named after it)"});
  EXPECT_EQ(errors_of(R"("world": [{"name": "a.b", "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "mass": 1}])"),
            Lines{"/world/0/name: expected a name of letters, digits, '_' and '-' (a dynamic body's columns are "
                  "named \"a.b.x\" and so on), got \"a.b\""});
}

TEST(LoadDynamicBodies, DampingNeedsAMass) {
  EXPECT_EQ(errors_of(R"("world": [{"shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "linear_damping": 0.5}])"),
            Lines{"/world/0/linear_damping: expected no \"linear_damping\" on a body without a \"mass\" (only "
                  "dynamic bodies are damped or start moving)"});
}

// A capture's dynamic bodies start moving: velocity and angular_velocity at
// tick 0, on dynamic bodies only, within the speed limit.
TEST(LoadDynamicBodies, AStartingVelocityIsReadForDynamicBodiesOnly) {
  const Scenario s = loaded_with(R"("world": [
      {"name": "crate", "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "mass": 10,
       "velocity": [1, 2, 3], "angular_velocity": [0, 0.5, 0]}])");
  EXPECT_EQ(s.world[0].dynamics.velocity, (Vec3{1, 2, 3}));
  EXPECT_EQ(s.world[0].dynamics.angular_velocity, (Vec3{0, 0.5, 0}));
  EXPECT_EQ(errors_of(R"("world": [{"shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "velocity": [1, 0, 0]}])"),
            Lines{"/world/0/velocity: expected no \"velocity\" on a body without a \"mass\" (only dynamic bodies "
                  "are damped or start moving)"});
  const std::vector<std::string> fast = errors_of(R"("world": [{"name": "c", "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]},
       "mass": 1, "angular_velocity": [0, 1e9, 0]}])");
  ASSERT_EQ(fast.size(), 1u);
  EXPECT_EQ(fast[0].rfind("/world/0/angular_velocity/1", 0), 0u) << fast[0];
}

TEST(LoadDynamicBodies, DynamicBodyTicksAreBounded) {
  std::string world = R"("world": [)";
  for (int i = 0; i < 30; ++i) {
    world += std::string(i ? "," : "") + R"({"name": "b)" + std::to_string(i) + R"(", "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "mass": 1})";
  }
  world += "]";
  const std::string text = R"({"format": "stepslide/scenario@1", "ticks": 1000000, )" + world + "}";
  const std::vector<std::string> errors = test::paths_and_messages(load_scenario_text(text, "t"));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("dynamic body-ticks"), std::string::npos) << errors[0];
}

}  // namespace
}  // namespace stepslide
