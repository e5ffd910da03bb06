// Expectations on dynamic bodies (docs/format.md §1.4): read from the body's
// own trajectory columns (`crate.x`, `crate.qw`, `crate.vx`, ...).

#include <algorithm>
#include <cmath>

#include "base/format.h"
#include "scenario/expect/parts.h"

namespace stepslide::expectations {

namespace {

Vec3 origin(const Track& track, const std::string& body, std::int64_t tick) {
  return {track.named(tick, body + ".x"), track.named(tick, body + ".y"), track.named(tick, body + ".z")};
}

double speed(const Track& track, const std::string& body, std::int64_t tick) {
  const double x = track.named(tick, body + ".vx"), y = track.named(tick, body + ".vy"),
               z = track.named(tick, body + ".vz");
  return std::sqrt(x * x + y * y + z * z);
}

/// Degrees between the body's local +Y, turned by its rotation, and `up`.
double tilt_deg(const Track& track, const std::string& body, std::int64_t tick) {
  const double x = track.named(tick, body + ".qx"), y = track.named(tick, body + ".qy"),
               z = track.named(tick, body + ".qz"), w = track.named(tick, body + ".qw");
  // The second column of the rotation matrix: where local +Y points.
  const Vec3 axis{2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)};
  const Vec3& up = track.scenario().up;
  const double cosine = axis[0] * up[0] + axis[1] * up[1] + axis[2] * up[2];
  return std::acos(std::clamp(cosine, -1.0, 1.0)) * 180.0 / 3.14159265358979323846;
}

}  // namespace

std::optional<Problem> check_body_reaches(const ExpectCheck& check, const Track& track) {
  const std::int64_t by = check.tick_is_end ? track.scenario().ticks : check.tick;
  std::int64_t closest_tick = 0;
  double closest = INFINITY;
  for (std::int64_t tick = 0; tick <= by; ++tick) {
    const double d = distance_to(origin(track, check.body_name, tick), check.position);
    if (d <= check.tolerance) return std::nullopt;
    if (d < closest) {
      closest = d;
      closest_tick = tick;
    }
  }
  return Problem{by, "body " + check.body_name + " never came within " + format_number(check.tolerance) + " m of " +
                         point_text(check.position) + " by tick " + std::to_string(by) + "; closest " +
                         readable_beside(closest, check.tolerance) + " m at tick " + std::to_string(closest_tick) +
                         ", at " + feet_text(origin(track, check.body_name, closest_tick))};
}

std::optional<Problem> check_body_at_rest(const ExpectCheck& check, const Track& track) {
  for (std::int64_t tick = check.first; tick <= track.last(check); ++tick) {
    const double v = speed(track, check.body_name, tick);
    if (v <= check.hi) continue;
    return Problem{tick, "body " + check.body_name + " moves at " + readable_beside(v, check.hi) +
                             " m/s, faster than " + format_number(check.hi)};
  }
  return std::nullopt;
}

std::optional<Problem> check_body_upright(const ExpectCheck& check, const Track& track) {
  for (std::int64_t tick = check.first; tick <= track.last(check); ++tick) {
    const double tilt = tilt_deg(track, check.body_name, tick);
    if (tilt <= check.hi) continue;
    return Problem{tick, "body " + check.body_name + " tilts " + readable_beside(tilt, check.hi) +
                             " degrees from up, more than " + format_number(check.hi)};
  }
  return std::nullopt;
}

}  // namespace stepslide::expectations
