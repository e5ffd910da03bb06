// "place": "on_floor" (scenario/load/spawn.h) and the floors under a point
// (scenario/load/floor_probe.h).
#include <gtest/gtest.h>

#include "scenario/load/floor_probe.h"
#include "scenario/load/load.h"
#include "scenario/load/spawn.h"
#include "scenario/load/world.h"
#include "scenario/run/simulate.h"
#include "support/gltf_writer.h"
#include "support/temp_dir.h"

namespace stepslide {
namespace {

using test::TempDirTest;

/// A floor box (top at y 0), a table (top at y 1) over x in [-1, 1], and a shelf
/// (top at y 2.5, 0.2 thick) over x in [3, 5].
const char* kRoom = R"([
  {"name": "floor", "shape": {"type": "box", "half_extents": [10, 0.5, 10]}, "position": [0, -0.5, 0]},
  {"name": "table", "shape": {"type": "box", "half_extents": [1, 0.5, 1]}, "position": [0, 0.5, 0]},
  {"name": "shelf", "shape": {"type": "box", "half_extents": [1, 0.1, 1]}, "position": [4, 2.4, 0]},
  {"name": "slope", "shape": {"type": "ramp", "length": 4, "width": 2, "angle_deg": 30}, "position": [-5, 0, 2]}
])";

LoadResult load_with(const std::string& character, const char* world = kRoom) {
  return load_scenario_text(R"({"format": "stepslide/scenario@1", "ticks": 30, "character": )" + character +
                                R"(, "world": )" + world + "}",
                            "spawn.json");
}

Vec3 placed(const std::string& character, const char* world = kRoom) {
  const LoadResult load = load_with(character, world);
  EXPECT_TRUE(load.scenario) << format_load_errors(load);
  return load.scenario ? load.scenario->character.position : Vec3{NAN, NAN, NAN};
}

TEST(Spawn, FeetGoOnTheFirstSurfaceBelow) {
  EXPECT_NEAR(placed(R"({"position": [0, 5, 0], "place": "on_floor"})")[1], 1.0, 1e-6);   // the table
  EXPECT_NEAR(placed(R"({"position": [6, 5, 6], "place": "on_floor"})")[1], 0.0, 1e-6);   // the floor
  EXPECT_NEAR(placed(R"({"position": [4, 0.4, 0], "place": "on_floor"})")[1], 0.0, 1e-6); // under the shelf
  EXPECT_NEAR(placed(R"({"position": [4, 9, 0], "place": "on_floor"})")[1], 2.5, 1e-6);   // on the shelf
}

TEST(Spawn, KeepsTheRequestedPointAndMovesOnlyAlongUp) {
  const LoadResult load = load_with(R"({"position": [6, 5, -3], "place": "on_floor"})");
  ASSERT_TRUE(load.scenario);
  const CharacterDef& c = load.scenario->character;
  EXPECT_EQ(c.place, Placement::OnFloor);
  EXPECT_EQ(c.requested_position, (Vec3{6, 5, -3}));
  EXPECT_EQ(c.position[0], 6.0);
  EXPECT_EQ(c.position[2], -3.0);
}

TEST(Spawn, TheCapsuleLandsOnAnEdgeWhereItsRoundBottomTouches) {
  // Centre 0.2 m beyond the table's edge: the capsule (radius 0.3) still rests on the table's edge,
  // its feet (the lowest point of the shape) a little below the top.
  const Vec3 feet = placed(R"({"position": [1.2, 5, 0], "place": "on_floor"})");
  EXPECT_GT(feet[1], 0.5);
  EXPECT_LT(feet[1], 1.0);
}

TEST(Spawn, EveryCharacterShape) {
  for (const char* shape : {R"({"type": "sphere", "radius": 0.4})", R"({"type": "box", "half_extents": [0.3, 0.9, 0.3]})",
                            R"({"type": "cylinder", "radius": 0.3, "height": 1.8})"}) {
    SCOPED_TRACE(shape);
    const Vec3 feet = placed(R"({"shape": )" + std::string(shape) + R"(, "position": [6, 5, 6], "place": "on_floor"})");
    EXPECT_NEAR(feet[1], 0.0, 2e-3);  // within the shapes' collision margins
  }
}

TEST(Spawn, AWalkableSlopeIsAFloor) {
  const Vec3 feet = placed(R"({"position": [-5, 9, 0], "place": "on_floor"})");
  EXPECT_GT(feet[1], 0.0);
}

TEST(Spawn, AnotherUpAxis) {
  const LoadResult load = load_scenario_text(
      R"({"format": "stepslide/scenario@1", "ticks": 5, "gravity": [0, 0, -9.81],
          "character": {"position": [0, 0, 8], "place": "on_floor"},
          "world": [{"shape": {"type": "box", "half_extents": [5, 5, 0.5]}, "position": [0, 0, 1.5]}]})",
      "z_up.json");
  ASSERT_TRUE(load.scenario) << format_load_errors(load);
  EXPECT_NEAR(load.scenario->character.position[2], 2.0, 1e-6);
}

TEST(Spawn, ThePlacedCharacterStandsStill) {
  const LoadResult load = load_with(R"({"position": [0, 5, 0], "place": "on_floor"})");
  ASSERT_TRUE(load.scenario);
  const SimulationResult run = simulate(*load.scenario);
  const Trajectory& t = run.trajectory;
  const int y = t.column_index("y"), grounded = t.column_index("grounded");
  for (const auto& row : t.rows) {
    EXPECT_NEAR(row[static_cast<std::size_t>(y)], 1.0, 1e-6);
    EXPECT_EQ(row[static_cast<std::size_t>(grounded)], 1.0);
  }
}

TEST(Spawn, ErrorsAreAtCharacterPlace) {
  const LoadResult none = load_with(R"({"position": [50, 5, 0], "place": "on_floor"})");
  ASSERT_EQ(none.errors.size(), 1u);
  EXPECT_EQ(format_error(none.errors[0]),
            "spawn.json: /character/place: no floor below (50, 5, 0): the character's shape swept straight down "
            "meets nothing");
  const LoadResult below = load_with(R"({"position": [6, -2, 6], "place": "on_floor"})");
  ASSERT_EQ(below.errors.size(), 1u);
  EXPECT_EQ(below.errors[0].json_path, "/character/place");
  const LoadResult head_in_shelf = load_with(R"({"position": [4, 2.2, 0], "place": "on_floor"})");
  ASSERT_EQ(head_in_shelf.errors.size(), 1u);
  EXPECT_EQ(head_in_shelf.errors[0].message,
            "the character dropped from (4, 2.2, 0) starts inside body shelf (0.3 m deep): give a point where the "
            "whole shape is clear (see stepslide probe)");
}

TEST(FloorProbe, ListsUpwardSurfacesTopToBottom) {
  const LoadResult load = load_with(R"({"position": [0, 0, 0]})");
  ASSERT_TRUE(load.scenario);
  World world(*load.scenario);
  const std::vector<FloorHit> at_table = floors_under(world, *load.scenario, 0.5, 0.5);
  ASSERT_EQ(at_table.size(), 2u);
  EXPECT_EQ(at_table[0].body, "table");
  EXPECT_NEAR(at_table[0].point[1], 1.0, 1e-9);
  EXPECT_EQ(at_table[1].body, "floor");
  EXPECT_NEAR(at_table[1].point[1], 0.0, 1e-9);
  EXPECT_TRUE(at_table[1].walkable);
  EXPECT_NEAR(at_table[1].normal[1], 1.0, 1e-9);
  EXPECT_TRUE(floors_under(world, *load.scenario, 50, 0).empty());
}

class FloorProbeMesh : public TempDirTest {};

TEST_F(FloorProbeMesh, TwoStoreysWithACeilingAndASteepRoof) {
  // Ground at 0, a slab at 3 whose underside (a ceiling at 2.8) faces down, a roof pitched 60 degrees.
  testing::GltfNode slab;
  slab.name = "Slab";
  slab.positions = {{-5, 3, -5}, {-5, 3, 5}, {5, 3, 5}, {5, 3, -5}, {-5, 2.8f, -5}, {-5, 2.8f, 5}, {5, 2.8f, 5}, {5, 2.8f, -5}};
  slab.indices = {0, 1, 2, 0, 2, 3, 4, 6, 5, 4, 7, 6};  // top faces up, bottom faces down
  testing::GltfNode roof;
  roof.name = "Roof";
  const float rise = 10.0f * 1.7320508f;  // 60 degrees over 10 m
  roof.positions = {{-5, 6, -5}, {-5, 6, 5}, {5, 6 + rise, 5}, {5, 6 + rise, -5}};
  roof.indices = {0, 1, 2, 0, 2, 3};
  write("house.glb", testing::make_glb({testing::quad_node("Ground", 10.0f), slab, roof}));
  write("house.json", R"({"format": "stepslide/scenario@1", "ticks": 1,
                          "world": [{"name": "house", "shape": {"type": "mesh", "file": "house.glb", "merge": false}}]})");
  const LoadResult load = load_scenario_file(path("house.json").string());
  ASSERT_TRUE(load.scenario) << format_load_errors(load);
  World world(*load.scenario);
  const std::vector<FloorHit> floors = floors_under(world, *load.scenario, 0, 0);
  ASSERT_EQ(floors.size(), 3u);
  EXPECT_EQ(floors[0].body, "house/Roof");
  EXPECT_FALSE(floors[0].walkable);
  EXPECT_NEAR(floors[0].slope_deg, 60.0, 1e-3);
  EXPECT_EQ(floors[1].body, "house/Slab");
  EXPECT_NEAR(floors[1].point[1], 3.0, 1e-6);
  EXPECT_EQ(floors[2].body, "house/Ground");
  // Dropped from under the roof the character lands on the slab; from inside the ground floor, on the ground.
  Scenario s = *load.scenario;
  EXPECT_NEAR((*drop_character(s, world, {0, 5, 0}))[1], 3.0, 1e-6);
  EXPECT_NEAR((*drop_character(s, world, {0, 0.5, 0}))[1], 0.0, 1e-6);
  // Feet at 2.5 put the head (1.8 m tall) through the slab: refused, not dropped through it.
  const Expected<Vec3> through = drop_character(s, world, {0, 2.5, 0});
  ASSERT_FALSE(through);
  EXPECT_CONTAINS(through.error(), "starts inside body house/Slab");
  const Expected<Vec3> on_roof = drop_character(s, world, {0, 40, 0});
  ASSERT_FALSE(on_roof);
  EXPECT_CONTAINS(on_roof.error(), "too steep to stand on: body house/Roof");
}

}  // namespace
}  // namespace stepslide
