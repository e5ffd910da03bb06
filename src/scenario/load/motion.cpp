// Motion (docs/format.md §1.1): how a kinematic body moves, as a function of time:
// at a constant velocity, spinning about an axis, or through keyframes.

#include "scenario/load/parts.h"

namespace stepslide::loader {

namespace {

const Options<MotionType> kMotionTypes = {
    {"linear", MotionType::Linear},
    {"spin", MotionType::Spin},
    {"keyframes", MotionType::Keyframes},
};

void read_motion_keys(JsonReader& r, const Field& f, std::vector<MotionKey>& keys) {
  if (!r.array(f)) return;
  if (f.value->empty()) {
    r.error(f.where, "expected at least 1 key, got an array of 0");
    return;
  }
  std::int64_t latest = -1;
  keys.resize(f.value->size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const Field item = f.item(i);
    if (!r.object(item)) continue;
    ObjectReader o(r, item);
    MotionKey& key = keys[i];
    const Field tick = o.required("tick");
    if (r.integer(tick, kTick, key.tick)) require_increasing(r, tick, key.tick, latest, "the previous key's tick");
    r.numbers(o.required("position"), kCoordinate, key.position);
    r.numbers(o.optional("rotation_deg"), kAngle, key.rotation_deg);
    o.reject_unknown();
  }
}

}  // namespace

void read_motion(JsonReader& r, const Field& f, MotionDef& motion) {
  if (!r.object(f)) return;
  ObjectReader o(r, f);
  if (!r.choice(o.required("type"), kMotionTypes, motion.type)) return;
  switch (motion.type) {
    case MotionType::Linear:
      r.numbers(o.required("velocity"), kSpeed, motion.velocity);
      break;
    case MotionType::Spin:
      read_direction(r, o.required("axis"), motion.axis);
      r.number(o.required("deg_per_s"), kSpinRate, motion.deg_per_s);
      break;
    case MotionType::Keyframes:
      read_motion_keys(r, o.required("keys"), motion.keys);
      break;
    case MotionType::None:
      break;
  }
  o.reject_unknown();
}

}  // namespace stepslide::loader
