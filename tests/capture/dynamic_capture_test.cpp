// Capturing a game's dynamic bodies: a crate (a btRigidBody with a mass) in
// the game's btDiscreteDynamicsWorld is written with its starting state
// (mass, friction, restitution, damping, shape, pose, velocities) as a
// dynamic body, and the written scenario loads and re-simulates it (with
// the scenario world's own dynamics: close to the game's, not to the bit).
#include <gtest/gtest.h>

#include <btBulletDynamicsCommon.h>

#include <memory>
#include <vector>

#include "capture/game_rig.h"
#include "scenario/load/load.h"
#include "scenario/run/simulate.h"
#include "support/temp_dir.h"

namespace stepslide::test {
namespace {

/// A game with dynamics: a floor, a 10 kg crate ahead of the character,
/// stepped as the recorder's header says (the dynamics world first, each
/// body's pose before the step kept as its interpolation transform).
class DynamicGame {
 public:
  DynamicGame()
      : dispatcher_(&config_), world_(&dispatcher_, &broadphase_, &solver_, &config_) {
    world_.setGravity(btVector3(0, -9.81, 0));
    floor_shape_ = scenario_box(btVector3(20, 0.5, 20));
    floor_.setCollisionShape(floor_shape_.get());
    floor_.setCollisionFlags(btCollisionObject::CF_STATIC_OBJECT);
    floor_.setWorldTransform(at(btVector3(0, -0.5, 0)));
    floor_.setFriction(0.8);
    world_.addCollisionObject(&floor_);
    crate_shape_ = scenario_box(btVector3(0.3, 0.3, 0.3));
    btVector3 inertia(0, 0, 0);
    crate_shape_->calculateLocalInertia(10.0, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(10.0, nullptr, crate_shape_.get(), inertia);
    info.m_startWorldTransform = at(btVector3(0, 0.3, -1.5));
    info.m_friction = 0.4;
    info.m_restitution = 0.1;
    info.m_linearDamping = 0.05;
    crate_ = std::make_unique<btRigidBody>(info);
    world_.addRigidBody(crate_.get());
  }
  ~DynamicGame() {
    recorder_.reset();
    controller_.reset();
    world_.removeRigidBody(crate_.get());
    world_.removeCollisionObject(&floor_);
  }
  void start(const CaptureConfig& config) {
    controller_ = std::make_unique<CharacterController>(&world_, shape_, ControllerSettings{}, btVector3(0, 1, 0),
                                                        btVector3(0, -9.81, 0));
    controller_->reset(btVector3(0, 0, 0), btVector3(0, 0, 0));
    recorder_ = std::make_unique<CaptureRecorder>(&world_, *controller_, shape_, config);
  }
  void tick(const CharacterInput& input) {
    const btTransform before = crate_->getWorldTransform();
    world_.stepSimulation(1.0 / 60, 0);
    crate_->setInterpolationWorldTransform(before);
    world_.updateSingleAabb(crate_.get());
    recorder_->update(input, 1.0 / 60);
  }
  const btRigidBody& crate() const { return *crate_; }
  CaptureRecorder& recorder() { return *recorder_; }

 private:
  btDefaultCollisionConfiguration config_;
  btCollisionDispatcher dispatcher_;
  btDbvtBroadphase broadphase_;
  btSequentialImpulseConstraintSolver solver_;
  btDiscreteDynamicsWorld world_;
  std::unique_ptr<btBoxShape> floor_shape_, crate_shape_;
  btCollisionObject floor_;
  std::unique_ptr<btRigidBody> crate_;
  CharacterShapeDesc shape_;
  std::unique_ptr<CharacterController> controller_;
  std::unique_ptr<CaptureRecorder> recorder_;
};

CharacterInput walk() {
  CharacterInput in;
  in.move_forward = 1;
  return in;
}

class CaptureDynamic : public TempDirTest {};

TEST_F(CaptureDynamic, ACrateIsWrittenWithItsStartingStateAndTheScenarioReSimulatesIt) {
  DynamicGame game;
  CaptureConfig config;
  config.window_seconds = 60;
  game.start(config);
  for (int t = 0; t < 120; ++t) game.tick(walk());
  const double pushed_to = game.crate().getWorldTransform().getOrigin().z();
  ASSERT_LT(pushed_to, -2.5) << "the character pushed the crate";

  const Expected<CaptureSummary> summary = game.recorder().write_scenario(path("capture.json").string());
  ASSERT_TRUE(summary.ok()) << summary.error();
  EXPECT_EQ(summary->dynamic_bodies, 1);
  EXPECT_EQ(summary->moving_bodies, 0);
  // The one note: the scenario world steps the crate with its own dynamics.
  ASSERT_EQ(summary->notes.size(), 1u);
  EXPECT_CONTAINS(summary->notes[0], "stepped by the scenario world's own dynamics");
  const std::string text = read("capture.json");
  EXPECT_CONTAINS(text, "\"name\": \"dynamic0\"");
  EXPECT_CONTAINS(text, "\"mass\": 10");
  EXPECT_CONTAINS(text, "\"friction\": 0.4");
  EXPECT_CONTAINS(text, "\"restitution\": 0.1");
  EXPECT_CONTAINS(text, "\"linear_damping\": 0.05");

  const LoadResult loaded = load_scenario_file(path("capture.json").string());
  ASSERT_TRUE(loaded.scenario.has_value()) << (loaded.errors.empty() ? "" : loaded.errors[0].message);
  const Scenario& s = *loaded.scenario;
  ASSERT_EQ(s.world.size(), 2u);
  EXPECT_EQ(s.world[0].dynamics.friction, 0.8) << "the floor's friction, which the crate slides on";
  EXPECT_TRUE(s.world[1].dynamic());
  EXPECT_EQ(s.world[1].dynamics.mass, 10.0);
  const SimulationResult run = simulate(s);
  ASSERT_TRUE(run.error.empty()) << run.error;
  // Re-simulated from the game's first tick by the scenario world's own
  // dynamics: the crate is pushed as far as the game's Bullet pushed it,
  // within centimetres over 6 m (a different solver), and so is the character.
  const int z = run.trajectory.column_index("dynamic0.z");
  ASSERT_GE(z, 0);
  EXPECT_NEAR(run.trajectory.rows.back()[static_cast<std::size_t>(z)], pushed_to, 0.1);
  const int feet = run.trajectory.column_index("z");
  EXPECT_NEAR(run.trajectory.rows.back()[static_cast<std::size_t>(feet)],
              game.recorder().history().back().snapshot.state.position.z(), 0.1);
}

TEST_F(CaptureDynamic, AWindowStartingLaterGivesTheCrateItsVelocityThenAndSaysWhatIsNotKept) {
  DynamicGame game;
  CaptureConfig config;
  config.window_seconds = 1;
  game.start(config);
  for (int t = 0; t < 120; ++t) game.tick(walk());
  const Expected<CaptureSummary> summary = game.recorder().write_scenario(path("late.json").string());
  ASSERT_TRUE(summary.ok()) << summary.error();
  EXPECT_GT(summary->first_tick, 0);
  EXPECT_EQ(summary->dynamic_bodies, 1);
  EXPECT_FALSE(summary->exact);
  bool said = false;
  for (const std::string& note : summary->notes) said = said || note.find("contacts and solver state") != std::string::npos;
  EXPECT_TRUE(said);
  EXPECT_CONTAINS(read("late.json"), "\"velocity\"");
  const LoadResult loaded = load_scenario_file(path("late.json").string());
  ASSERT_TRUE(loaded.scenario.has_value()) << (loaded.errors.empty() ? "" : loaded.errors[0].message);
  EXPECT_NE(loaded.scenario->world[1].dynamics.velocity[2], 0.0) << "it was moving when the window starts";
  const SimulationResult run = simulate(*loaded.scenario);
  ASSERT_TRUE(run.error.empty()) << run.error;
  const int z = run.trajectory.column_index("dynamic0.z");
  ASSERT_GE(z, 0);
  EXPECT_LT(run.trajectory.rows.back()[static_cast<std::size_t>(z)], run.trajectory.rows.front()[static_cast<std::size_t>(z)]);
}

}  // namespace
}  // namespace stepslide::test
