// Expectations on what happens under the feet (docs/format.md §1.4): the body
// stood on, and step events counted from the step_dy column the way the
// controller reports them to a game (TickReport::steps).

#include <string>
#include <vector>

#include "base/format.h"
#include "scenario/expect/parts.h"
#include "scenario/json/reader.h"

namespace stepslide::expectations {

namespace {

std::string range_text(std::int64_t first, std::int64_t last) {
  return "[" + std::to_string(first) + ", " + std::to_string(last) + "]";
}

/// How a body is named in messages: `"lift" (/world/1)`, or `/world/3` when unnamed.
std::string body_text(const Scenario& scenario, std::int64_t index) {
  if (index < 0 || index >= static_cast<std::int64_t>(scenario.world.size())) {
    return "body " + std::to_string(index);
  }
  const BodyDef& body = scenario.world[static_cast<std::size_t>(index)];
  if (body.name.empty()) return body.json_path;
  return strict_json::quote(body.name) + " (" + body.json_path + ")";
}

/// One direction of step events.
struct Direction {
  const char* name;  ///< "step-up"
  int sign;          ///< +1 up, -1 down
  const std::optional<std::array<std::int64_t, 2>>& bounds;
};

/// A row holds a step event when the tick's step moved the feet by at least
/// min_step_event in the direction: exactly what the controller puts in
/// TickReport::steps. A zero move is never an event (the controller reports
/// one as "down" on every walking tick when min_step_event is 0).
bool is_event(double step_dy, int sign, double min_step_event) {
  const double along = sign * step_dy;
  return along > 0.0 && along >= min_step_event;
}

std::optional<Problem> count_problem(const ExpectCheck& check, const Track& track, const Direction& d) {
  if (!d.bounds) return std::nullopt;
  const auto [lo, hi] = *d.bounds;
  const std::int64_t last = track.last(check);
  const double min_step_event = track.scenario().character.settings.min_step_event;
  std::int64_t count = 0;
  std::int64_t latest = -1;
  for (std::int64_t tick = check.first; tick <= last; ++tick) {
    if (!is_event(track.step_dy(tick), d.sign, min_step_event)) continue;
    ++count;
    latest = tick;
    if (count > hi) {
      return Problem{tick, std::string(d.name) + " event number " + std::to_string(count) + " (step_dy " +
                               readable_number(track.step_dy(tick)) + " m), expected at most " + std::to_string(hi) +
                               " in ticks " + range_text(check.first, last)};
    }
  }
  if (count >= lo) return std::nullopt;
  const std::string found = count == 0 ? "no " + std::string(d.name) + " events"
                                       : std::to_string(count) + " " + d.name + (count == 1 ? " event" : " events") +
                                             " (the last at tick " + std::to_string(latest) + ")";
  return Problem{last, found + " in ticks " + range_text(check.first, last) + ", expected at least " +
                           std::to_string(lo)};
}

}  // namespace

std::optional<Problem> check_step_events(const ExpectCheck& check, const Track& track) {
  std::optional<Problem> up = count_problem(check, track, Direction{"step-up", +1, check.steps_up});
  std::optional<Problem> down = count_problem(check, track, Direction{"step-down", -1, check.steps_down});
  // Like every range check, report the earliest failing tick.
  if (up && (!down || up->tick <= down->tick)) return up;
  return down;
}

std::optional<Problem> check_on_body(const ExpectCheck& check, const Track& track) {
  for (std::int64_t tick = check.first; tick <= track.last(check); ++tick) {
    const std::int64_t body = track.ground_body(tick);
    if (body == check.body_index) continue;
    const std::string stands = !track.grounded(tick) ? "not grounded"
                               : body < 0            ? "stands on no body of the world"
                                                     : "stands on " + body_text(track.scenario(), body);
    return Problem{tick, stands + ", expected " + body_text(track.scenario(), check.body_index)};
  }
  return std::nullopt;
}

}  // namespace stepslide::expectations
