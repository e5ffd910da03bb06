// The input a traced tick was stepped with: what the runner fed the
// controller (stick or wish velocity, camera yaw, jump button) and, under a
// steering keyframe, how steering worked that stick out. Recorded as JSON,
// printed from the JSON, as trace.cpp does for the controller's events.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "scenario/run/input_track.h"
#include "stepslide/character.h"

namespace stepslide {

/// {"stick": [right, forward]} or {"wish_velocity": [x, z]}, then "yaw_deg",
/// "jump" and, when `steering` is given, "steering": {"kind", "targets",
/// "target" (index, absent once all are passed), "at", "distance", "arrived",
/// "feet", "feet_velocity", "camera_yaw_deg", "stick"}.
nlohmann::ordered_json trace_input_json(const CharacterInput& input, const SteeringNote* steering);

/// The `input` line of the text form and, under steering, a `steering` line
/// after it (each without indentation, joined by "\n", no final newline).
std::string trace_input_text(const nlohmann::ordered_json& input);

}  // namespace stepslide
