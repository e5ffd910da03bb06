// The controller's observer: every query it issues and every decision it
// takes, as events. Attach one to explain a tick (stepslide trace); it is
// called from the same code path that produces the trajectory, so it cannot
// disagree with it, and costs one null test per event when absent.
#pragma once

#include <LinearMath/btTransform.h>

#include <vector>

#include "stepslide/character.h"
#include "stepslide/collision.h"

namespace stepslide {

/// One convex sweep, and what the controller did with its hit.
struct SweepEvent {
  enum class Purpose { Slide, StepUp, StepForward, StepDown, GroundProbe, Carry };
  Purpose purpose = Purpose::Slide;
  btVector3 from{0, 0, 0};  ///< feet at the start
  btVector3 to{0, 0, 0};    ///< feet at the requested end
  SweepHit hit;
  /// Slides only: the plane the remainder was projected onto (the hit normal,
  /// flattened for walls when walking), or zero when nothing was hit.
  btVector3 slid_along{0, 0, 0};
  bool tries_step = false;  ///< the hit looks like a riser: a step up is tried before sliding
  bool crease = false;      ///< followed the crease of two of the planes met this move
  bool stopped = false;     ///< the planes met this move, solved together, allow no motion: the move ended
};

/// One ray, and why it was cast.
struct RayEvent {
  enum class Purpose { RiserHeight, Tread, RoomToStand, PerchFace, FaceNormal, DepenetrationPath, Headroom };
  Purpose purpose = Purpose::Tread;
  btVector3 from{0, 0, 0};
  btVector3 to{0, 0, 0};
  RayHit hit;
};

/// One iteration of depenetration: the overlaps found and the correction applied.
struct DepenetrationEvent {
  int iteration = 0;
  std::vector<Contact> overlaps;
  btVector3 correction{0, 0, 0};
};

struct StepAttemptEvent {
  btVector3 from{0, 0, 0};     ///< feet where the attempt started
  btVector3 forward{0, 0, 0};  ///< horizontal motion tried
  btVector3 riser_normal{0, 0, 0};
  StepRule rule = StepRule::Accepted;
  double height = 0.0;  ///< tread above the feet, when accepted
};

struct GroundEvent {
  GroundInfo ground;        ///< what the probe found
  double snapped_by = 0.0;  ///< feet moved down by this (negative: up)
  bool grounded = false;    ///< the result
};

struct VelocityEvent {
  btVector3 before{0, 0, 0};
  btVector3 after{0, 0, 0};  ///< after input, friction, gravity and jumping
  bool jumped = false;
};

/// Riding a kinematic body. `Carry`: at the start of a tick the feet were
/// carried with the body stood on (it had already moved to this tick's pose).
/// `Blocked`: the same carry, swept, stopped short by `blocker` (a wall, or
/// another body): the feet are at `to`, a skin from it, not at `wanted`.
/// `Handover`: the character left that body this tick, and kept (or, with
/// inherit_ground_velocity off, did not keep) the velocity it gave the feet.
struct RideEvent {
  enum class Kind { Carry, Handover, Blocked };
  Kind kind = Kind::Carry;
  const btCollisionObject* body = nullptr;  ///< the body ridden
  btVector3 from{0, 0, 0};  ///< feet before being carried (Handover: where the character is when it leaves)
  btVector3 to{0, 0, 0};    ///< feet after being carried (Handover: same as `from`)
  /// Carry, Blocked: where the body would have taken the feet (Carry: `to`).
  btVector3 wanted{0, 0, 0};
  /// Carry, Blocked: the body's velocity at the feet over this tick. Handover:
  /// the velocity added to the character's (zero when not inherited).
  btVector3 velocity{0, 0, 0};
  /// Carry, Blocked: the velocity the carry gave the feet (to - from) / dt,
  /// the state's carried_velocity. Handover: the character's velocity afterwards.
  btVector3 character_velocity{0, 0, 0};
  double turned_deg = 0.0;  ///< Carry, Blocked with turn_with_ground: how far the stick's frame turned
  bool inherited = false;   ///< Handover: inherit_ground_velocity was on
  const btCollisionObject* blocker = nullptr;  ///< Blocked: what stopped the carry
  btVector3 normal{0, 0, 0};                   ///< Blocked: its surface normal, toward the character
};

/// An impulse the character gave a dynamic body (pushable.h).
/// `Push`: it walked into the body. `Weight`: it stood on it for the tick.
/// `Landing`: it landed on it this tick.
struct PushEvent {
  enum class Kind { Push, Weight, Landing };
  Kind kind = Kind::Push;
  const btCollisionObject* body = nullptr;
  btVector3 point{0, 0, 0};    ///< where the impulse acts, world frame
  btVector3 impulse{0, 0, 0};  ///< N·s, world frame
  /// Push, Landing: the character's speed into the body, relative to it (m/s);
  /// Weight: 0.
  double approach_speed = 0.0;
  /// Push: the impulse was cut to max_push_strength·dt (the body resisted).
  bool strength_limited = false;
};

/// A change of the character's shape asked for (CharacterController::set_shape):
/// made, or refused because the new shape, placed with its feet where the
/// character's are, overlaps the world deeper than allowed.
struct ShapeChangeEvent {
  bool changed = false;           ///< the new shape is the character's now
  btVector3 feet{0, 0, 0};        ///< where the feet are (they do not move)
  double penetration = 0.0;       ///< the new shape's deepest overlap with the world there, m
  double max_penetration = 0.0;   ///< the most it was allowed, m
  double old_height = 0.0;        ///< the shape's extent along up before, m
  double new_height = 0.0;        ///< the asked-for shape's extent along up, m
};

/// Receives the events of the ticks it is attached to, in order. Override
/// what you need; the rest do nothing.
class ControllerObserver {
 public:
  virtual ~ControllerObserver() = default;
  virtual void on_depenetration(const DepenetrationEvent&) {}
  virtual void on_sweep(const SweepEvent&) {}
  virtual void on_ray(const RayEvent&) {}
  virtual void on_step_attempt(const StepAttemptEvent&) {}
  virtual void on_ground(const GroundEvent&) {}
  virtual void on_velocity(const VelocityEvent&) {}
  virtual void on_ride(const RideEvent&) {}
  virtual void on_push(const PushEvent&) {}
  virtual void on_shape_change(const ShapeChangeEvent&) {}
};

}  // namespace stepslide
