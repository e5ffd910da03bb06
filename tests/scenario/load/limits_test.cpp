// The rate and angle limits (ScenarioLimits, docs/format.md §1.5) keep every
// pose and trajectory finite: what the loader accepts at its very edges, over
// the longest time a scenario can last, never becomes NaN or infinite.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "scenario/load/load.h"
#include "scenario/load/load_test_util.h"
#include "scenario/load/world.h"
#include "scenario/run/simulate.h"
#include "stepslide/stages.h"
#include "support/test_bodies.h"

namespace stepslide {
namespace {

using L = ScenarioLimits;

bool finite(const btTransform& t) {
  const btVector3& o = t.getOrigin();
  const btQuaternion q = t.getRotation();
  return std::isfinite(o.x()) && std::isfinite(o.y()) && std::isfinite(o.z()) && std::isfinite(q.x()) &&
         std::isfinite(q.y()) && std::isfinite(q.z()) && std::isfinite(q.w());
}

TEST(Limits, TheEdgesOfEveryRateAndAngleAreAccepted) {
  const std::string limit_speed = std::to_string(static_cast<int>(L::max_speed));
  const Scenario s = test::loaded_with(
      R"("character": {"velocity": [)" + limit_speed + ", 0, -" + limit_speed + R"(]},
         "world": [{"shape": {"type": "box", "half_extents": [1, 1, 1]}, "rotation_deg": [1000000, -1000000, 0],
                    "motion": {"type": "spin", "axis": [0, 1, 0], "deg_per_s": -1000000}},
                   {"shape": {"type": "box", "half_extents": [1, 1, 1]},
                    "motion": {"type": "linear", "velocity": [10000, -10000, 10000]}}],
         "input": [{"tick": 0, "yaw_deg": -1000000, "wish_velocity": [10000, -10000]}])");
  EXPECT_EQ(s.world[0].motion.deg_per_s, -L::max_spin_deg_per_s);
  EXPECT_EQ(s.input[0].yaw_deg, -L::max_angle_deg);
}

TEST(Limits, PosesAtTheEdgesStayFiniteOverTheLongestScenario) {
  // tick_rate 1 and the tick limit: 10^6 s, the longest time a scenario spans.
  Scenario s;
  s.tick_rate = 1;
  BodyDef spinner = test::box({0, 0, 0}, {1, 1, 1});
  spinner.rotation_deg = {L::max_angle_deg, -L::max_angle_deg, L::max_angle_deg};
  spinner.motion.type = MotionType::Spin;
  spinner.motion.axis = {0, 1, 0};
  spinner.motion.deg_per_s = L::max_spin_deg_per_s;
  BodyDef mover = test::box({L::max_coordinate, 0, -L::max_coordinate}, {1, 1, 1});
  mover.motion.type = MotionType::Linear;
  mover.motion.velocity = {L::max_speed, -L::max_speed, L::max_speed};
  BodyDef keyed = test::box({0, 0, 0}, {1, 1, 1});
  keyed.motion.type = MotionType::Keyframes;
  keyed.motion.keys = {MotionKey{L::max_ticks, {1, 2, 3}, {L::max_angle_deg, 0, -L::max_angle_deg}}};
  s.world = {spinner, mover, keyed};
  World world(s);
  for (std::int64_t tick : {std::int64_t{0}, std::int64_t{1}, L::max_ticks / 2, L::max_ticks}) {
    for (std::size_t i = 0; i < s.world.size(); ++i) {
      EXPECT_TRUE(finite(world.body_pose(i, tick))) << "body " << i << " at tick " << tick;
    }
  }
  EXPECT_NEAR(world.body_pose(1, L::max_ticks).getOrigin().x(), L::max_coordinate + L::max_speed * L::max_ticks, 1.0);
}

TEST(Limits, AYawAtItsLimitTurnsTheStickLikeItsRemainderModulo360) {
  CharacterInput input;
  input.move_forward = 1;
  input.yaw_deg = L::max_angle_deg;  // 10^6 = 2777 turns + 280 degrees
  const btVector3 far = wish_direction(input, btVector3(0, 1, 0));
  input.yaw_deg = 280;
  const btVector3 near = wish_direction(input, btVector3(0, 1, 0));
  EXPECT_NEAR((far - near).length(), 0.0, 1e-9);
}

TEST(Limits, ARunAtTheEdgesWritesOnlyFiniteNumbers) {
  // Before the limits, a floor spinning at 1e308 deg/s or a yaw of 1e308
  // degrees wrote NaN rows with exit 0.
  const LoadResult loaded = load_scenario_text(test::minimal(R"("tick_rate": 1, "world": [
      {"shape": {"type": "box", "half_extents": [50, 0.5, 50]}, "position": [0, -0.5, 0],
       "motion": {"type": "spin", "axis": [0, 1, 0], "deg_per_s": 1000000}}],
      "input": [{"tick": 0, "move": [0, 1], "yaw_deg": 1000000}, {"tick": 50, "wish_velocity": [10000, 10000]}])"),
                                               "t");
  ASSERT_TRUE(loaded.scenario) << ::testing::PrintToString(test::paths_and_messages(loaded));
  const SimulationResult result = simulate(*loaded.scenario);
  ASSERT_EQ(result.trajectory.rows.size(), 101u);
  for (const auto& row : result.trajectory.rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      ASSERT_TRUE(std::isfinite(row[c])) << result.trajectory.columns[c] << " at tick " << row[0];
    }
  }
}

}  // namespace
}  // namespace stepslide
