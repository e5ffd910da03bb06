// What the recorder refuses, and what it writes but flags as not exact: a
// bad path, a dt no scenario has, input out of the format's range, shapes
// built otherwise than the scenario world builds them. Never a throw.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>

#include <sys/stat.h>

#include "capture/game_rig.h"
#include "scenario/load/load.h"
#include "support/temp_dir.h"

namespace stepslide::test {
namespace {

class CaptureErrors : public TempDirTest {
 protected:
  /// A floor and 30 ticks of walking.
  void walk(GameRig& rig, CharacterInput input = forward(), double dt = 1.0 / 60) {
    rig.add_static(scenario_box(btVector3(20, 0.5, 20)), at(btVector3(0, -0.5, 0)));
    rig.start(btVector3(0, 0, 0));
    for (int t = 0; t < 30; ++t) rig.tick(input, dt);
  }
  static CharacterInput forward() {
    CharacterInput in;
    in.move_forward = 1;
    return in;
  }
};

TEST_F(CaptureErrors, MissingDirectoryIsAnErrorNamingThePathAndWritesNothing) {
  GameRig rig;
  walk(rig);
  const std::string target = path("no/such/dir/bug.json").string();
  const Expected<CaptureSummary> written = rig.recorder().write_scenario(target);
  ASSERT_FALSE(written.ok());
  EXPECT_CONTAINS(written.error(), target);
  EXPECT_CONTAINS(written.error(), "No such file or directory");
  EXPECT_FALSE(fs::exists(path("no")));
}

TEST_F(CaptureErrors, ADirectoryOrADeviceIsRefusedAndLeftAlone) {
  GameRig rig;
  walk(rig);
  fs::create_directories(path("dir"));
  const Expected<CaptureSummary> to_dir = rig.recorder().write_scenario(path("dir").string());
  ASSERT_FALSE(to_dir.ok());
  EXPECT_CONTAINS(to_dir.error(), "it is a directory; only regular files are written or replaced");
  EXPECT_TRUE(fs::is_directory(path("dir")));
  const Expected<CaptureSummary> to_device = rig.recorder().write_scenario("/dev/null");
  ASSERT_FALSE(to_device.ok());
  EXPECT_CONTAINS(to_device.error(), "cannot write /dev/null: it is a character device");
  struct stat info {};
  ASSERT_EQ(::stat("/dev/null", &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode));
  EXPECT_TRUE(fs::is_empty(path("dir")));  // no temporary left behind
}

TEST_F(CaptureErrors, ASymlinkIsRefusedAndLeftAlone) {
  GameRig rig;
  walk(rig);
  write("target.json", "kept");
  fs::create_symlink(path("target.json"), path("link.json"));
  const Expected<CaptureSummary> written = rig.recorder().write_scenario(path("link.json").string());
  ASSERT_FALSE(written.ok());
  EXPECT_CONTAINS(written.error(), "link.json: it is a symbolic link");
  EXPECT_TRUE(fs::is_symlink(path("link.json")));
  EXPECT_EQ(read("target.json"), "kept");
}

TEST_F(CaptureErrors, AnExistingFileIsReplacedWhole) {
  GameRig rig;
  walk(rig);
  write("bug.json", std::string(100000, 'x'));
  ASSERT_TRUE(rig.recorder().write_scenario(path("bug.json").string()).ok());
  const std::string text = read("bug.json");
  EXPECT_EQ(text.rfind("{\n  \"format\": \"stepslide/scenario@1\"", 0), 0u);
  EXPECT_EQ(text.find('x' + std::string(10, 'x')), std::string::npos);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

// Failed first: the recorder's own escaper passed ill-formed UTF-8 through,
// and the loader refuses such a file, so the capture could not be replayed.
TEST_F(CaptureErrors, IllFormedUtf8InANameIsWrittenAsReplacementCharactersAndTheFileLoads) {
  GameRig rig;
  rig.add_static(scenario_box(btVector3(20, 0.5, 20)), at(btVector3(0, -0.5, 0)));
  CaptureConfig config;
  config.name = "caf\xff";
  config.description = "line\r\nbell\b\x01";
  rig.start(btVector3(0, 0, 0), config);
  for (int t = 0; t < 30; ++t) rig.tick(forward());
  ASSERT_TRUE(rig.recorder().write_scenario(path("bug.json").string()).ok());
  const std::string text = read("bug.json");
  EXPECT_NE(text.find("\"description\": \"line\\r\\nbell\\b\\u0001\""), std::string::npos) << text;
  const LoadResult loaded = load_scenario_file(path("bug.json").string());
  ASSERT_TRUE(loaded.scenario.has_value()) << format_load_errors(loaded);
  EXPECT_EQ(loaded.scenario->name, "caf\xEF\xBF\xBD");
  EXPECT_EQ(loaded.scenario->description, config.description);
}

TEST_F(CaptureErrors, NothingRecordedYet) {
  GameRig rig;
  rig.add_static(scenario_box(btVector3(20, 0.5, 20)), at(btVector3(0, -0.5, 0)));
  rig.start(btVector3(0, 0, 0));
  const Expected<std::string> text = rig.recorder().scenario_text();
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error(), "cannot capture: nothing to capture yet: no tick was recorded");
}

TEST_F(CaptureErrors, ADtThatIsNoTickRate) {
  GameRig rig;
  walk(rig, forward(), 0.016);
  const Expected<std::string> text = rig.recorder().scenario_text();
  ASSERT_FALSE(text.ok());
  EXPECT_CONTAINS(text.error(), "is not 1/N s for a whole N from 1 to 10000");
}

TEST_F(CaptureErrors, AStickOutsideTheFormatsRange) {
  GameRig rig;
  CharacterInput input;
  input.move_right = 1.5;
  walk(rig, input);
  const Expected<std::string> text = rig.recorder().scenario_text();
  ASSERT_FALSE(text.ok());
  EXPECT_CONTAINS(text.error(), "input of tick 0: stick [1.5, 0] outside [-1, 1]");
}

TEST_F(CaptureErrors, AStateBeyondTheFormatsLimits) {
  GameRig rig;
  walk(rig);
  rig.controller().reset(btVector3(2e6, 0, 0), btVector3(0, 0, 0));  // far out, and falling: the window starts after
  for (int t = 0; t < 5; ++t) rig.tick(forward());
  const Expected<std::string> text = rig.recorder().scenario_text();
  ASSERT_FALSE(text.ok());
  EXPECT_CONTAINS(text.error(), "the character's state at tick 31: beyond 1e6 m, the format's limit for a coordinate");
}

TEST_F(CaptureErrors, ALevelFileWithoutItsObjects) {
  GameRig rig;
  rig.add_static(scenario_box(btVector3(20, 0.5, 20)), at(btVector3(0, -0.5, 0)));
  CaptureConfig config;
  config.level_file = "level.json";  // but no in_level_file: every body would be written twice
  rig.start(btVector3(0, 0, 0), config);
  rig.tick(forward());
  const Expected<std::string> text = rig.recorder().scenario_text();
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error(), "cannot capture: CaptureConfig: level_file and in_level_file go together (the level "
                          "file's bodies, and which objects they are)");
}

TEST_F(CaptureErrors, ShapesTheScenarioWorldBuildsOtherwiseAreWrittenAndFlagged) {
  GameRig rig;
  // Bullet's default 4 cm margin, not the scenario world's 1 mm.
  rig.add_static(std::make_unique<btBoxShape>(btVector3(1, 0.5, 1)), at(btVector3(0, 0.5, -3)));
  std::vector<double> heights(16, 0.0);
  rig.add_static(std::make_unique<btHeightfieldTerrainShape>(4, 4, heights.data(), 1.0, 0.0, 1.0, 1, PHY_DOUBLE, false),
                 at(btVector3(3, 0, 0)));
  walk(rig);
  CaptureSummary summary;
  const Expected<std::string> text = rig.recorder().scenario_text(&summary);
  ASSERT_TRUE(text.ok()) << text.error();
  EXPECT_FALSE(summary.exact);
  EXPECT_EQ(summary.static_bodies, 2);
  EXPECT_EQ(summary.skipped_bodies, 1);
  ASSERT_EQ(summary.notes.size(), 2u);
  EXPECT_EQ(summary.notes[0], "/world/0: box margin 0.04 (the scenario's boxes have 0.001)");
  EXPECT_CONTAINS(summary.notes[1], "a body near the path was left out: shape HEIGHTFIELD");
}

TEST_F(CaptureErrors, AMovingBodyWithoutItsInterpolationTransformIsNoted) {
  GameRig rig;
  rig.keep_interpolation(false);
  rig.add_kinematic(scenario_box(btVector3(1, 0.1, 1)), [](double t) { return at(btVector3(0.5 * t + 3, 0.1, 0)); });
  walk(rig);
  CaptureSummary summary;
  ASSERT_TRUE(rig.recorder().scenario_text(&summary).ok());
  EXPECT_FALSE(summary.exact);
  ASSERT_EQ(summary.notes.size(), 1u);
  EXPECT_EQ(summary.notes[0], "/world/1: on 29 ticks its interpolation transform was not its pose of the tick before "
                              "(see the game-loop contract)");
}

TEST_F(CaptureErrors, AMovingBodyThatAppearsLateStartsTheWindowOrIsLeftOut) {
  GameRig rig;
  walk(rig);  // 30 ticks
  rig.add_kinematic(scenario_box(btVector3(1, 0.1, 1)), [](double t) { return at(btVector3(0.5 * t + 3, 0.1, 0)); });
  for (int t = 0; t < 40; ++t) rig.tick(forward());
  CaptureSummary summary;
  ASSERT_TRUE(rig.recorder().scenario_text(&summary).ok());
  // In rows 31 to 70: the window starts at the first row it is in.
  EXPECT_EQ(summary.moving_bodies, 1);
  EXPECT_EQ(summary.ticks, 39);
  EXPECT_CONTAINS(summary.late_start, "a moving body not yet in the world, before tick 31");
  EXPECT_TRUE(summary.exact);
  // A newcomer there for 1 tick of 71 is left out rather than cut the window to one tick.
  rig.add_kinematic(scenario_box(btVector3(1, 0.1, 1)), [](double t) { return at(btVector3(0.5 * t - 3, 0.1, 0)); });
  rig.tick(forward());
  summary = CaptureSummary{};
  ASSERT_TRUE(rig.recorder().scenario_text(&summary).ok());
  EXPECT_EQ(summary.moving_bodies, 1);
  EXPECT_EQ(summary.ticks, 40);
  EXPECT_EQ(summary.skipped_bodies, 1);
  EXPECT_FALSE(summary.exact);
  EXPECT_CONTAINS(summary.notes.at(0), "1 moving bodies near the path were left out: not in the world for the whole window");
}

TEST_F(CaptureErrors, FarBodiesAreLeftOut) {
  GameRig rig;
  rig.add_static(scenario_box(btVector3(1, 1, 1)), at(btVector3(500, 0, 0)));
  walk(rig);
  CaptureSummary summary;
  ASSERT_TRUE(rig.recorder().scenario_text(&summary).ok());
  EXPECT_EQ(summary.static_bodies, 1);  // the floor
  EXPECT_TRUE(summary.exact);
}

}  // namespace
}  // namespace stepslide::test
