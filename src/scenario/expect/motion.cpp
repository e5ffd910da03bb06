// Expectations on how the feet move (docs/format.md §1.4): speed and progress
// measured from positions between rows, jitter as path length minus net
// displacement, and a point reached. Positions, not the velocity columns: a
// character pressed into a wall can report a velocity while going nowhere, and
// these checks are about where it actually went.

#include <algorithm>
#include <cmath>
#include <vector>

#include "base/format.h"
#include "scenario/expect/parts.h"

namespace stepslide::expectations {

namespace {

std::string range_text(std::int64_t first, std::int64_t last) {
  return "[" + std::to_string(first) + ", " + std::to_string(last) + "]";
}

double distance(const Vec3& a, const Vec3& b) {
  const double dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

}  // namespace

std::optional<Problem> check_speed_between(const ExpectCheck& check, const Track& track) {
  for (std::int64_t tick = check.first; tick <= track.last(check); ++tick) {
    const double speed = track.horizontal_speed(tick);
    if (speed >= check.lo && speed <= check.hi) continue;
    return Problem{tick, "feet moved at " + readable_beside(speed, speed < check.lo ? check.lo : check.hi) +
                             " m/s horizontally, outside [" + format_number(check.lo) + ", " +
                             format_number(check.hi) + "]"};
  }
  return std::nullopt;
}

std::optional<Problem> check_moving(const ExpectCheck& check, const Track& track) {
  const std::int64_t last = track.last(check);
  bool any_push = false;
  for (std::int64_t tick = check.first; tick <= last; ++tick) {
    if (!track.pushed(tick)) continue;
    any_push = true;
    const double speed = track.horizontal_speed(tick);
    if (speed >= check.min_speed) continue;
    return Problem{tick, "feet moved at " + readable_beside(speed, check.min_speed) +
                             " m/s horizontally while the input pushed, slower than " +
                             format_number(check.min_speed) + " m/s"};
  }
  // A check that never looked at a tick says nothing; that is a mistake in the scenario.
  if (any_push) return std::nullopt;
  return Problem{check.first, "the input never pushes in ticks " + range_text(check.first, last) +
                                  " (stick and wish_velocity zero), so there is nothing to check"};
}

std::optional<Problem> check_no_oscillation(const ExpectCheck& check, const Track& track) {
  const std::int64_t first = check.first;
  const std::int64_t last = track.last(check);
  // Path length from `first` to each row, so that a window's path is one subtraction.
  std::vector<double> path(static_cast<std::size_t>(last - first) + 1, 0.0);
  auto path_to = [&](std::int64_t tick) -> double& { return path[static_cast<std::size_t>(tick - first)]; };
  for (std::int64_t tick = first + 1; tick <= last; ++tick) {
    path_to(tick) = path_to(tick - 1) + distance(track.feet(tick - 1), track.feet(tick));
  }
  // A window of W ticks is W steps of motion: rows start to start + W.
  for (std::int64_t start = first; start + check.window <= last; ++start) {
    const std::int64_t end = start + check.window;
    const double travelled = path_to(end) - path_to(start);
    const double net = distance(track.feet(start), track.feet(end));
    const double wander = travelled - net;
    if (wander <= check.max_wander) continue;
    return Problem{start, "over ticks " + range_text(start, end) + " the feet travelled " + readable_number(travelled) +
                              " m but ended " + readable_number(net) + " m from where they started: wander " +
                              readable_beside(wander, check.max_wander) + " m, more than " +
                              format_number(check.max_wander)};
  }
  return std::nullopt;
}

std::optional<Problem> check_reaches(const ExpectCheck& check, const Track& track) {
  const std::int64_t by = check.tick_is_end ? track.scenario().ticks : check.tick;
  std::int64_t closest_tick = 0;
  double closest = INFINITY;
  for (std::int64_t tick = 0; tick <= by; ++tick) {
    const double d = distance_to(track.feet(tick), check.position);
    if (d <= check.tolerance) return std::nullopt;
    if (d < closest) {
      closest = d;
      closest_tick = tick;
    }
  }
  return Problem{by, "feet never came within " + format_number(check.tolerance) + " m of " +
                         point_text(check.position) + " by tick " + std::to_string(by) + "; closest " +
                         readable_beside(closest, check.tolerance) + " m at tick " + std::to_string(closest_tick) +
                         ", feet at " + feet_text(track.feet(closest_tick))};
}

std::optional<Problem> check_max_rise_gain(const ExpectCheck& check, const Track& track) {
  for (std::int64_t tick = check.first; tick <= track.last(check); ++tick) {
    // Only a tick that starts in the air: a jump starts on the ground.
    if (track.grounded(tick - 1)) continue;
    const double before = track.vertical_speed(tick - 1);
    const double after = track.vertical_speed(tick);
    const double gain = after - std::max(0.0, before);
    if (gain <= check.max_gain) continue;
    return Problem{tick, "airborne, the upward speed went from " + readable_number(before) + " to " +
                             readable_number(after) + " m/s: gained " + readable_beside(gain, check.max_gain) +
                             " m/s without a jump, more than " + format_number(check.max_gain)};
  }
  return std::nullopt;
}

std::optional<Problem> check_max_jump_apex(const ExpectCheck& check, const Track& track) {
  const std::int64_t last = track.last(check);
  for (std::int64_t tick = std::max<std::int64_t>(check.first, 1); tick <= last; ++tick) {
    if (!track.grounded(tick - 1) || track.grounded(tick)) continue;
    // A flight: from the last grounded row to the next grounded one (or the range's end).
    const double from = track.height(tick - 1);
    std::int64_t apex_tick = tick;
    for (std::int64_t t = tick; t <= last && !track.grounded(t); ++t) {
      if (track.height(t) > track.height(apex_tick)) apex_tick = t;
    }
    const double rise = track.height(apex_tick) - from;
    if (rise <= check.max_gain) continue;
    return Problem{apex_tick, "the feet rose " + readable_beside(rise, check.max_gain) +
                                  " m above where they left the ground at tick " + std::to_string(tick - 1) +
                                  ", more than " + format_number(check.max_gain)};
  }
  return std::nullopt;
}

namespace {

Vec3 named_vector(const Track& track, std::int64_t tick, const char* x, const char* y, const char* z) {
  return {track.named(tick, x), track.named(tick, y), track.named(tick, z)};
}

/// `v` without its part along the scenario's up.
Vec3 across_up(const Track& track, const Vec3& v) {
  const auto& up = track.scenario().up;
  const double length = std::sqrt(up[0] * up[0] + up[1] * up[1] + up[2] * up[2]);
  const double along = (v[0] * up[0] + v[1] * up[1] + v[2] * up[2]) / (length * length);
  return {v[0] - along * up[0], v[1] - along * up[1], v[2] - along * up[2]};
}

}  // namespace

std::optional<Problem> check_max_ground_normal_changes(const ExpectCheck& check, const Track& track) {
  // Normals closer than this are the same face's (rounding in the last bits).
  constexpr double kSameNormal = 1e-9;
  std::int64_t changes = 0;
  for (std::int64_t tick = check.first; tick <= track.last(check); ++tick) {
    if (!track.grounded(tick - 1) || !track.grounded(tick)) continue;
    const Vec3 before = named_vector(track, tick - 1, "normal_x", "normal_y", "normal_z");
    const Vec3 after = named_vector(track, tick, "normal_x", "normal_y", "normal_z");
    if (distance(before, after) <= kSameNormal) continue;
    if (++changes <= check.max_changes) continue;
    return Problem{tick, "the ground normal changed from " + feet_text(before) + " to " + feet_text(after) +
                             ": change " + std::to_string(changes) + " between grounded rows, more than " +
                             std::to_string(check.max_changes)};
  }
  return std::nullopt;
}

std::optional<Problem> check_velocity_achieved(const ExpectCheck& check, const Track& track) {
  const double dt = 1.0 / track.scenario().tick_rate;
  for (std::int64_t tick = check.first; tick <= track.last(check); ++tick) {
    const Vec3 a = track.feet(tick - 1), b = track.feet(tick);
    const Vec3 moved = across_up(track, {(b[0] - a[0]) / dt, (b[1] - a[1]) / dt, (b[2] - a[2]) / dt});
    const Vec3 reported = across_up(track, named_vector(track, tick, "vx", "vy", "vz"));
    const double error = distance(moved, reported);
    if (error <= check.max_gain) continue;
    return Problem{tick, "the velocity across up is reported as " + feet_text(reported) + " m/s, but the feet moved at " +
                             feet_text(moved) + " m/s: " + readable_beside(error, check.max_gain) +
                             " m/s apart, more than " + format_number(check.max_gain)};
  }
  return std::nullopt;
}

std::optional<Problem> check_max_speed(const ExpectCheck& check, const Track& track) {
  for (std::int64_t tick = check.first; tick <= track.last(check); ++tick) {
    const Vec3 v = named_vector(track, tick, "vx", "vy", "vz");
    const double speed = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (speed <= check.hi) continue;
    return Problem{tick, "the velocity " + feet_text(v) + " m/s is " + readable_beside(speed, check.hi) +
                             " m/s fast, more than " + format_number(check.hi)};
  }
  return std::nullopt;
}

}  // namespace stepslide::expectations
