// Scenario loader, the character (scenario/load/character.cpp): its shape, start
// state and controller settings, checked against the settings table.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scenario/json/reader.h"
#include "scenario/load/load.h"
#include "scenario/load/load_test_util.h"
#include "stepslide/settings.h"

namespace stepslide {
namespace {

using test::errors_of;
using test::expect_vec;
using test::loaded_with;
using Lines = std::vector<std::string>;

TEST(LoadCharacter, AbsentOrWithoutShapeItIsTheDefaultCapsule) {
  for (const std::string& extra : {std::string(), std::string(R"("character": {"position": [1, 2, 3]})")}) {
    const Scenario s = loaded_with(extra);
    EXPECT_EQ(s.character.shape.type, ShapeType::Capsule) << extra;
    EXPECT_EQ(s.character.shape.radius, 0.3) << extra;
    EXPECT_EQ(s.character.shape.height, 1.8) << extra;
  }
  expect_vec(loaded_with(R"("character": {"position": [1, 2, 3]})").character.position, {1, 2, 3});
}

TEST(LoadCharacter, ShapesOtherThanCapsule) {
  const Scenario box = loaded_with(R"("character": {"shape": {"type": "box", "half_extents": [0.3, 0.9, 0.3]}})");
  EXPECT_EQ(box.character.shape.type, ShapeType::Box);
  expect_vec(box.character.shape.half_extents, {0.3, 0.9, 0.3});
  const Scenario sphere = loaded_with(R"("character": {"shape": {"type": "sphere", "radius": 0.5}})");
  EXPECT_EQ(sphere.character.shape.type, ShapeType::Sphere);
  EXPECT_DOUBLE_EQ(sphere.character.shape.radius, 0.5);
}

TEST(LoadCharacter, OnlyConvexPrimitivesAreCharacterShapes) {
  EXPECT_EQ(
      errors_of(R"("character": {"shape": {"type": "stairs", "steps": 1, "rise": 1, "run": 1, "width": 1}})"),
      Lines{"/character/shape/type: expected one of \"capsule\", \"sphere\", \"cylinder\", \"box\", got \"stairs\""});
}

TEST(LoadCharacter, SettingsOverrideTheirDefaultsOnly) {
  const Scenario s = loaded_with(R"("character": {"settings": {"walk_speed": 2.5, "max_slide_iterations": 3}})");
  EXPECT_EQ(s.character.settings.walk_speed, 2.5);
  EXPECT_EQ(s.character.settings.max_slide_iterations, 3);
  EXPECT_EQ(s.character.settings.jump_speed, ControllerSettings{}.jump_speed);
}

TEST(LoadCharacter, EverySettingProblemIsReportedInOrder) {
  EXPECT_EQ(errors_of(R"("character": {"settings": {"walk_sped": 1, "walk_speed": -1, "max_slide_iterations": 1.5}})"),
            (Lines{"/character/settings/walk_sped: unknown setting \"walk_sped\"",
                   "/character/settings/walk_speed: expected a number >= 0, got -1",
                   "/character/settings/max_slide_iterations: expected an integer, got 1.5"}));
}

TEST(LoadCharacter, SettingRangesComeFromTheSettingsTable) {
  for (const SettingInfo& info : setting_table()) {
    const std::string beyond = strict_json::number_text(info.max_value + 1);
    const Lines errors = errors_of(R"("character": {"settings": {")" + std::string(info.name) + "\": " + beyond + "}}");
    ASSERT_EQ(errors.size(), 1u) << info.name;
    EXPECT_NE(errors[0].find("<= " + strict_json::number_text(info.max_value)), std::string::npos) << errors[0];
  }
}

}  // namespace
}  // namespace stepslide

namespace stepslide {
namespace {

using test::errors_of;
using test::loaded_with;

TEST(LoadCharacterCrouch, AbsentMeansNoCrouchShape) {
  EXPECT_FALSE(loaded_with(R"("character": {"position": [0, 0, 0]})").character.crouch_shape.has_value());
}

TEST(LoadCharacterCrouch, AShapeNoTallerThanTheStandingOne) {
  const Scenario s = loaded_with(R"("character": {"crouch_shape": {"type": "capsule", "radius": 0.3, "height": 1.0}})");
  ASSERT_TRUE(s.character.crouch_shape.has_value());
  EXPECT_EQ(s.character.crouch_shape->type, ShapeType::Capsule);
  EXPECT_EQ(s.character.crouch_shape->height, 1.0);
  // Another kind is compared by its extent along up: a 1.2 m sphere under a 1.8 m capsule.
  const Scenario sphere = loaded_with(R"("character": {"crouch_shape": {"type": "sphere", "radius": 0.6}})");
  ASSERT_TRUE(sphere.character.crouch_shape.has_value());
  EXPECT_EQ(sphere.character.crouch_shape->type, ShapeType::Sphere);
}

TEST(LoadCharacterCrouch, TallerThanTheStandingShapeIsAnError) {
  EXPECT_EQ(errors_of(R"("character": {"crouch_shape": {"type": "capsule", "radius": 0.3, "height": 2.0}})"),
            (std::vector<std::string>{"/character/crouch_shape: expected a shape no taller than the character's "
                                      "shape (1.8 m along up), got one 2 m tall"}));
  EXPECT_EQ(errors_of(R"("character": {"shape": {"type": "box", "half_extents": [0.3, 0.5, 0.3]},
                          "crouch_shape": {"type": "sphere", "radius": 0.6}})"),
            (std::vector<std::string>{"/character/crouch_shape: expected a shape no taller than the character's "
                                      "shape (1 m along up), got one 1.2 m tall"}));
}

TEST(LoadCharacterCrouch, ABadCrouchShapeIsReportedWhereItIs) {
  EXPECT_EQ(errors_of(R"("character": {"crouch_shape": {"type": "stairs", "steps": 1, "rise": 1, "run": 1, "width": 1}})"),
            (std::vector<std::string>{
                "/character/crouch_shape/type: expected one of \"capsule\", \"sphere\", \"cylinder\", \"box\", got \"stairs\""}));
}

}  // namespace
}  // namespace stepslide
