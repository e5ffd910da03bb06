// Mesh files (scenario/load/mesh_import.h): glTF 2.0 (.glb and .gltf with its
// buffer), OBJ and FBX; node transforms, scale, up axis, include/exclude,
// merge; welding, degenerate and duplicate triangles; determinism.
#include <gtest/gtest.h>

#include <cmath>

#include "scenario/load/mesh_import.h"
#include "support/gltf_writer.h"
#include "support/temp_dir.h"

namespace stepslide {
namespace {

namespace fs = std::filesystem;
using test::TempDirTest;
using testing::GltfNode;
using testing::make_glb;
using testing::quad_node;

const std::string kData = std::string(STEPSLIDE_SOURCE_DIR) + "/tests/data/levels/";

class MeshImport : public TempDirTest {
 protected:
  /// Imports `rel` (inside the temp dir) with the temp dir as the root.
  Expected<ImportedMesh> import(const std::string& rel, MeshImportOptions options = {}) {
    options.paths.root_dir = dir_.string();
    return import_mesh_file(path(rel).string(), options);
  }
  ImportedMesh import_ok(const std::string& rel, MeshImportOptions options = {}) {
    Expected<ImportedMesh> mesh = import(rel, options);
    EXPECT_TRUE(mesh) << (mesh ? "" : mesh.error());
    return mesh ? mesh.take() : ImportedMesh{};
  }
};

/// The highest and lowest Y of a part's vertices.
std::pair<double, double> y_range(const MeshPart& part) {
  double lo = INFINITY, hi = -INFINITY;
  for (const Vec3& v : part.vertices) {
    lo = std::min(lo, v[1]);
    hi = std::max(hi, v[1]);
  }
  return {hi, lo};
}

TEST_F(MeshImport, GlbQuadIsTwoTrianglesOnFourWeldedVertices) {
  write("floor.glb", make_glb({quad_node("Floor", 10.0f, 1.5f)}));
  const ImportedMesh mesh = import_ok("floor.glb");
  ASSERT_EQ(mesh.parts.size(), 1u);
  EXPECT_EQ(mesh.parts[0].name, "");
  EXPECT_EQ(mesh.parts[0].triangles.size(), 2u);
  EXPECT_EQ(mesh.parts[0].vertices.size(), 4u);
  EXPECT_EQ(y_range(mesh.parts[0]), std::make_pair(1.5, 1.5));
  EXPECT_EQ(mesh.stats.nodes, 1);
  EXPECT_EQ(mesh.stats.source_triangles, 2);
  EXPECT_EQ(mesh.stats.degenerate, 0);
  EXPECT_EQ(mesh.stats.duplicate, 0);
  ASSERT_EQ(mesh.files.size(), 1u);
  EXPECT_EQ(mesh.files[0].path, fs::path(path("floor.glb")).lexically_normal().generic_string());
  EXPECT_EQ(describe_import(mesh.stats),
            "2 triangles in 1 node; dropped 0 degenerate, 0 duplicate; 6 corners welded to 4 vertices");
}

TEST_F(MeshImport, GltfWithSeparateBufferRecordsBothFilesAsInputs) {
  const auto [document, bin] = testing::make_gltf({quad_node("Floor", 4.0f)}, "floor.bin");
  write("level/floor.gltf", document);
  write("level/floor.bin", bin);
  const ImportedMesh mesh = import_ok("level/floor.gltf");
  EXPECT_EQ(mesh.stats.triangles, 2);
  ASSERT_EQ(mesh.files.size(), 2u);
  EXPECT_NE(mesh.files[0].path.find("floor.gltf"), std::string::npos);
  EXPECT_NE(mesh.files[1].path.find("floor.bin"), std::string::npos);
  EXPECT_EQ(mesh.files[1].fnv1a64, fnv1a64_of(bin));
}

TEST_F(MeshImport, GltfBufferOutsideTheRootIsRefusedNamingIt) {
  const auto [document, bin] = testing::make_gltf({quad_node("Floor", 4.0f)}, "../floor.bin");
  write("root/floor.gltf", document);
  write("floor.bin", bin);
  MeshImportOptions options;
  options.paths.root_dir = path("root").string();
  const Expected<ImportedMesh> mesh = import_mesh_file(path("root/floor.gltf").string(), options);
  ASSERT_FALSE(mesh);
  EXPECT_CONTAINS(mesh.error(), "floor.bin leads outside the scenario's directory");
  options.paths.allow_outside = true;
  EXPECT_TRUE(import_mesh_file(path("root/floor.gltf").string(), options));
}

TEST_F(MeshImport, NodeTransformsAreAppliedThroughTheTree) {
  GltfNode parent = quad_node("Storey", 2.0f);
  parent.translation = {10, 3, 0};
  parent.scale = std::array<double, 3>{2, 2, 2};
  GltfNode child = quad_node("Table", 1.0f);
  child.parent = 0;
  child.translation = {0, 0.5, 0};  // in the parent's frame: 1 m up after the parent's scale
  // A quarter turn about Z: the child's quad stands on its edge (a wall).
  const double s = std::sqrt(0.5);
  child.rotation = std::array<double, 4>{0, 0, s, s};
  write("house.glb", make_glb({parent, child}));
  MeshImportOptions split;
  split.merge = false;
  const ImportedMesh mesh = import_ok("house.glb", split);
  ASSERT_EQ(mesh.parts.size(), 2u);
  EXPECT_EQ(mesh.parts[0].name, "Storey");
  EXPECT_EQ(mesh.parts[1].name, "Table");
  EXPECT_EQ(y_range(mesh.parts[0]), std::make_pair(3.0, 3.0));
  // Child quad of half-size 0.5 turned upright, scaled by 2, centred 1 m above the storey.
  const auto [hi, lo] = y_range(mesh.parts[1]);
  EXPECT_NEAR(hi, 5.0, 1e-6);
  EXPECT_NEAR(lo, 3.0, 1e-6);
  for (const Vec3& v : mesh.parts[1].vertices) EXPECT_NEAR(v[0], 10.0, 1e-6);
}

TEST_F(MeshImport, ScaleAndZUpTurnTheFileIntoMetresYUp) {
  GltfNode roof = quad_node("Roof", 2.0f);
  roof.positions = {{-1, -1, 3}, {1, -1, 3}, {1, 1, 3}, {-1, 1, 3}};  // flat at Z = 3 in a Z-up file
  write("zup.glb", make_glb({roof}));
  MeshImportOptions options;
  options.up_axis = UpAxis::Z;
  options.scale = 0.5;
  const ImportedMesh mesh = import_ok("zup.glb", options);
  ASSERT_EQ(mesh.parts.size(), 1u);
  EXPECT_EQ(y_range(mesh.parts[0]), std::make_pair(1.5, 1.5));
  // +Y of the file becomes -Z: the file's (1, 1) corner lands at x 0.5, z -0.5.
  bool found = false;
  for (const Vec3& v : mesh.parts[0].vertices) found = found || (v[0] == 0.5 && v[2] == -0.5);
  EXPECT_TRUE(found);
}

TEST_F(MeshImport, IncludeAndExcludeMatchNodeAncestorAndMeshNames) {
  GltfNode group;
  group.name = "Level_Geometry";
  GltfNode floor = quad_node("Floor_A", 2.0f, 0.0f);
  floor.parent = 0;
  GltfNode upper = quad_node("Floor_B", 2.0f, 3.0f);
  upper.parent = 0;
  upper.mesh_name = "Collision_Upper";
  GltfNode prop = quad_node("Prop_Crate", 1.0f, 5.0f);
  write("level.glb", make_glb({group, floor, upper, prop}));
  auto kept = [&](std::vector<std::string> include, std::vector<std::string> exclude) {
    MeshImportOptions options;
    options.merge = false;
    options.include = std::move(include);
    options.exclude = std::move(exclude);
    std::vector<std::string> names;
    const Expected<ImportedMesh> mesh = import("level.glb", options);
    if (!mesh) return std::vector<std::string>{"error: " + mesh.error()};
    for (const MeshPart& part : mesh->parts) names.push_back(part.name);
    return names;
  };
  EXPECT_EQ(kept({}, {}), (std::vector<std::string>{"Floor_A", "Floor_B", "Prop_Crate"}));
  EXPECT_EQ(kept({"Level_*"}, {}), (std::vector<std::string>{"Floor_A", "Floor_B"}));  // an ancestor's name
  EXPECT_EQ(kept({}, {"Prop_*"}), (std::vector<std::string>{"Floor_A", "Floor_B"}));
  EXPECT_EQ(kept({"Collision_*"}, {}), (std::vector<std::string>{"Floor_B"}));  // a mesh's name
  EXPECT_EQ(kept({"Floor_?"}, {"*B"}), (std::vector<std::string>{"Floor_A"}));
  EXPECT_CONTAINS(kept({"Nothing"}, {})[0], "no triangles left after \"include\"/\"exclude\"");
}

TEST_F(MeshImport, SplitNamesUnnamedAndRepeatedNodes) {
  GltfNode unnamed = quad_node("", 1.0f, 0.0f);
  GltfNode a = quad_node("Step", 1.0f, 1.0f);
  GltfNode b = quad_node("Step", 1.0f, 2.0f);
  write("steps.glb", make_glb({unnamed, a, b}));
  MeshImportOptions split;
  split.merge = false;
  const ImportedMesh mesh = import_ok("steps.glb", split);
  std::vector<std::string> names;
  for (const MeshPart& part : mesh.parts) names.push_back(part.name);
  ASSERT_EQ(names.size(), 3u);
  // Assimp names an unnamed glTF node itself; whatever it says, names stay unique and in file order.
  EXPECT_NE(names[0], "");
  EXPECT_EQ(names[1], "Step");
  EXPECT_EQ(names[2], "Step#2");
}

TEST_F(MeshImport, DegenerateAndDuplicateTrianglesAreDroppedAndCounted) {
  GltfNode n;
  n.name = "Messy";
  n.positions = {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {2, 0, 0}, {0, 0, 0}, {1e-7f, 0, 0}};
  n.indices = {
      0, 1, 2,  // kept
      2, 1, 0,  // the same three vertices, other winding: duplicate
      1, 2, 0,  // the same, rotated: duplicate
      0, 1, 3,  // all on one line: degenerate
      4, 1, 2,  // vertex 4 welds onto vertex 0: a duplicate of the first
      0, 5, 2,  // vertex 5 is 0.1 um from vertex 0: welds onto it, two corners meet: degenerate
  };
  write("messy.glb", make_glb({n}));
  const ImportedMesh mesh = import_ok("messy.glb");
  EXPECT_EQ(mesh.stats.source_triangles, 6);
  EXPECT_EQ(mesh.stats.triangles, 1);
  EXPECT_EQ(mesh.stats.degenerate, 2);
  EXPECT_EQ(mesh.stats.duplicate, 3);
  ASSERT_EQ(mesh.parts.size(), 1u);
  EXPECT_EQ(mesh.parts[0].vertices.size(), 3u);  // unused vertices go with their triangles
}

TEST_F(MeshImport, VerticesAreRoundedToTheWeldGrid) {
  GltfNode n = quad_node("Floor", 1.0f);
  n.positions[0] = {-0.5f, 0.3f, -0.5f};  // 0.3f is not a multiple of 2^-20
  write("grid.glb", make_glb({n}));
  const ImportedMesh mesh = import_ok("grid.glb");
  for (const Vec3& v : mesh.parts[0].vertices) {
    for (double c : v) EXPECT_EQ(c / kWeldPitch, std::round(c / kWeldPitch));
  }
}

TEST_F(MeshImport, ObjObjectsAreNodes) {
  write("room.obj",
        "o Floor\nv -2 0 -2\nv -2 0 2\nv 2 0 2\nv 2 0 -2\nf 1 2 3 4\n"
        "o Shelf\nv 0 1 0\nv 0 1 1\nv 1 1 1\nf 5 6 7\n");
  MeshImportOptions split;
  split.merge = false;
  const ImportedMesh mesh = import_ok("room.obj", split);
  ASSERT_EQ(mesh.parts.size(), 2u);
  EXPECT_EQ(mesh.parts[0].name, "Floor");
  EXPECT_EQ(mesh.parts[0].triangles.size(), 2u);  // the quad, triangulated
  EXPECT_EQ(mesh.parts[1].name, "Shelf");
  EXPECT_EQ(y_range(mesh.parts[1]), std::make_pair(1.0, 1.0));
}

TEST_F(MeshImport, AsciiFbxInCentimetresComesInInMetresWithItsNodeTree) {
  fs::copy_file(kData + "floor_ascii.fbx", path("floor.fbx"));
  MeshImportOptions split;
  split.merge = false;
  const ImportedMesh mesh = import_ok("floor.fbx", split);
  ASSERT_EQ(mesh.parts.size(), 2u);
  EXPECT_EQ(mesh.parts[0].name, "Floor");
  EXPECT_EQ(mesh.parts[1].name, "Ramp");
  EXPECT_EQ(y_range(mesh.parts[0]), std::make_pair(2.0, 2.0));
  // The ramp is the floor's child: 2 m up, 3 m along X, rising 0.5 m over 1 m.
  EXPECT_EQ(y_range(mesh.parts[1]), std::make_pair(2.5, 2.0));
  double min_x = INFINITY;
  for (const Vec3& v : mesh.parts[0].vertices) min_x = std::min(min_x, v[0]);
  EXPECT_EQ(min_x, -1.0);
}

TEST_F(MeshImport, BinaryFbxBox) {
  fs::copy_file(kData + "box_binary.fbx", path("box.fbx"));
  const ImportedMesh mesh = import_ok("box.fbx");
  EXPECT_EQ(mesh.stats.triangles, 12);
  EXPECT_EQ(mesh.stats.vertices, 8);
}

TEST_F(MeshImport, SameFileGivesTheSameBytes) {
  std::vector<GltfNode> nodes;
  for (int i = 0; i < 5; ++i) {
    GltfNode n = testing::grid_node("Tile" + std::to_string(i), 8, 4.0f);
    n.translation = {i * 4.0, 0.1 * i, 0};
    nodes.push_back(n);
  }
  write("tiles.glb", make_glb(nodes));
  for (bool merge : {true, false}) {
    MeshImportOptions options;
    options.merge = merge;
    const ImportedMesh first = import_ok("tiles.glb", options);
    const ImportedMesh second = import_ok("tiles.glb", options);
    ASSERT_EQ(first.parts.size(), second.parts.size());
    for (std::size_t i = 0; i < first.parts.size(); ++i) {
      EXPECT_EQ(first.parts[i].name, second.parts[i].name);
      EXPECT_EQ(first.parts[i].vertices, second.parts[i].vertices);  // bit for bit
      EXPECT_EQ(first.parts[i].triangles, second.parts[i].triangles);
    }
  }
}

TEST_F(MeshImport, TriangleLimitCountsWhatIsRead) {
  write("grid.glb", make_glb({testing::grid_node("Grid", 10, 10.0f)}));  // 200 triangles
  MeshImportOptions options;
  options.max_triangles = 199;
  options.triangles_before = 5;
  const Expected<ImportedMesh> mesh = import("grid.glb", options);
  ASSERT_FALSE(mesh);
  EXPECT_EQ(mesh.error(), "over the triangle limit: more than 199 triangles here, 5 before it, 2000000 allowed over "
                          "all meshes of the scenario");
  options.max_triangles = 200;
  EXPECT_TRUE(import("grid.glb", options));
}

TEST_F(MeshImport, FormatsByExtension) {
  EXPECT_STREQ(mesh_format_name("a/b.GLB"), "glTF 2.0");
  EXPECT_STREQ(mesh_format_name("b.gltf"), "glTF 2.0");
  EXPECT_STREQ(mesh_format_name("b.Obj"), "Wavefront OBJ");
  EXPECT_STREQ(mesh_format_name("b.fbx"), "FBX");
  EXPECT_EQ(mesh_format_name("b.stl"), nullptr);
  EXPECT_EQ(mesh_format_name("glb"), nullptr);
}

TEST(SpawnNodeNames, SpawnWithAnythingButALetterAfterItAndTheGamesOwnNames) {
  for (const char* yes : {"spawn", "Spawn.001", "SPAWN_red_2", "spawn-3", "spawn 4", "info_player_start",
                          "info_player_deathmatch", "PlayerStart", "PlayerStart_7"}) {
    EXPECT_TRUE(is_spawn_node_name(yes)) << yes;
  }
  for (const char* no : {"", "spawner", "Spawning", "respawn", "my_spawn", "info_player", "player_start", "world"}) {
    EXPECT_FALSE(is_spawn_node_name(no)) << no;
  }
}

TEST_F(MeshImport, SpawnNodesAreReadAtTheirOriginsInFileOrderWhateverIncludeSays) {
  GltfNode group;
  group.name = "Markers";
  group.translation = {10, 0, 0};
  group.scale = std::array<double, 3>{2, 2, 2};
  GltfNode nested;
  nested.name = "Spawn.001";
  nested.translation = {1, 1, 0};  // in the group's frame: (12, 2, 0)
  nested.parent = 1;
  GltfNode spawner = quad_node("spawner", 1.0f, 5.0f);  // a mesh, not a spawn point
  GltfNode start;
  start.name = "info_player_start";
  start.translation = {-1, 0, 3};
  write("arena.glb", make_glb({quad_node("Floor", 10.0f), group, nested, spawner, start}));
  MeshImportOptions options;
  options.include = {"Floor"};
  const ImportedMesh mesh = import_ok("arena.glb", options);
  ASSERT_EQ(mesh.spawns.size(), 2u);
  EXPECT_EQ(mesh.spawns[0].name, "Spawn.001");
  EXPECT_EQ(mesh.spawns[0].position, (Vec3{12, 2, 0}));
  EXPECT_EQ(mesh.spawns[1].name, "info_player_start");
  EXPECT_EQ(mesh.spawns[1].position, (Vec3{-1, 0, 3}));
  // The node tree alone gives the same; scale and up axis apply as to vertices.
  options.paths.root_dir = dir_.string();
  options.scale = 0.5;
  options.up_axis = UpAxis::Z;
  const Expected<std::vector<SpawnPointDef>> spawns = import_spawn_points(path("arena.glb").string(), options);
  ASSERT_TRUE(spawns) << spawns.error();
  ASSERT_EQ(spawns->size(), 2u);
  EXPECT_EQ((*spawns)[0].position, (Vec3{6, 0, -1}));
  EXPECT_EQ((*spawns)[1].position, (Vec3{-0.5, 1.5, 0}));
  // A file without spawn nodes has none.
  write("plain.glb", make_glb({quad_node("Floor", 10.0f)}));
  EXPECT_TRUE(import_ok("plain.glb").spawns.empty());
}

TEST_F(MeshImport, ASpawnSidecarIsAGltfOfSpawnNodesOnlyBesideTheMeshFile) {
  EXPECT_EQ(spawn_sidecar_path("levels/oa_dm3.glb"), "levels/oa_dm3.spawns.gltf");
  EXPECT_EQ(spawn_sidecar_path("house.obj"), "house.spawns.gltf");
  GltfNode spawn;
  spawn.name = "spawn_1";
  spawn.translation = {1, 2, 3};
  write("level.spawns.gltf", testing::make_gltf({spawn}, "unused.bin").first);  // nodes, no meshes, no buffers
  MeshImportOptions options;
  options.paths.root_dir = dir_.string();
  const Expected<std::vector<SpawnPointDef>> spawns = import_spawn_points(path("level.spawns.gltf").string(), options);
  ASSERT_TRUE(spawns) << spawns.error();
  ASSERT_EQ(spawns->size(), 1u);
  EXPECT_EQ((*spawns)[0].position, (Vec3{1, 2, 3}));
}

}  // namespace
}  // namespace stepslide
