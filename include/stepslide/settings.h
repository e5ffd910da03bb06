// Controller settings: plain data, documented where declared (meaning, unit,
// default), and the settings table that gives each its name and valid range.
// A game changes them between ticks with CharacterController::set_settings,
// which checks them against the table.
#pragma once

#include <string>
#include <vector>

#include "stepslide/expected.h"

namespace stepslide {

struct ControllerSettings {
  /// Highest riser the character steps onto without jumping. Metres. Default 0.35.
  double max_step_height = 0.35;
  /// Least depth of walkable surface beyond a riser's edge for a step to be
  /// accepted: the character must have room to stand. Metres. Default 0.1.
  double min_step_depth = 0.1;
  /// Steepest surface the character can stand on, measured from horizontal.
  /// Degrees. Default 45.
  double max_slope_deg = 45.0;
  /// How far below its feet the character looks for ground to snap onto after
  /// moving, when it was grounded and is not moving up. Metres. Default 0.35.
  double step_down_height = 0.35;
  /// Gap kept between the shape and whatever a sweep hits, measured along the
  /// hit normal; also the extra clearance added when pushing out of overlaps.
  /// Metres. Default 0.01.
  double skin_width = 0.01;
  /// Collide-and-slide iterations per move (each is one sweep). Default 4.
  int max_slide_iterations = 4;
  /// Overlap queries per tick when pushing out of geometry. Default 8.
  int max_depenetration_iterations = 8;
  /// Slide iterations of the up and forward sweeps of a step-up attempt
  /// (0: a single sweep that stops at the first hit). Default 2.
  int step_up_slide_iterations = 2;
  /// Top horizontal speed from full stick deflection. m/s. Default 5.
  double walk_speed = 5.0;
  /// Acceleration toward the wished velocity on the ground. m/s². Default 40.
  double ground_acceleration = 40.0;
  /// Acceleration toward the wished velocity in the air. m/s². Default 8.
  double air_acceleration = 8.0;
  /// Exponential decay rate of ground velocity that the stick does not ask
  /// for: that part is multiplied by exp(-friction·dt) each tick. 1/s. Default 8.
  double friction = 8.0;
  /// Upward speed given by a jump. m/s. Default 5.
  double jump_speed = 5.0;
  /// Largest falling speed. m/s. Default 50.
  double terminal_velocity = 50.0;
  /// Decay rate of the camera offset that absorbs steps:
  /// offset ← offset·exp(-camera_smoothing·dt). 1/s. Default 12.
  double camera_smoothing = 12.0;
  /// Below this horizontal speed with no stick input, ground velocity is
  /// zeroed so the character comes to rest instead of creeping. m/s. Default 0.01.
  double stop_speed = 0.01;
  /// Smallest vertical move in one tick that is reported as a step event
  /// (TickReport::steps, for games that play a footstep sound or animation).
  /// The camera absorbs every stepped height regardless. Metres. Default 0.02.
  double min_step_event = 0.02;
  /// true: on walkable slopes, horizontal speed equals flat-ground speed (the
  /// motion is lifted onto the slope). false: speed along the slope equals
  /// flat-ground speed, so horizontal progress slows on slopes. Default true.
  bool constant_horizontal_speed = true;
  /// true: leaving a moving body (jumping off, walking off its edge) the
  /// character keeps the velocity the body gave its feet over the last tick,
  /// added to its own; a body that stopped or reversed hands over what it did
  /// on that last tick. false: it leaves with its own velocity only. Default true.
  bool inherit_ground_velocity = true;
  /// true: the stick's frame turns with the body stood on (a character on a
  /// turntable keeps walking the same way relative to the turntable).
  /// false: the stick stays in the camera's frame. Default false.
  bool turn_with_ground = false;
  /// The character's mass, for what it does to dynamic bodies (pushable.h):
  /// the impulse it gives one it walks into is at most mass times the speed
  /// it walks into it with, and standing on one it weighs mass·g. Bodies
  /// never move the character by impulses (it is kinematic: they push it by
  /// moving into it). kg. Default 70.
  double mass = 70.0;
  /// The largest force the character pushes a dynamic body with: per tick,
  /// at most max_push_strength·dt of impulse. A body that needs more to
  /// overcome its friction (or its own weight up a slope) blocks like a
  /// wall. N. Default 100.
  double max_push_strength = 100.0;
};

/// One row of the settings table: the single source for `stepslide settings`,
/// for validation (scenario files and set_settings) and for reading or
/// writing a setting by name. Scenario files write booleans as 0 or 1.
struct SettingInfo {
  enum class Kind { Real, Integer, Boolean };
  const char* name;
  const char* unit;
  const char* description;  ///< one line; the field's comment has the whole story
  Kind kind;
  bool is_integer;  ///< Integer or Boolean: written as a whole number
  double min_value;  ///< inclusive
  double max_value;  ///< inclusive
  double ControllerSettings::*real_field;  ///< Real only
  int ControllerSettings::*int_field;      ///< Integer only
  bool ControllerSettings::*bool_field;    ///< Boolean only
};

/// Every setting, in a stable documented order.
const std::vector<SettingInfo>& setting_table();
/// The row for `name`, or null.
const SettingInfo* find_setting(const std::string& name);
/// The value as a number (booleans as 0 or 1).
double get_setting(const ControllerSettings& s, const SettingInfo& info);
/// Stores `value` (check it first with check_setting; booleans: nonzero is true).
void set_setting(ControllerSettings& s, const SettingInfo& info, double value);
/// Why `value` is not valid for the setting ("max_slope_deg: expected a
/// number in [0, 89.9], got 95"), or ok.
Status check_setting(const SettingInfo& info, double value);
/// The first setting whose value is not valid, or ok.
Status validate_settings(const ControllerSettings& s);

}  // namespace stepslide
