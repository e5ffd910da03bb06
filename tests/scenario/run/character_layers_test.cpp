// Layers between characters (docs/format.md §1.7 "Layers"): a character
// collides with another only when its `collides_with` lists the other's
// `layer`; each direction is decided on its own.

#include <gtest/gtest.h>

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>

#include <string>

#include "scenario/load/load.h"
#include "scenario/run/scenario_filter.h"
#include "scenario/run/simulate.h"

namespace stepslide {
namespace {

/// Two characters on a floor: `a` stands at `a_at` (the origin: in b's
/// way), `b` walks along +x from x = -3. `a_json` and `b_json` add keys.
Scenario meeting(const std::string& a_json, const std::string& b_json, const std::string& a_at = "[0, 0, 0]") {
  const std::string text = R"({"format": "stepslide/scenario@1", "ticks": 120,
    "world": [{"name": "floor", "shape": {"type": "box", "half_extents": [20, 0.5, 20]}, "position": [0, -0.5, 0]}],
    "characters": [{"name": "a", "position": )" + a_at + a_json + R"(},
                   {"name": "b", "position": [-3, 0, 0], "input": [{"tick": 0, "move": [1, 0]}])" + b_json + "}]}";
  LoadResult loaded = load_scenario_text(text, "meeting.json");
  EXPECT_TRUE(loaded.scenario.has_value()) << (loaded.errors.empty() ? "" : format_error(loaded.errors.front()));
  return loaded.scenario ? *loaded.scenario : Scenario{};
}

/// Column `name` of the last row.
double last(const SimulationResult& r, const std::string& name) {
  for (std::size_t c = 0; c < r.trajectory.columns.size(); ++c) {
    if (r.trajectory.columns[c] == name) return r.trajectory.rows.back()[c];
  }
  ADD_FAILURE() << "no column " << name;
  return 0.0;
}

TEST(CharacterLayers, OnLayersNeitherCollidesWithTheyPassThroughEachOther) {
  const SimulationResult r = simulate(meeting(R"(, "layer": 1, "collides_with": [0])", R"(, "layer": 2, "collides_with": [0])"));
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(last(r, "x"), 0.0);   // never touched
  EXPECT_GT(last(r, "b.x"), 3.0);  // walked on through
}

TEST(CharacterLayers, WhereBothCollideTheyBlock) {
  const SimulationResult r = simulate(meeting(R"(, "layer": 1)", R"(, "layer": 2, "collides_with": [0, 1])"));
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_LT(last(r, "b.x"), last(r, "x"));  // b stays on its side of a
}

/// They disagree: a collides with b's layer, b not with a's. b walks on as
/// if a were not there; to a, b is a moving body like any other, so a is
/// pushed out of its way (ahead of it) and cannot push back.
TEST(CharacterLayers, WhenTheyDisagreeOnlyTheOneThatCollidesIsMoved) {
  const Scenario alone_b = meeting(R"(, "layer": 1)", R"(, "layer": 2, "collides_with": [0])", "[0, 0, 10]");
  const SimulationResult lone = simulate(alone_b);
  const SimulationResult r = simulate(meeting(R"(, "layer": 1)", R"(, "layer": 2, "collides_with": [0])"));
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(last(r, "b.x"), last(lone, "b.x"));  // b is never slowed
  EXPECT_GT(last(r, "x"), last(r, "b.x"));        // a is shoved ahead of b
}

TEST(CharacterLayers, TheFilterSeesAnotherCharactersBodyByItsLayer) {
  const Scenario s = meeting(R"(, "layer": 1, "collides_with": [0, 2])", R"(, "layer": 2, "collides_with": [0])");
  EXPECT_TRUE(ScenarioFilter::needed(s));
  btCollisionObject a_body;
  btCollisionObject b_body;
  btCollisionObject stranger;  // a character body the filter was not told of: every layer
  ScenarioFilter a(s, s.character);
  a.add_character_body(&b_body, s.others[0].def.layer);
  ScenarioFilter b(s, s.others[0].def);
  b.add_character_body(&a_body, s.character.layer);
  EXPECT_TRUE(a.collides_with(b_body));
  EXPECT_FALSE(b.collides_with(a_body));
  EXPECT_TRUE(b.collides_with(stranger));
  // Default layers and masks: no filter needed.
  EXPECT_FALSE(ScenarioFilter::needed(meeting("", "")));
}

}  // namespace
}  // namespace stepslide
