// The scenario file of a capture window (docs/format.md §1): character,
// settings, bodies, input keyframes and the end-state expectation.
#pragma once

#include <deque>
#include <string>

#include "capture/window.h"
#include "stepslide/capture/recorder.h"

namespace stepslide::capture {

struct ScenarioSource {
  const std::deque<CapturedTick>& rows;
  const btCollisionWorld& world;
  const CharacterShapeDesc& shape;
  const ControllerSettings& settings;
  const CharacterContext& context;  ///< up and gravity
  const CaptureConfig& config;
};

/// The scenario's text; `summary` says what it holds and what is not exact.
Expected<std::string> scenario_json(const ScenarioSource& source, const Window& window, CaptureSummary& summary);

}  // namespace stepslide::capture
