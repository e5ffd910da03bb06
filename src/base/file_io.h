// Small file helpers shared by the loader, the runner and the CLI.
#pragma once

#include <optional>
#include <string>

namespace stepslide {

/// Whole file as bytes, or nullopt with `error` set ("cannot open: <reason>").
/// Refuses files larger than `max_bytes`.
std::optional<std::string> read_file(const std::string& path, std::string* error,
                                     long long max_bytes = 1ll << 40);

/// Writes `content` to a temporary file beside `path`, flushes it, then
/// renames it over `path`, so readers never see a partial file. Creates
/// missing parent directories. Returns "" on success, else the reason.
std::string write_file_atomic(const std::string& path, const std::string& content);

}  // namespace stepslide
