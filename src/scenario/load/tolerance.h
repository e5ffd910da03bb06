// Reading a block of column tolerances (docs/format.md §4.2): a scenario's
// "tolerance" and a project file's "tolerances" have the same form, so one
// reader serves both and their messages agree.
#pragma once

#include <vector>

#include "scenario/json/reader.h"
#include "scenario/scenario.h"

namespace stepslide {

/// Reads an object whose keys name columns, exactly or by glob
/// (column_pattern.h), and whose values are a number (an absolute tolerance)
/// or {"abs": A, "rel": R} with one or both given (an omitted one is 0).
/// Every problem is recorded with `r` at its JSON Pointer: a key that names no
/// column, a value that is not a finite number >= 0, an unknown or missing
/// member, and two keys that match one column equally specifically with
/// different tolerances. Appends the entries, in document order, to `out`.
/// An absent field reads nothing.
void read_tolerances(strict_json::JsonReader& r, const strict_json::Field& f, std::vector<ColumnTolerance>& out);

}  // namespace stepslide
