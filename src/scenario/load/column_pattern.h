// Column patterns: a tolerance key (a scenario's "tolerance" block, a project
// file's "tolerances", `--tol`) names trajectory columns exactly or by a glob,
// and where several keys match one column the most specific wins
// (docs/format.md §4.2). Patterns are checked against the column table
// (columns.h), so a key that names no column is an error, never a no-op.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/glob.h"

namespace stepslide {

/// True when `pattern` holds a `*` or a `?`.
bool is_glob(std::string_view pattern);

/// How two patterns that match the same column rank: > 0 when `a` is the more
/// specific, < 0 when `b` is, 0 when neither. An exact name beats any glob;
/// between globs, more literal (non-wildcard) characters win, then fewer `*`
/// (so `local_?` beats `local_*`).
int compare_specificity(std::string_view a, std::string_view b);

/// The trajectory columns `pattern` matches, in table order.
std::vector<std::string> columns_matching(std::string_view pattern);

/// Why `pattern` names no trajectory column, or nullopt when it names at
/// least one. `shown` is the pattern as the message should show it (quoted
/// the caller's way): "unknown column 'foo' (known: camera_dy, ...)", or
/// "glob 'foo_*' matches no column (known: ...)".
std::optional<std::string> pattern_problem(const std::string& pattern, const std::string& shown);

/// "camera_dy, depen_iters, ...": every column name, sorted.
std::string known_columns_text();

}  // namespace stepslide
