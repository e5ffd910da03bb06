// Expectations (docs/format.md §1.4): the checks a run must pass, each at a tick or
// over a range of ticks, up to "end".

#include <optional>

#include "scenario/load/parts.h"

namespace stepslide::loader {

namespace {

using Kind = ExpectCheck::Kind;

constexpr Range kNonNegativeSize = between(0.0, Limits::max_coordinate);
constexpr Range kSpeed = at_least(0.0);
constexpr Range kCount = at_least(0.0);

/// The kind keys, in the order the "exactly one of" message lists them: the
/// first five are the original ones, so their message only grew at the end.
const Options<Kind> kCheckKinds = {
    {"position", Kind::Position},
    {"grounded", Kind::Grounded},
    {"max_penetration", Kind::MaxPenetration},
    {"y_between", Kind::YBetween},
    {"stuck", Kind::Stuck},
    {"x_between", Kind::XBetween},
    {"z_between", Kind::ZBetween},
    {"speed_between", Kind::SpeedBetween},
    {"on_body", Kind::OnBody},
    {"no_oscillation", Kind::NoOscillation},
    {"reaches", Kind::Reaches},
    {"step_events", Kind::StepEvents},
    {"moving", Kind::Moving},
    {"max_rise_gain", Kind::MaxRiseGain},
    {"max_jump_apex", Kind::MaxJumpApex},
    {"body_reaches", Kind::BodyReaches},
    {"body_at_rest", Kind::BodyAtRest},
    {"body_upright", Kind::BodyUpright},
    {"max_ground_normal_changes", Kind::MaxGroundNormalChanges},
    {"velocity_achieved", Kind::VelocityAchieved},
    {"max_speed", Kind::MaxSpeed},
};

/// Keys that are not kinds but belong to some check.
const char* const kOtherKeys[] = {"tick", "ticks", "tolerance", "within", "by_tick", "body", "character"};

/// What reading one check needs besides the check itself.
struct CheckContext {
  JsonReader& r;
  const Range& ticks;  ///< where a checked tick must lie
  const std::vector<BodyDef>& world;
  const Scenario& scenario;  ///< its characters, for "character"
};

/// "character" of a check on a character: the name of one of "characters"
/// (absent: the first).
void read_character_name(const CheckContext& c, const Field& f, ExpectCheck& check) {
  std::string name;
  if (!c.r.string(f, name)) return;
  for (std::size_t i = 0; i < c.scenario.character_count(); ++i) {
    if (!name.empty() && c.scenario.character_at(i).name == name) {
      check.character = i;
      return;
    }
  }
  c.r.error(f.where, "expected the name of a character in /characters, got " + describe(*f.value));
}

bool on_body(ExpectCheck::Kind kind) {
  return kind == ExpectCheck::Kind::BodyReaches || kind == ExpectCheck::Kind::BodyAtRest ||
         kind == ExpectCheck::Kind::BodyUpright;
}

/// An integer tick within `ticks`, or "end".
bool read_tick_or_end(JsonReader& r, const Field& f, const Range& ticks, std::int64_t& tick, bool& is_end) {
  if (!f) return false;
  if (f.value->is_string() && f.value->get_ref<const std::string&>() == "end") {
    is_end = true;
    return true;
  }
  if (!f.value->is_number()) {
    r.error(f.where, "expected an integer or \"end\", got " + describe(*f.value));
    return false;
  }
  return r.integer(f, ticks, tick);
}

/// [first, last]; returns whether both are valid and in order.
bool read_tick_range(JsonReader& r, const Field& f, const Range& ticks, ExpectCheck& check) {
  if (!f) return false;
  if (!f.value->is_array() || f.value->size() != 2) {
    r.error(f.where, "expected an array of 2 ticks [first, last], got " + JsonReader::describe_count(*f.value));
    return false;
  }
  const Field first = f.item(0);
  const Field last = f.item(1);
  const bool first_ok = r.integer(first, ticks, check.first);
  const bool last_ok = read_tick_or_end(r, last, ticks, check.last, check.last_is_end);
  if (!first_ok || !last_ok) return false;
  if (check.last_is_end) return true;
  return r.within(last, at_least(static_cast<double>(check.first), "the first tick"), "an integer");
}

/// Speed and its gain are measured between a row and the one before it, so row 0 has none.
void require_row_before(JsonReader& r, const Field& range, const ExpectCheck& check) {
  if (check.first >= 1) return;
  r.within(range.item(0), at_least(1.0, "speed is measured from the tick before"), "an integer");
}

/// [x, y, z] where a null coordinate is not checked.
bool read_checked_position(JsonReader& r, const Field& f, std::array<std::optional<double>, 3>& out) {
  if (!f) return false;
  if (!f.value->is_array() || f.value->size() != 3) {
    r.error(f.where, "expected an array of 3 numbers or nulls, got " + JsonReader::describe_count(*f.value));
    return false;
  }
  bool ok = true;
  for (std::size_t i = 0; i < 3; ++i) {
    const Field coordinate = f.item(i);
    double v = 0.0;
    if (coordinate.value->is_null()) continue;
    if (r.number(coordinate, kCoordinate, v)) {
      out[i] = v;
    } else {
      ok = false;
    }
  }
  return ok;
}

/// [lo, hi] with hi >= lo, each in `each`.
void read_bounds(JsonReader& r, const Field& f, const Range& each, ExpectCheck& check) {
  Vec2 range{};
  if (!r.numbers(f, each, range)) return;
  check.lo = range[0];
  check.hi = range[1];
  r.within(f.item(1), at_least(range[0], "the low bound"));
}

/// [lo, hi] counts, hi >= lo.
void read_count_bounds(JsonReader& r, const Field& f, std::optional<std::array<std::int64_t, 2>>& out) {
  if (!f) return;
  if (!f.value->is_array() || f.value->size() != 2) {
    r.error(f.where, "expected an array of 2 counts [lo, hi], got " + JsonReader::describe_count(*f.value));
    return;
  }
  std::array<std::int64_t, 2> counts{};
  const bool lo_ok = r.integer(f.item(0), kCount, counts[0]);
  const bool hi_ok = r.integer(f.item(1), kCount, counts[1]);
  if (!lo_ok || !hi_ok) return;
  if (r.within(f.item(1), at_least(static_cast<double>(counts[0]), "the low bound"), "an integer")) out = counts;
}

/// The name of a body of the world; its index is what `ground_body` holds.
void read_body_name(const CheckContext& c, const Field& f, ExpectCheck& check) {
  if (!c.r.string(f, check.body_name)) return;
  for (std::size_t i = 0; i < c.world.size(); ++i) {
    // An unnamed body has an empty name, which names nothing.
    if (!check.body_name.empty() && c.world[i].name == check.body_name) {
      check.body_index = static_cast<std::int64_t>(i);
      return;
    }
  }
  c.r.error(f.where, "expected the name of a body in /world, got " + describe(*f.value));
}

/// "body" of a body check: the name of a dynamic body, whose columns it reads.
void read_dynamic_body(const CheckContext& c, ObjectReader& o, ExpectCheck& check) {
  const Field f = o.required("body");
  if (!c.r.string(f, check.body_name)) return;
  for (std::size_t i = 0; i < c.world.size(); ++i) {
    if (c.world[i].dynamic() && c.world[i].name == check.body_name) {
      check.body_index = static_cast<std::int64_t>(i);
      return;
    }
  }
  c.r.error(f.where, "expected the name of a dynamic body (one with a \"mass\") in /world, got " + describe(*f.value));
}

/// {"window": ticks, "max_wander": metres}. A window of W ticks is W steps of
/// motion, rows s to s + W: one step has no wander, so W >= 2, and a window
/// must fit in the range.
void read_no_oscillation(const CheckContext& c, const Field& f, bool range_ok, ExpectCheck& check) {
  if (!c.r.object(f)) return;
  ObjectReader o(c.r, f);
  const Field window = o.required("window");
  if (c.r.integer(window, at_least(2.0), check.window) && range_ok) {
    const std::int64_t last = check.last_is_end ? static_cast<std::int64_t>(c.ticks.hi) : check.last;
    const Range fits{2.0, static_cast<double>(last - check.first), false, false, nullptr,
                     "the range's last tick minus its first"};
    c.r.within(window, fits, "an integer");
  }
  c.r.number(o.required("max_wander"), kNonNegativeSize, check.max_wander);
  o.reject_unknown();
}

/// {"up": [lo, hi], "down": [lo, hi]}, at least one of them.
void read_step_events(JsonReader& r, const Field& f, ExpectCheck& check) {
  if (!r.object(f)) return;
  ObjectReader o(r, f);
  const Field up = o.optional("up");
  const Field down = o.optional("down");
  if (!up && !down) r.error(f.where, "expected at least one of \"up\" and \"down\", got neither");
  read_count_bounds(r, up, check.steps_up);
  read_count_bounds(r, down, check.steps_down);
  o.reject_unknown();
}

/// {"reaches": [x, y, z], "within": d, "by_tick": n}: by_tick defaults to "end".
/// body_reaches the same, with "body".
void read_reaches(const CheckContext& c, ObjectReader& o, ExpectCheck& check) {
  if (check.kind == Kind::BodyReaches) read_dynamic_body(c, o, check);
  const Field point = o.required(check.kind == Kind::BodyReaches ? "body_reaches" : "reaches");
  if (read_checked_position(c.r, point, check.position) && !check.position[0] && !check.position[1] &&
      !check.position[2]) {
    c.r.error(point.where, "expected at least one coordinate that is not null, got [null, null, null]");
  }
  c.r.number(o.required("within"), kSize, check.tolerance);
  const Field by_tick = o.optional("by_tick");
  check.tick_is_end = !by_tick;
  read_tick_or_end(c.r, by_tick, c.ticks, check.tick, check.tick_is_end);
}

/// Which check this is: exactly one of the kind keys must be present.
bool read_check_kind(JsonReader& r, const Field& f, const ObjectReader& o, Kind& kind) {
  std::vector<const char*> all;
  std::string present;
  int count = 0;
  for (const auto& [name, value] : kCheckKinds) {
    all.push_back(name);
    if (!o.has(name)) continue;
    present += (count++ > 0 ? " and " : "") + quote(name);
    kind = value;
  }
  if (count == 1) return true;
  r.error(f.where, "expected exactly " + JsonReader::one_of(all) + ", got " + (count == 0 ? "none" : present));
  return false;
}

/// The value of a range check's kind key, read after its range.
void read_range_value(const CheckContext& c, ObjectReader& o, const Field& range, bool range_ok,
                      ExpectCheck& check) {
  JsonReader& r = c.r;
  switch (check.kind) {
    case Kind::Grounded: r.boolean(o.required("grounded"), check.grounded); break;
    case Kind::Stuck: r.boolean(o.required("stuck"), check.stuck); break;
    case Kind::MaxPenetration:
      r.number(o.required("max_penetration"), kNonNegativeSize, check.max_penetration);
      break;
    case Kind::XBetween: read_bounds(r, o.required("x_between"), kCoordinate, check); break;
    case Kind::YBetween: read_bounds(r, o.required("y_between"), kCoordinate, check); break;
    case Kind::ZBetween: read_bounds(r, o.required("z_between"), kCoordinate, check); break;
    case Kind::SpeedBetween:
      if (range_ok) require_row_before(r, range, check);
      read_bounds(r, o.required("speed_between"), kSpeed, check);
      break;
    case Kind::Moving:
      if (range_ok) require_row_before(r, range, check);
      r.number(o.required("moving"), above(0.0), check.min_speed);
      break;
    case Kind::MaxRiseGain:
      if (range_ok) require_row_before(r, range, check);
      r.number(o.required("max_rise_gain"), kSpeed, check.max_gain);
      break;
    case Kind::MaxJumpApex: r.number(o.required("max_jump_apex"), kNonNegativeSize, check.max_gain); break;
    case Kind::MaxGroundNormalChanges:
      if (range_ok) require_row_before(r, range, check);
      r.integer(o.required("max_ground_normal_changes"), kCount, check.max_changes);
      break;
    case Kind::VelocityAchieved:
      if (range_ok) require_row_before(r, range, check);
      r.number(o.required("velocity_achieved"), kSpeed, check.max_gain);
      break;
    case Kind::MaxSpeed: r.number(o.required("max_speed"), kSpeed, check.hi); break;
    case Kind::OnBody: read_body_name(c, o.required("on_body"), check); break;
    case Kind::NoOscillation: read_no_oscillation(c, o.required("no_oscillation"), range_ok, check); break;
    case Kind::StepEvents: read_step_events(r, o.required("step_events"), check); break;
    case Kind::BodyAtRest:
      read_dynamic_body(c, o, check);
      r.number(o.required("body_at_rest"), kSpeed, check.hi);
      break;
    case Kind::BodyUpright:
      read_dynamic_body(c, o, check);
      r.number(o.required("body_upright"), between(0.0, 180.0), check.hi);
      break;
    case Kind::Position:
    case Kind::Reaches:
    case Kind::BodyReaches: break;  // not range checks
  }
}

void read_check(const CheckContext& c, const Field& f, ExpectCheck& check) {
  JsonReader& r = c.r;
  if (!r.object(f)) return;
  check.json_path = f.where.pointer();
  ObjectReader o(r, f);
  if (!read_check_kind(r, f, o, check.kind)) {
    // Which keys belong is unclear; report only keys no check knows.
    for (const auto& kind : kCheckKinds) o.optional(kind.first);
    for (const char* key : kOtherKeys) o.optional(key);
    o.reject_unknown();
    return;
  }
  if (!on_body(check.kind)) read_character_name(c, o.optional("character"), check);
  if (check.kind == Kind::Position) {
    read_tick_or_end(r, o.required("tick"), c.ticks, check.tick, check.tick_is_end);
    read_checked_position(r, o.required("position"), check.position);
    r.number(o.optional("tolerance"), kSize, check.tolerance);
  } else if (check.kind == Kind::Reaches || check.kind == Kind::BodyReaches) {
    read_reaches(c, o, check);
  } else {
    const Field range = o.required("ticks");
    const bool range_ok = read_tick_range(r, range, c.ticks, check);
    read_range_value(c, o, range, range_ok, check);
  }
  o.reject_unknown();
}

}  // namespace

void read_expect(JsonReader& r, const Field& f, const Range& ticks, const Scenario& scenario,
                 std::vector<ExpectCheck>& checks) {
  if (!r.array(f)) return;
  const CheckContext context{r, ticks, scenario.world, scenario};
  checks.resize(f.value->size());
  for (std::size_t i = 0; i < checks.size(); ++i) read_check(context, f.item(i), checks[i]);
}

}  // namespace stepslide::loader
