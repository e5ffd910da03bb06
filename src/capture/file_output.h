// Writing the scenario file: all or nothing, regular files only.
#pragma once

#include <string>

#include "stepslide/expected.h"

namespace stepslide::capture {

/// Writes `text` to `path` through a temporary file beside it, renamed into
/// place: a reader never sees half a file, and a failure leaves `path` as it
/// was. Refuses a `path` that exists and is not a regular file (a device, a
/// directory). Errors name the path and the reason.
Status write_text_file(const std::string& path, const std::string& text);

}  // namespace stepslide::capture
