// Level files (docs/format.md §1.6): a world shared by several scenarios,
// `{"format": "stepslide/level@1", "world": [...]}`, spliced into a scenario's
// world by an `{"include": "levels/house.json"}` item. Includes may nest; paths
// are relative to the including file and stay inside the top scenario's
// directory (input_files.h PathPolicy); a cycle is an error. The reading
// itself is part of the loader (read_include in scenario/load/parts.h).
#pragma once

#include <string>

namespace stepslide {

inline constexpr const char* kLevelFormat = "stepslide/level@1";
/// Includes nest at most this deep: a chain longer than any real project's,
/// short enough that a runaway generator stops early.
inline constexpr int kMaxIncludeDepth = 16;

/// True when `path` is a JSON file whose "format" is kLevelFormat: a
/// directory search for scenarios skips it. False for anything unreadable or
/// not JSON (the scenario loader then says what is wrong with it).
bool is_level_file(const std::string& path);

}  // namespace stepslide
