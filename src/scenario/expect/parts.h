// What the expectation checks share: the trajectory read as feet positions and
// motion between rows, and one function per group of checks. Private to
// src/scenario/expectation*.cpp; the public API is expectations.h.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "scenario/trajectory.h"

namespace stepslide::expectations {

/// What is wrong, and at which tick; the check's JSON path is added by the caller.
struct Problem {
  std::int64_t tick = 0;
  std::string message;
};

/// The trajectory as the checks read it, with its columns looked up once.
class Track {
 public:
  /// `prefix`: the character's column prefix ("" for the first, "b." for b).
  Track(const Scenario& scenario, const Trajectory& t, const std::vector<bool>& pushed,
        const std::string& prefix = std::string());

  const Scenario& scenario() const { return scenario_; }
  /// The feet at row `tick`.
  Vec3 feet(std::int64_t tick) const;
  double y(std::int64_t tick) const { return cell(tick, y_); }
  /// The velocity columns' speed along up at row `tick` (what the controller reports).
  double vertical_speed(std::int64_t tick) const;
  /// The feet's height along up at row `tick`.
  double height(std::int64_t tick) const;
  bool grounded(std::int64_t tick) const { return cell(tick, grounded_) != 0.0; }
  bool stuck(std::int64_t tick) const { return cell(tick, stuck_) != 0.0; }
  double step_dy(std::int64_t tick) const { return cell(tick, step_dy_); }
  /// -1 when not standing on a body.
  std::int64_t ground_body(std::int64_t tick) const { return static_cast<std::int64_t>(cell(tick, ground_body_)); }
  /// Horizontal (across `up`) distance the feet moved from row tick-1 to row
  /// `tick`, divided by the tick's duration: real motion, whatever the
  /// velocity columns say. `tick` >= 1.
  double horizontal_speed(std::int64_t tick) const;
  /// Whether the input that made row `tick` pushed (the runner's account).
  bool pushed(std::int64_t tick) const {
    const auto row = static_cast<std::size_t>(tick);
    return row < pushed_.size() && pushed_[row];
  }
  /// Column `name` at row `tick`; NaN when the trajectory has no such column.
  double named(std::int64_t tick, const std::string& name) const {
    const int column = t_.column_index(name);
    return column < 0 ? std::numeric_limits<double>::quiet_NaN() : cell(tick, static_cast<std::size_t>(column));
  }
  /// The range check's last tick, "end" resolved.
  std::int64_t last(const ExpectCheck& check) const { return check.last_is_end ? scenario_.ticks : check.last; }

 private:
  double cell(std::int64_t tick, std::size_t column) const {
    return t_.rows[static_cast<std::size_t>(tick)][column];
  }

  const Scenario& scenario_;
  const Trajectory& t_;
  const std::vector<bool>& pushed_;
  std::size_t x_, y_, z_, vx_, vy_, vz_, grounded_, stuck_, step_dy_, ground_body_;
};

// Numbers in messages. Numbers from the scenario file read as written
// (format_number); measured ones with 6 significant digits (readable_number),
// or more when 6 would put a value on the wrong side of the bound it broke:
// "feet x 0.15000000000000002 outside [0, 0.15]", not "feet x 0.15 outside [0, 0.15]".

/// `value`, which broke `bound`: readable_number, or as many more digits as
/// it takes for the text to read on the same side of `bound` as `value` is.

/// "(1, null, 2)": a point from the file, whose null coordinates are not checked.
std::string point_text(const std::array<std::optional<double>, 3>& point);
/// "(1, 0.5, 2)": measured feet.
std::string feet_text(const Vec3& feet);
/// Distance from `feet` to `point` over the coordinates that are not null.
double distance_to(const Vec3& feet, const std::array<std::optional<double>, 3>& point);

// scenario/expect/motion.cpp: checks on how the feet move between rows.

/// speed_between: the first tick whose horizontal speed is outside [lo, hi].
std::optional<Problem> check_speed_between(const ExpectCheck& check, const Track& track);
/// moving: the first tick the input pushes and the feet are slower than min_speed.
std::optional<Problem> check_moving(const ExpectCheck& check, const Track& track);
/// no_oscillation: the first window whose path length minus net displacement is
/// more than max_wander.
std::optional<Problem> check_no_oscillation(const ExpectCheck& check, const Track& track);
/// reaches: the closest approach, when it is not within the distance by the tick.
std::optional<Problem> check_reaches(const ExpectCheck& check, const Track& track);
/// max_ground_normal_changes: the tick where the ground normal changed once
/// more than allowed between consecutive grounded rows.
std::optional<Problem> check_max_ground_normal_changes(const ExpectCheck& check, const Track& track);
/// velocity_achieved: the first row whose velocity across up differs from the
/// feet's displacement across up over the tick, divided by its duration.
std::optional<Problem> check_velocity_achieved(const ExpectCheck& check, const Track& track);
/// max_speed: the first row whose velocity columns are faster than allowed.
std::optional<Problem> check_max_speed(const ExpectCheck& check, const Track& track);
/// max_rise_gain: the first airborne tick that gained more upward speed than allowed.
std::optional<Problem> check_max_rise_gain(const ExpectCheck& check, const Track& track);
/// max_jump_apex: the first flight from the ground whose feet rose higher than allowed.
std::optional<Problem> check_max_jump_apex(const ExpectCheck& check, const Track& track);

// scenario/expect/bodies.cpp: checks on a dynamic body's columns (`crate.x`, ...).

/// body_reaches: the closest approach of the body's origin, when not within the distance by the tick.
std::optional<Problem> check_body_reaches(const ExpectCheck& check, const Track& track);
/// body_at_rest: the first tick the body's speed is above the bound.
std::optional<Problem> check_body_at_rest(const ExpectCheck& check, const Track& track);
/// body_upright: the first tick the body's up axis tilts more than the bound from up.
std::optional<Problem> check_body_upright(const ExpectCheck& check, const Track& track);

// scenario/expect/events.cpp: what happened under the feet.

/// step_events: too many events (at the first one too many) or too few (at
/// the range's last tick).
std::optional<Problem> check_step_events(const ExpectCheck& check, const Track& track);
/// on_body: the first tick not standing on the named body.
std::optional<Problem> check_on_body(const ExpectCheck& check, const Track& track);

}  // namespace stepslide::expectations
