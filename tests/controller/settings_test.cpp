// The settings table and validation: what a game gets when it sets settings.
#include <gtest/gtest.h>

#include <cmath>

#include "controller/rig.h"

namespace stepslide::test {
namespace {

TEST(Settings, DefaultsAreValid) { EXPECT_TRUE(validate_settings(ControllerSettings{}).ok()); }

TEST(Settings, EveryRowReadsAndWritesItsOwnField) {
  for (const SettingInfo& info : setting_table()) {
    ControllerSettings s;
    const double value = info.is_integer ? info.max_value : 0.5 * (info.min_value + info.max_value);
    set_setting(s, info, value);
    EXPECT_EQ(get_setting(s, info), value) << info.name;
    EXPECT_EQ(find_setting(info.name), &info);
  }
  EXPECT_EQ(find_setting("no_such_setting"), nullptr);
}

TEST(Settings, BooleansAreRealBools) {
  ControllerSettings s;
  const SettingInfo& info = *find_setting("turn_with_ground");
  EXPECT_EQ(info.kind, SettingInfo::Kind::Boolean);
  set_setting(s, info, 1);
  EXPECT_TRUE(s.turn_with_ground);
  EXPECT_EQ(get_setting(s, info), 1.0);
}

TEST(Settings, CheckNamesTheSettingTheRangeAndTheValue) {
  const Status too_steep = check_setting(*find_setting("max_slope_deg"), 95);
  EXPECT_EQ(too_steep.error(), "max_slope_deg: expected a number in [0, 89.9], got 95");
  const Status fraction = check_setting(*find_setting("max_slide_iterations"), 2.5);
  EXPECT_EQ(fraction.error(), "max_slide_iterations: expected an integer in [1, 64], got 2.5");
  EXPECT_FALSE(check_setting(*find_setting("walk_speed"), std::nan("")).ok());
  EXPECT_FALSE(check_setting(*find_setting("walk_speed"), INFINITY).ok());
  EXPECT_TRUE(check_setting(*find_setting("walk_speed"), 0).ok());
}

TEST(Settings, ValidateReportsTheFirstBadSetting) {
  ControllerSettings s;
  s.skin_width = 0;
  s.friction = -1;
  EXPECT_EQ(validate_settings(s).error(), "skin_width: expected a number in [1e-05, 0.5], got 0");
}

TEST(SetSettings, RefusesABadValueAndKeepsTheOldSettings) {
  Rig rig({floor_at(0)});
  ControllerSettings s = rig.controller->settings();
  s.walk_speed = 3;
  ASSERT_TRUE(rig.controller->set_settings(s).ok());
  s.max_step_height = -0.1;
  const Status refused = rig.controller->set_settings(s);
  EXPECT_EQ(refused.error(), "max_step_height: expected a number in [0, 10], got -0.1");
  EXPECT_EQ(rig.controller->settings().walk_speed, 3);
  EXPECT_EQ(rig.controller->settings().max_step_height, ControllerSettings{}.max_step_height);
}

TEST(SetSettings, TheSlopeLimitTakesEffectAtOnce) {
  // A 40° slope: walkable under the default 45°, not under 30°.
  Rig rig({floor_at(0)});
  const double rad = 40.0 * kPi / 180.0;
  const btVector3 slope(std::sin(rad), std::cos(rad), 0);
  EXPECT_TRUE(rig.ctx().is_walkable(slope));
  ControllerSettings s = rig.controller->settings();
  s.max_slope_deg = 30;
  ASSERT_TRUE(rig.controller->set_settings(s).ok());
  EXPECT_FALSE(rig.ctx().is_walkable(slope));
}

TEST(SetSettings, ANewSkinRebuildsTheSweepShape) {
  Rig rig({floor_at(0)});
  const btConvexShape* before = rig.ctx().sweep_shape;
  ControllerSettings s = rig.controller->settings();
  s.skin_width = 0.05;
  ASSERT_TRUE(rig.controller->set_settings(s).ok());
  EXPECT_NE(rig.ctx().sweep_shape, before);
  EXPECT_DOUBLE_EQ(rig.ctx().probe_inflation, 0.1);
}

TEST(CharacterController, RefusesInvalidSettingsAtConstruction) {
  Scenario scenario;
  scenario.world = {floor_at(0)};
  World world(scenario);
  ControllerSettings s;
  s.max_slide_iterations = 0;
  EXPECT_THROW(CharacterController(world.collision_world(), CharacterShapeDesc{}, s, btVector3(0, 1, 0),
                                   btVector3(0, -9.81, 0)),
               std::invalid_argument);
}

}  // namespace
}  // namespace stepslide::test
