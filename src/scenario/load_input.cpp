// Input (docs/format.md §1.2): keyframes of the stick, yaw, wished velocity and jump,
// each field holding until a later key changes it.

#include "scenario/load_parts.h"

namespace stepslide::loader {

namespace {

constexpr Range kStick = between(-1.0, 1.0);

}  // namespace

void read_input(JsonReader& r, const Field& f, std::vector<InputKey>& input) {
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
    const Field move = o.optional("move");
    const Field wish = o.optional("wish_velocity");
    Vec2 v{};
    if (r.numbers(move, kStick, v)) key.move = v;
    if (r.numbers(wish, kSpeed, v)) key.wish_velocity = v;
    double yaw = 0.0;
    if (r.number(o.optional("yaw_deg"), kAngle, yaw)) key.yaw_deg = yaw;
    bool jump = false;
    if (r.boolean(o.optional("jump"), jump)) key.jump = jump;
    if (move && wish) {
      r.error(item.where,
              "expected at most one of \"move\" and \"wish_velocity\" (setting one clears the other), "
              "got both");
    }
    o.reject_unknown();
  }
}

}  // namespace stepslide::loader
