#include "gate/plot/traces.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "scenario/run/steering.h"

namespace stepslide::plot {

namespace {

/// A stretch shorter than this is a pause, not worth a mark.
constexpr double kMinStillSeconds = 0.5;

/// Groups the rows with a step event into steps, see TraceData::Step.
std::vector<TraceData::Step> group_steps(const std::vector<double>& step_dy, const std::vector<bool>& valid) {
  std::vector<TraceData::Step> steps;
  for (std::size_t i = 0; i < step_dy.size(); ++i) {
    if (step_dy[i] == 0.0 || !valid[i]) continue;
    const bool same_run = !steps.empty() && steps.back().last + 1 == i && (steps.back().total > 0) == (step_dy[i] > 0);
    if (!same_run) steps.push_back({i, i, 0.0});
    steps.back().last = i;
    steps.back().total += step_dy[i];
  }
  return steps;
}

/// The row's value in `column`, or `fallback` when the trajectory has no such column.
double cell(const std::vector<double>& row, int column, double fallback) {
  if (column < 0 || static_cast<std::size_t>(column) >= row.size()) return fallback;
  return row[static_cast<std::size_t>(column)];
}

/// Row `i`'s horizontal speed from the rows so far (see TraceData::speed).
double horizontal_speed(const TraceData& d, std::size_t i) {
  if (i == 0 || !d.valid[i] || !d.valid[i - 1]) return NAN;
  const double dt = d.time[i] - d.time[i - 1];
  if (!(dt > 0)) return NAN;
  return std::hypot(d.plane[i].x - d.plane[i - 1].x, d.plane[i].y - d.plane[i - 1].y) / dt;
}

}  // namespace

std::size_t TraceData::steps_up() const {
  return static_cast<std::size_t>(std::count_if(steps.begin(), steps.end(), [](const Step& s) { return s.total > 0; }));
}

TraceData trace_data(const Frame& f, const PlotTrace& trace, int tick_rate) {
  const Trajectory& t = *trace.trajectory;
  const int x = t.column_index("x"), y = t.column_index("y"), z = t.column_index("z");
  const int grounded = t.column_index("grounded"), step = t.column_index("step_dy");
  const int tick = t.column_index("tick"), time = t.column_index("time");
  const int camera = t.column_index("camera_dy"), stuck = t.column_index("stuck");
  TraceData d;
  d.label = trace.label;
  d.has_grounded = grounded >= 0;
  d.has_camera = camera >= 0;
  d.has_stuck = stuck >= 0;
  std::vector<double> step_dy;  // 0 when the column is absent
  double travelled = 0.0;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const std::vector<double>& row = t.rows[i];
    const btVector3 p(cell(row, x, NAN), cell(row, y, NAN), cell(row, z, NAN));
    const bool ok = std::isfinite(p.x()) && std::isfinite(p.y()) && std::isfinite(p.z());
    const P2 plane = ok ? plane_of(f, p) : P2{};
    if (ok && !d.plane.empty() && d.valid.back()) {
      travelled += std::hypot(plane.x - d.plane.back().x, plane.y - d.plane.back().y);
    }
    d.feet.push_back(p);
    d.plane.push_back(plane);
    d.height.push_back(ok ? p.dot(f.up) : 0.0);
    d.distance.push_back(travelled);
    d.valid.push_back(ok);
    d.tick.push_back(cell(row, tick, static_cast<double>(i)));
    d.time.push_back(cell(row, time, d.tick.back() / tick_rate));
    const double g = cell(row, grounded, 1.0);
    d.airborne.push_back(g == 0.0);
    d.airborne_rows += g == 0.0 ? 1 : 0;
    const double dy = cell(row, step, 0.0);
    step_dy.push_back(std::isfinite(dy) ? dy : 0.0);
    d.camera.push_back(cell(row, camera, NAN));
    d.stuck.push_back(cell(row, stuck, 0.0) != 0.0);
    d.speed.push_back(horizontal_speed(d, i));
  }
  d.steps = group_steps(step_dy, d.valid);
  return d;
}

std::vector<bool> stick_pushed(const Scenario& scenario, const TraceData& run) {
  std::vector<InputKey> keys = scenario.input;
  std::stable_sort(keys.begin(), keys.end(), [](const InputKey& a, const InputKey& b) { return a.tick < b.tick; });
  std::vector<bool> pushed;
  // Fields hold their values; move, wish_velocity and steering replace one
  // another. Steering pushes until the feet reach its last target, which the
  // rows replay: row T is made with the input of tick T-1, worked out from row T-1.
  bool moving = false;
  std::optional<Steering> steering;
  std::size_t next = 0;
  for (std::size_t row = 0; row < run.tick.size(); ++row) {
    const double tick = run.tick[row];
    for (; next < keys.size() && static_cast<double>(keys[next].tick) <= tick - 1; ++next) {
      const InputKey& key = keys[next];
      if (key.move || key.wish_velocity || key.steer) steering.reset();
      if (key.move) moving = (*key.move)[0] != 0.0 || (*key.move)[1] != 0.0;
      if (key.wish_velocity) moving = (*key.wish_velocity)[0] != 0.0 || (*key.wish_velocity)[1] != 0.0;
      if (key.steer) steering.emplace(*key.steer);
    }
    if (steering && row > 0) {
      const btVector3& feet = run.feet[row - 1];
      moving = steering->advance({feet.x(), feet.y(), feet.z()});
    }
    pushed.push_back(moving);
  }
  return pushed;
}

std::vector<StillStretch> still_stretches(const TraceData& run, const std::vector<bool>& pushed) {
  std::vector<StillStretch> out;
  const std::size_t n = run.speed.size();
  for (std::size_t i = 1; i < n; ++i) {
    if (!(run.speed[i] < kStillSpeed)) continue;
    std::size_t j = i;
    while (j + 1 < n && run.speed[j + 1] < kStillSpeed) ++j;
    // Rows i-1 .. j share one place over the ground.
    const std::size_t first = i - 1;
    if (run.time[j] - run.time[first] >= kMinStillSeconds - 1e-9) {
      bool all_pushed = true;
      for (std::size_t r = i; r <= j; ++r) all_pushed = all_pushed && r < pushed.size() && pushed[r];
      out.push_back({first, j, all_pushed});
    }
    i = j;
  }
  return out;
}

std::vector<std::pair<std::size_t, std::size_t>> airborne_stretches(const TraceData& t) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  const std::size_t n = t.airborne.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (!t.airborne[i]) continue;
    std::size_t j = i;
    while (j + 1 < n && t.airborne[j + 1]) ++j;
    const std::size_t first = i > 0 ? i - 1 : i, last = j + 1 < n ? j + 1 : j;
    // A one-row landing between two stretches shares its rows with both:
    // they are one stretch (a flickering flag stays one dashed path).
    if (!out.empty() && first <= out.back().second) {
      out.back().second = last;
    } else {
      out.emplace_back(first, last);
    }
    i = j;
  }
  return out;
}

}  // namespace stepslide::plot
