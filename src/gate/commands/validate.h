// `stepslide validate`: scenario files checked without simulating them.
#pragma once

#include <string>
#include <vector>

#include "gate/core/exit_code.h"
#include "scenario/load/load.h"

namespace stepslide {

struct ValidatedFile {
  std::string path;
  bool valid = true;
  std::string errors;  ///< "FILE: /json/path: message" lines; "" when valid
  /// "note: FILE: /world/2/shape/file: levels/house.glb: 1204 triangles ..." lines:
  /// what loading the mesh files did (LoadResult::notes), each note once per
  /// call (a level many scenarios include is described with the first); "" when none.
  std::string notes;
};

struct ValidateResult {
  int exit_code = kExitOk;  ///< 2 when any path is bad or any scenario invalid
  std::string errors;       ///< stderr text when the paths name no scenarios; `files` is empty then
  std::vector<ValidatedFile> files;  ///< every scenario found, in sorted order
};

/// Loads every scenario that `paths` name (files, or directories searched for
/// *.json) and reports each one's errors.
ValidateResult validate_scenarios(const std::vector<std::string>& paths, const LoadOptions& options = {});

}  // namespace stepslide
