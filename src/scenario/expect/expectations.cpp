// The expectation checks (docs/format.md §1.4): the ones that look at one row
// at a time are here, with the Track they all read; the ones on motion between
// rows are in scenario/expect/motion.cpp, the ones on ground and steps in
// scenario/expect/events.cpp.

#include "scenario/expect/expectations.h"

#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "base/format.h"
#include "scenario/expect/parts.h"

namespace stepslide {

namespace expectations {

namespace {

std::size_t index(const Trajectory& t, const std::string& prefix, const char* name) {
  return static_cast<std::size_t>(t.column_index(prefix + name));
}

}  // namespace

Track::Track(const Scenario& scenario, const Trajectory& t, const std::vector<bool>& pushed, const std::string& prefix)
    : scenario_(scenario),
      t_(t),
      pushed_(pushed),
      x_(index(t, prefix, "x")),
      y_(index(t, prefix, "y")),
      z_(index(t, prefix, "z")),
      vx_(index(t, prefix, "vx")),
      vy_(index(t, prefix, "vy")),
      vz_(index(t, prefix, "vz")),
      grounded_(index(t, prefix, "grounded")),
      stuck_(index(t, prefix, "stuck")),
      step_dy_(index(t, prefix, "step_dy")),
      ground_body_(index(t, prefix, "ground_body")) {}

Vec3 Track::feet(std::int64_t tick) const { return {cell(tick, x_), cell(tick, y_), cell(tick, z_)}; }

double Track::vertical_speed(std::int64_t tick) const {
  const Vec3& up = scenario_.up;
  return cell(tick, vx_) * up[0] + cell(tick, vy_) * up[1] + cell(tick, vz_) * up[2];
}

double Track::height(std::int64_t tick) const {
  const Vec3 p = feet(tick);
  const Vec3& up = scenario_.up;
  return p[0] * up[0] + p[1] * up[1] + p[2] * up[2];
}

double Track::horizontal_speed(std::int64_t tick) const {
  const Vec3 a = feet(tick - 1);
  const Vec3 b = feet(tick);
  const Vec3& up = scenario_.up;  // unit (the loader normalises it)
  Vec3 moved{b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double along_up = moved[0] * up[0] + moved[1] * up[1] + moved[2] * up[2];
  for (std::size_t i = 0; i < 3; ++i) moved[i] -= along_up * up[i];
  return std::sqrt(moved[0] * moved[0] + moved[1] * moved[1] + moved[2] * moved[2]) * scenario_.tick_rate;
}

std::string point_text(const std::array<std::optional<double>, 3>& point) {
  std::string text = "(";
  for (std::size_t i = 0; i < 3; ++i) {
    text += (i > 0 ? ", " : "") + (point[i] ? format_number(*point[i]) : std::string("null"));
  }
  return text + ")";
}

std::string feet_text(const Vec3& feet) {
  return "(" + readable_number(feet[0]) + ", " + readable_number(feet[1]) + ", " + readable_number(feet[2]) + ")";
}

double distance_to(const Vec3& feet, const std::array<std::optional<double>, 3>& point) {
  double squared = 0.0;
  for (std::size_t i = 0; i < 3; ++i) {
    if (!point[i]) continue;
    const double d = feet[i] - *point[i];
    squared += d * d;
  }
  return std::sqrt(squared);
}

}  // namespace expectations

namespace {

using expectations::Problem;
using expectations::Track;
using Kind = ExpectCheck::Kind;

/// Numbers in messages are read by people: six significant digits.
std::string number(double v) { return readable_number(v); }

std::optional<std::string> position_problem(const ExpectCheck& check, const Vec3& actual) {
  const double distance = expectations::distance_to(actual, check.position);
  if (distance <= check.tolerance) return std::nullopt;
  std::ostringstream m;
  m << "feet at (" << number(actual[0]) << ", " << number(actual[1]) << ", " << number(actual[2]) << ") are "
    << readable_beside(distance, check.tolerance) << " m from the expected position, more than the tolerance "
    << number(check.tolerance);
  return m.str();
}

std::optional<std::string> flag_problem(const char* flag, bool want, bool is) {
  if (is == want) return std::nullopt;
  return std::string("expected ") + flag + " " + (want ? "true" : "false") + ", got " + (is ? "true" : "false");
}

std::optional<std::string> height_problem(const ExpectCheck& check, double feet) {
  if (feet >= check.lo && feet <= check.hi) return std::nullopt;
  return "feet height " + readable_beside(feet, feet < check.lo ? check.lo : check.hi) + " outside [" +
         format_number(check.lo) + ", " + format_number(check.hi) + "]";
}

/// x_between, z_between: "feet x 2.5 outside [0, 1]".
std::optional<std::string> coordinate_problem(const ExpectCheck& check, const char* axis, double feet) {
  if (feet >= check.lo && feet <= check.hi) return std::nullopt;
  return std::string("feet ") + axis + " " + readable_beside(feet, feet < check.lo ? check.lo : check.hi) +
         " outside [" + format_number(check.lo) + ", " + format_number(check.hi) + "]";
}

std::optional<std::string> penetration_problem(const ExpectCheck& check, double depth) {
  if (depth <= check.max_penetration) return std::nullopt;
  return "shape overlaps the world by " + readable_beside(depth, check.max_penetration) + " m, more than " +
         number(check.max_penetration);
}

/// What is wrong at one tick of a check made row by row, or nothing.
std::optional<std::string> row_problem(const ExpectCheck& check, const Track& track, std::int64_t tick,
                                       const std::vector<double>& penetration) {
  switch (check.kind) {
    case Kind::Grounded: return flag_problem("grounded", check.grounded, track.grounded(tick));
    case Kind::Stuck: return flag_problem("stuck", check.stuck, track.stuck(tick));
    case Kind::XBetween: return coordinate_problem(check, "x", track.feet(tick)[0]);
    case Kind::YBetween: return height_problem(check, track.y(tick));
    case Kind::ZBetween: return coordinate_problem(check, "z", track.feet(tick)[2]);
    default: return penetration_problem(check, penetration[static_cast<std::size_t>(tick)]);
  }
}

/// A check made row by row reports its first failing tick: that says enough.
std::optional<Problem> first_failing_row(const ExpectCheck& check, const Track& track,
                                         const std::vector<double>& penetration) {
  for (std::int64_t tick = check.first; tick <= track.last(check); ++tick) {
    if (auto problem = row_problem(check, track, tick, penetration)) return Problem{tick, *problem};
  }
  return std::nullopt;
}

std::optional<Problem> problem_of(const ExpectCheck& check, const Track& track,
                                  const std::vector<double>& penetration) {
  switch (check.kind) {
    case Kind::Position: {
      const std::int64_t tick = check.tick_is_end ? track.scenario().ticks : check.tick;
      if (auto problem = position_problem(check, track.feet(tick))) return Problem{tick, *problem};
      return std::nullopt;
    }
    case Kind::SpeedBetween: return expectations::check_speed_between(check, track);
    case Kind::Moving: return expectations::check_moving(check, track);
    case Kind::MaxRiseGain: return expectations::check_max_rise_gain(check, track);
    case Kind::MaxJumpApex: return expectations::check_max_jump_apex(check, track);
    case Kind::MaxGroundNormalChanges: return expectations::check_max_ground_normal_changes(check, track);
    case Kind::VelocityAchieved: return expectations::check_velocity_achieved(check, track);
    case Kind::MaxSpeed: return expectations::check_max_speed(check, track);
    case Kind::NoOscillation: return expectations::check_no_oscillation(check, track);
    case Kind::Reaches: return expectations::check_reaches(check, track);
    case Kind::StepEvents: return expectations::check_step_events(check, track);
    case Kind::OnBody: return expectations::check_on_body(check, track);
    case Kind::BodyReaches: return expectations::check_body_reaches(check, track);
    case Kind::BodyAtRest: return expectations::check_body_at_rest(check, track);
    case Kind::BodyUpright: return expectations::check_body_upright(check, track);
    default: return first_failing_row(check, track, penetration);
  }
}

}  // namespace

bool needs_penetration(const Scenario& scenario) {
  for (const ExpectCheck& check : scenario.expect) {
    if (check.kind == Kind::MaxPenetration) return true;
  }
  return false;
}

std::vector<ExpectationFailure> check_expectations(const Scenario& scenario, const Trajectory& t,
                                                   const std::vector<double>& penetration,
                                                   const std::vector<bool>& pushed) {
  return check_expectations(scenario, t, std::vector<std::vector<double>>{penetration},
                            std::vector<std::vector<bool>>{pushed});
}

std::vector<ExpectationFailure> check_expectations(const Scenario& scenario, const Trajectory& t,
                                                   const std::vector<std::vector<double>>& penetration,
                                                   const std::vector<std::vector<bool>>& pushed) {
  static const std::vector<double> kNoDepths;
  static const std::vector<bool> kNoPushes;
  std::vector<Track> tracks;
  tracks.reserve(scenario.character_count());
  for (std::size_t i = 0; i < scenario.character_count(); ++i) {
    tracks.emplace_back(scenario, t, i < pushed.size() ? pushed[i] : kNoPushes, scenario.column_prefix(i));
  }
  std::vector<ExpectationFailure> failures;
  for (const ExpectCheck& check : scenario.expect) {
    const std::size_t who = check.character < tracks.size() ? check.character : 0;
    const std::vector<double>& depths = who < penetration.size() ? penetration[who] : kNoDepths;
    if (auto problem = problem_of(check, tracks[who], depths)) {
      failures.push_back({check.json_path, problem->tick, std::move(problem->message)});
    }
  }
  return failures;
}

}  // namespace stepslide
