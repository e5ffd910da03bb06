// Steering (docs/format.md §1.2 "move_to", "waypoints"): the stick a player
// would push to walk the character to a point, worked out from the
// character's feet each tick. Only the runner calls it, with the state it
// is about to step from, so a run stays a pure function of the scenario.
#pragma once

#include <cstddef>

#include "scenario/scenario.h"

namespace stepslide {

/// Horizontal distance from `feet` to `target` = world [x, z]: the ground
/// distance a player judges by.
double steering_distance(const Vec3& feet, const Vec2& target);

/// The stick [right, forward] of length `length` that pushes the character
/// along `offset` (world) as far as the plane across `up` lets it, for a
/// camera at `camera_yaw_deg` (the frame the controller turns the stick by).
/// {0, 0} when `offset` has no part across `up`.
Vec2 stick_toward(const Vec3& offset, double camera_yaw_deg, const Vec3& up, double length);

/// The stick's length at `distance` from a target: `def.stick`, eased
/// linearly toward 0 within `def.slow_within` of a point `beyond` metres past
/// the target (an intermediate waypoint the path goes on from; 0 for the
/// last), and never asking for a speed (walk_speed x length) that would
/// carry the feet past the target in one tick of `dt` s. The easing is what
/// keeps a character from circling a target: the speed it asks for falls
/// as the distance does.
double eased_stick(const SteeringDef& def, double distance, double walk_speed, double dt, double beyond = 0.0);

/// One steering keyframe being followed: which target is next, and the stick.
class Steering {
 public:
  explicit Steering(const SteeringDef& def) : def_(&def) {}

  /// Passes the targets the feet at `feet` are within `radius` of (several in
  /// one tick if they lie close together); false once the last is passed.
  /// Arrival depends on the feet alone, so a trajectory replays it.
  bool advance(const Vec3& feet);

  /// The stick for the tick that starts with the feet at `feet`, moving at
  /// `velocity` (world, m/s): advance(), then toward the target aimed at;
  /// {0, 0} once the last target is passed, from then on.
  Vec2 stick(const Vec3& feet, const Vec3& velocity, double camera_yaw_deg, const Vec3& up, double walk_speed,
             double dt);

  bool arrived() const { return next_ >= def_->targets.size(); }
  /// Index in SteeringDef::targets of the target aimed at.
  std::size_t next_target() const { return next_; }

 private:
  /// How far past the target aimed at the stick may keep its speed: 0 for
  /// the last target; for a waypoint, slow_within x (1 + cos turn) / 2, the
  /// turn from the feet's way in to the next leg: all of slow_within when the
  /// path goes straight on, none for a U-turn.
  double beyond(const Vec3& feet) const;

  const SteeringDef* def_;
  std::size_t next_ = 0;
};

}  // namespace stepslide
