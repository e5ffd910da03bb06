// Temporaries left by an interrupted write (docs/format.md §3.1). Every file
// is written as ".NAME.tmp.PID[.N]" beside NAME and renamed into place
// (base/file_io.h), so a `bless` killed mid-write never tears a golden but
// leaves that temporary behind. `check` warns about the ones under the golden
// root; `bless` removes those of the goldens it writes.
#pragma once

#include <string>
#include <vector>

namespace stepslide {

/// The pid in a temporary's file name ".NAME.tmp.PID" or ".NAME.tmp.PID.N",
/// or 0 when `file_name` is not one.
long temporary_owner(const std::string& file_name);

/// True when `file_name` is a temporary of `target_name` (".TARGET.tmp.PID[.N]").
bool is_temporary_of(const std::string& file_name, const std::string& target_name);

/// Stale temporaries under `root` (recursively): regular files named like a
/// temporary whose process is no longer alive, sorted. A live process's
/// temporary (a bless running right now) is not stale.
std::vector<std::string> find_stale_temporaries(const std::string& root);

/// "warning: stale temporary file P left by an interrupted write (process N is
/// gone); delete it, or run `stepslide bless` for its golden\n" per file; "" for none.
std::string stale_temporaries_warning(const std::string& root);

/// Removes the stale temporaries of `target` (".TARGET.tmp.*" of processes no
/// longer alive) beside it; returns the paths removed.
std::vector<std::string> remove_stale_temporaries_of(const std::string& target);

}  // namespace stepslide
