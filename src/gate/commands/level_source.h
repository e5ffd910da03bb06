// What `map` and `probe` read: a scenario, or a level on its own — a level
// file (stepslide/level@1) or a mesh file — loaded as a scenario that holds
// only it, with the default character (its max_slope_deg decides what is walkable).
#pragma once

#include <string>

#include "scenario/load/load.h"

namespace stepslide {

/// True for a mesh file (.gltf, .glb, .obj, .fbx) or a level file.
bool is_level_source(const std::string& path);

/// Loads `path` as a scenario; a level or mesh file comes in as the one body
/// or include of a scenario named after it, its paths read from its own directory.
LoadResult load_level_or_scenario(const std::string& path, const LoadOptions& options = {});

}  // namespace stepslide
