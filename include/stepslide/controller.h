// The kinematic character controller a game holds: it owns the character's
// shapes and state, validates its settings, and runs one fixed tick as the
// composition of the stages in stages.h. No I/O.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <LinearMath/btTransform.h>

#include <memory>

#include "stepslide/character.h"
#include "stepslide/collision.h"
#include "stepslide/expected.h"
#include "stepslide/observer.h"
#include "stepslide/settings.h"
#include "stepslide/stages.h"

namespace stepslide {

class CharacterController {
 public:
  /// A character in `world` (which the controller queries, never changes).
  /// `settings` must pass validate_settings (throws std::invalid_argument
  /// naming the setting otherwise); `up` is normalised.
  CharacterController(btCollisionWorld* world, const CharacterShapeDesc& shape, const ControllerSettings& settings,
                      const btVector3& up, const btVector3& gravity);
  ~CharacterController();
  CharacterController(const CharacterController&) = delete;
  CharacterController& operator=(const CharacterController&) = delete;

  /// Places the character and classifies its ground without moving it (row 0
  /// of a trajectory).
  void reset(const btVector3& feet, const btVector3& velocity);

  /// Advances one fixed tick of `dt` seconds.
  TickReport update(const CharacterInput& input, double dt);

  CharacterState& state() { return state_; }
  const CharacterState& state() const { return state_; }
  const ControllerSettings& settings() const { return settings_; }
  /// Replaces the settings from the next tick on, after checking every value
  /// against the settings table's range; refuses (and keeps the old ones)
  /// with a message naming the first bad setting.
  Status set_settings(const ControllerSettings& settings);
  /// Reports every query and decision of the following ticks to `observer`
  /// (null to stop). The controller does not own it.
  void set_observer(ControllerObserver* observer) { ctx_.observer = observer; }
  const CharacterContext& context() const { return ctx_; }
  /// Deepest overlap of the shape with the world right now (0 when clear).
  double penetration_depth();

 private:
  /// Rebuilds the shapes grown by the skin (after skin_width changes).
  void rebuild_skin_shapes();

  CollisionQueries queries_;
  CharacterShapeDesc shape_desc_;
  std::unique_ptr<btConvexShape> shape_;
  std::unique_ptr<btConvexShape> sweep_shape_;
  std::unique_ptr<btConvexShape> probe_shape_;
  btCollisionObject object_;
  btCollisionObject probe_object_;
  ControllerSettings settings_;
  CharacterContext ctx_;
  CharacterState state_;
};

}  // namespace stepslide
