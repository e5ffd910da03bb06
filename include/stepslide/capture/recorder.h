// Capture from a running game: a recorder the game attaches to its
// CharacterController keeps the last seconds of inputs, states and moving
// bodies' poses, and on request writes them as a scenario file
// (docs/format.md §1) that `stepslide run` replays bit for bit. Depends on
// the controller and Bullet only (component stepslide::capture); the JSON is
// written as text, no JSON library. No I/O except write_scenario().
//
// The game loop contract (the order `stepslide run` steps a scenario in,
// src/scenario/simulate.cpp; docs/format.md §1.1 "The order of a tick"):
//
//   controller.reset(feet, velocity);            // the world at its pose for tick 0
//   CaptureRecorder recorder(world, controller, shape, config);   // row 0
//   every tick:
//     move the kinematic bodies to their pose for the coming row;  // 1. the world
//     recorder.update(input, dt);    // 2. instead of controller.update(input, dt)
//   on a bug report:
//     recorder.write_scenario("bug.json");
//
// - `dt` is fixed: 1.0 / N for a whole N (the scenario's tick_rate). Ticks
//   of another dt are recorded but cannot start or be part of a capture.
// - The game may teleport the character (controller.reset, writing
//   controller.state(), a controller.update the recorder did not see) and
//   change settings (set_settings) between ticks; a captured window never
//   spans either: it starts after the last of them.
// - Static bodies must not move, nor leave the world during the window (the
//   recorder writes those in the world when it writes). Kinematic bodies
//   move only between ticks (step 1), as the scenario world moves them:
//   keep the pose moved from as the interpolation transform (the
//   controller's push-out reads it), then set the new one and refresh the
//   broadphase:
//     body->setInterpolationWorldTransform(body->getWorldTransform());
//     body->setWorldTransform(pose);
//     world->updateSingleAabb(body);
// - Dynamic bodies (btRigidBody with a mass) are written as dynamic bodies
//   from their state at the window's first row, and the scenario world's own
//   dynamics simulates them: closely, not bit for bit (docs/embedding.md
//   "Capture from your game"). The game steps its btDiscreteDynamicsWorld
//   in step 1, as the scenario world does: each body's pose before the
//   step kept as its interpolation transform, its AABB refreshed after:
//     for each body: before[i] = body->getWorldTransform();
//     world->stepSimulation(dt, 0);
//     for each body: body->setInterpolationWorldTransform(before[i]);
//                    world->updateSingleAabb(body);
// - Any object the controller's queries see (its broadphase filter accepts
//   DefaultFilter) is part of the world; a non-static one is recorded every
//   tick. Rotate bodies with scenario_rotation() to have every pose exact.
// - The start of a scenario is its character's position, velocity and
//   `state` (docs/format.md §1): the ground normal, camera offset, held jump
//   and ground turn that reset() cannot know.
#pragma once

#include <LinearMath/btTransform.h>

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "stepslide/character.h"
#include "stepslide/controller.h"
#include "stepslide/expected.h"

class btCollisionObject;
class btCollisionWorld;

namespace stepslide {

struct CaptureConfig {
  /// How much history is kept, in seconds of game time: the longest window
  /// write_scenario() can capture. Default 10.
  double window_seconds = 10.0;
  /// Bodies whose bounding box comes within this distance (metres) of the
  /// character's path over the window are written; the rest are left out.
  /// Default 5. Use a large value to write every body.
  double body_margin = 5.0;
  /// The scenario's `name` (default "capture") and `description`.
  std::string name = "capture";
  std::string description;
  /// A level file (docs/format.md §1.6) holding the game's static level, as
  /// the path to write in `"world": [{"include": PATH}]` (relative to the
  /// scenario file). Empty: none. Objects for which `in_level_file` returns
  /// true are not written: the level file has them. Both or neither.
  std::string level_file;
  std::function<bool(const btCollisionObject*)> in_level_file;
  /// Tolerance (m) of the written end-position expectation: the replay
  /// reproduces the recorded feet exactly, so this only has to be > 0.
  double end_tolerance = 1e-9;
};

/// Where a non-static body was at a row.
struct CapturedPose {
  const btCollisionObject* object = nullptr;
  btTransform transform;
  btTransform interpolation;  ///< where the body says it was a tick before (see the contract above)
  /// A dynamic body's (btRigidBody with a mass) velocities, world frame;
  /// zero for kinematic ones. The first row's become the written body's
  /// `velocity` and `angular_velocity`.
  btVector3 linear_velocity{0, 0, 0};
  btVector3 angular_velocity{0, 0, 0};
};

/// One recorded row: the state after `tick` ticks (row 0: after reset), the
/// input and dt that produced it (row 0: none).
struct CapturedTick {
  std::int64_t tick = 0;  ///< ticks since the recorder was made
  CharacterInput input;
  double dt = 0.0;
  /// The controller's state after the tick (save_state()): what a game
  /// keeps for rollback is what the recorder keeps. A difference between
  /// the snapshot left after a tick and the one found before the next is a
  /// teleport (`cut`).
  ControllerSnapshot snapshot;
  TickReport report;
  /// A scenario may start here: reset(position, velocity) in this world
  /// finds the same ground (grounded or not, the same body, at the same
  /// pose); the scenario's character.state restores the rest (normal,
  /// camera, held jump, the ground's turn). Otherwise `not_restartable` says why.
  bool restartable = false;
  const char* not_restartable = "";
  /// No window reaches back across this row: the character was teleported
  /// or the settings changed just before the tick that made it.
  bool cut = false;
  std::vector<CapturedPose> moving;  ///< every non-static body of the world, in its order
};

/// What write_scenario() wrote.
struct CaptureSummary {
  std::int64_t first_tick = 0;  ///< the recorder's tick of the scenario's row 0
  std::int64_t last_tick = 0;   ///< ... of its last row
  std::int64_t ticks = 0;       ///< the scenario's `ticks`
  int tick_rate = 0;
  int static_bodies = 0;  ///< written as shapes (the level file's not counted)
  int moving_bodies = 0;  ///< written with keyframed motion
  /// Dynamic bodies (btRigidBody with a mass), written with their starting
  /// state (mass, friction, restitution, damping, shape, pose, velocities)
  /// for the scenario's dynamics world to simulate; not counted in moving_bodies.
  int dynamic_bodies = 0;
  int skipped_bodies = 0;  ///< near the path but not expressible (see notes)
  /// True when every part written reproduces the game's bit for bit (as far
  /// as the recorder can check: shapes, poses, settings, start state). When
  /// false, `notes` says what differs; the scenario is still written.
  bool exact = true;
  /// Why the scenario starts later than the oldest row kept (a teleport, a
  /// settings change, rows reset() cannot restart from), or "".
  std::string late_start;
  std::vector<std::string> notes;
};

/// The rotation a scenario's `rotation_deg` [x, y, z] gives a body (about
/// world X, then Y, then Z; docs/format.md §1.1), computed as the scenario
/// world computes it. A game that turns its bodies with it (rather than by an
/// axis and an angle in radians) has every pose captured exactly; other
/// rotations come back exact for most poses, and the summary's notes count
/// those that do not.
btQuaternion scenario_rotation(const std::array<double, 3>& rotation_deg);

class CaptureRecorder {
 public:
  /// Attaches to `controller`, already reset, moving in `world` (which the
  /// recorder only reads). `shape` is the one the controller was made with.
  /// Records row 0 from the controller's state now.
  CaptureRecorder(btCollisionWorld* world, CharacterController& controller, const CharacterShapeDesc& shape,
                  CaptureConfig config = {});
  ~CaptureRecorder();
  CaptureRecorder(const CaptureRecorder&) = delete;
  CaptureRecorder& operator=(const CaptureRecorder&) = delete;

  /// Advances the controller one tick (controller.update(input, dt)) and
  /// records it. Call after moving the world's kinematic bodies for this tick.
  TickReport update(const CharacterInput& input, double dt);

  /// Writes the scenario of the longest window of the kept history that the
  /// controller can be restarted from exactly, up to the last tick, to `path`
  /// (a regular file, replaced atomically). Errors name the path or what
  /// cannot be captured; nothing is written then. Never throws.
  Expected<CaptureSummary> write_scenario(const std::string& path) const;
  /// The same scenario as text (what write_scenario writes).
  Expected<std::string> scenario_text(CaptureSummary* summary = nullptr) const;

  /// The kept rows, oldest first.
  const std::deque<CapturedTick>& history() const { return rows_; }
  /// Ticks since the recorder was made.
  std::int64_t tick() const { return tick_; }

 private:
  void record(CapturedTick row, bool cut);
  void drop_old_rows();

  btCollisionWorld* world_;
  CharacterController& controller_;
  CharacterShapeDesc shape_;
  CaptureConfig config_;
  /// A second controller in the same world, never stepped: reset() at each
  /// row's state tells whether a scenario could start there.
  std::unique_ptr<CharacterController> probe_;
  std::deque<CapturedTick> rows_;
  std::int64_t tick_ = 0;
};

}  // namespace stepslide
