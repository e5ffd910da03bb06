// The files a scenario reads besides itself (level files, mesh files and the
// buffers a glTF names), where they may lie, and their digests. A golden
// records every input's digest, so a changed level fails the gate with a note
// naming the file (docs/format.md §1.6, §2.2).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stepslide/expected.h"

namespace stepslide {

/// One file the loader read, and the digest of its bytes.
struct InputFile {
  /// Relative to the top scenario's directory, '/'-separated ("levels/house.glb");
  /// the scenario itself is its file name. Absolute only when it lies
  /// elsewhere on another root (--allow-outside).
  std::string path;
  std::uint64_t fnv1a64 = 0;
};

/// FNV-1a, 64 bits: small, stable across platforms and builds, enough to tell
/// that a file changed (not a defence against tampering).
std::uint64_t fnv1a64_of(const std::string& bytes, std::uint64_t hash = 0xcbf29ce484222325ull);
/// 16 lowercase hex digits.
std::string hex64(std::uint64_t value);

/// Where the files a scenario names may lie. By default every path must stay
/// inside the directory of the top scenario file (the "root"): no absolute
/// paths, no `..` that climbs above it, so a scenario from a bug report can
/// only read files that travel with it. `allow_outside` lifts the rule.
struct PathPolicy {
  std::string root_dir;  ///< the top scenario's directory ("" or "." for the working directory)
  bool allow_outside = false;
};

/// The file `written` names, relative to `base_dir` (the directory of the file
/// that names it), as a normalised path to open; refused with the reason when
/// it is empty or breaks the policy. Lexical: symbolic links are not followed.
Expected<std::string> resolve_input_path(const std::string& written, const std::string& base_dir,
                                         const PathPolicy& policy);

/// Refused with "leads outside the scenario's directory (...)" when `path`
/// (as opened, absolute or relative to the working directory) is outside the
/// root and the policy does not allow that. For the files a mesh names.
Status check_inside_root(const std::string& path, const PathPolicy& policy);

/// `opened` (a path resolve_input_path gave) as InputFile::path: relative to
/// the root when it lies inside it.
std::string input_display_path(const std::string& opened, const PathPolicy& policy);

/// The directory part of a file path ("a/b.json" -> "a", "b.json" -> "").
std::string directory_of(const std::string& file);

/// Appends `file` unless a file of the same path is already listed (a level
/// or mesh used twice is one input).
void add_input(std::vector<InputFile>& inputs, InputFile file);

}  // namespace stepslide
