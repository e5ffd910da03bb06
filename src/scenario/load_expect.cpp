// Expectations (docs/format.md §1.4): the checks a run must pass, each at a tick or
// over a range of ticks, up to "end".

#include <optional>

#include "scenario/load_parts.h"

namespace stepslide::loader {

namespace {

constexpr Range kNonNegativeSize = between(0.0, Limits::max_coordinate);

const Options<ExpectCheck::Kind> kCheckKinds = {
    {"position", ExpectCheck::Kind::Position},
    {"grounded", ExpectCheck::Kind::Grounded},
    {"max_penetration", ExpectCheck::Kind::MaxPenetration},
    {"y_between", ExpectCheck::Kind::YBetween},
    {"stuck", ExpectCheck::Kind::Stuck},
};

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

void read_tick_range(JsonReader& r, const Field& f, const Range& ticks, ExpectCheck& check) {
  if (!f) return;
  if (!f.value->is_array() || f.value->size() != 2) {
    r.error(f.where, "expected an array of 2 ticks [first, last], got " + JsonReader::describe_count(*f.value));
    return;
  }
  const Field first = f.item(0);
  const Field last = f.item(1);
  const bool first_ok = r.integer(first, ticks, check.first);
  const bool last_ok = read_tick_or_end(r, last, ticks, check.last, check.last_is_end);
  if (first_ok && last_ok && !check.last_is_end) {
    r.within(last, at_least(static_cast<double>(check.first), "the first tick"), "an integer");
  }
}

/// [x, y, z] where a null coordinate is not checked.
void read_checked_position(JsonReader& r, const Field& f, std::array<std::optional<double>, 3>& out) {
  if (!f) return;
  if (!f.value->is_array() || f.value->size() != 3) {
    r.error(f.where, "expected an array of 3 numbers or nulls, got " + JsonReader::describe_count(*f.value));
    return;
  }
  for (std::size_t i = 0; i < 3; ++i) {
    const Field coordinate = f.item(i);
    double v = 0.0;
    if (!coordinate.value->is_null() && r.number(coordinate, kCoordinate, v)) out[i] = v;
  }
}

void read_y_between(JsonReader& r, const Field& f, ExpectCheck& check) {
  Vec2 range{};
  if (!r.numbers(f, kCoordinate, range)) return;
  check.y_lo = range[0];
  check.y_hi = range[1];
  r.within(f.item(1), at_least(range[0], "the low bound"));
}

/// Which check this is: exactly one of the kind keys must be present.
bool read_check_kind(JsonReader& r, const Field& f, const ObjectReader& o, ExpectCheck::Kind& kind) {
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

void read_check(JsonReader& r, const Field& f, const Range& ticks, ExpectCheck& check) {
  if (!r.object(f)) return;
  check.json_path = f.where.pointer();
  ObjectReader o(r, f);
  if (!read_check_kind(r, f, o, check.kind)) {
    // Which keys belong is unclear; report only keys no check knows.
    for (const char* key :
         {"tick", "ticks", "position", "tolerance", "grounded", "max_penetration", "y_between", "stuck"}) {
      o.optional(key);
    }
    o.reject_unknown();
    return;
  }
  if (check.kind == ExpectCheck::Kind::Position) {
    read_tick_or_end(r, o.required("tick"), ticks, check.tick, check.tick_is_end);
    read_checked_position(r, o.required("position"), check.position);
    r.number(o.optional("tolerance"), kSize, check.tolerance);
  } else {
    read_tick_range(r, o.required("ticks"), ticks, check);
    if (check.kind == ExpectCheck::Kind::Grounded) r.boolean(o.required("grounded"), check.grounded);
    if (check.kind == ExpectCheck::Kind::Stuck) r.boolean(o.required("stuck"), check.stuck);
    if (check.kind == ExpectCheck::Kind::MaxPenetration) {
      r.number(o.required("max_penetration"), kNonNegativeSize, check.max_penetration);
    }
    if (check.kind == ExpectCheck::Kind::YBetween) read_y_between(r, o.required("y_between"), check);
  }
  o.reject_unknown();
}

}  // namespace

void read_expect(JsonReader& r, const Field& f, const Range& ticks, std::vector<ExpectCheck>& checks) {
  if (!r.array(f)) return;
  checks.resize(f.value->size());
  for (std::size_t i = 0; i < checks.size(); ++i) read_check(r, f.item(i), ticks, checks[i]);
}

}  // namespace stepslide::loader
