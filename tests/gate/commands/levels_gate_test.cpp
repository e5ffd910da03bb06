// Levels in the gate: every input's digest in golden metadata and the note
// naming a changed level or mesh file; `import`, `probe`, and directory
// searches that skip level files. End to end through the binary.
#include <gtest/gtest.h>

#include "gate/commands/point_option.h"
#include "gate/core/metadata.h"
#include "support/gltf_writer.h"
#include "support/temp_dir.h"

namespace stepslide {
namespace {

namespace fs = std::filesystem;
using test::RunResult;
using test::TempDirTest;
using testing::GltfNode;
using testing::make_glb;
using testing::quad_node;

TEST(InputsMetadata, AScenarioAloneKeepsTheFormerMetadataExactly) {
  const std::string bytes = R"({"format": "stepslide/scenario@1", "ticks": 1})";
  EXPECT_EQ(trajectory_metadata("walk", std::vector<InputFile>{{"walk.json", fnv1a64_of(bytes)}}, "build 1"),
            trajectory_metadata("walk", bytes, "build 1"));
}

TEST(InputsMetadata, ListsEveryInputAndHashesThemTogether) {
  const std::vector<InputFile> inputs = {{"walk.json", 1}, {"levels/my house.glb", 0xabc}, {"100%.json", 2}};
  const std::vector<std::string> lines = trajectory_metadata("walk", inputs, "build 1");
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[2],
            " inputs walk.json fnv1a64:0000000000000001 levels/my%20house.glb fnv1a64:0000000000000abc "
            "100%25.json fnv1a64:0000000000000002");
  Trajectory t;
  t.metadata = lines;
  const std::vector<InputFile> read = metadata_inputs(t);
  ASSERT_EQ(read.size(), 3u);
  EXPECT_EQ(read[1].path, "levels/my house.glb");
  EXPECT_EQ(read[1].fnv1a64, 0xabcu);
  EXPECT_EQ(read[2].path, "100%.json");
  // The scenario hash covers every input: any file changing changes it.
  std::vector<InputFile> changed = inputs;
  changed[1].fnv1a64 = 0xabd;
  EXPECT_NE(trajectory_metadata("walk", changed, "build 1")[1], lines[1]);
}

TEST(InputsMetadata, TheChangeNoteNamesEachFileThatChangedCameOrWent) {
  Trajectory golden, actual;
  golden.metadata = trajectory_metadata("w", {{"w.json", 1}, {"levels/a.json", 2}, {"levels/a.glb", 3}}, "b");
  actual.metadata = trajectory_metadata("w", {{"w.json", 1}, {"levels/a.json", 2}, {"levels/a.glb", 4}}, "b");
  EXPECT_EQ(scenario_change_note(golden, actual),
            "note: levels/a.glb changed since the golden was blessed (fnv1a64:0000000000000003, now "
            "fnv1a64:0000000000000004)\n");
  actual.metadata = trajectory_metadata("w", {{"w.json", 1}, {"levels/b.glb", 3}}, "b");
  EXPECT_EQ(scenario_change_note(golden, actual),
            "note: levels/b.glb is read now but was not when the golden was blessed\n"
            "note: levels/a.json was read when the golden was blessed, not now\n"
            "note: levels/a.glb was read when the golden was blessed, not now\n");
  EXPECT_EQ(scenario_change_note(golden, golden), "");
}

TEST(PointOption, ParsesTwoOrThreeNumbers) {
  const Expected<PointOption> xz = parse_point_option("1.5, -2", false);
  ASSERT_TRUE(xz);
  EXPECT_EQ(xz->x, 1.5);
  EXPECT_EQ(xz->z, -2.0);
  EXPECT_FALSE(xz->y);
  const Expected<PointOption> xyz = parse_point_option("1,2,3", true);
  ASSERT_TRUE(xyz);
  EXPECT_EQ(*xyz->y, 2.0);
  EXPECT_EQ(parse_point_option("1,2,3", false).error(), "error: --at: expected X,Z, got 3 numbers in \"1,2,3\"\n");
  EXPECT_FALSE(parse_point_option("1,nan", false));
  EXPECT_FALSE(parse_point_option("1,", false));
  EXPECT_FALSE(parse_point_option("a,b", true));
}

class LevelsGate : public TempDirTest {
 protected:
  /// scenarios/house/levels/house.glb (ground at `ground_y`, an upper floor at 3),
  /// scenarios/house/levels/house.json (that mesh, split per node) and two walks including it.
  void write_project(float ground_y = 0.0f) {
    write("scenarios/house/levels/house.glb",
          make_glb({quad_node("Ground", 20.0f, ground_y), quad_node("Upper", 4.0f, 3.0f)}));
    write("scenarios/house/levels/house.json",
          R"({"format": "stepslide/level@1", "world": [
               {"name": "house", "shape": {"type": "mesh", "file": "house.glb", "merge": false}}]})");
    for (const char* walk : {"walk_a", "walk_b"}) {
      write(std::string("scenarios/house/") + walk + ".json",
            R"({"format": "stepslide/scenario@1", "ticks": 20,
                "character": {"position": [6, 2, 0], "place": "on_floor"},
                "world": [{"include": "levels/house.json"}],
                "input": [{"tick": 0, "move": [0, 1]}]})");
    }
  }
};

TEST_F(LevelsGate, BlessThenCheckThenALevelFileChangesAndCheckNamesIt) {
  write_project();
  RunResult r = run("bless");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(exists("golden/house/walk_a.csv"));
  EXPECT_FALSE(exists("golden/house/levels/house.csv"));  // a level file is not a scenario
  const std::string golden = read("golden/house/walk_a.csv");
  EXPECT_CONTAINS(golden, "# inputs walk_a.json fnv1a64:");
  EXPECT_CONTAINS(golden, " levels/house.json fnv1a64:");
  EXPECT_CONTAINS(golden, " levels/house.glb fnv1a64:");
  r = run("check");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_CONTAINS(r.out, "2 passed, 0 failed");

  write_project(-0.25f);  // the ground moves down: the character falls further
  r = run("check");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_CONTAINS(r.out, "note: levels/house.glb changed since the golden was blessed (fnv1a64:");
  EXPECT_EQ(r.out.find("levels/house.json changed"), std::string::npos);
  EXPECT_CONTAINS(r.out, "0 passed, 2 failed");
}

TEST_F(LevelsGate, ValidateSkipsLevelFilesInDirectoriesAndPrintsMeshNotes) {
  write_project();
  const RunResult r = run("validate scenarios");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "ok scenarios/house/walk_a.json\n"
            "note: scenarios/house/walk_a.json: levels/house.json#/world/0/shape/file: levels/house.glb: 4 triangles "
            "in 2 nodes; dropped 0 degenerate, 0 duplicate; 12 corners welded to 8 vertices\n"
            "ok scenarios/house/walk_b.json\n");  // the level both include is described once
  // Named explicitly, a level file is loaded as a scenario and says what it is.
  const RunResult level = run("validate scenarios/house/levels/house.json");
  EXPECT_EQ(level.code, 2);
  EXPECT_CONTAINS(level.err, "expected \"stepslide/scenario@1\", got \"stepslide/level@1\"");
}

TEST_F(LevelsGate, ImportWritesAScenarioThatReferencesTheLevelAndRunsIt) {
  GltfNode upper = quad_node("Upper", 4.0f, 3.0f);
  upper.translation = {20, 0, 0};
  write("levels/house.glb", make_glb({quad_node("Ground", 20.0f), upper}));
  RunResult r = run("import levels/house.glb --out walk.json");
  ASSERT_EQ(r.code, 0) << r.err;
  // The largest connected floor is the ground; the character drops from 0.1 m above its cell
  // deepest inside it (of four equally deep, the nearest its middle, then the first row by row).
  EXPECT_EQ(r.out,
            "wrote walk.json: levels/house.glb, character on_floor from (-0.125, 0.1, -0.125) to feet (-0.125, 0, -0.125)\n"
            "spawn points: none in the level\n"
            "spot: the largest walkable floor (400 m2 around y 0, of 2 connected floors), deepest inside it with room "
            "to stand\n"
            "note: walk.json: /world/0/shape/file: levels/house.glb: 4 triangles in 2 nodes; dropped 0 degenerate, "
            "0 duplicate; 12 corners welded to 8 vertices\n"
            "risers (height jumps between walkable floors up to 1 m, in cell sides of 0.25 m): none\n");
  EXPECT_EQ(read("walk.json"),
            "{\n"
            "  \"format\": \"stepslide/scenario@1\",\n"
            "  \"description\": \"Imported from house.glb by stepslide import: the character stands where it is "
            "placed.\",\n"
            "  \"ticks\": 60,\n"
            "  \"character\": {\n"
            "    \"position\": [-0.125, 0.1, -0.125],\n"
            "    \"place\": \"on_floor\"\n"
            "  },\n"
            "  \"world\": [\n"
            "    {\n"
            "      \"name\": \"level\",\n"
            "      \"shape\": {\n"
            "        \"type\": \"mesh\",\n"
            "        \"file\": \"levels/house.glb\"\n"
            "      }\n"
            "    }\n"
            "  ]\n"
            "}\n");
  r = run("run walk.json --out walk.csv");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "walk: 60 ticks, feet (-0.125, 0, -0.125), grounded 1");

  // --at X,Z: the lowest floor under the point with room; at x 20 only the upper one.
  r = run("import levels/house.glb --out upper.json --at 20,0");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "to feet (20, 3, 0)");
  // --at X,Y,Z from under it: onto the ground.
  r = run("import levels/house.glb --out under.json --at 20,0.5,0");
  EXPECT_EQ(r.code, 2);  // the ground ends at x 10: nothing below
  EXPECT_CONTAINS(r.err, "/character/place: no floor below (20, 0.5, 0)");
  EXPECT_FALSE(exists("under.json"));
}

TEST_F(LevelsGate, ImportRefusesWhatItCannotDoAndWritesNothing) {
  write("levels/floor.glb", make_glb({quad_node("Floor", 4.0f)}));
  write("walk.json", "{}");
  RunResult r = run("import levels/floor.glb --out walk.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "error: walk.json exists; pass --force to overwrite it\n");
  EXPECT_EQ(read("walk.json"), "{}");
  r = run("import levels/floor.glb --out walk.json --force");
  EXPECT_EQ(r.code, 0) << r.err;
  r = run("import levels/floor.glb --out sub/walk.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "levels/floor.glb lies outside the directory of sub/walk.json");
  EXPECT_FALSE(exists("sub/walk.json"));
  r = run("import levels/floor.glb --out sub/walk.json --allow-outside");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(read("sub/walk.json"), "\"file\": \"../levels/floor.glb\"");
  EXPECT_EQ(run("validate sub/walk.json").code, 2);
  EXPECT_EQ(run("validate sub/walk.json --allow-outside").code, 0);
  r = run("import levels/missing.glb --out m.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "levels/missing.glb: cannot read: no such file");
  write("notes.txt", "hello");
  r = run("import notes.txt --out n.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "notes.txt: expected a mesh file (.gltf, .glb, .obj, .fbx) or a level file");
  r = run("import levels/floor.glb --out u.json --up-axis x");
  EXPECT_EQ(r.err, "error: --up-axis: expected y or z, got \"x\"\n");
  r = run("import levels/floor.glb --out u.json --scale 0");
  EXPECT_EQ(r.err, "error: --scale: expected a number > 0, got 0\n");
  EXPECT_FALSE(exists("m.json") || exists("n.json") || exists("u.json"));
}

TEST_F(LevelsGate, ImportIsDeterministic) {
  std::vector<GltfNode> nodes;
  for (int i = 0; i < 4; ++i) {
    GltfNode tile = testing::grid_node("Tile" + std::to_string(i), 6, 5.0f);
    tile.translation = {5.0 * i, 0.0, 0.0};
    nodes.push_back(tile);
  }
  write("level.glb", make_glb(nodes));
  ASSERT_EQ(run("import level.glb --out a.json").code, 0);
  ASSERT_EQ(run("import level.glb --out b.json").code, 0);
  EXPECT_EQ(read("a.json"), read("b.json"));
  ASSERT_EQ(run("run a.json --out a.csv").code, 0);
  ASSERT_EQ(run("run a.json --out b.csv").code, 0);
  EXPECT_EQ(read("a.csv"), read("b.csv"));
}

TEST_F(LevelsGate, ProbeListsTheFloorsUnderAPoint) {
  write("levels/house.glb", make_glb({quad_node("Ground", 20.0f), quad_node("Upper", 4.0f, 3.0f)}));
  write("walk.json", R"({"format": "stepslide/scenario@1", "ticks": 1,
                         "world": [{"name": "house", "shape": {"type": "mesh", "file": "levels/house.glb", "merge": false}},
                                   {"name": "steep", "shape": {"type": "ramp", "length": 2, "width": 2, "angle_deg": 60},
                                    "position": [8, 0, 1]}]})");
  RunResult r = run("probe walk.json --at 1,-1");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "floors under x=1 z=-1 in walk.json, top to bottom:\n"
            "  y 3  normal (0, 1, 0)  slope 0 deg  walkable  body house/Upper\n"
            "  y 0  normal (0, 1, 0)  slope 0 deg  walkable  body house/Ground\n");
  r = run("probe walk.json --at 8,0.5");
  EXPECT_CONTAINS(r.out, "slope 60 deg  too steep  body steep\n");
  r = run("probe walk.json --at 50,50");
  EXPECT_EQ(r.out, "floors under x=50 z=50 in walk.json, top to bottom:\n  (none)\n");
  r = run("probe walk.json --at 1");
  EXPECT_EQ(r.code, 2);
  r = run("probe missing.json --at 1,1");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "missing.json");
}

/// docs/levels.md's "Reproduce a bug on your own level", command by command, on
/// the courtyard it ships, so the walkthrough cannot rot.
TEST_F(LevelsGate, ReadmeWalkthroughOnTheCourtyard) {
  fs::create_directories(path("scenarios/courtyard"));
  fs::copy_file(fs::path(STEPSLIDE_SOURCE_DIR) / "examples/level/courtyard.glb", path("scenarios/courtyard/courtyard.glb"));
  RunResult r = run("import scenarios/courtyard/courtyard.glb --out scenarios/courtyard/curb.json --at 0,2");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "wrote scenarios/courtyard/curb.json: courtyard.glb, character on_floor from (0, 0.1, 2) to feet (0, 0, 2)\n"
            "floors under x=0 z=2, lowest first:\n"
            "  y 0  chosen: the lowest walkable floor with room to stand\n"
            "note: scenarios/courtyard/curb.json: /world/0/shape/file: courtyard.glb: 14 triangles in 2 nodes; "
            "dropped 0 degenerate, 0 duplicate; 42 corners welded to 12 vertices\n"
            "risers (height jumps between walkable floors up to 1 m, in cell sides of 0.25 m): 0.4 m x40\n"
            "hint: the level's most common riser above max_step_height 0.35 m is 0.4 m; to climb it set "
            "character.settings.max_step_height to 0.41 (stepslide map draws them)\n");
  std::string scenario = read("scenarios/courtyard/curb.json");
  scenario.replace(scenario.find("\"ticks\": 60,"), 12, "\"ticks\": 120,\n  \"input\": [{\"tick\": 0, \"move\": [0, 1]}],");
  write("scenarios/courtyard/curb.json", scenario);
  r = run("run scenarios/courtyard/curb.json");
  EXPECT_EQ(r.out, "curb: 120 ticks, feet (0, 0, -1.69), grounded 1, 120 sweeps, expectations ok -> out/curb.csv\n");
  r = run("probe scenarios/courtyard/curb.json --at 0,-2.5");
  EXPECT_EQ(r.out,
            "floors under x=0 z=-2.5 in scenarios/courtyard/curb.json, top to bottom:\n"
            "  y 0.4  normal (0, 1, 0)  slope 0 deg  walkable  body level\n"
            "  y 0  normal (0, 1, 0)  slope 0 deg  walkable  body level\n");
  r = run("bless scenarios/courtyard/curb.json");
  EXPECT_EQ(r.out, "blessed golden/courtyard/curb.csv (new)\n");
  r = run("check scenarios/courtyard/curb.json");
  EXPECT_EQ(r.code, 0);
  EXPECT_CONTAINS(r.out, "PASS scenarios/courtyard/curb.json\n");
  // Re-exported with a lower curb (0.3 m, one the character steps up).
  testing::GltfNode ground = quad_node("Ground", 12.0f);
  testing::GltfNode curb;
  curb.name = "Curb";
  curb.positions = {{-2, 0, -3}, {2, 0, -3}, {2, 0, -2}, {-2, 0, -2}, {-2, 0.3f, -3}, {2, 0.3f, -3}, {2, 0.3f, -2}, {-2, 0.3f, -2}};
  curb.indices = {4, 7, 6, 4, 6, 5, 0, 1, 2, 0, 2, 3, 0, 4, 5, 0, 5, 1, 3, 2, 6, 3, 6, 7, 0, 3, 7, 0, 7, 4, 1, 5, 6, 1, 6, 2};
  write("scenarios/courtyard/courtyard.glb", make_glb({ground, curb}));
  r = run("check scenarios/courtyard/curb.json");
  EXPECT_EQ(r.code, 1);
  EXPECT_CONTAINS(r.out, "note: courtyard.glb changed since the golden was blessed (fnv1a64:6c0c4b8d17710fdd, now fnv1a64:");
  EXPECT_CONTAINS(r.out, "first divergence at tick 48, column y");
}

TEST_F(LevelsGate, MapDrawsTheFloorsTheirEdgesAndTheRisersOfALevelFile) {
  write_project();  // ground at 0 (20 x 20 m), an upper floor at 3 (4 x 4 m) over it
  RunResult r = run("map scenarios/house/levels/house.json -o house.svg --pitch 0.5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "wrote house.svg: 40 x 40 cells of 0.5 m");
  EXPECT_CONTAINS(r.out, "heights, to the cm, with 1 m2 or more): y 0: 400 m2; y 3: 16 m2\n");
  EXPECT_CONTAINS(r.out, "risers (height jumps between walkable floors up to 1 m, in cell sides): none\n");
  const std::string svg = read("house.svg");
  EXPECT_CONTAINS(svg, "<g id=\"floors\"");
  EXPECT_CONTAINS(svg, "<g class=\"upper\" opacity=\"0.55\"");  // the upper floor over the ground shows it through
  EXPECT_CONTAINS(svg, "<g id=\"edges\"");
  // --below leaves the upper floor out.
  r = run("map scenarios/house/levels/house.json -o low.svg --pitch 0.5 --below 1");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "with 1 m2 or more): y 0: 400 m2\n");
  EXPECT_EQ(read("low.svg").find("class=\"upper\""), std::string::npos);
  // A scenario marks its start; probe reads the level file directly.
  r = run("map scenarios/house/walk_a.json -o walk.svg --pitch 0.5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(read("walk.svg"), ">start (6, 0)</text>");
  r = run("probe scenarios/house/levels/house.json --at 0,0");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "  y 3  normal (0, 1, 0)  slope 0 deg  walkable  body house/Upper\n"
                         "  y 0  normal (0, 1, 0)  slope 0 deg  walkable  body house/Ground\n");
  EXPECT_EQ(run("map missing.json").code, 2);
}

TEST_F(LevelsGate, ImportAtXZListsTheFloorsAndTakesTheLowestWithRoom) {
  write_project();
  RunResult r = run("import scenarios/house/levels/house.json --out scenarios/house/here.json --at 1,1");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "to feet (1, 0, 1)\n"
                         "floors under x=1 z=1, lowest first:\n"
                         "  y 0  chosen: the lowest walkable floor with room to stand\n"
                         "  y 3  (--at 1,3.1,1 to stand here)\n");
}

/// A level whose file names spawn points (docs/format.md "spawn points"):
/// a ground with a pillar, spawn nodes over nothing, inside the pillar and on
/// the ground, and one under a parent node that moves it.
std::vector<GltfNode> spawn_level() {
  GltfNode pillar = quad_node("Pillar", 2.0f);  // a 2 x 2 m box from y 0 to 1.5 at (5, 0): lower than the character
  pillar.positions = {{4, 0, -1},    {6, 0, -1},    {6, 0, 1},    {4, 0, 1},
                      {4, 1.5f, -1}, {6, 1.5f, -1}, {6, 1.5f, 1}, {4, 1.5f, 1}};
  pillar.indices = {4, 7, 6, 4, 6, 5, 0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7};
  GltfNode outside, inside, ground, group, nested;
  outside.name = "spawn_1";  // 50 m off the ground: nothing below
  outside.translation = {50, 1, 0};
  inside.name = "Spawn.002";  // inside the pillar
  inside.translation = {5, 1, 0};
  ground.name = "spawn_3";
  ground.translation = {-3, 0.8, 2};
  group.name = "Markers";
  group.translation = {0, 0, -4};
  nested.name = "info_player_start";
  nested.translation = {1, 0.5, 0};
  nested.parent = 4;
  return {quad_node("Ground", 20.0f), pillar, outside, inside, group, ground, nested};
}

TEST_F(LevelsGate, MapDrawsTheSpawnPointsALevelFileNames) {
  write("levels/arena.glb", make_glb(spawn_level()));
  RunResult r = run("map levels/arena.glb -o arena.svg --pitch 0.5");
  ASSERT_EQ(r.code, 0) << r.err;
  // In file order: depth-first, a node's children before its next sibling.
  EXPECT_CONTAINS(r.out, "spawn points (4, green diamonds): spawn_1 (50, 1, 0), Spawn.002 (5, 1, 0), "
                         "info_player_start (1, 0.5, -4), spawn_3 (-3, 0.8, 2)\n");
  const std::string svg = read("arena.svg");
  EXPECT_CONTAINS(svg, ">spawn_3 (-3, 2)</text>");
  EXPECT_CONTAINS(svg, ">info_player_start (1, -4)</text>");
  std::size_t diamonds = 0;
  const std::string diamond = "class=\"spawn\"";
  for (std::size_t at = svg.find(diamond); at != std::string::npos; at = svg.find(diamond, at + 1)) ++diamonds;
  EXPECT_EQ(diamonds, 4u);
  // A level without spawn nodes: no diamonds, no spawn line.
  write("levels/plain.glb", make_glb({quad_node("Ground", 20.0f)}));
  r = run("map levels/plain.glb -o plain.svg --pitch 0.5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.find("spawn points"), std::string::npos);
  EXPECT_EQ(read("plain.svg").find("class=\"spawn\""), std::string::npos);
}

TEST_F(LevelsGate, ImportStartsOnTheFirstSpawnPointWithRoomAndSaysWhy) {
  write("levels/arena.glb", make_glb(spawn_level()));
  RunResult r = run("import levels/arena.glb --out walk.json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "character on_floor from (1, 0.6, -4) to feet (1, 0, -4)\n");
  EXPECT_CONTAINS(r.out, "spawn point spawn_1 skipped: no floor below (50, 1.1, 0)");
  EXPECT_CONTAINS(r.out, "spawn point Spawn.002 skipped: ");
  EXPECT_CONTAINS(r.out, "spot: spawn point info_player_start (1, 0.5, -4), the first usable of the 4 spawn points "
                         "the level names, dropped 0.6 m onto the floor below it (--at X,Z to choose another spot)\n");
  EXPECT_CONTAINS(r.out, "; 4 spawn points\n");
  EXPECT_EQ(run("run walk.json --out walk.csv").code, 0);
  // --at still decides when given.
  r = run("import levels/arena.glb --out there.json --at -8,-8");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "to feet (-8, 0, -8)\n");
  EXPECT_EQ(r.out.find("spot: spawn point"), std::string::npos);
  // No spawn point with room: the largest floor, and the reasons.
  std::vector<GltfNode> blocked = spawn_level();
  blocked.resize(4);
  write("levels/blocked.glb", make_glb(blocked));
  r = run("import levels/blocked.glb --out blocked.json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "spawn points: none with room to stand\nspot: the largest walkable floor");
}

/// The newcomer's journey on the repository's own level, as a person would
/// take it: import the level, read its map, write a move_to walk between
/// two floor points the map shows, bless it, check it, plot it.
TEST_F(LevelsGate, NewcomersJourneyOnOaDm3) {
  const fs::path level = fs::path(STEPSLIDE_SOURCE_DIR) / "scenarios/levels/oa_dm3/level";
  fs::create_directories(path("scenarios/oa"));
  fs::copy(level, path("scenarios/oa/level"), fs::copy_options::recursive);

  // import needs no help: it starts on the map's first spawn point (on its floor, not the
  // roof) and names the level's risers.
  RunResult r = run("import scenarios/oa/level/level.json --out scenarios/oa/start.json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "to feet (16.384, 0.512, -28.672)\n");
  EXPECT_CONTAINS(r.out,
                  "spot: spawn point spawn_deathmatch_1 (16.384, 1.28, -28.672), the first of the 9 spawn points");
  EXPECT_CONTAINS(r.out, "risers (height jumps between walkable floors up to 1 m, in cell sides of 0.25 m): 0.512 m x");
  EXPECT_CONTAINS(r.out, "to climb it set character.settings.max_step_height to 0.53");
  EXPECT_EQ(run("run scenarios/oa/start.json --out start.csv").code, 0);

  // The map holds the level's floors: several distinct heights over large areas.
  r = run("map scenarios/oa/level/level.json -o oa.svg");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::size_t list = r.out.find("floors (walkable");
  ASSERT_NE(list, std::string::npos) << r.out;
  const std::string floors = r.out.substr(list, r.out.find('\n', list) - list);
  std::size_t heights = 0;
  for (std::size_t at = floors.find(" m2"); at != std::string::npos; at = floors.find(" m2", at + 1)) ++heights;
  EXPECT_GE(heights, 8u) << floors;
  EXPECT_CONTAINS(floors, "y -1.28: ");  // the floor import stood on
  EXPECT_CONTAINS(floors, "y 1.02: ");
  EXPECT_CONTAINS(floors, "y -13.31: ");
  const std::string svg = read("oa.svg");
  EXPECT_CONTAINS(svg, "<g id=\"risers\"");
  EXPECT_CONTAINS(svg, ">0.512</text>");
  // ... and its spawn points, where a person can start walks.
  EXPECT_CONTAINS(r.out, "spawn points (9, green diamonds): spawn_deathmatch_1 (16.38, 1.28, -28.67), ");
  EXPECT_CONTAINS(svg, ">spawn_deathmatch_1 (16.38, -28.67)</text>");
  EXPECT_CONTAINS(svg, ">spawn_start_2 (");

  // Or anywhere the map shows a floor: --at X,Z on the largest one.
  r = run("import scenarios/oa/level/level.json --out scenarios/oa/floor.json --at -17.226,-15.852");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "to feet (-17.226, -1.28, -15.852)\n");

  // A move_to walk from the import's spot to a point 4 m north on the same floor.
  write("scenarios/oa/walk.json", R"({
  "format": "stepslide/scenario@1",
  "description": "A newcomer's first walk: from where import --at stood the character, 4 m north on the same floor.",
  "ticks": 180,
  "character": {"position": [-17.226, -1.18, -15.852], "place": "on_floor"},
  "world": [{"include": "level/level.json"}],
  "input": [{"tick": 0, "move_to": [-17.226, -11.852]}],
  "expect": [
    {"reaches": [-17.226, -1.28, -11.852], "within": 0.3, "by_tick": 150},
    {"ticks": [0, "end"], "grounded": true}
  ]
})");
  for (const char* point : {"-17.226,-15.852", "-17.226,-11.852"}) {
    r = run(std::string("probe scenarios/oa/level/level.json --at ") + point);
    EXPECT_CONTAINS(r.out, "  y -1.28  normal (0, 1, 0)  slope 0 deg  walkable  body oa_dm3\n");
  }
  r = run("map scenarios/oa/walk.json -o walk.svg");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(read("walk.svg"), ">start (-17.23, -15.85)</text>");
  EXPECT_CONTAINS(read("walk.svg"), ">target 1 (-17.23, -11.85)</text>");
  r = run("bless scenarios/oa/walk.json");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  r = run("check scenarios/oa/walk.json");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_CONTAINS(r.out, "1 passed, 0 failed");
  r = run("plot scenarios/oa/walk.json --out walk_plot.svg");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(exists("walk_plot.svg"));
}

// The levels of other kinds: import starts on the Neverball maze's ball
// start; the terrain has no spawn points, so import takes its largest floor.
TEST_F(LevelsGate, ImportAndMapOnTheThirdPartyLevels) {
  for (const char* name : {"neverball_maze", "etr_milos_castle"}) {
    fs::create_directories(path(std::string("scenarios/") + name));
    fs::copy(fs::path(STEPSLIDE_SOURCE_DIR) / "scenarios/levels" / name / "level",
             path(std::string("scenarios/") + name + "/level"), fs::copy_options::recursive);
  }
  RunResult r = run("import scenarios/neverball_maze/level/level.json --out scenarios/neverball_maze/start.json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "to feet (4, 4, -4)\n");
  EXPECT_CONTAINS(r.out, "spot: spawn point spawn_ball_1 (4, 5.002, -4), the first of the 1 spawn points");
  r = run("map scenarios/neverball_maze/level/level.json -o maze.svg");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "y 4: 1024 m2");
  EXPECT_CONTAINS(read("maze.svg"), ">spawn_ball_1 (4, -4)</text>");
  r = run("import scenarios/etr_milos_castle/level/level.json --out scenarios/etr_milos_castle/start.json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "spawn points: none in the level\nspot: the largest walkable floor");
  EXPECT_EQ(run("run scenarios/etr_milos_castle/start.json --out etr.csv").code, 0);
}

TEST_F(LevelsGate, CheckFromAnotherFolderFindsTheProjectsGoldens) {
  write_project();
  fs::create_directories(path("proj"));
  fs::rename(path("scenarios"), path("proj/scenarios"));
  RunResult r = run("bless --scenario-root proj/scenarios --golden-dir proj/golden");
  ASSERT_EQ(r.code, 0) << r.err;
  // From the folder above the project: the scenarios lie outside ./scenarios,
  // but proj/scenarios has its goldens beside it in proj/golden.
  r = run("check proj/scenarios/house/walk_a.json");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_CONTAINS(r.out, "1 passed, 0 failed");
  EXPECT_EQ(r.out.find("outside the scenario root"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace stepslide
