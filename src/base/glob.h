// Name globs: the one matcher for column patterns and mesh node names.
#pragma once

#include <string_view>

namespace stepslide {

/// True when `name` matches `pattern`: `*` stands for any run of characters
/// (also none), `?` for exactly one; every other character stands for itself.
bool glob_match(std::string_view pattern, std::string_view name);

}  // namespace stepslide
