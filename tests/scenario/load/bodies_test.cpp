// Scenario loader, the world's bodies (scenario/load/bodies.cpp): placement, unique
// names, static-only shapes and the body limit.

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

TEST(LoadWorld, BodiesKeepTheirPlacementNameAndPath) {
  const Scenario s = loaded_with(R"("world": [
      {"name": "floor", "shape": {"type": "box", "half_extents": [5, 1, 5]}, "position": [0, -1, 0]},
      {"shape": {"type": "sphere", "radius": 1}, "rotation_deg": [10, 20, 30]}])");
  ASSERT_EQ(s.world.size(), 2u);
  EXPECT_EQ(s.world[0].name, "floor");
  EXPECT_EQ(s.world[0].json_path, "/world/0");
  EXPECT_EQ(s.world[0].position, (Vec3{0, -1, 0}));
  EXPECT_EQ(s.world[1].name, "");  // unnamed
  EXPECT_EQ(s.world[1].json_path, "/world/1");
  EXPECT_EQ(s.world[1].rotation_deg, (Vec3{10, 20, 30}));
  EXPECT_EQ(s.world[1].motion.type, MotionType::None);
}

TEST(LoadWorld, EveryLaterUseOfANameIsReportedAgainstTheFirst) {
  EXPECT_EQ(errors_of(R"("world": [{"name": "a", "shape": {"type": "sphere", "radius": 1}},
                                   {"name": "b", "shape": {"type": "sphere", "radius": 1}},
                                   {"name": "a", "shape": {"type": "sphere", "radius": 1}},
                                   {"name": "a", "shape": {"type": "sphere", "radius": 1}}])"),
            (Lines{"/world/2/name: duplicate body name \"a\", first used by /world/0",
                   "/world/3/name: duplicate body name \"a\", first used by /world/0"}));
}

TEST(LoadWorld, GeneratedAndTriangleShapesCannotMove) {
  EXPECT_EQ(errors_of(R"("world": [{"shape": {"type": "stairs", "steps": 2, "rise": 0.2, "run": 0.3, "width": 1},
                                    "motion": {"type": "linear", "velocity": [1, 0, 0]}}])"),
            Lines{"/world/0/motion: expected no \"motion\": stairs bodies are static only"});
}

TEST(LoadWorld, AnUnknownShapeStillLetsTheMotionBeChecked) {
  EXPECT_EQ(errors_of(R"("world": [{"shape": {"type": "cone"}, "motion": {"type": "orbit"}}])"),
            (Lines{"/world/0/shape/type: expected one of \"box\", \"sphere\", \"capsule\", \"cylinder\", "
                   "\"convex_hull\", \"mesh\", \"heightfield\", \"stairs\", \"ramp\", got \"cone\"",
                   "/world/0/motion/type: expected one of \"linear\", \"spin\", \"keyframes\", got \"orbit\""}));
}

TEST(LoadWorld, ExpandedStairsCountAgainstTheBodyLimit) {
  std::string bodies;
  const int stairs = static_cast<int>(ScenarioLimits::max_bodies / ScenarioLimits::max_stairs_steps) + 1;
  for (int i = 0; i < stairs; ++i) {
    bodies += std::string(i ? ", " : "") + R"({"shape": {"type": "stairs", "steps": )" +
              std::to_string(ScenarioLimits::max_stairs_steps) + R"(, "rise": 0.1, "run": 0.1, "width": 1}})";
  }
  EXPECT_EQ(errors_of("\"world\": [" + bodies + "]"),
            Lines{"/world/" + std::to_string(stairs - 1) +
                  ": expected at most 200000 bodies (the body limit; stairs count one per step), got more"});
}

}  // namespace
}  // namespace stepslide
