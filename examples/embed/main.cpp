// A game's use of stepslide: the game owns its Bullet world and reads its own
// input each frame; the controller moves the character through that world.
// No scenario file. Walks onto a 0.2 m step for one second at 60 Hz, slowing
// to a sneak once up by changing a setting, and exits 1 unless it ends up
// standing on the step at about the sneaking speed.
#include <stepslide/controller.h>

#include <btBulletCollisionCommon.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

namespace {

/// The game's level: a floor whose top is y = 0 and, ahead of the character
/// (forward is -Z), a step whose top is y = 0.2 and whose riser is at z = -1.
class Level {
 public:
  Level() : dispatcher_(&config_), world_(&dispatcher_, &broadphase_, &config_) {
    add_box(btVector3(10, 0.5, 10), btVector3(0, -0.5, 0));
    add_box(btVector3(2, 0.1, 3), btVector3(0, 0.1, -4));
  }
  // The world unregisters its objects when destroyed, so they must outlive it.
  ~Level() {
    for (auto& object : objects_) world_.removeCollisionObject(object.get());
  }
  Level(const Level&) = delete;
  Level& operator=(const Level&) = delete;

  btCollisionWorld* world() { return &world_; }

 private:
  void add_box(const btVector3& half_extents, const btVector3& centre) {
    shapes_.push_back(std::make_unique<btBoxShape>(half_extents));
    objects_.push_back(std::make_unique<btCollisionObject>());
    objects_.back()->setCollisionShape(shapes_.back().get());
    objects_.back()->setWorldTransform(btTransform(btQuaternion::getIdentity(), centre));
    world_.addCollisionObject(objects_.back().get());
  }

  btDefaultCollisionConfiguration config_;
  btCollisionDispatcher dispatcher_;
  btDbvtBroadphase broadphase_;
  btCollisionWorld world_;
  std::vector<std::unique_ptr<btBoxShape>> shapes_;
  std::vector<std::unique_ptr<btCollisionObject>> objects_;
};

constexpr double kStepTop = 0.2;
constexpr double kSneakSpeed = 2.5;

}  // namespace

int main() {
  Level level;

  stepslide::ControllerSettings settings;  // the documented defaults (settings.h)
  settings.max_step_height = 0.3;
  stepslide::CharacterShapeDesc capsule;   // radius 0.3, height 1.8
  stepslide::CharacterController controller(level.world(), capsule, settings, btVector3(0, 1, 0),
                                            btVector3(0, -9.81, 0));
  controller.reset(btVector3(0, 0, 0), btVector3(0, 0, 0));  // feet on the floor

  const double dt = 1.0 / 60.0;
  stepslide::CharacterInput input;
  input.move_forward = 1.0;  // stick fully forward; yaw 0 looks along -Z
  for (int tick = 1; tick <= 60; ++tick) {
    // Settings may change between ticks; set_settings checks them first.
    if (tick == 21) {
      stepslide::ControllerSettings sneaking = controller.settings();
      sneaking.walk_speed = kSneakSpeed;
      if (!controller.set_settings(sneaking)) return 1;
      sneaking.max_slope_deg = 95;  // steeper than vertical: refused, the old settings stay
      const stepslide::Status refused = controller.set_settings(sneaking);
      if (refused) return 1;
      std::printf("refused: %s\n", refused.error().c_str());
    }
    const stepslide::TickReport report = controller.update(input, dt);
    for (const stepslide::StepEvent& step : report.steps) {
      std::printf("tick %2d: step %s %.4f m, camera offset %.4f m\n", tick,
                  step.kind == stepslide::StepEvent::Kind::Up ? "up" : "down", step.dy,
                  controller.state().camera_dy);
    }
  }

  const stepslide::CharacterState& state = controller.state();
  const double speed = std::hypot(state.velocity.x(), state.velocity.z());
  std::printf("end: feet (%.4f, %.4f, %.4f), %s, speed %.4f m/s, camera offset %.5f m\n", state.position.x(),
              state.position.y(), state.position.z(), state.grounded ? "grounded" : "in the air", speed,
              state.camera_dy);

  const bool on_step = state.grounded && std::fabs(state.position.y() - kStepTop) < 1e-3 && state.position.z() < -1.3;
  // Friction takes the extra speed away exponentially (settings.h), so after
  // 40 ticks a few hundredths of a m/s remain.
  const bool sneaking = std::fabs(speed - kSneakSpeed) < 0.05;
  if (!on_step || !sneaking) {
    std::fprintf(stderr, "embed: expected to stand on the step (y %.1f) at %.1f m/s\n", kStepTop, kSneakSpeed);
    return 1;
  }
  return 0;
}
