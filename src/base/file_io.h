// Small file helpers shared by the loader, the runner and the CLI.
#pragma once

#include <string>

#include "stepslide/expected.h"

namespace stepslide {

/// Whole file as bytes, or why not ("cannot open: <reason>"). Refuses files
/// larger than `max_bytes`.
Expected<std::string> read_file(const std::string& path, long long max_bytes = 1ll << 40);

/// Writes `content` to a temporary file beside `path`, flushes it, then
/// renames it over `path`, so readers never see a partial file. Creates
/// missing parent directories.
Status write_file_atomic(const std::string& path, const std::string& content);

}  // namespace stepslide
