// The kinematic character controller a game holds: it owns the character's
// shapes and state, validates its settings, and runs one fixed tick as the
// composition of the stages in stages.h. No I/O.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <LinearMath/btTransform.h>

#include <memory>
#include <string>

#include "stepslide/character.h"
#include "stepslide/collision.h"
#include "stepslide/contact_filter.h"
#include "stepslide/expected.h"
#include "stepslide/observer.h"
#include "stepslide/pushable.h"
#include "stepslide/settings.h"
#include "stepslide/stages.h"

namespace stepslide {

/// Everything a controller carries from one tick to the next, as a plain
/// value a game keeps per tick for rollback: restore_state() with it and the
/// world put back where it was at that tick, and the following updates with
/// the same inputs give the same bits as the first time. The controller's
/// settings, shapes and observer are not in it (a game that changes them
/// between ticks restores them itself). Of what the collision queries
/// remember between ticks only the clearance proof is (the rest answers
/// exactly as the world would; docs/embedding.md "Rollback").
struct ControllerSnapshot {
  CharacterState state;
  ClearanceRecord clearance;
  /// The shape at that tick (set_shape changes it: crouching), put back as is.
  CharacterShapeDesc shape;
  /// The velocity change other characters' pushes ask for, taken by the next
  /// update (CharacterBody), and where the feet were when the last update
  /// began (the body's pose a tick before, which others' push-out reads).
  btVector3 pushed{0, 0, 0};
  btVector3 body_before{0, 0, 0};
};

/// Bit for bit (but +0 == -0), every field of the state, the clearance
/// proof and the shape: equal snapshots step to equal rows.
bool same_snapshot(const ControllerSnapshot& a, const ControllerSnapshot& b);

/// What set_shape() did: switched to the new shape, or kept the old one
/// with the reason.
struct ShapeChangeResult {
  bool changed = false;      ///< the new shape is the character's now
  double penetration = 0.0;  ///< the new shape's deepest overlap with the world at the feet, m
  std::string reason;        ///< why it was refused (empty when changed or already that shape)
};

/// Same kind and same dimensions, bit for bit.
bool same_shape(const CharacterShapeDesc& a, const CharacterShapeDesc& b);

class CharacterController;

/// The character as the other characters in its world meet it
/// (CharacterController::add_to_world): a kinematic collision object of the
/// character's shape at its feet, posed after every update. Other
/// controllers' queries see it as a moving body: it blocks them (they keep
/// their skin from it), they stand on it and ride it as on a moving
/// platform, and they push it (pushable.h) as they push a dynamic body, by
/// their mass and max_push_strength. A push is taken as a change of this
/// character's velocity at the start of its next update, only across its up
/// axis: a character is never pushed into or off its ground, and the weight
/// of one standing on it goes to its own ground.
class CharacterBody final : public PushableObject {
 public:
  explicit CharacterBody(const CharacterController& owner) : owner_(&owner) {}
  /// The character's velocity plus the push it has not taken yet, at any point.
  btVector3 velocity_at(const btVector3& point) const override;
  /// 1 / mass times the square of the part of `direction` across up.
  double inverse_mass_along(const btVector3& point, const btVector3& direction) const override;
  /// Adds the part of `impulse` across up, over mass, to the pending push.
  void apply_impulse(const btVector3& impulse, const btVector3& point) override;
  /// The velocity change pushes since the last update ask for, m/s.
  const btVector3& pending_push() const { return pushed_; }
  const CharacterController& owner() const { return *owner_; }

 private:
  friend class CharacterController;
  const CharacterController* owner_;
  btVector3 pushed_{0, 0, 0};
};

class CharacterController {
 public:
  /// A character in `world`, which the controller queries and changes in one
  /// way only: it gives impulses to the dynamic bodies it pushes, stands or
  /// lands on (pushable.h).
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

  /// The complete state between ticks (ControllerSnapshot), for rollback.
  ControllerSnapshot save_state() const;
  /// Puts back a state save_state() returned (of this controller or of one
  /// in the same world), its shape included (without asking whether it fits:
  /// it did at that tick). The world must be back at
  /// the pose it had when the snapshot was taken, the kinematic bodies'
  /// interpolation transforms included (the pose a tick before). Drops what
  /// else the collision queries remember (forget_clearance) and puts the
  /// snapshot's clearance proof back.
  void restore_state(const ControllerSnapshot& snapshot);

  /// Puts the character's body (CharacterBody) into the world, so that every
  /// other controller in the same world collides with this character: the
  /// way a game has several characters meet. Each controller's queries skip
  /// its own body. Controllers are updated one after another; each sees the
  /// others where their last update left them. The body is taken out of the
  /// world when the controller is destroyed.
  void add_to_world();
  void remove_from_world();
  bool in_world() const { return in_world_; }
  const CharacterBody& body() const { return object_; }

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
  /// Lets `filter` decide, from the next query on, which bodies the
  /// character touches and which contacts block it (layers, one-way
  /// platforms: stepslide/contact_filter.h); null (the default): every body,
  /// every contact. The controller does not own it.
  void set_contact_filter(const ContactFilter* filter) { queries_.set_filter(filter); }
  const CharacterContext& context() const { return ctx_; }
  /// Deepest overlap of the shape with the world right now (0 when clear).
  double penetration_depth();
  /// Switches the character to `shape` when it fits: the new shape, its feet
  /// where the character's are (they do not move), overlaps the world by at
  /// most `max_penetration` metres (the shape itself, not grown by the skin:
  /// 0 lets the new shape touch the world within the skin). Otherwise keeps
  /// the old shape and says why. From the next tick on everything that
  /// depends on the shape follows the new one (the skin and probe shapes,
  /// the step-up clearance, the ground probe, the ceiling). The state is
  /// kept; the clearance proof, made for the old shape, is dropped. Asking
  /// for the current shape changes nothing. Reports to the observer
  /// (on_shape_change) unless the shape is already the current one.
  ShapeChangeResult set_shape(const CharacterShapeDesc& shape, double max_penetration);
  const CharacterShapeDesc& shape() const { return shape_desc_; }

 private:
  /// Rebuilds the shapes grown by the skin (after skin_width changes).
  void rebuild_skin_shapes();
  /// Makes `shape` (built from `desc`) the character's, with everything made from it.
  void adopt_shape(const CharacterShapeDesc& desc, std::unique_ptr<btConvexShape> shape);
  /// In the world: poses the body at the feet, and a tick before at body_before_.
  void place_body();

  btCollisionWorld* world_;
  bool in_world_ = false;
  btVector3 body_before_{0, 0, 0};  ///< the feet when the last update began

  CollisionQueries queries_;
  CharacterShapeDesc shape_desc_;
  std::unique_ptr<btConvexShape> shape_;
  std::unique_ptr<btConvexShape> sweep_shape_;
  std::unique_ptr<btConvexShape> probe_shape_;
  CharacterBody object_{*this};  ///< the query object, and the body in the world when added
  btCollisionObject probe_object_;
  btCollisionObject fit_object_;  ///< holds a shape set_shape() tries
  ControllerSettings settings_;
  CharacterContext ctx_;
  CharacterState state_;
};

}  // namespace stepslide
