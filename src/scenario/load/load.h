// Loading a scenario (docs/format.md §1): strict JSON in, a validated Scenario out, or
// every problem found, each with its JSON Pointer, in document order. The
// loader holds every problem in a LoadResult rather than the library's
// Expected<T>, which carries only one.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scenario/load/input_files.h"
#include "scenario/scenario.h"

namespace stepslide {

/// One validation problem. `json_path` is a JSON Pointer ("" for the whole
/// document); `message` says what was expected and what was found.
struct LoadError {
  std::string file;
  std::string json_path;
  std::string message;
};

/// "file: /world/3/half_extents/1: expected a number > 0, got -2"
std::string format_error(const LoadError& e);

struct LoadResult {
  std::optional<Scenario> scenario;  ///< set only when `errors` is empty
  std::vector<LoadError> errors;     ///< every problem found, in document order
  /// Every file read: the scenario first, then level and mesh files (and the
  /// buffers a glTF names) in the order first read, each once.
  std::vector<InputFile> inputs;
  /// What loading did that a reader may want to know ("FILE: /world/2/shape/file:
  /// levels/house.glb: 1204 triangles in 3 nodes; dropped ..."), in document order.
  std::vector<std::string> notes;
};

struct LoadOptions {
  /// Let level and mesh paths leave the scenario's directory (input_files.h PathPolicy).
  bool allow_outside = false;
};

/// Every error of `load` as a "file: /json/path: message" line.
std::string format_load_errors(const LoadResult& load);

/// Reads and validates a scenario file, with the level and mesh files it
/// names, and puts a character with "place": "on_floor" on its floor. Never
/// throws, never crashes on bad input.
LoadResult load_scenario_file(const std::string& path, const LoadOptions& options = {});
/// Same, from text; `file_label` names the source in errors and in `name`, and
/// its directory is where the paths the scenario names start from.
LoadResult load_scenario_text(const std::string& text, const std::string& file_label,
                              const LoadOptions& options = {});

}  // namespace stepslide
