// Small file helpers shared by the loader, the runner and the CLI.
#pragma once

#include <string>
#include <vector>

#include "stepslide/expected.h"

namespace stepslide {

/// Whole file as bytes, or why not ("cannot open: <reason>"). Refuses files
/// larger than `max_bytes`.
Expected<std::string> read_file(const std::string& path, long long max_bytes = 1ll << 40);

/// Like read_file, but refuses anything that is not a regular file once
/// symbolic links are followed (a device, FIFO or socket: "cannot read: it is
/// a character device, not a regular file"), before reading a byte.
Expected<std::string> read_regular_file(const std::string& path, long long max_bytes);

/// read_file (regular_only false) or read_regular_file (true).
Expected<std::string> read_file_checked(const std::string& path, long long max_bytes, bool regular_only);

/// Whether write_file_atomic makes the folders above its target.
enum class Parents { Create, MustExist };

/// Writes `content` to a temporary file beside `path`, flushes it, then
/// renames it over `path`, so readers never see a partial file. Creates
/// missing parent directories unless told they must exist (the capture
/// recorder: a game's mistyped folder is an error, not a new tree). Refuses, writing nothing, when something
/// other than a regular file is at `path`: a directory, a device, a FIFO, a
/// socket, or a symbolic link (never followed nor replaced). The temporary
/// is ".NAME.tmp.PID[.N]" beside the target (gate/core/stale_temps.h finds those
/// a killed process left).
Status write_file_atomic(const std::string& path, const std::string& content, Parents parents = Parents::Create);

/// Refuses an output that is one of the command's `inputs` (the same file,
/// by std::filesystem::equivalent, so another spelling or a hard link counts):
/// "cannot write OUT: it is the input IN". Nothing there yet: fine.
Status not_an_input(const std::string& output, const std::vector<std::string>& inputs);

}  // namespace stepslide
