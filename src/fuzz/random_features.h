// The features the controller gained after the first random worlds, added
// to a generated world by `stepslide fuzz` (and the libFuzzer target's
// generator draws): dynamic bodies (light and heavy crates, a seesaw, a
// resting stack), one-way platforms and `drop` input, collision layers and
// the character's `collides_with`, a `crouch_shape` and `crouch` input. Each
// with its own probability, so most worlds keep only some of them.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace stepslide {

class FuzzRandom;

/// Dynamic bodies the generator places as a stack at rest are named with
/// this prefix, then the stack's number and the box's ("stack0_1"): the
/// `rest` invariant holds them still until something comes near.
inline const std::string kRestingStackPrefix = "stack";

/// Adds the features to `scenario` (a generated document whose world,
/// character and input are drawn; not yet spawned): bodies appended to its
/// world, fields to its character and input keys. Draws only from `r`.
void add_random_features(FuzzRandom& r, nlohmann::ordered_json& scenario, std::int64_t ticks);

}  // namespace stepslide
