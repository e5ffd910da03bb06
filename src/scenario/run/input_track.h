// The input the runner feeds the controller each tick (docs/format.md §1.2):
// keyframes whose fields hold until a later keyframe changes them, and
// steering (move_to, waypoints), whose stick is worked out from the
// character's feet at the start of the tick.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "scenario/run/steering.h"
#include "scenario/scenario.h"
#include "stepslide/character.h"

namespace stepslide {

/// What steering worked out for one tick, for `trace`: the target aimed at
/// (or that the last was passed) and the stick it gave, from the feet the
/// tick started with.
struct SteeringNote {
  const SteeringDef* def = nullptr;  ///< the keyframe followed
  bool arrived = false;              ///< every target passed: the stick is {0, 0}
  std::size_t target = 0;            ///< index in def->targets of the target aimed at (when !arrived)
  double distance = 0.0;             ///< horizontal, feet to that target, m
  Vec3 feet{0, 0, 0};                ///< the feet steered from
  Vec3 velocity{0, 0, 0};            ///< the feet's velocity over the last tick, which the stick brakes against
  double camera_yaw_deg = 0.0;       ///< the frame the stick is in: yaw plus the ground's turn
  Vec2 stick{0, 0};                  ///< [right, forward], what the controller got
};

class InputTrack {
 public:
  /// `keys` must outlive the track. A track is a value: a copy saved at one
  /// tick and assigned back later replays the same inputs from there. `walk_speed` and `dt` ease steering's stick.
  InputTrack(const std::vector<InputKey>& keys, const Vec3& up, double walk_speed, double dt);

  /// The input of `tick`, ticks asked in order. It is worked out once, from
  /// `state` (the character at row `tick`) the first time the tick is asked
  /// for; asking again returns that same input whatever `state` is.
  const CharacterInput& at(std::int64_t tick, const CharacterState& state);

  /// For every row so far, whether the input that made it pushed (a stick or a
  /// wish_velocity not zero): row 0 (the reset) never; row T+1 when tick T's did.
  const std::vector<bool>& pushed_rows() const { return pushed_rows_; }

  /// What steering did for the tick last worked out; null when no steering
  /// keyframe drove it.
  const SteeringNote* steering_note() const { return steering_ ? &note_ : nullptr; }

  /// Whether the keyframes so far hold `drop` (one-way bodies let the
  /// character through), as of the tick last worked out.
  bool drop() const { return drop_; }
  /// Whether the keyframes so far hold `crouch`, as of the tick last worked out.
  bool crouch() const { return crouch_; }

 private:
  void apply(const InputKey& key);

  const std::vector<InputKey>* keys_;  ///< a pointer, so a track can be saved and put back (rollback)
  Vec3 up_;
  double walk_speed_, dt_;
  std::size_t next_ = 0;
  std::int64_t tick_ = -1;  ///< the tick `current_` is the input of
  CharacterInput current_;
  std::optional<Steering> steering_;  ///< the steering keyframe being followed
  const SteeringDef* key_steer_ = nullptr;  ///< its definition (in keys_)
  std::optional<btVector3> previous_feet_;  ///< the feet at the last tick worked out
  SteeringNote note_;  ///< valid while steering_ is set
  std::vector<bool> pushed_rows_{false};
  bool drop_ = false;
  bool crouch_ = false;
};

}  // namespace stepslide
