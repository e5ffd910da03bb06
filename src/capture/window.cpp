#include "capture/window.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "capture/world_bodies.h"

namespace stepslide::capture {

namespace {

/// The scenario format's tick rates (docs/format.md §1).
constexpr int kMaxTickRate = 10000;

/// The tick rate whose 1.0 / rate is `dt` exactly, or 0.
int tick_rate_of(double dt) {
  if (!(dt > 0)) return 0;
  const double rate = std::round(1.0 / dt);
  if (rate < 1 || rate > kMaxTickRate) return 0;
  const int whole = static_cast<int>(rate);
  return 1.0 / whole == dt ? whole : 0;
}

/// The character's path over rows [first, last], grown by the shape and the margin.
Box path_box(const std::deque<CapturedTick>& rows, std::size_t first, std::size_t last,
             const CharacterShapeDesc& shape, double margin) {
  Box box;
  for (std::size_t i = first; i <= last; ++i) box.add(rows[i].snapshot.state.position, rows[i].snapshot.state.position);
  const double size = std::max({shape.height, 2 * shape.radius, 2 * shape.half_extents.length()});
  const btVector3 grow(size + margin, size + margin, size + margin);
  box.lo -= grow;
  box.hi += grow;
  return box;
}

bool near_path(const btCollisionObject& object, const std::deque<CapturedTick>& rows, std::size_t first,
               std::size_t last, const Box& path) {
  if (is_fixed(object)) return box_at(object, object.getWorldTransform()).overlaps(path);
  for (std::size_t i = first; i <= last; ++i) {
    const CapturedPose* pose = pose_in(rows[i], &object);
    if (pose != nullptr && box_at(object, pose->transform).overlaps(path)) return true;
  }
  return false;
}

/// The first row from which `object` is in every row up to `last`.
std::size_t present_from(const std::deque<CapturedTick>& rows, std::size_t first, std::size_t last,
                         const btCollisionObject* object) {
  std::size_t from = last + 1;
  while (from > first && pose_in(rows[from - 1], object) != nullptr) --from;
  return from;
}

using Reasons = std::vector<std::pair<std::string, int>>;

/// "a; b (count)" for each reason.
std::string join(const Reasons& why) {
  std::string out;
  for (const auto& [reason, count] : why) out += (out.empty() ? "" : "; ") + reason + " (" + std::to_string(count) + ")";
  return out;
}

/// Why the window starts at `start` rather than at the oldest row kept.
std::string late_start(const std::deque<CapturedTick>& rows, std::size_t earliest, std::size_t start,
                       const Reasons& why) {
  if (start == 0) return "";
  std::string out = "starts " + std::to_string(start) + " rows after the oldest kept: ";
  if (earliest > 0) {
    const CapturedTick& row = rows[earliest];
    out += row.cut ? "a teleport or a settings change before tick " + std::to_string(row.tick)
                   : "another dt, or a moving body not yet in the world, before tick " + std::to_string(row.tick);
    if (!why.empty()) out += "; ";
  }
  return out + join(why);
}

}  // namespace

const CapturedPose* pose_in(const CapturedTick& row, const btCollisionObject* object) {
  for (const CapturedPose& pose : row.moving) {
    if (pose.object == object) return &pose;
  }
  return nullptr;
}

Expected<Window> choose_window(const std::deque<CapturedTick>& rows, const btCollisionWorld& world,
                               const CharacterShapeDesc& shape, const CaptureConfig& config) {
  if (rows.size() < 2) return Expected<Window>::failure("nothing to capture yet: no tick was recorded");
  Window w;
  w.last = rows.size() - 1;
  w.dt = rows[w.last].dt;
  w.tick_rate = tick_rate_of(w.dt);
  if (w.tick_rate == 0) {
    return Expected<Window>::failure("the last tick's dt " + std::to_string(w.dt) +
                                     " s is not 1/N s for a whole N from 1 to 10000 (a scenario's tick_rate)");
  }
  // Back from the last row while the rows follow on with this dt.
  std::size_t earliest = w.last;
  while (earliest > 0 && rows[earliest].dt == w.dt && !rows[earliest].cut) --earliest;

  const Box path = path_box(rows, earliest, w.last, shape, config.body_margin);
  const btCollisionObjectArray& objects = world.getCollisionObjectArray();
  std::vector<const btCollisionObject*> moving;
  for (int i = 0; i < objects.size(); ++i) {
    const btCollisionObject& object = *objects[i];
    if (!seen_by_queries(object) || (config.in_level_file && config.in_level_file(&object))) continue;
    if (!near_path(object, rows, earliest, w.last, path)) continue;
    (is_fixed(object) ? w.fixed : moving).push_back(&object);
  }
  // A moving body must be there from the first row on: start later, unless
  // that leaves less than half the window (then the body is left out).
  for (const btCollisionObject* object : moving) {
    const std::size_t from = present_from(rows, earliest, w.last, object);
    if (from >= w.last || from > earliest + (w.last - earliest) / 2) {
      ++w.skipped_absent;
      continue;
    }
    earliest = std::max(earliest, from);
    w.moving.push_back(object);
  }
  Reasons why;  // each reason a row could not start, how many rows
  for (std::size_t s = earliest; s < w.last; ++s) {
    const CapturedTick& row = rows[s];
    const char* reason = row.restartable ? nullptr : row.not_restartable;
    if (reason == nullptr) {
      w.first = s;
      w.late_start = late_start(rows, earliest, s, why);
      return w;
    }
    auto known = std::find_if(why.begin(), why.end(), [&](const auto& r) { return r.first == reason; });
    if (known == why.end()) known = why.insert(why.end(), {reason, 0});
    ++known->second;
  }
  const std::string reasons = join(why);
  return Expected<Window>::failure("no row of the last " + std::to_string(w.last - earliest) +
                                   " ticks can start a scenario: " + (reasons.empty() ? "none is kept" : reasons));
}

}  // namespace stepslide::capture
