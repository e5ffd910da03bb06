// The reference: Bullet's own btKinematicCharacterController, driven by the
// same scenario and input as our controller and reporting the same
// trajectory columns, so that the two can be compared tick by tick, in
// expectations passed and in cost. It is set up the way a careful user would:
// explicit up axis, a ghost object with a ghost pair callback on the
// broadphase, our step height, slope limit, jump speed, gravity and terminal
// velocity. What it has no equivalent for is reported as 0.
#pragma once

#include <btBulletCollisionCommon.h>

#include <cstdint>
#include <memory>

#include "stepslide/collision.h"
#include "stepslide/controller.h"
#include "stepslide/settings.h"

class btKinematicCharacterController;
class btGhostPairCallback;

namespace stepslide {

class SweepCountingGhost;

class ReferenceController {
 public:
  /// Adds the character's ghost object to `world` and installs a ghost pair
  /// callback on its broadphase (removed again by the destructor, which must
  /// run before `world` is destroyed).
  ReferenceController(btCollisionWorld* world, const CharacterShapeDesc& shape, const ControllerSettings& settings,
                      const btVector3& up, const btVector3& gravity);
  ~ReferenceController();
  ReferenceController(const ReferenceController&) = delete;
  ReferenceController& operator=(const ReferenceController&) = delete;

  /// Places the character (feet) with an initial velocity (row 0).
  void reset(const btVector3& feet, const btVector3& velocity);

  /// One fixed tick: the stick goes through our acceleration/friction model
  /// into setWalkDirection(velocity·dt); a jump press calls jump() when
  /// canJump(); then the world's pairs are refreshed (as a dynamics world's
  /// step would) and Bullet's controller runs its action.
  TickReport update(const CharacterInput& input, double dt);

  /// feet, velocity (displacement / dt), grounded (= onGround()); no ground
  /// normal, no ground object, no camera offset.
  const CharacterState& state() const { return state_; }

  /// Deepest overlap of the shape with the world right now (0 when clear).
  double penetration_depth();

  /// Convex sweeps Bullet's controller has issued since construction.
  std::int64_t total_sweeps() const;

  btKinematicCharacterController& bullet() { return *bullet_; }
  btCollisionObject& ghost();

 private:
  btVector3 feet() const;

  btCollisionWorld* world_;
  btVector3 up_;
  double feet_to_center_ = 0.0;
  ControllerSettings settings_;
  std::unique_ptr<btConvexShape> shape_;
  std::unique_ptr<SweepCountingGhost> ghost_;
  std::unique_ptr<btGhostPairCallback> ghost_pairs_;
  std::unique_ptr<btKinematicCharacterController> bullet_;
  btCollisionObject probe_;  ///< the shape at the ghost's pose, for penetration queries
  CollisionQueries queries_;
  btVector3 walk_velocity_{0, 0, 0};  ///< horizontal velocity the input asks for
  bool jump_was_held_ = false;
  CharacterState state_;
};

}  // namespace stepslide
