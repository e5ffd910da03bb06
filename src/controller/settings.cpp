#include "stepslide/settings.h"

#include <charconv>
#include <cmath>

namespace stepslide {

namespace {
SettingInfo real(const char* name, const char* unit, const char* description, double lo, double hi,
                 double ControllerSettings::*field) {
  return SettingInfo{name, unit, description, SettingInfo::Kind::Real, false, lo, hi, field, nullptr, nullptr};
}
SettingInfo integer(const char* name, const char* unit, const char* description, double lo, double hi,
                    int ControllerSettings::*field) {
  return SettingInfo{name, unit, description, SettingInfo::Kind::Integer, true, lo, hi, nullptr, field, nullptr};
}
SettingInfo boolean(const char* name, const char* description, bool ControllerSettings::*field) {
  return SettingInfo{name, "bool", description, SettingInfo::Kind::Boolean, true, 0, 1, nullptr, nullptr, field};
}

/// Shortest round-trip text (the controller has no formatting library).
std::string number_text(double value) {
  char buffer[32];
  const std::to_chars_result result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}
}  // namespace

const std::vector<SettingInfo>& setting_table() {
  using S = ControllerSettings;
  static const std::vector<SettingInfo> table = {
      real("max_step_height", "m", "highest riser stepped onto without jumping", 0, 10, &S::max_step_height),
      real("min_step_depth", "m", "walkable depth needed beyond a riser's edge to accept a step", 0, 10,
           &S::min_step_depth),
      real("max_slope_deg", "deg", "steepest walkable surface, from horizontal", 0, 89.9, &S::max_slope_deg),
      real("step_down_height", "m", "how far down ground is snapped to after moving", 0, 10, &S::step_down_height),
      real("skin_width", "m", "gap kept from surfaces hit by sweeps; extra push-out clearance", 1e-5, 0.5,
           &S::skin_width),
      integer("max_slide_iterations", "count", "collide-and-slide sweeps per move", 1, 64, &S::max_slide_iterations),
      integer("max_depenetration_iterations", "count", "overlap queries per tick when pushing out", 0, 64,
              &S::max_depenetration_iterations),
      integer("step_up_slide_iterations", "count", "slide iterations of the step-up up and forward sweeps", 0, 64,
              &S::step_up_slide_iterations),
      real("walk_speed", "m/s", "top horizontal speed at full stick", 0, 1000, &S::walk_speed),
      real("ground_acceleration", "m/s^2", "acceleration toward the wished velocity on the ground", 0, 1e6,
           &S::ground_acceleration),
      real("air_acceleration", "m/s^2", "acceleration toward the wished velocity in the air", 0, 1e6,
           &S::air_acceleration),
      real("friction", "1/s", "decay rate of unwanted ground velocity, exp(-friction*dt) per tick", 0, 1e4,
           &S::friction),
      real("jump_speed", "m/s", "upward speed given by a jump", 0, 1000, &S::jump_speed),
      real("terminal_velocity", "m/s", "largest falling speed", 0, 1e4, &S::terminal_velocity),
      real("camera_smoothing", "1/s", "decay rate of the step-absorbing camera offset", 0, 1e4, &S::camera_smoothing),
      real("stop_speed", "m/s", "ground speed below which an idle character stops", 0, 100, &S::stop_speed),
      real("min_step_event", "m", "smallest vertical move in one tick reported as a step event", 0, 10,
           &S::min_step_event),
      boolean("constant_horizontal_speed", "1: slopes keep horizontal speed; 0: slopes keep speed along the surface",
              &S::constant_horizontal_speed),
      boolean("inherit_ground_velocity", "1: leaving a moving body keeps the velocity it gave the feet",
              &S::inherit_ground_velocity),
      boolean("turn_with_ground", "1: the stick's frame turns with the body stood on", &S::turn_with_ground),
      real("mass", "kg", "the character's mass: its push and its weight on dynamic bodies", 1e-3, 1e6, &S::mass),
      real("max_push_strength", "N", "largest force the character pushes a dynamic body with", 0, 1e9,
           &S::max_push_strength),
  };
  return table;
}

const SettingInfo* find_setting(const std::string& name) {
  for (const SettingInfo& info : setting_table()) {
    if (name == info.name) return &info;
  }
  return nullptr;
}

double get_setting(const ControllerSettings& s, const SettingInfo& info) {
  switch (info.kind) {
    case SettingInfo::Kind::Real: return s.*(info.real_field);
    case SettingInfo::Kind::Integer: return static_cast<double>(s.*(info.int_field));
    case SettingInfo::Kind::Boolean: return s.*(info.bool_field) ? 1.0 : 0.0;
  }
  return 0.0;
}

void set_setting(ControllerSettings& s, const SettingInfo& info, double value) {
  switch (info.kind) {
    case SettingInfo::Kind::Real: s.*(info.real_field) = value; break;
    case SettingInfo::Kind::Integer: s.*(info.int_field) = static_cast<int>(value); break;
    case SettingInfo::Kind::Boolean: s.*(info.bool_field) = value != 0.0; break;
  }
}

Status check_setting(const SettingInfo& info, double value) {
  const bool whole = !info.is_integer || std::floor(value) == value;
  if (std::isfinite(value) && whole && value >= info.min_value && value <= info.max_value) return Status();
  const char* what = info.kind == SettingInfo::Kind::Real ? "a number" : "an integer";
  return Status::failure(std::string(info.name) + ": expected " + what + " in [" + number_text(info.min_value) +
                         ", " + number_text(info.max_value) + "], got " + number_text(value));
}

Status validate_settings(const ControllerSettings& s) {
  for (const SettingInfo& info : setting_table()) {
    Status checked = check_setting(info, get_setting(s, info));
    if (!checked) return checked;
  }
  return Status();
}

}  // namespace stepslide
