// Greedy shrinking of a failing scenario document: drop what the failure does
// not need, keep each change only when the scenario still fails, repeat until
// nothing more can go. A bug report should fit on one screen.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>

namespace stepslide {

/// Runs a candidate: the row where it still fails, or nullopt when it passes
/// (or is not a valid scenario).
using FailsAt = std::function<std::optional<std::int64_t>(const nlohmann::ordered_json& candidate)>;

struct ShrinkOptions {
  int max_attempts = 600;  ///< candidate runs at most, so one finding cannot stall a campaign
};

struct ShrinkResult {
  nlohmann::ordered_json scenario;
  std::int64_t failing_tick = 0;
  int attempts = 0;  ///< candidates run
};

/// Shrinks `scenario`, which fails at row `failing_tick`: cut the ticks after
/// the failure, then repeatedly try dropping each body, each body's motion,
/// each input keyframe and field, each character setting, the character's
/// velocity and shape, gravity and tick rate.
ShrinkResult shrink_scenario(nlohmann::ordered_json scenario, std::int64_t failing_tick, const FailsAt& fails_at,
                             const ShrinkOptions& options = {});

}  // namespace stepslide
