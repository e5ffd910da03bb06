// The `#` lines a stored trajectory starts with: format, scenario hash and
// build. Never compared; they let a failing check say whether the scenario or
// the build changed since the golden was blessed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scenario/load/input_files.h"
#include "scenario/trajectory.h"

namespace stepslide {

/// The `#` lines written before the header by `run` and `bless` (without '#'):
///   " stepslide trajectory 1", " scenario <name> fnv1a64:<hex>", " build <fingerprint>".
std::vector<std::string> trajectory_metadata(const std::string& scenario_name, const std::string& scenario_bytes,
                                             const std::string& fingerprint);

/// The same for a scenario that read other files (levels, meshes): `inputs`
/// lists every file read, the scenario first (LoadResult::inputs). With the
/// scenario alone this is exactly the overload above. With more, the scenario
/// hash covers them all (fnv1a64 over "<path>\n<file hash>\n" per input, in
/// order), and a line " inputs <path> fnv1a64:<hex> ..." follows, one pair
/// per file; spaces and '%' in a path are written %20 and %25.
std::vector<std::string> trajectory_metadata(const std::string& scenario_name, const std::vector<InputFile>& inputs,
                                             const std::string& fingerprint);

/// The files a trajectory's `inputs` line lists, in order; empty without one.
std::vector<InputFile> metadata_inputs(const Trajectory& t);

/// The text after `key` in the first metadata line "<key> <text>", or nullopt.
std::optional<std::string> metadata_value(const Trajectory& t, const std::string& key);

/// The scenario hash ("fnv1a64:...") recorded by `trajectory_metadata`, or nullopt.
std::optional<std::string> metadata_scenario_hash(const Trajectory& t);

/// "note: golden was written by a different build: <old> (now: <new>)\n" when
/// the golden records a build and it differs from `fingerprint`; else "".
std::string build_change_note(const Trajectory& golden, const std::string& fingerprint);

/// "note: the scenario file changed since the golden was blessed (<old>, now
/// <new>)\n" when both record a scenario hash and they differ; else "". Tells
/// whether the scenario or the code moved. When both list their inputs, one
/// note per file that changed, appeared or went away, naming it:
/// "note: levels/house.glb changed since the golden was blessed (fnv1a64:..., now fnv1a64:...)".
std::string scenario_change_note(const Trajectory& golden, const Trajectory& actual);

}  // namespace stepslide
