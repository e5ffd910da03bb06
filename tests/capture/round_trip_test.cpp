// The capture round trip: a game records a run, writes the scenario, and
// `stepslide run` (the binary) replays it to the same trajectory, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>

#include "capture/game_rig.h"
#include "support/temp_dir.h"

namespace stepslide::test {
namespace {

/// The CSV's rows as numbers by column name (metadata lines skipped).
struct Csv {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
  double at(std::size_t row, const std::string& column) const {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (columns[c] == column) return rows[row][c];
    }
    ADD_FAILURE() << "no column " << column;
    return 0;
  }
};

Csv parse_csv(const std::string& text) {
  Csv csv;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::stringstream fields(line);
    std::string cell;
    while (std::getline(fields, cell, ',')) cells.push_back(cell);
    if (csv.columns.empty()) {
      csv.columns = cells;
      continue;
    }
    std::vector<double> row;
    for (const std::string& c : cells) row.push_back(std::strtod(c.c_str(), nullptr));
    csv.rows.push_back(row);
  }
  return csv;
}

class CaptureRoundTrip : public TempDirTest {
 protected:
  /// Runs the course for `ticks`, writes the capture, replays it with the
  /// binary and compares every row with the recorder's states, exactly.
  CaptureSummary capture_and_replay(GameRig& rig, int ticks, int from = 0) {
    for (int t = from; t < ticks; ++t) rig.tick(course_input(t));
    const Expected<CaptureSummary> summary = rig.recorder().write_scenario(path("capture.json").string());
    EXPECT_TRUE(summary.ok()) << summary.error();
    if (!summary) return {};
    for (const std::string& note : summary->notes) ADD_FAILURE() << "not exact: " << note;
    EXPECT_TRUE(summary->exact);
    const RunResult run = this->run("run --no-project capture.json --out capture.csv");
    EXPECT_EQ(run.code, 0) << run.out << run.err;
    const Csv csv = parse_csv(read("capture.csv"));
    EXPECT_EQ(csv.rows.size(), static_cast<std::size_t>(summary->ticks + 1));
    const auto& history = rig.recorder().history();
    std::size_t first = 0;
    while (first < history.size() && history[first].tick != summary->first_tick) ++first;
    for (std::size_t r = 0; r < csv.rows.size() && first + r < history.size(); ++r) {
      const CharacterState& s = history[first + r].snapshot.state;
      const double expected[] = {s.position.x(), s.position.y(), s.position.z(), s.velocity.x(),
                                 s.velocity.y(), s.velocity.z(), s.grounded ? 1.0 : 0.0,
                                 s.grounded ? s.ground_normal.x() : 0.0, s.grounded ? s.ground_normal.y() : 0.0,
                                 s.grounded ? s.ground_normal.z() : 0.0};
      const char* names[] = {"x", "y", "z", "vx", "vy", "vz", "grounded", "normal_x", "normal_y", "normal_z"};
      for (std::size_t c = 0; c < std::size(names); ++c) {
        EXPECT_EQ(csv.at(r, names[c]), expected[c]) << "row " << r << " column " << names[c];
        if (csv.at(r, names[c]) != expected[c]) return *summary;  // the first divergence says it all
      }
      EXPECT_EQ(csv.at(r, "camera_dy"), s.camera_dy) << "row " << r;
    }
    return *summary;
  }
};

TEST_F(CaptureRoundTrip, WholeRunReplaysBitForBit) {
  GameRig rig;
  build_course(rig);
  CaptureConfig config;
  config.window_seconds = 60;
  config.body_margin = 100;
  rig.start(btVector3(0.3, 0.2, 1.5), config);
  const CaptureSummary summary = capture_and_replay(rig, 600);
  EXPECT_EQ(summary.first_tick, 0);
  EXPECT_EQ(summary.late_start, "");
  EXPECT_EQ(summary.last_tick, 600);
  EXPECT_EQ(summary.ticks, 600);
  EXPECT_EQ(summary.tick_rate, 60);
  EXPECT_EQ(summary.static_bodies, 12);  // the compound's two boxes are two bodies
  EXPECT_EQ(summary.moving_bodies, 2);
  EXPECT_EQ(summary.skipped_bodies, 0);
  EXPECT_CONTAINS(read("capture.json"), "\"expect\"");
  // The run exercised what it should: riding, the stairs, the turntable, jumps.
  int ridden = 0, airborne = 0, on_turntable = 0;
  double highest = 0;
  for (const CapturedTick& row : rig.recorder().history()) {
    const CharacterState& s = row.snapshot.state;
    if (s.ground_object != nullptr && s.ground_object->isKinematicObject()) ++ridden;
    if (s.ground_object != nullptr && s.ground_object->getWorldTransform().getOrigin().z() == -10) ++on_turntable;
    if (!s.grounded) ++airborne;
    highest = std::max(highest, s.position.y());
  }
  EXPECT_GT(ridden, 40);
  EXPECT_GT(on_turntable, 10);
  EXPECT_GT(airborne, 20);
  EXPECT_GE(highest, 0.45);
}

TEST_F(CaptureRoundTrip, WindowShorterThanTheRunKeepsTheLastSecondsAndReplaysBitForBit) {
  GameRig rig;
  build_course(rig);
  CaptureConfig config;
  config.window_seconds = 3;
  config.body_margin = 100;
  rig.start(btVector3(0.3, 0.2, 1.5), config);
  const CaptureSummary summary = capture_and_replay(rig, 600);
  EXPECT_EQ(summary.last_tick, 600);
  EXPECT_GE(summary.first_tick, 420);
  EXPECT_LE(summary.ticks, 180);
  EXPECT_EQ(summary.ticks, 180);  // character.state lets the first row kept start it
  EXPECT_LE(rig.recorder().history().size(), 182u);
  EXPECT_EQ(rig.recorder().history().front().tick, 600 - 180);
}

TEST_F(CaptureRoundTrip, TeleportStartsTheWindowAfterIt) {
  GameRig rig;
  build_course(rig);
  CaptureConfig config;
  config.window_seconds = 60;
  rig.start(btVector3(0.3, 0.2, 1.5), config);
  for (int t = 0; t < 250; ++t) rig.tick(course_input(t));
  rig.controller().reset(btVector3(4, 1, 4), btVector3(0, 0, -1));  // the game respawns the character
  const CaptureSummary summary = capture_and_replay(rig, 320, 250);
  EXPECT_GE(summary.first_tick, 250);
  EXPECT_TRUE(rig.recorder().history()[251].cut);
  EXPECT_EQ(summary.late_start.rfind("starts " + std::to_string(summary.first_tick) +
                                         " rows after the oldest kept: a teleport or a settings change before tick 251",
                                     0),
            0u)
      << summary.late_start;
}

TEST_F(CaptureRoundTrip, SettingsChangeStartsTheWindowAfterItWithTheNewSettings) {
  GameRig rig;
  build_course(rig);
  CaptureConfig config;
  config.window_seconds = 60;
  rig.start(btVector3(0.3, 0.2, 1.5), config);
  for (int t = 0; t < 200; ++t) rig.tick(course_input(t));
  ControllerSettings sneaking = rig.controller().settings();
  sneaking.walk_speed = 2.5;
  ASSERT_TRUE(rig.controller().set_settings(sneaking).ok());
  const CaptureSummary summary = capture_and_replay(rig, 300, 200);
  EXPECT_GE(summary.first_tick, 200);
  EXPECT_CONTAINS(read("capture.json"), "\"walk_speed\": 2.5");
}

TEST_F(CaptureRoundTrip, StaticLevelFromTheGamesLevelFile) {
  GameRig rig;
  build_course(rig);
  const btCollisionObject* floor = rig.world().getCollisionObjectArray()[0];
  CaptureConfig config;
  config.window_seconds = 60;
  config.level_file = "levels/floor.json";
  config.in_level_file = [floor](const btCollisionObject* object) { return object == floor; };
  rig.start(btVector3(0.3, 0.2, 1.5), config);
  write("levels/floor.json", R"({"format": "stepslide/level@1", "world": [
    {"shape": {"type": "box", "half_extents": [20, 0.5, 20]}, "position": [0, -0.5, 0]}]})");
  const CaptureSummary summary = capture_and_replay(rig, 300);
  EXPECT_EQ(summary.static_bodies, 11);  // the floor is the level file's
  EXPECT_CONTAINS(read("capture.json"), "{\"include\": \"levels/floor.json\"}");
  EXPECT_FALSE(contains(read("capture.json"), "[20, 0.5, 20]"));
}

TEST_F(CaptureRoundTrip, AJumpButtonHeldAcrossTheStartStaysHeld) {
  // Without character.state's jump_held the replay would jump at its tick 0.
  GameRig rig;
  rig.add_static(scenario_box(btVector3(20, 0.5, 20)), at(btVector3(0, -0.5, 0)));
  CaptureConfig config;
  config.window_seconds = 0.5;
  rig.start(btVector3(0, 0, 0), config);
  for (int t = 0; t < 90; ++t) {
    rig.tick([] {
      CharacterInput held;
      held.move_forward = 1;
      held.jump = true;
      return held;
    }());
  }
  const CaptureSummary summary = capture_and_replay(rig, 0);
  EXPECT_EQ(summary.ticks, 30);
  EXPECT_CONTAINS(read("capture.json"), "\"jump_held\": true");
}

TEST_F(CaptureRoundTrip, TurningWithTheGroundResumesTheTurn) {
  GameRig rig;
  rig.add_kinematic(scenario_box(btVector3(5, 0.1, 5)),
                    [](double t) { return at(btVector3(0, -0.1, 0), scenario_rotation({0, 30 * t, 0})); });
  ControllerSettings settings;
  settings.turn_with_ground = true;
  CaptureConfig config;
  config.window_seconds = 0.25;  // row 0, where nothing had turned yet, is gone
  rig.start(btVector3(1, 0, 0), config, settings);
  const CaptureSummary summary = capture_and_replay(rig, 60);
  EXPECT_EQ(summary.ticks, 15);
  EXPECT_CONTAINS(read("capture.json"), "\"ground_yaw_deg\": ");
}

TEST_F(CaptureRoundTrip, AWallThinnestAlongXIsRebuiltWithItsMargin) {
  // The scenario world gives every box the same 1 mm margin whichever axis is
  // its thinnest; a game that builds its boxes that way is captured exactly,
  // and the character sliding round the wall's edge replays bit for bit.
  GameRig rig;
  rig.add_static(scenario_box(btVector3(20, 0.5, 20)), at(btVector3(0, -0.5, 0)));
  auto wall = std::make_unique<btBoxShape>(btVector3(0.1, 1, 2));
  wall->setMargin(0.001);
  rig.add_static(std::move(wall), at(btVector3(0, 1, 0)));
  CaptureConfig config;
  config.window_seconds = 60;
  rig.start(btVector3(-0.5, 0, 0), config);
  for (int t = 0; t < 90; ++t) {
    CharacterInput pressed;
    pressed.use_wish_velocity = true;
    pressed.wish_velocity = btVector3(2, 0, -3);
    rig.tick(pressed);
  }
  const CaptureSummary summary = capture_and_replay(rig, 0);
  EXPECT_EQ(summary.static_bodies, 2);
  EXPECT_CONTAINS(read("capture.json"), "[0.1, 1, 2]");
}

}  // namespace
}  // namespace stepslide::test
