// Scenario loader, "characters" (docs/format.md §1.7): several named
// characters, each with its own input; checks naming one; the errors.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scenario/load/load.h"
#include "scenario/load/load_test_util.h"

namespace stepslide {
namespace {

using test::errors_of;
using test::expect_vec;
using test::loaded_with;
using Lines = std::vector<std::string>;

TEST(LoadCharacters, TheFirstIsTheCharacterAndTheOthersFollowInFileOrder) {
  const Scenario s = loaded_with(R"("characters": [
      {"name": "a", "position": [1, 0, 0], "input": [{"tick": 0, "move": [0, 1]}]},
      {"name": "b", "position": [2, 0, 0], "settings": {"mass": 90}, "input": [{"tick": 3, "jump": true}]},
      {"name": "c_3-x"}])");
  EXPECT_EQ(s.character.name, "a");
  EXPECT_EQ(s.character.json_path, "/characters/0");
  expect_vec(s.character.position, {1, 0, 0});
  ASSERT_EQ(s.input.size(), 1u);
  ASSERT_EQ(s.others.size(), 2u);
  EXPECT_EQ(s.character_count(), 3u);
  EXPECT_EQ(s.others[0].def.name, "b");
  EXPECT_EQ(s.others[0].def.settings.mass, 90.0);
  ASSERT_EQ(s.others[0].input.size(), 1u);
  EXPECT_EQ(s.others[0].input[0].tick, 3);
  EXPECT_TRUE(s.others[1].input.empty());
  EXPECT_EQ(s.column_prefix(0), "");
  EXPECT_EQ(s.column_prefix(2), "c_3-x.");
}

TEST(LoadCharacters, TheOneCharacterFormIsUnchanged) {
  const Scenario s = loaded_with(R"("character": {"position": [1, 2, 3]}, "input": [{"tick": 0, "move": [0, 1]}])");
  EXPECT_EQ(s.character.name, "");
  EXPECT_EQ(s.character.json_path, "/character");
  EXPECT_TRUE(s.others.empty());
  EXPECT_EQ(s.input.size(), 1u);
}

TEST(LoadCharacters, ACheckNamesItsCharacter) {
  const Scenario s = loaded_with(R"("characters": [{"name": "a"}, {"name": "b"}],
      "expect": [{"ticks": [0, "end"], "grounded": true},
                 {"character": "b", "ticks": [0, "end"], "grounded": true},
                 {"character": "a", "tick": 5, "position": [0, 0, 0]}])");
  ASSERT_EQ(s.expect.size(), 3u);
  EXPECT_EQ(s.expect[0].character, 0u);
  EXPECT_EQ(s.expect[1].character, 1u);
  EXPECT_EQ(s.expect[2].character, 0u);
}

TEST(LoadCharacters, EachHasALayerOfItsOwnBody) {
  const Scenario s = loaded_with(R"("characters": [{"name": "a", "layer": 3, "collides_with": [0, 4]}, {"name": "b"}])");
  EXPECT_EQ(s.character.layer, 3);
  EXPECT_EQ(s.character.collides_with, 0x11u);
  EXPECT_EQ(s.others[0].def.layer, 0);  // the default
  EXPECT_EQ(s.others[0].def.collides_with, 0xffffffffu);
  EXPECT_EQ(loaded_with(R"("character": {"layer": 31})").character.layer, 31);
}

TEST(LoadCharacters, ALayerOutsideTheRangeIsAnError) {
  EXPECT_EQ(errors_of(R"("characters": [{"name": "a", "layer": 32}, {"name": "b", "layer": -1}])"),
            (Lines{"/characters/0/layer: expected an integer <= 31, got 32",
                   "/characters/1/layer: expected an integer >= 0, got -1"}));
  EXPECT_EQ(errors_of(R"("characters": [{"name": "a", "layer": 1.5}])"),
            Lines{"/characters/0/layer: expected an integer, got 1.5"});
}

TEST(LoadCharacters, Errors) {
  EXPECT_EQ(errors_of(R"("character": {}, "characters": [{"name": "a"}])"),
            Lines{R"(/characters: expected "character" or "characters", not both)"});
  EXPECT_EQ(errors_of(R"("characters": [])"),
            Lines{R"(/characters: expected at least one character (or "character" for one))"});
  EXPECT_EQ(errors_of(R"("characters": [{"name": "a"}, {"name": "a"}])"),
            Lines{R"(/characters/1/name: duplicate character name "a", first used by /characters/0)"});
  EXPECT_EQ(errors_of(R"("characters": [{"position": [0, 0, 0]}])"),
            Lines{R"(/characters/0: missing required key "name")"});
  EXPECT_EQ(errors_of(R"("characters": [{"name": "a"}], "expect": [{"character": "z", "tick": 1, "position": [0, 0, 0]}])"),
            Lines{R"(/expect/0/character: expected the name of a character in /characters, got "z")"});
  EXPECT_EQ(errors_of(R"("characters": [{"name": "a"}], "input": [])"),
            Lines{R"(/input: expected no "input" beside "characters": each character has its own (/characters/N/input))"});
  EXPECT_EQ(errors_of(R"("characters": [{"name": "a.b"}])").size(), 1u);
}

}  // namespace
}  // namespace stepslide
