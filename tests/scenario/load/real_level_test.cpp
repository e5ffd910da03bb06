// The real level in the repository (scenarios/levels/oa_dm3/: OpenArena's
// oa_dm3, converted by levels/q3bsp_to_glb.py): it loads with the triangle
// count and bounds its README states, its floors face up, every walk loads
// it through the level file, and `check` discovers the walks (not the level
// file) with a golden each.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <limits>

#include "base/file_io.h"
#include "gate/core/discovery.h"
#include "scenario/load/load.h"
#include "scenario/load/mesh_import.h"
#include "support/temp_dir.h"

namespace stepslide {
namespace {

namespace fs = std::filesystem;

const std::string kSource = STEPSLIDE_SOURCE_DIR;
const std::string kLevelDir = kSource + "/scenarios/levels/oa_dm3";

ImportedMesh import_level() {
  MeshImportOptions options;
  options.paths.root_dir = kLevelDir;
  Expected<ImportedMesh> mesh = import_mesh_file(kLevelDir + "/level/oa_dm3.glb", options);
  EXPECT_TRUE(static_cast<bool>(mesh)) << (mesh ? std::string() : mesh.error());
  return mesh ? *mesh : ImportedMesh{};
}

TEST(RealLevel, GlbHoldsTheTrianglesAndBoundsItsReadmeStates) {
  const ImportedMesh mesh = import_level();
  ASSERT_EQ(mesh.parts.size(), 1u);
  EXPECT_EQ(mesh.stats.source_triangles, 10154);
  EXPECT_EQ(mesh.stats.degenerate, 98);
  EXPECT_EQ(mesh.stats.duplicate, 10);
  EXPECT_EQ(mesh.stats.triangles, 10046);
  EXPECT_EQ(mesh.stats.vertices, 6192);

  Vec3 lo{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
          std::numeric_limits<double>::infinity()};
  Vec3 hi{-lo[0], -lo[1], -lo[2]};
  for (const Vec3& v : mesh.parts[0].vertices) {
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], v[k]);
      hi[k] = std::max(hi[k], v[k]);
    }
  }
  // Metres, Y up: the Quake units' bounds of the world model times 0.032.
  EXPECT_NEAR(lo[0], -31.488, 1e-3);
  EXPECT_NEAR(hi[0], 65.536, 1e-3);
  EXPECT_NEAR(lo[1], -24.64, 1e-3);
  EXPECT_NEAR(hi[1], 15.872, 1e-3);
  EXPECT_NEAR(lo[2], -36.864, 1e-3);
  EXPECT_NEAR(hi[2], 44.16, 1e-3);
  // Stored at most ~3 MB in git, as the issue asks.
  EXPECT_LT(fs::file_size(kLevelDir + "/level/oa_dm3.glb"), 3u * 1024 * 1024);
}

TEST(RealLevel, FloorsWindCounterClockwiseSoTheirNormalsPointUp) {
  // The east spawn room's floor (y -3.584) under (48.64, -13.82), and its
  // ceiling (y 3.584) above it: Quake winds faces the other way round, which
  // the converter turns, so the floor's normal is +Y and the ceiling's -Y.
  const ImportedMesh mesh = import_level();
  ASSERT_EQ(mesh.parts.size(), 1u);
  const MeshPart& part = mesh.parts[0];
  int floors = 0;
  int ceilings = 0;
  for (const auto& t : part.triangles) {
    const Vec3& a = part.vertices[t[0]];
    const Vec3& b = part.vertices[t[1]];
    const Vec3& c = part.vertices[t[2]];
    const double x = 48.64, z = -13.82;
    const double d = (b[2] - c[2]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[2] - c[2]);
    if (d == 0) continue;
    const double w1 = ((b[2] - c[2]) * (x - c[0]) + (c[0] - b[0]) * (z - c[2])) / d;
    const double w2 = ((c[2] - a[2]) * (x - c[0]) + (a[0] - c[0]) * (z - c[2])) / d;
    if (w1 < 0 || w2 < 0 || w1 + w2 > 1) continue;
    const double normal_y = (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]);
    if (std::abs(a[1] + 3.584) < 1e-3) {
      EXPECT_GT(normal_y, 0) << "floor triangle faces down";
      ++floors;
    }
    if (std::abs(a[1] - 3.584) < 1e-3) {
      EXPECT_LT(normal_y, 0) << "ceiling triangle faces up";
      ++ceilings;
    }
  }
  EXPECT_GE(floors, 1);
  EXPECT_GE(ceilings, 1);
}

TEST(RealLevel, CheckDiscoversTheWalksButNotTheLevelFileAndEachHasAGolden) {
  const ScenarioList list = discover_scenarios({kLevelDir});
  EXPECT_TRUE(list.errors.empty());
  EXPECT_GE(list.files.size(), 8u);
  EXPECT_LE(list.files.size(), 20u);  // CI time: a level's walks are a handful
  for (const std::string& file : list.files) {
    EXPECT_EQ(file.find("/level/"), std::string::npos) << file;
    const std::optional<std::string> golden =
        golden_path_for(file, kSource + "/scenarios", kSource + "/golden");
    ASSERT_TRUE(golden.has_value()) << file;
    EXPECT_TRUE(fs::is_regular_file(*golden)) << *golden;
  }
}

TEST(RealLevel, EveryWalkLoadsTheLevelThroughItsLevelFileAndHasExpectations) {
  for (const std::string& file : discover_scenarios({kLevelDir}).files) {
    const LoadResult load = load_scenario_file(file);
    ASSERT_TRUE(load.scenario.has_value()) << format_load_errors(load);
    const Scenario& s = *load.scenario;
    ASSERT_EQ(s.world.size(), 1u) << file;
    EXPECT_EQ(s.world[0].shape.triangles.size(), 10046u) << file;
    EXPECT_GE(s.expect.size(), 4u) << file;
    EXPECT_LE(s.ticks, 400) << file;
    const bool includes_level = std::any_of(load.inputs.begin(), load.inputs.end(), [](const InputFile& f) {
      return f.path.find("level/level.json") != std::string::npos;
    });
    EXPECT_TRUE(includes_level) << file;
  }
}

// The committed glb is exactly what its README's conversion command makes of the
// Debian package's file: provenance checked, not just stated. The package is
// not a build or test dependency, so without it the test says so and skips.
class RealLevelConversion : public test::TempDirTest {};

TEST_F(RealLevelConversion, ConvertingTheDebianPackagesMapGivesTheCommittedGlbByteForByte) {
  const std::string pk3 = "/usr/share/games/openarena/baseoa/pak1-maps.pk3";
  if (!fs::exists(pk3)) GTEST_SKIP() << pk3 << " absent: apt-get install openarena-081-maps to check the conversion";
  if (std::system("python3 -c pass >/dev/null 2>&1") != 0) GTEST_SKIP() << "python3 not available";
  const std::string out = path("oa_dm3.glb").string(), spawns = path("oa_dm3.spawns.gltf").string();
  const std::string command = "python3 '" + kSource + "/levels/q3bsp_to_glb.py' '" + pk3 + ":maps/oa_dm3.bsp' '" +
                              out + "' --scale 0.032 --spawns-out '" + spawns + "' >/dev/null 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  for (const std::string name : {"oa_dm3.glb", "oa_dm3.spawns.gltf"}) {
    const Expected<std::string> made = read_file(path(name).string());
    const Expected<std::string> committed = read_file(kLevelDir + "/level/" + name);
    ASSERT_TRUE(made && committed) << name;
    EXPECT_TRUE(*made == *committed) << "levels/q3bsp_to_glb.py no longer makes the committed " << name;
  }
}

TEST_F(RealLevelConversion, ConvertingNeverballsMazeGivesTheCommittedGlbByteForByte) {
  const std::string sol = "/usr/share/games/neverball/map-easy/maze.sol";
  if (!fs::exists(sol)) GTEST_SKIP() << sol << " absent: apt-get install neverball-data to check the conversion";
  if (std::system("python3 -c pass >/dev/null 2>&1") != 0) GTEST_SKIP() << "python3 not available";
  const std::string out = path("neverball_maze.glb").string();
  const std::string command =
      "python3 '" + kSource + "/levels/sol_to_glb.py' '" + sol + "' '" + out + "' --scale 4 >/dev/null 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const Expected<std::string> made = read_file(out);
  const Expected<std::string> committed =
      read_file(kSource + "/scenarios/levels/neverball_maze/level/neverball_maze.glb");
  ASSERT_TRUE(made && committed);
  EXPECT_TRUE(*made == *committed) << "levels/sol_to_glb.py no longer makes the committed neverball_maze.glb";
}

TEST_F(RealLevelConversion, BuildingTheFurnishedHouseGivesTheCommittedGlbByteForByte) {
  const std::string library = "/usr/share/sweethome3d/furniture/BlendSwap-CC-0.sh3f";
  if (!fs::exists(library)) {
    GTEST_SKIP() << library << " absent: apt-get install sweethome3d-furniture to check the conversion";
  }
  if (std::system("python3 -c pass >/dev/null 2>&1") != 0) GTEST_SKIP() << "python3 not available";
  const std::string out = path("sh3d_house.glb").string();
  const std::string command =
      "python3 '" + kSource + "/levels/sh3f_to_glb.py' '" + library + "' '" + out + "' >/dev/null 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const Expected<std::string> made = read_file(out);
  const Expected<std::string> committed = read_file(kSource + "/scenarios/levels/sh3d_house/level/sh3d_house.glb");
  ASSERT_TRUE(made && committed);
  EXPECT_TRUE(*made == *committed) << "levels/sh3f_to_glb.py no longer makes the committed sh3d_house.glb";
}

TEST(ThirdPartyLevels, EachLoadsThroughItsLevelFileWithItsLicenceAndProvenanceBesideIt) {
  for (const char* name : {"neverball_maze", "etr_milos_castle", "sh3d_house"}) {
    SCOPED_TRACE(name);
    const std::string dir = kSource + "/scenarios/levels/" + name + "/level/";
    for (const char* file : {"LICENSE", "README.md", "debian-copyright.txt"}) {
      EXPECT_TRUE(fs::exists(dir + file)) << file;
    }
    const LoadResult load = load_scenario_text(
        R"({"format": "stepslide/scenario@1", "ticks": 1, "world": [{"include": "level/level.json"}]})",
        kSource + "/scenarios/levels/" + name + "/probe.json");
    ASSERT_TRUE(load.scenario) << format_load_errors(load);
    EXPECT_EQ(load.scenario->world.size(), 1u);
  }
}

}  // namespace
}  // namespace stepslide
