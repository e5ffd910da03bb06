#include "gate/trace/trace.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>
#include <sstream>
#include <vector>

#include "base/format.h"
#include "gate/trace/input.h"
#include "scenario/columns.h"
#include "scenario/load/world.h"
#include "scenario/run/simulate.h"
#include "scenario/trajectory.h"
#include "stepslide/controller.h"

namespace stepslide {

namespace {

using Json = nlohmann::ordered_json;

Json vec(const btVector3& v) { return Json::array({v.x(), v.y(), v.z()}); }

const char* purpose_name(SweepEvent::Purpose p) {
  switch (p) {
    case SweepEvent::Purpose::Slide: return "slide";
    case SweepEvent::Purpose::StepUp: return "step-up";
    case SweepEvent::Purpose::StepForward: return "step-forward";
    case SweepEvent::Purpose::StepDown: return "step-down";
    case SweepEvent::Purpose::GroundProbe: return "ground-probe";
    case SweepEvent::Purpose::Carry: return "carry";
  }
  return "?";
}

const char* purpose_name(RayEvent::Purpose p) {
  switch (p) {
    case RayEvent::Purpose::RiserHeight: return "riser-height";
    case RayEvent::Purpose::Tread: return "tread";
    case RayEvent::Purpose::RoomToStand: return "room-to-stand";
    case RayEvent::Purpose::PerchFace: return "perch-face";
    case RayEvent::Purpose::FaceNormal: return "face-normal";
    case RayEvent::Purpose::DepenetrationPath: return "depenetration-path";
    case RayEvent::Purpose::Headroom: return "headroom";
  }
  return "?";
}

/// Records one tick's events as JSON; the text form is rendered from it, so
/// both forms always say the same thing.
class TickRecorder : public ControllerObserver {
 public:
  explicit TickRecorder(bool sweep_points) : sweep_points_(sweep_points) {}

  /// Starts recording a tick in `world`, the world the controller queries.
  void start(const World& world) {
    world_ = &world;
    events_ = Json::array();
  }
  Json take() { return std::move(events_); }

  void on_depenetration(const DepenetrationEvent& e) override {
    Json overlaps = Json::array();
    for (const Contact& c : e.overlaps) {
      overlaps.push_back({{"body", body(c.object)}, {"normal", vec(c.normal)}, {"depth", -c.distance}});
    }
    events_.push_back({{"event", "depenetration"},
                       {"iteration", e.iteration},
                       {"overlaps", overlaps},
                       {"correction", vec(e.correction)}});
  }

  void on_sweep(const SweepEvent& e) override {
    Json j = {{"event", "sweep"}, {"purpose", purpose_name(e.purpose)}, {"from", vec(e.from)}, {"to", vec(e.to)}};
    j["hit"] = e.hit.hit;
    if (e.hit.hit) {
      j["fraction"] = e.hit.fraction;
      j["normal"] = vec(e.hit.normal);
      j["body"] = body(e.hit.object);
      if (sweep_points_) j["point"] = vec(e.hit.point);
      if (e.purpose != SweepEvent::Purpose::GroundProbe && !e.slid_along.isZero()) {
        j["tries_step"] = e.tries_step;
        j["slid_along"] = vec(e.slid_along);
        j["crease"] = e.crease;
        j["stopped"] = e.stopped;
      }
    }
    events_.push_back(j);
  }

  void on_ray(const RayEvent& e) override {
    Json j = {{"event", "ray"}, {"purpose", purpose_name(e.purpose)}, {"from", vec(e.from)}, {"to", vec(e.to)}};
    j["hit"] = e.hit.hit;
    if (e.hit.hit) {
      j["point"] = vec(e.hit.point);
      j["normal"] = vec(e.hit.normal);
      j["body"] = body(e.hit.object);
    }
    events_.push_back(j);
  }

  void on_step_attempt(const StepAttemptEvent& e) override {
    Json j = {{"event", "step-up"},
              {"from", vec(e.from)},
              {"forward", vec(e.forward)},
              {"riser_normal", vec(e.riser_normal)},
              {"accepted", e.rule == StepRule::Accepted},
              {"rule", step_rule_name(e.rule)}};
    if (e.rule == StepRule::Accepted) j["height"] = e.height;
    events_.push_back(j);
  }

  void on_ground(const GroundEvent& e) override {
    Json j = {{"event", "ground"}, {"found", e.ground.found}};
    if (e.ground.found) {
      j["walkable"] = e.ground.walkable;
      j["distance"] = e.ground.distance;
      j["normal"] = vec(e.ground.normal);
      j["body"] = body(e.ground.object);
    }
    j["grounded"] = e.grounded;
    j["snapped_by"] = e.snapped_by;
    events_.push_back(j);
  }

  void on_ride(const RideEvent& e) override {
    if (e.kind != RideEvent::Kind::Handover) {
      Json j = {{"event", "ride"},      {"body", body(e.body)}, {"from", vec(e.from)},
                {"to", vec(e.to)},      {"carried", (e.to - e.from).length()},
                {"velocity", vec(e.velocity)}};
      if (e.kind == RideEvent::Kind::Blocked) {
        j["blocked_by"] = body(e.blocker);
        j["normal"] = vec(e.normal);
        j["wanted"] = vec(e.wanted);
        j["feet_velocity"] = vec(e.character_velocity);
      }
      if (e.turned_deg != 0.0) j["turned_deg"] = e.turned_deg;
      events_.push_back(j);
      return;
    }
    events_.push_back({{"event", "ride-handover"},
                       {"body", body(e.body)},
                       {"inherited", e.inherited},
                       {"velocity", vec(e.velocity)},
                       {"velocity_after", vec(e.character_velocity)}});
  }

  void on_push(const PushEvent& e) override {
    const char* kind = e.kind == PushEvent::Kind::Push ? "push" : e.kind == PushEvent::Kind::Weight ? "weight" : "landing";
    Json j = {{"event", "push"}, {"kind", kind}, {"body", body(e.body)}, {"point", vec(e.point)},
              {"impulse", vec(e.impulse)}};
    if (e.kind != PushEvent::Kind::Weight) j["approach_speed"] = e.approach_speed;
    if (e.kind == PushEvent::Kind::Push) j["strength_limited"] = e.strength_limited;
    events_.push_back(j);
  }

  void on_shape_change(const ShapeChangeEvent& e) override {
    Json j = {{"event", "shape"},
              {"changed", e.changed},
              {"feet", vec(e.feet)},
              {"from_height", e.old_height},
              {"to_height", e.new_height},
              {"penetration", e.penetration}};
    if (!e.changed) j["reason"] = "does not fit: the new shape would overlap the world deeper than allowed";
    j["max_penetration"] = e.max_penetration;
    events_.push_back(j);
  }

  void on_velocity(const VelocityEvent& e) override {
    events_.push_back(
        {{"event", "velocity"}, {"before", vec(e.before)}, {"after", vec(e.after)}, {"jumped", e.jumped}});
  }

 private:
  /// The body's name; "" for no object, "?" for one that is not a body of the world.
  std::string body(const btCollisionObject* object) const {
    if (object == nullptr) return "";
    const std::string name = world_->body_name(object);
    return name.empty() ? "?" : name;
  }

  bool sweep_points_ = false;
  const World* world_ = nullptr;  ///< set by start(), before any event
  Json events_ = Json::array();
};

/// A number of the text form, for people (readable_number); the JSON form
/// keeps every digit.
std::string num(const Json& j) { return readable_number(j.get<double>()); }

std::string vec_text(const Json& j) {
  return "(" + num(j[0]) + ", " + num(j[1]) + ", " + num(j[2]) + ")";
}

/// One event as an indented human-readable line.
std::string event_text(const Json& e) {
  std::ostringstream out;
  // Another character's event ("characters"): labelled by its name.
  if (e.contains("character")) out << "[" << e["character"].get<std::string>() << "] ";
  const std::string kind = e["event"];
  if (kind == "velocity") {
    out << "velocity  " << vec_text(e["before"]) << " -> " << vec_text(e["after"]);
    if (e["jumped"].get<bool>()) out << "  (jump)";
  } else if (kind == "ride") {
    out << "ride " << e["body"].get<std::string>() << "  feet " << vec_text(e["from"]) << " -> " << vec_text(e["to"])
        << "  carried " << num(e["carried"]) << " m, body velocity at the feet " << vec_text(e["velocity"]);
    if (e.contains("blocked_by")) {
      out << "; blocked by " << e["blocked_by"].get<std::string>() << " (normal " << vec_text(e["normal"])
          << ") short of " << vec_text(e["wanted"]) << ": feet velocity " << vec_text(e["feet_velocity"]);
    }
    if (e.contains("turned_deg")) out << ", stick frame turned " << num(e["turned_deg"]) << " deg";
  } else if (kind == "push") {
    const std::string what = e["kind"];
    out << what << " " << e["body"].get<std::string>() << " at " << vec_text(e["point"]) << ": impulse "
        << vec_text(e["impulse"]) << " N s";
    if (e.contains("approach_speed")) out << ", approaching at " << num(e["approach_speed"]) << " m/s";
    if (e.contains("strength_limited") && e["strength_limited"].get<bool>()) out << " (max_push_strength)";
  } else if (kind == "ride-handover") {
    out << "ride left " << e["body"].get<std::string>() << ": ";
    if (e["inherited"].get<bool>()) {
      out << "velocity handed over " << vec_text(e["velocity"]) << " -> velocity " << vec_text(e["velocity_after"]);
    } else {
      out << "nothing handed over (inherit_ground_velocity 0), velocity " << vec_text(e["velocity_after"]);
    }
  } else if (kind == "shape") {
    out << "shape " << num(e["from_height"]) << " m -> " << num(e["to_height"]) << " m tall at feet "
        << vec_text(e["feet"]) << ": ";
    if (e["changed"].get<bool>()) {
      out << "changed (overlap " << num(e["penetration"]) << " m)";
    } else {
      out << "refused, it does not fit: it would overlap the world by " << num(e["penetration"]) << " m (at most "
          << num(e["max_penetration"]) << " m allowed); keeps the current shape";
    }
  } else if (kind == "depenetration") {
    out << "depenetration #" << e["iteration"].get<int>() << ": " << e["overlaps"].size() << " overlap(s)";
    for (const Json& o : e["overlaps"]) {
      out << "; " << o["body"].get<std::string>() << " depth " << num(o["depth"]) << " normal "
          << vec_text(o["normal"]);
    }
    out << "; correction " << vec_text(e["correction"]);
  } else if (kind == "sweep") {
    out << "sweep " << e["purpose"].get<std::string>() << "  " << vec_text(e["from"]) << " -> " << vec_text(e["to"]);
    if (!e["hit"].get<bool>()) {
      out << "  clear";
    } else {
      out << "  hit " << e["body"].get<std::string>() << " at " << num(e["fraction"]) << " normal "
          << vec_text(e["normal"]);
      if (e.contains("slid_along")) {
        if (e["tries_step"].get<bool>()) out << "  riser: try a step up, else";
        out << (e["stopped"].get<bool>() ? "  stopped: the planes met allow no motion toward the input"
                : e["crease"].get<bool>() ? "  slid along the crease of two planes met"
                                          : "  slid along plane ")
            << (e["stopped"].get<bool>() || e["crease"].get<bool>() ? "" : vec_text(e["slid_along"]));
      }
    }
  } else if (kind == "ray") {
    out << "ray " << e["purpose"].get<std::string>() << "  " << vec_text(e["from"]) << " -> " << vec_text(e["to"]);
    if (e["hit"].get<bool>()) {
      out << "  hit " << e["body"].get<std::string>() << " at " << vec_text(e["point"]) << " normal "
          << vec_text(e["normal"]);
    } else {
      out << "  clear";
    }
  } else if (kind == "step-up") {
    out << "step up from " << vec_text(e["from"]) << " forward " << vec_text(e["forward"]) << ": ";
    if (e["accepted"].get<bool>()) {
      out << "accepted, tread " << num(e["height"]) << " m above the feet";
    } else {
      out << "refused: " << e["rule"].get<std::string>();
    }
  } else if (kind == "ground") {
    out << "ground  ";
    if (!e["found"].get<bool>()) {
      out << "nothing below";
    } else {
      out << (e["walkable"].get<bool>() ? "walkable " : "not walkable ") << e["body"].get<std::string>()
          << " distance " << num(e["distance"]) << " normal " << vec_text(e["normal"]);
    }
    out << (e["grounded"].get<bool>() ? "  -> grounded" : "  -> airborne");
    if (e["grounded"].get<bool>() && e["snapped_by"].get<double>() != 0.0) {
      out << ", feet moved down " << num(e["snapped_by"]);
    }
  }
  return out.str();
}

/// A cell as JSON: counts, flags and indices (the discrete columns) as
/// integers, the rest as numbers with every digit.
Json cell_json(const std::string& column, double value) {
  const Column* known = find_column(column);
  const bool integral = known != nullptr && known->discrete && std::isfinite(value) && value == std::floor(value) &&
                        std::fabs(value) < 9.0e15;
  if (integral) return static_cast<std::int64_t>(value);
  return value;
}

Json row_json(const Trajectory& t, std::size_t row) {
  Json j = Json::object();
  for (std::size_t c = 0; c < t.columns.size(); ++c) j[t.columns[c]] = cell_json(t.columns[c], t.rows[row][c]);
  return j;
}

/// The row's character columns, of the character whose columns start with
/// `prefix` ("" for the first, "b." for character b).
std::string row_text(const Json& row, const std::string& prefix = std::string()) {
  const auto at = [&](const char* name) -> const Json& { return row[prefix + name]; };
  std::ostringstream out;
  out << "feet (" << num(at("x")) << ", " << num(at("y")) << ", " << num(at("z")) << ")  velocity ("
      << num(at("vx")) << ", " << num(at("vy")) << ", " << num(at("vz")) << ")  "
      << (at("grounded").get<double>() != 0 ? "grounded" : "airborne") << "  step_dy " << num(at("step_dy"))
      << "  sweeps " << num(at("sweeps")) << "  slide_iters " << num(at("slide_iters")) << "  depen_iters "
      << num(at("depen_iters"));
  return out.str();
}

}  // namespace

TraceRecording record_trace(const Scenario& scenario, std::int64_t first, std::int64_t last, bool sweep_points,
                            SimulationOptions base) {
  TickRecorder recorder(sweep_points);
  // One more recorder per other character ("characters"), whose events
  // follow the first's in each tick, each with its "character".
  std::vector<std::unique_ptr<TickRecorder>> other_recorders;
  for (std::size_t i = 0; i < scenario.others.size(); ++i) {
    other_recorders.push_back(std::make_unique<TickRecorder>(sweep_points));
  }
  std::vector<Json> ticks;   // events of each traced tick, in order
  std::vector<Json> inputs;  // the input each traced tick was stepped with

  SimulationOptions options = base;
  const std::function<void(const TickView&)> before = base.on_tick;
  // Called after each row is written: attach the recorder for the step that
  // produces the next row if that row is traced; detach it otherwise.
  options.on_tick = [&](const TickView& view) {
    if (before) before(view);
    if (view.tick >= first && view.tick <= last) {
      Json events = recorder.take();
      Json input = trace_input_json(view.input, view.steering);  // the input that made this row
      for (std::size_t i = 0; i < view.others.size() && i < other_recorders.size(); ++i) {
        const OtherCharacterView& other = view.others[i];
        for (Json& e : other_recorders[i]->take()) {
          e["character"] = other.name;
          events.push_back(std::move(e));
        }
        input[other.name] = trace_input_json(other.input, other.steering);
      }
      ticks.push_back(std::move(events));
      inputs.push_back(std::move(input));
    }
    const std::int64_t next = view.tick + 1;
    const bool traced = next >= first && next <= last;
    if (traced) recorder.start(view.world);
    view.controller.set_observer(traced ? &recorder : nullptr);
    for (std::size_t i = 0; i < view.others.size() && i < other_recorders.size(); ++i) {
      if (traced) other_recorders[i]->start(view.world);
      view.others[i].controller.set_observer(traced ? other_recorders[i].get() : nullptr);
    }
  };
  TraceRecording recording{simulate(scenario, options), std::move(ticks), std::move(inputs)};
  return recording;
}

std::string trace_event_text(const Json& event) { return event_text(event); }

std::string trace_scenario(const Scenario& scenario, const TraceRequest& request, std::string* stopped) {
  const TraceRecording recording = record_trace(scenario, request.first, request.last);
  const SimulationResult& result = recording.result;
  if (stopped != nullptr) *stopped = result.error;
  const std::vector<Json>& ticks = recording.events;

  std::ostringstream out;
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    const std::int64_t tick = request.first + static_cast<std::int64_t>(i);
    const Json before = row_json(result.trajectory, static_cast<std::size_t>(tick - 1));
    const Json after = row_json(result.trajectory, static_cast<std::size_t>(tick));
    if (request.json) {
      Json line = {{"tick", tick}, {"before", before}, {"input", recording.inputs[i]}, {"events", ticks[i]},
                   {"after", after}};
      out << line.dump() << "\n";
      continue;
    }
    out << "tick " << tick << " (row " << tick - 1 << " -> row " << tick << ", t = " << num(after["time"])
        << " s)\n";
    out << "  before  " << row_text(before) << "\n";
    for (const OtherCharacter& other : scenario.others) {
      out << "  [" << other.def.name << "] before  " << row_text(before, other.def.name + ".") << "\n";
    }
    Json first_input = recording.inputs[i];
    for (const OtherCharacter& other : scenario.others) first_input.erase(other.def.name);
    std::istringstream input_lines(trace_input_text(first_input));
    for (std::string line; std::getline(input_lines, line);) out << "  " << line << "\n";
    for (const OtherCharacter& other : scenario.others) {
      if (!recording.inputs[i].contains(other.def.name)) continue;
      std::istringstream other_lines(trace_input_text(recording.inputs[i][other.def.name]));
      for (std::string line; std::getline(other_lines, line);) out << "  [" << other.def.name << "] " << line << "\n";
    }
    for (const Json& e : ticks[i]) out << "  " << event_text(e) << "\n";
    out << "  after   " << row_text(after) << "\n";
    for (const OtherCharacter& other : scenario.others) {
      out << "  [" << other.def.name << "] after   " << row_text(after, other.def.name + ".") << "\n";
    }
  }
  return out.str();
}

}  // namespace stepslide
