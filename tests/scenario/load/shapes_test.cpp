// Scenario loader, shapes (scenario/load/shapes.cpp): each shape type's fields, the
// hull and mesh geometry checks, and the hull, triangle and heightfield limits.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "scenario/load/load.h"
#include "scenario/load/load_test_util.h"

namespace stepslide {
namespace {

using test::errors_of;
using test::loaded;
using test::loaded_with;
using test::minimal;
using test::paths_and_messages;
using Lines = std::vector<std::string>;

/// A world holding one body of `shape` (a JSON object).
std::string one_body(const std::string& shape) { return R"("world": [{"shape": )" + shape + "}]"; }

TEST(LoadShapes, EachTypeReadsItsFieldsAndDefaults) {
  const Scenario s = loaded_with(R"("world": [
      {"shape": {"type": "box", "half_extents": [1, 2, 3]}},
      {"shape": {"type": "cylinder", "radius": 0.5, "height": 3}},
      {"shape": {"type": "stairs", "steps": 4, "rise": 0.2, "run": 0.3, "width": 1.5}},
      {"shape": {"type": "ramp", "length": 4, "width": 2, "angle_deg": 30, "thickness": 0.5}},
      {"shape": {"type": "ramp", "length": 4, "width": 2, "angle_deg": 30}},
      {"shape": {"type": "heightfield", "rows": 2, "columns": 2, "cell_size": 0.5, "heights": [0, 1, 2, 3]}}])");
  ASSERT_EQ(s.world.size(), 6u);
  EXPECT_EQ(s.world[0].shape.half_extents, (Vec3{1, 2, 3}));
  EXPECT_EQ(s.world[1].shape.type, ShapeType::Cylinder);
  EXPECT_EQ(s.world[1].shape.height, 3.0);
  EXPECT_EQ(s.world[2].shape.steps, 4);
  EXPECT_EQ(s.world[2].shape.rise, 0.2);
  EXPECT_EQ(s.world[2].shape.width, 1.5);
  EXPECT_EQ(s.world[3].shape.thickness, 0.5);
  EXPECT_EQ(s.world[4].shape.thickness, 0.2);  // the default
  EXPECT_EQ(s.world[5].shape.heights, (std::vector<double>{0, 1, 2, 3}));
  EXPECT_EQ(s.world[5].shape.cell_size, 0.5);
}

TEST(LoadShapes, AnUnknownTypeStopsTheShapeThere) {
  // Which keys belong to an unknown type is unknown, so none is reported.
  EXPECT_EQ(errors_of(one_body(R"({"type": "cone", "apex": 1})")),
            Lines{"/world/0/shape/type: expected one of \"box\", \"sphere\", \"capsule\", \"cylinder\", "
                  "\"convex_hull\", \"mesh\", \"heightfield\", \"stairs\", \"ramp\", got \"cone\""});
}

TEST(LoadShapes, KeysOfAnotherTypeAreUnknown) {
  EXPECT_EQ(errors_of(one_body(R"({"type": "sphere", "radius": 1, "half_extents": [1, 1, 1]})")),
            Lines{"/world/0/shape/half_extents: unknown key \"half_extents\""});
}

TEST(LoadShapes, CapsuleMayBeExactlyASphereButNoShorter) {
  loaded_with(one_body(R"({"type": "capsule", "radius": 0.5, "height": 1})"));
  EXPECT_EQ(errors_of(one_body(R"({"type": "capsule", "radius": 0.5, "height": 0.99})")),
            Lines{"/world/0/shape/height: expected a number >= 1 (2 * radius), got 0.99"});
  // A cylinder may be flatter than it is wide.
  loaded_with(one_body(R"({"type": "cylinder", "radius": 0.5, "height": 0.1})"));
}

TEST(LoadShapes, HullFlatnessIsRelativeToItsSize) {
  // A millimetre-sized tetrahedron is a real volume...
  loaded_with(
      one_body(R"({"type": "convex_hull", "points": [[0, 0, 0], [0.001, 0, 0], [0, 0.001, 0], [0, 0, 0.001]]})"));
  // ...a kilometre-wide one only a micrometre thick is not.
  EXPECT_EQ(errors_of(one_body(
                R"({"type": "convex_hull", "points": [[0, 0, 0], [1000, 0, 0], [0, 0, 1000], [1000, 1e-6, 1000]]})")),
            Lines{"/world/0/shape/points: expected points spanning a volume, got points in one plane"});
}

TEST(LoadShapes, EveryRepeatedHullPointIsReportedAgainstTheFirst) {
  EXPECT_EQ(errors_of(one_body(R"({"type": "convex_hull",
                "points": [[1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 1], [0, 1, 0], [1, 1, 1], [0, 0, 1]]})")),
            (Lines{"/world/0/shape/points/3: expected distinct points, got a repeat of point 0",
                   "/world/0/shape/points/5: expected distinct points, got a repeat of point 0"}));
}

TEST(LoadShapes, HullPointLimit) {
  std::string points;
  for (int i = 0; i <= ScenarioLimits::max_hull_points; ++i)
    points += (i ? ", [" : "[") + std::to_string(i) + ", 0, 0]";
  EXPECT_EQ(errors_of(one_body(R"({"type": "convex_hull", "points": [)" + points + "]}")),
            Lines{"/world/0/shape/points: expected at most 4096 points (the hull point limit), got an array of 4097"});
}

TEST(LoadShapes, MeshTrianglesAreCheckedOneByOne) {
  EXPECT_EQ(
      errors_of(one_body(R"({"type": "mesh", "vertices": [[0, 0, 0], [1, 0, 0], [0, 0, 1], [2, 0, 0]],
                                   "triangles": [[0, 2, 1], [0, 0, 1], [0, 1, 3], [0, 1, 4]]})")),
      (Lines{"/world/0/shape/triangles/1: expected 3 different vertex indices, got [0, 0, 1]",
             "/world/0/shape/triangles/2: expected a triangle with non-zero area, got vertices [0, 1, 3] on one line",
             "/world/0/shape/triangles/3/2: expected an integer < 4 (the vertex count), got 4"}));
}

TEST(LoadShapes, MeshAreaIsNotCheckedWhenAVertexIsBad) {
  // With vertex 1 unreadable, only the vertex is reported, not the triangle.
  EXPECT_EQ(errors_of(one_body(R"({"type": "mesh", "vertices": [[0, 0, 0], [0, 0], [0, 0, 1]],
                                   "triangles": [[0, 1, 2]]})")),
            Lines{"/world/0/shape/vertices/1: expected an array of 3 numbers, got an array of 2"});
}

TEST(LoadShapes, TriangleLimitCountsAllMeshes) {
  // Distinct triangles (repeats are refused) over 250 vertices on a parabola,
  // no three of which lie on a line.
  auto mesh = [](std::int64_t triangles) {
    constexpr int kVertices = 250;
    std::string vertices;
    for (int t = 0; t < kVertices; ++t) {
      vertices += (t ? ",[" : "[") + std::to_string(t) + "," + std::to_string(t * t) + ",0]";
    }
    std::string list;
    list.reserve(static_cast<std::size_t>(triangles) * 12);
    std::int64_t made = 0;
    for (int i = 0; i < kVertices && made < triangles; ++i) {
      for (int j = i + 1; j < kVertices && made < triangles; ++j) {
        for (int k = j + 1; k < kVertices && made < triangles; ++k, ++made) {
          list += (made ? ",[" : "[") + std::to_string(i) + "," + std::to_string(j) + "," + std::to_string(k) + "]";
        }
      }
    }
    return R"({"shape": {"type": "mesh", "vertices": [)" + vertices + R"(], "triangles": [)" + list + "]}}";
  };
  const std::int64_t half = ScenarioLimits::max_triangles / 2;
  EXPECT_EQ(errors_of("\"world\": [" + mesh(half) + ", " + mesh(half + 1) + "]"),
            Lines{"/world/1/shape/triangles: expected at most 2000000 triangles over all meshes "
                  "(the triangle limit), got 2000001 so far"});
}

TEST(LoadShapes, HeightfieldCountIsCheckedOnlyWhenRowsAndColumnsAreValid) {
  EXPECT_EQ(
      errors_of(one_body(R"({"type": "heightfield", "rows": 2, "columns": 3, "cell_size": 1, "heights": [0, 0]})")),
      Lines{"/world/0/shape/heights: expected 6 heights (rows x columns), got an array of 2"});
  EXPECT_EQ(
      errors_of(one_body(R"({"type": "heightfield", "rows": 1, "columns": 3, "cell_size": 1, "heights": [0, 0]})")),
      Lines{"/world/0/shape/rows: expected an integer >= 2, got 1"});
}

TEST(LoadShapes, RampAngleIsStrictlyBetweenZeroAndNinety) {
  loaded_with(one_body(R"({"type": "ramp", "length": 1, "width": 1, "angle_deg": 89.9})"));
  EXPECT_EQ(errors_of(one_body(R"({"type": "ramp", "length": 1, "width": 1, "angle_deg": -5})")),
            Lines{"/world/0/shape/angle_deg: expected a number > 0, got -5"});
}

}  // namespace
}  // namespace stepslide
