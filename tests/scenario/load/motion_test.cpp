// Scenario loader, motion (scenario/load/motion.cpp): linear, spin and keyframed
// bodies, with spin axes normalised and key ticks strictly increasing.

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

/// A world holding one box moving by `motion` (a JSON object).
std::string moving_box(const std::string& motion) {
  return R"("world": [{"shape": {"type": "box", "half_extents": [1, 1, 1]}, "motion": )" + motion + "}]";
}

TEST(LoadMotion, EachTypeReadsItsFields) {
  const Scenario linear = loaded_with(moving_box(R"({"type": "linear", "velocity": [1, 2, 3]})"));
  EXPECT_EQ(linear.world[0].motion.type, MotionType::Linear);
  EXPECT_EQ(linear.world[0].motion.velocity, (Vec3{1, 2, 3}));

  const Scenario spin = loaded_with(moving_box(R"({"type": "spin", "axis": [0, 0, -4], "deg_per_s": -30})"));
  EXPECT_EQ(spin.world[0].motion.type, MotionType::Spin);
  expect_vec(spin.world[0].motion.axis, {0, 0, -1});  // normalised
  EXPECT_EQ(spin.world[0].motion.deg_per_s, -30.0);
}

TEST(LoadMotion, KeysKeepTheirOrderAndDefaultToNoRotation) {
  const Scenario s = loaded_with(moving_box(R"({"type": "keyframes", "keys": [
      {"tick": 0, "position": [0, 0, 0]}, {"tick": 10, "position": [1, 0, 0], "rotation_deg": [0, 90, 0]}]})"));
  const std::vector<MotionKey>& keys = s.world[0].motion.keys;
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].tick, 0);
  EXPECT_EQ(keys[0].rotation_deg, (Vec3{0, 0, 0}));
  EXPECT_EQ(keys[1].tick, 10);
  EXPECT_EQ(keys[1].position, (Vec3{1, 0, 0}));
  EXPECT_EQ(keys[1].rotation_deg, (Vec3{0, 90, 0}));
}

TEST(LoadMotion, KeyTicksAreComparedWithTheLargestValidTickSoFar) {
  // Key 2 is compared with 60, not with key 1's invalid tick.
  EXPECT_EQ(errors_of(moving_box(R"({"type": "keyframes", "keys": [
      {"tick": 60, "position": [0, 0, 0]}, {"tick": -1, "position": [0, 0, 0]},
      {"tick": 30, "position": [0, 0, 0]}]})")),
            (Lines{"/world/0/motion/keys/1/tick: expected an integer >= 0, got -1",
                   "/world/0/motion/keys/2/tick: expected an integer > 60 (the previous key's tick), got 30"}));
}

TEST(LoadMotion, AnUnknownTypeStopsTheMotionThere) {
  EXPECT_EQ(errors_of(moving_box(R"({"type": "orbit", "radius": 2})")),
            Lines{"/world/0/motion/type: expected one of \"linear\", \"spin\", \"keyframes\", got \"orbit\""});
}

TEST(LoadMotion, SpinNeedsANonZeroAxisAndARate) {
  EXPECT_EQ(errors_of(moving_box(R"({"type": "spin", "axis": [0, 0, 0]})")),
            (Lines{"/world/0/motion: missing required key \"deg_per_s\"",
                   "/world/0/motion/axis: expected a non-zero vector, got [0, 0, 0]"}));
}

}  // namespace
}  // namespace stepslide
