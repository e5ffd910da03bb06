// Level files and includes (scenario/load/level_include.h), mesh files in a
// scenario (scenario/load/shapes.cpp), the inputs a load lists, and where paths may lead.
#include <gtest/gtest.h>

#include "scenario/load/level_include.h"
#include "scenario/load/load.h"
#include "support/gltf_writer.h"
#include "support/temp_dir.h"

namespace stepslide {
namespace {

namespace fs = std::filesystem;
using test::TempDirTest;
using testing::make_glb;
using testing::quad_node;

std::string level(const std::string& world) {
  return R"({"format": "stepslide/level@1", "world": )" + world + "}";
}
std::string scenario(const std::string& world, const std::string& extra = "") {
  return R"({"format": "stepslide/scenario@1", "ticks": 10, "world": )" + world + extra + "}";
}

std::vector<std::string> error_lines(const LoadResult& load) {
  std::vector<std::string> lines;
  for (const LoadError& e : load.errors) lines.push_back(e.json_path + ": " + e.message);
  return lines;
}

class Levels : public TempDirTest {
 protected:
  LoadResult load(const std::string& rel, LoadOptions options = {}) {
    return load_scenario_file(path(rel).string(), options);
  }
  Scenario load_ok(const std::string& rel, LoadOptions options = {}) {
    LoadResult result = load(rel, options);
    EXPECT_TRUE(result.errors.empty()) << format_load_errors(result);
    return result.scenario.value_or(Scenario{});
  }
};

std::vector<std::string> body_names(const Scenario& s) {
  std::vector<std::string> names;
  for (const BodyDef& b : s.world) names.push_back(b.name);
  return names;
}

TEST_F(Levels, IncludeSplicesTheLevelsBodiesInPlace) {
  write("levels/room.json", level(R"([{"name": "floor", "shape": {"type": "box", "half_extents": [5, 0.5, 5]}},
                                      {"name": "wall", "shape": {"type": "box", "half_extents": [0.1, 1, 5]}}])"));
  write("walk.json", scenario(R"([{"name": "first", "shape": {"type": "sphere", "radius": 1}},
                                  {"include": "levels/room.json"},
                                  {"name": "last", "shape": {"type": "sphere", "radius": 1}}])"));
  const Scenario s = load_ok("walk.json");
  EXPECT_EQ(body_names(s), (std::vector<std::string>{"first", "floor", "wall", "last"}));
  EXPECT_EQ(s.world[1].json_path, "levels/room.json#/world/0");
  EXPECT_EQ(s.world[3].json_path, "/world/2");
}

TEST_F(Levels, IncludesNestWithPathsRelativeToTheIncludingFile) {
  write("levels/house.glb", make_glb({quad_node("Floor", 10.0f)}));
  write("levels/parts/furniture.json", level(R"([{"name": "table", "shape": {"type": "box", "half_extents": [1, 0.5, 1]}}])"));
  write("levels/house.json", level(R"([{"name": "house", "shape": {"type": "mesh", "file": "house.glb"}},
                                       {"include": "parts/furniture.json"}])"));
  write("walks/../walk.json", scenario(R"([{"include": "levels/house.json"}])"));
  const LoadResult result = load("walk.json");
  ASSERT_TRUE(result.scenario) << format_load_errors(result);
  EXPECT_EQ(body_names(*result.scenario), (std::vector<std::string>{"house", "table"}));
  std::vector<std::string> inputs;
  for (const InputFile& f : result.inputs) inputs.push_back(f.path);
  EXPECT_EQ(inputs, (std::vector<std::string>{"walk.json", "levels/house.json", "levels/house.glb",
                                               "levels/parts/furniture.json"}));
  EXPECT_EQ(result.inputs[2].fnv1a64, fnv1a64_of(read("levels/house.glb")));
  ASSERT_EQ(result.notes.size(), 1u);
  EXPECT_EQ(result.notes[0], path("walk.json").string() +
                                 ": levels/house.json#/world/0/shape/file: levels/house.glb: 2 triangles in 1 node; "
                                 "dropped 0 degenerate, 0 duplicate; 6 corners welded to 4 vertices");
}

TEST_F(Levels, ALevelIncludedTwiceIsOneInputButItsNamesClash) {
  write("levels/crate.json", level(R"([{"shape": {"type": "box", "half_extents": [1, 1, 1]}}])"));
  write("two.json", scenario(R"([{"include": "levels/crate.json"}, {"include": "levels/crate.json"}])"));
  const LoadResult result = load("two.json");
  ASSERT_TRUE(result.scenario) << format_load_errors(result);
  EXPECT_EQ(result.scenario->world.size(), 2u);
  EXPECT_EQ(result.inputs.size(), 2u);
  write("levels/named.json", level(R"([{"name": "crate", "shape": {"type": "box", "half_extents": [1, 1, 1]}}])"));
  write("clash.json", scenario(R"([{"include": "levels/named.json"}, {"include": "levels/named.json"}])"));
  EXPECT_EQ(error_lines(load("clash.json")),
            (std::vector<std::string>{"/world/1/include: levels/named.json: /world/0/name: duplicate body name "
                                      "\"crate\", first used by levels/named.json#/world/0"}));
}

TEST_F(Levels, MeshFileMergeFalseMakesOneBodyPerNodeNamedAfterIt) {
  auto upper = quad_node("Upper", 4.0f, 3.0f);
  write("house.glb", make_glb({quad_node("Ground", 10.0f), upper}));
  write("split.json", scenario(R"([{"name": "house", "shape": {"type": "mesh", "file": "house.glb", "merge": false},
                                    "position": [1, 2, 3]},
                                   {"shape": {"type": "mesh", "file": "house.glb", "merge": false,
                                              "include": ["Upper"]}}])"));
  const Scenario s = load_ok("split.json");
  EXPECT_EQ(body_names(s), (std::vector<std::string>{"house/Ground", "house/Upper", "Upper"}));
  for (const BodyDef& b : s.world) EXPECT_EQ(b.shape.type, ShapeType::Mesh);
  EXPECT_EQ(s.world[1].position, (Vec3{1, 2, 3}));
  EXPECT_EQ(s.world[1].shape.mesh_file.node, "Upper");
  EXPECT_EQ(s.world[1].shape.triangles.size(), 2u);
  EXPECT_EQ(s.world[2].json_path, "/world/1");
}

TEST_F(Levels, MeshFileOptionsAreKeptWithTheShape) {
  write("m.glb", make_glb({quad_node("Floor", 2.0f)}));
  write("s.json", scenario(R"([{"shape": {"type": "mesh", "file": "./m.glb", "scale": 2, "up_axis": "z",
                                           "exclude": ["Prop*"]}}])"));
  const Scenario s = load_ok("s.json");
  const MeshFileDef& def = s.world[0].shape.mesh_file;
  EXPECT_EQ(def.file, "./m.glb");
  EXPECT_EQ(def.scale, 2.0);
  EXPECT_EQ(def.up_axis, UpAxis::Z);
  EXPECT_EQ(def.exclude, (std::vector<std::string>{"Prop*"}));
  EXPECT_TRUE(def.merge);
  // Z-up: the file's flat quad stands upright after turning; scaled by 2 it spans 4 m in Y.
  double lo = 1e9, hi = -1e9;
  for (const Vec3& v : s.world[0].shape.vertices) {
    lo = std::min(lo, v[1]);
    hi = std::max(hi, v[1]);
  }
  EXPECT_EQ(hi - lo, 4.0);
}

TEST_F(Levels, PathsMayNotLeaveTheScenariosDirectoryUnlessAllowed) {
  write("shared/floor.json", level(R"([{"shape": {"type": "box", "half_extents": [1, 1, 1]}}])"));
  write("walks/inside.json", scenario(R"([{"include": "../walks/./levels/../../walks/x/../levels/a.json"}])"));
  write("walks/levels/a.json", level(R"([{"shape": {"type": "box", "half_extents": [1, 1, 1]}}])"));
  EXPECT_TRUE(load("walks/inside.json").scenario) << format_load_errors(load("walks/inside.json"));
  write("walks/outside.json", scenario(R"([{"include": "../shared/floor.json"}])"));
  EXPECT_EQ(error_lines(load("walks/outside.json")),
            (std::vector<std::string>{"/world/0/include: path ../shared/floor.json leads outside the scenario's "
                                      "directory (use --allow-outside to allow it)"}));
  LoadOptions allow;
  allow.allow_outside = true;
  const LoadResult allowed = load("walks/outside.json", allow);
  ASSERT_TRUE(allowed.scenario) << format_load_errors(allowed);
  EXPECT_EQ(allowed.inputs[1].path, path("shared/floor.json").lexically_normal().generic_string());
  // A level inside the root may not reach out either.
  write("walks/levels/out.json", level(R"([{"include": "../../shared/floor.json"}])"));
  write("walks/via_level.json", scenario(R"([{"include": "levels/out.json"}])"));
  EXPECT_EQ(error_lines(load("walks/via_level.json")),
            (std::vector<std::string>{"/world/0/include: levels/out.json: /world/0/include: path "
                                      "../../shared/floor.json leads outside the scenario's directory (use "
                                      "--allow-outside to allow it)"}));
}

TEST_F(Levels, IsLevelFileLooksAtTheFormat) {
  write("level.json", level("[]"));
  write("scenario.json", scenario("[]"));
  write("mentions.json", scenario("[]", R"(, "description": "not a stepslide/level@1")"));
  write("broken.json", "{\"format\": \"stepslide/level@1\"");
  EXPECT_TRUE(is_level_file(path("level.json").string()));
  EXPECT_FALSE(is_level_file(path("scenario.json").string()));
  EXPECT_FALSE(is_level_file(path("mentions.json").string()));
  EXPECT_FALSE(is_level_file(path("broken.json").string()));
  EXPECT_FALSE(is_level_file(path("missing.json").string()));
}

TEST_F(Levels, AnEmptyLevelIsFineAndTheScenarioItselfIsTheFirstInput) {
  write("levels/empty.json", level("[]"));
  write("s.json", scenario(R"([{"include": "levels/empty.json"}])"));
  const LoadResult result = load("s.json");
  ASSERT_TRUE(result.scenario);
  ASSERT_EQ(result.inputs.size(), 2u);
  EXPECT_EQ(result.inputs[0].path, "s.json");
  EXPECT_EQ(result.inputs[0].fnv1a64, fnv1a64_of(read("s.json")));
}

TEST(InputFiles, Hashes) {
  EXPECT_EQ(hex64(fnv1a64_of("")), "cbf29ce484222325");
  EXPECT_EQ(hex64(fnv1a64_of("a")), "af63dc4c8601ec8c");
  EXPECT_EQ(fnv1a64_of("b", fnv1a64_of("a")), fnv1a64_of("ab"));
}

TEST(InputFiles, ResolveRefusesEmptyAndAbsolutePaths) {
  const PathPolicy policy{"root", false};
  EXPECT_FALSE(resolve_input_path("", "root", policy));
  EXPECT_FALSE(resolve_input_path("/etc/hosts", "root", policy));
  EXPECT_EQ(*resolve_input_path("a/../b.glb", "root/levels", policy), "root/levels/b.glb");
  EXPECT_EQ(input_display_path("root/levels/b.glb", policy), "levels/b.glb");
  EXPECT_EQ(directory_of("a/b.json"), "a");
  EXPECT_EQ(directory_of("b.json"), "");
}

}  // namespace
}  // namespace stepslide
