// Random worlds and input for `stepslide fuzz`: a seed in, an ordinary
// stepslide/scenario@1 document out (boxes, thin walls, ramps, stairs,
// spheres, pillars, hulls, meshes, heightfields, moving platforms and
// spinners, a random character with random settings, random keyframed
// input). The same seed gives the same bytes on every platform.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace stepslide {

class FuzzRandom;

struct FuzzWorldOptions {
  std::int64_t min_ticks = 120;
  std::int64_t max_ticks = 360;
  int max_bodies = 12;  ///< besides the floor
};

/// A random scenario for `seed`. The character is dropped from above onto
/// whatever lies under its spawn point, so it never starts inside geometry.
/// The result always loads (generated values stay inside the loader's
/// ranges); callers still load it through load_scenario_text, like a file.
nlohmann::ordered_json generate_fuzz_scenario(std::uint64_t seed, const FuzzWorldOptions& options = {});

/// The same from any source of draws: the libFuzzer target passes one that
/// reads its input's bytes (FuzzRandom::from_bytes). Whatever `r` draws, the
/// result stays inside the ranges above.
nlohmann::ordered_json generate_fuzz_scenario(FuzzRandom& r, const std::string& name, const std::string& description,
                                              const FuzzWorldOptions& options = {});

}  // namespace stepslide
