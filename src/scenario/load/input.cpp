// Input (docs/format.md §1.2): keyframes of the stick, yaw, wished velocity,
// jump and steering (move_to, waypoints), each field holding until a later
// key changes it.

#include <algorithm>
#include <cmath>

#include "scenario/load/parts.h"

namespace stepslide::loader {

namespace {

constexpr Range kStick = between(-1.0, 1.0);
/// A steering stick's length: 0 would never move, so it is not accepted.
constexpr Range kSteerStick{0.0, 1.0, true, false, nullptr, nullptr};
/// Steering aims along the target's world [x, z] offset projected across
/// `up`; the further up leans from the Y axis the less of that offset is left,
/// and at 90 degrees none is: beyond 80 degrees steering is refused.
constexpr double kMinUpY = 0.17364817766693033;  // cos(80 deg)

/// The keys that say what drives the character; a keyframe gives at most one.
constexpr const char* kDrivers[] = {"move", "wish_velocity", "move_to", "waypoints"};

/// "move_to" or "waypoints": the targets, in order.
bool read_targets(JsonReader& r, const Field& move_to, const Field& waypoints, SteeringDef& steer) {
  Vec2 point{};
  if (move_to) {
    if (!r.numbers(move_to, kCoordinate, point)) return false;
    steer.targets = {point};
    return true;
  }
  if (!r.array(waypoints)) return false;
  if (waypoints.value->empty()) {
    r.error(waypoints.where, "expected at least one waypoint [x, z], got an empty array");
    return false;
  }
  bool ok = true;
  for (std::size_t i = 0; i < waypoints.value->size(); ++i) {
    if (r.numbers(waypoints.item(i), kCoordinate, point)) {
      steer.targets.push_back(point);
    } else {
      ok = false;
    }
  }
  steer.waypoints = true;
  return ok;
}

/// The steering of one keyframe; its options ("stick", "radius",
/// "slow_within") are errors without a target to steer to.
void read_steering(JsonReader& r, ObjectReader& o, const Vec3& up, std::optional<SteeringDef>& out) {
  const Field move_to = o.optional("move_to");
  const Field waypoints = o.optional("waypoints");
  SteeringDef steer;
  const bool targets_ok = (move_to || waypoints) && read_targets(r, move_to, waypoints, steer);
  bool ok = targets_ok;
  const std::pair<const char*, std::pair<Range, double*>> options[] = {
      {"stick", {kSteerStick, &steer.stick}},
      {"radius", {above(0.0), &steer.radius}},
      {"slow_within", {at_least(0.0), &steer.slow_within}},
  };
  for (const auto& [key, spec] : options) {
    const Field f = o.optional(key);
    if (!f) continue;
    if (!move_to && !waypoints) {
      r.error(f.where, std::string("expected \"") + key +
                           "\" only with \"move_to\" or \"waypoints\" (it is a steering option), got neither");
      continue;
    }
    Range range = spec.first;
    range.hi = std::min(range.hi, Limits::max_coordinate);
    ok = r.number(f, range, *spec.second) && ok;
  }
  const Field target = move_to ? move_to : waypoints;
  if (target && std::abs(up[1]) < kMinUpY) {
    r.error(target.where, "expected a scenario whose \"up\" is within 80 degrees of the Y axis (steering targets are "
                          "world [x, z]), got up (" + number_text(up[0] + 0.0) + ", " + number_text(up[1] + 0.0) +
                          ", " + number_text(up[2] + 0.0) + ")");  // + 0.0: -0 reads as 0
    ok = false;
  }
  if (ok) out = std::move(steer);
}

/// At most one of kDrivers: each clears the others, so two in one keyframe
/// would leave which one wins to the reader.
void check_one_driver(JsonReader& r, const Field& item, const ObjectReader& o) {
  std::vector<std::string> given;
  for (const char* key : kDrivers) {
    if (o.has(key)) given.push_back(quote(key));
  }
  if (given.size() < 2) return;
  std::string got = given[0];
  for (std::size_t i = 1; i < given.size(); ++i) got += (i + 1 == given.size() ? " and " : ", ") + given[i];
  r.error(item.where,
          "expected at most one of \"move\", \"wish_velocity\", \"move_to\" and \"waypoints\" (each sets what drives "
          "the character and clears the others), got " + got);
}

}  // namespace

void read_input(JsonReader& r, const Field& f, const Vec3& up, std::vector<InputKey>& input) {
  if (!r.array(f)) return;
  std::int64_t latest = -1;
  input.resize(f.value->size());
  for (std::size_t i = 0; i < input.size(); ++i) {
    const Field item = f.item(i);
    if (!r.object(item)) continue;
    ObjectReader o(r, item);
    InputKey& key = input[i];
    const Field tick = o.required("tick");
    if (r.integer(tick, kTick, key.tick)) require_increasing(r, tick, key.tick, latest, "the previous keyframe's tick");
    check_one_driver(r, item, o);
    Vec2 v{};
    if (r.numbers(o.optional("move"), kStick, v)) key.move = v;
    if (r.numbers(o.optional("wish_velocity"), kSpeed, v)) key.wish_velocity = v;
    read_steering(r, o, up, key.steer);
    double yaw = 0.0;
    if (r.number(o.optional("yaw_deg"), kAngle, yaw)) key.yaw_deg = yaw;
    bool jump = false;
    if (r.boolean(o.optional("jump"), jump)) key.jump = jump;
    bool drop = false;
    if (r.boolean(o.optional("drop"), drop)) key.drop = drop;
    bool crouch = false;
    if (r.boolean(o.optional("crouch"), crouch)) key.crouch = crouch;
    o.reject_unknown();
  }
}

}  // namespace stepslide::loader
