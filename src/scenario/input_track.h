// The input the runner feeds the controller each tick (docs/format.md §1.2):
// keyframes whose fields hold until a later keyframe changes them, and
// steering (move_to, waypoints), whose stick is worked out from the
// character's feet at the start of the tick.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "scenario/scenario.h"
#include "scenario/steering.h"
#include "stepslide/character.h"

namespace stepslide {

class InputTrack {
 public:
  /// `keys` must outlive the track. `walk_speed` and `dt` ease steering's stick.
  InputTrack(const std::vector<InputKey>& keys, const Vec3& up, double walk_speed, double dt);

  /// The input of `tick`, ticks asked in order. It is worked out once, from
  /// `state` (the character at row `tick`) the first time the tick is asked
  /// for; asking again returns that same input whatever `state` is.
  const CharacterInput& at(std::int64_t tick, const CharacterState& state);

  /// For every row so far, whether the input that made it pushed (a stick or a
  /// wish_velocity not zero): row 0 (the reset) never; row T+1 when tick T's did.
  const std::vector<bool>& pushed_rows() const { return pushed_rows_; }

 private:
  void apply(const InputKey& key);

  const std::vector<InputKey>& keys_;
  Vec3 up_;
  double walk_speed_, dt_;
  std::size_t next_ = 0;
  std::int64_t tick_ = -1;  ///< the tick `current_` is the input of
  CharacterInput current_;
  std::optional<Steering> steering_;  ///< the steering keyframe being followed
  std::optional<btVector3> previous_feet_;  ///< the feet at the last tick worked out
  std::vector<bool> pushed_rows_{false};
};

}  // namespace stepslide
