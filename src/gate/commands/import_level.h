// `stepslide import` as one library call: a level (a mesh file or a
// stepslide/level@1 file) in, a ready scenario that references it out, with
// the character placed "on_floor" at a walkable spot. The scenario names the
// level by a path relative to itself and never copies its triangles.
#pragma once

#include <string>

#include "gate/core/exit_code.h"

namespace stepslide {

struct ImportRequest {
  std::string level;          ///< .gltf, .glb, .obj, .fbx, or a level .json
  std::string out;            ///< the scenario file to write
  double scale = 1.0;         ///< mesh files only: metres per file unit
  std::string up_axis = "y";  ///< mesh files only: "y" or "z"
  std::string at;             ///< "X,Z" or "X,Y,Z"; "" picks a spot on the largest floor
  bool allow_outside = false; ///< the level may lie outside the scenario's directory
  bool force = false;         ///< overwrite an existing `out`
};

struct ImportResult {
  int exit_code = kExitOk;  ///< 2 when nothing was written
  std::string errors;       ///< stderr text, with exit 2
  std::string text;         ///< what was written, for stdout
};

/// Writes `out`: format, a description, 60 ticks, no input, the level as body
/// "level" (a mesh file) or as an include (a level file), and the character
/// "on_floor" from 0.1 m above a floor: without --at, the first spawn point
/// the level's mesh files name (mesh_import.h) where the character has room
/// to stand, else the largest connected
/// walkable floor of the level's survey (gate/commands/floor_survey.h) at its
/// cell deepest inside with room to stand; with --at X,Z, the lowest walkable
/// floor under (X, Z) with room (the others listed); with --at X,Y,Z, from
/// that point. Reports the level's risers and the max_step_height they need.
/// The spawn is checked before anything is written; an existing file is kept
/// unless `force`.
ImportResult import_level(const ImportRequest& request);

}  // namespace stepslide
