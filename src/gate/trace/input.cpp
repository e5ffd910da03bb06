#include "gate/trace/input.h"

#include <cmath>
#include <sstream>

#include "base/format.h"

namespace stepslide {

namespace {

using Json = nlohmann::ordered_json;

Json pair(double a, double b) { return Json::array({a, b}); }
Json triple(const Vec3& v) { return Json::array({v[0], v[1], v[2]}); }

Json steering_json(const SteeringNote& note) {
  const SteeringDef& def = *note.def;
  Json j = {{"kind", def.waypoints ? "waypoints" : "move_to"},
            {"targets", static_cast<std::int64_t>(def.targets.size())}};
  if (!note.arrived) {
    j["target"] = static_cast<std::int64_t>(note.target);
    j["at"] = pair(def.targets[note.target][0], def.targets[note.target][1]);
    j["distance"] = note.distance;
  }
  j["arrived"] = note.arrived;
  j["feet"] = triple(note.feet);
  j["feet_velocity"] = triple(note.velocity);
  j["camera_yaw_deg"] = note.camera_yaw_deg;
  j["stick"] = pair(note.stick[0], note.stick[1]);
  return j;
}

std::string num(const Json& j) { return readable_number(j.get<double>()); }
std::string pair_text(const Json& j) { return "(" + num(j[0]) + ", " + num(j[1]) + ")"; }
std::string triple_text(const Json& j) { return "(" + num(j[0]) + ", " + num(j[1]) + ", " + num(j[2]) + ")"; }

std::string steering_text(const Json& s) {
  std::ostringstream out;
  const auto targets = s["targets"].get<std::int64_t>();
  out << "steering " << s["kind"].get<std::string>() << ": ";
  if (s["arrived"].get<bool>()) {
    out << (targets == 1 ? "the target" : "all " + std::to_string(targets) + " targets") << " passed";
  } else {
    out << "target " << s["target"].get<std::int64_t>() + 1 << " of " << targets << " at (x, z) "
        << pair_text(s["at"]) << ", " << num(s["distance"]) << " m from the feet " << triple_text(s["feet"])
        << ", feet moving " << triple_text(s["feet_velocity"]) << ", camera yaw " << num(s["camera_yaw_deg"])
        << " deg";
  }
  const double length = std::hypot(s["stick"][0].get<double>(), s["stick"][1].get<double>());
  out << " -> stick " << pair_text(s["stick"]) << ", length " << readable_number(length);
  return out.str();
}

}  // namespace

Json trace_input_json(const CharacterInput& input, const SteeringNote* steering) {
  Json j = Json::object();
  if (input.use_wish_velocity) {
    j["wish_velocity"] = pair(input.wish_velocity.x(), input.wish_velocity.z());
  } else {
    j["stick"] = pair(input.move_right, input.move_forward);
  }
  j["yaw_deg"] = input.yaw_deg;
  j["jump"] = input.jump;
  if (steering != nullptr) j["steering"] = steering_json(*steering);
  return j;
}

std::string trace_input_text(const Json& input) {
  std::ostringstream out;
  out << "input   ";
  if (input.contains("wish_velocity")) {
    out << "wish_velocity (x, z) " << pair_text(input["wish_velocity"]) << " m/s";
  } else {
    out << "stick (right, forward) " << pair_text(input["stick"]);
  }
  out << "  yaw " << num(input["yaw_deg"]) << " deg  jump " << (input["jump"].get<bool>() ? "held" : "released");
  if (input.contains("steering")) out << "\n" << steering_text(input["steering"]);
  return out.str();
}

}  // namespace stepslide
