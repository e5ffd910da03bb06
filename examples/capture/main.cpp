// A game loop that records its character with stepslide::CaptureRecorder and,
// when "the player files a bug", writes the last seconds as a scenario file
// that `stepslide run` replays bit for bit. The level: a floor, a 0.2 m step
// and a platform sliding to and fro; the character walks, rides the
// platform, turns and jumps. Usage: capture [OUT.json] (default capture.json).
// Exits 1 unless the scenario was written and is exact.
#include <stepslide/capture/recorder.h>
#include <stepslide/controller.h>

#include <btBulletCollisionCommon.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

namespace {

/// The game's level. Boxes get a 1 mm margin, as the scenario world gives
/// them: a capture of Bullet's default 4 cm margin is written but not exact.
class Level {
 public:
  Level() : dispatcher_(&config_), world_(&dispatcher_, &broadphase_, &config_) {
    add_box(btVector3(10, 0.5, 10), btVector3(0, -0.5, 0), btCollisionObject::CF_STATIC_OBJECT);
    add_box(btVector3(2, 0.1, 1), btVector3(0, 0.1, -3), btCollisionObject::CF_STATIC_OBJECT);
    platform_ = add_box(btVector3(1, 0.1, 1), platform_pose(0), btCollisionObject::CF_KINEMATIC_OBJECT);
  }
  ~Level() {
    for (auto& object : objects_) world_.removeCollisionObject(object.get());
  }
  Level(const Level&) = delete;
  Level& operator=(const Level&) = delete;

  btCollisionWorld* world() { return &world_; }

  /// Step 1 of the game-loop contract: the world moves to its pose for the
  /// coming tick, keeping the pose it moved from as the interpolation transform.
  void move_to(int tick) {
    btCollisionObject* p = platform_;
    p->setInterpolationWorldTransform(p->getWorldTransform());
    p->setWorldTransform(btTransform(btQuaternion::getIdentity(), platform_pose(tick)));
    world_.updateSingleAabb(p);
  }

 private:
  static btVector3 platform_pose(int tick) { return btVector3(2.5 + 1.5 * std::sin(tick / 60.0), 0.1, -6); }

  btCollisionObject* add_box(const btVector3& half, const btVector3& centre, int flags) {
    auto box = std::make_unique<btBoxShape>(half);
    box->setMargin(0.001);
    auto object = std::make_unique<btCollisionObject>();
    object->setCollisionShape(box.get());
    object->setCollisionFlags(flags);
    object->setWorldTransform(btTransform(btQuaternion::getIdentity(), centre));
    object->setInterpolationWorldTransform(object->getWorldTransform());
    world_.addCollisionObject(object.get());
    shapes_.push_back(std::move(box));
    objects_.push_back(std::move(object));
    return objects_.back().get();
  }

  btDefaultCollisionConfiguration config_;
  btCollisionDispatcher dispatcher_;
  btDbvtBroadphase broadphase_;
  btCollisionWorld world_;
  std::vector<std::unique_ptr<btBoxShape>> shapes_;
  std::vector<std::unique_ptr<btCollisionObject>> objects_;
  btCollisionObject* platform_ = nullptr;
};

/// The player's input at `tick`: up the step, onto the platform, a turn, a jump.
stepslide::CharacterInput input_at(int tick) {
  stepslide::CharacterInput input;
  input.move_forward = tick < 100 ? 1.0 : tick < 160 ? 0.4 : 0.0;
  input.move_right = tick >= 100 && tick < 160 ? 0.8 : 0.0;
  input.yaw_deg = tick < 100 ? 0.0 : -20.0;
  input.jump = tick >= 220 && tick < 230;
  return input;
}

}  // namespace

int main(int argc, char** argv) {
  const char* out = argc > 1 ? argv[1] : "capture.json";
  Level level;
  const stepslide::CharacterShapeDesc capsule;  // radius 0.3, height 1.8
  stepslide::CharacterController controller(level.world(), capsule, stepslide::ControllerSettings{},
                                            btVector3(0, 1, 0), btVector3(0, -9.81, 0));
  controller.reset(btVector3(0, 0, 0), btVector3(0, 0, 0));

  stepslide::CaptureConfig config;
  config.window_seconds = 4;  // keep the last 4 s
  config.name = "capture_example";
  stepslide::CaptureRecorder recorder(level.world(), controller, capsule, config);

  const double dt = 1.0 / 60.0;
  for (int tick = 0; tick < 300; ++tick) {
    level.move_to(tick + 1);
    recorder.update(input_at(tick), dt);  // instead of controller.update
  }

  // The player files a bug: save what just happened.
  const stepslide::Expected<stepslide::CaptureSummary> written = recorder.write_scenario(out);
  if (!written) {
    std::fprintf(stderr, "capture: %s\n", written.error().c_str());
    return 1;
  }
  std::printf("wrote %s: game ticks %lld to %lld (%lld ticks at %d Hz), %d static and %d moving bodies, %s\n", out,
              static_cast<long long>(written->first_tick), static_cast<long long>(written->last_tick),
              static_cast<long long>(written->ticks), written->tick_rate, written->static_bodies,
              written->moving_bodies, written->exact ? "exact" : "NOT exact");
  if (!written->late_start.empty()) std::printf("  %s\n", written->late_start.c_str());
  for (const std::string& note : written->notes) std::printf("  note: %s\n", note.c_str());
  return written->exact ? 0 : 1;
}
