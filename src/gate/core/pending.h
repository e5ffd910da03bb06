// Pending results, as insta keeps `.snap.new`: when a scenario fails against
// its golden (or has none), `check` writes the run's trajectory beside the
// golden as `GOLDEN/a/b.csv.new`, byte for byte what `bless` would write, for
// `review`, `accept` and `reject` to act on. Goldens themselves are only ever
// replaced by bless, accept, or the update mode `always`.
//
// The update mode (`check --update MODE`, else STEPSLIDE_UPDATE, else auto):
//   auto    write `.new` files, except in CI (ci.h), where nothing is written
//   new     write `.new` files, in CI too (e.g. to upload them as artifacts)
//   always  overwrite the golden itself, as bless would; refused in CI unless --force
//   no      write nothing and remove nothing
// A scenario whose own expectations fail gets no `.new` (a golden must never
// record behaviour its scenario rejects). Whenever the mode writes, a
// scenario's stale `.new` (it passes now, or fails its expectations) is
// removed with its review picture.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gate/core/command_hint.h"
#include "gate/core/filter.h"
#include "gate/core/sharding.h"
#include "stepslide/expected.h"

namespace stepslide {

enum class UpdateMode { Auto, New, Always, No };

/// "auto", "new", "always", "no"; nullopt for anything else.
std::optional<UpdateMode> parse_update_mode(const std::string& text);

/// What `check` does with the trajectory of a scenario that fails against
/// its golden.
enum class PendingAction {
  None,         ///< nothing (mode no, or auto in CI)
  WriteNew,     ///< write GOLDEN.new
  WriteGolden,  ///< overwrite the golden (mode always)
};

/// The action for `option` (check --update; "" when not given, then
/// STEPSLIDE_UPDATE from `env`, then auto). Refused with a complete stderr
/// text for an unknown mode, and for always in CI without `force`.
Expected<PendingAction> pending_action(const std::string& option, bool force, const EnvLookup& env);

/// "golden/a/b.csv" -> "golden/a/b.csv.new"
std::string pending_path_for(const std::string& golden);

/// "golden/a/b.csv.new" -> "golden/a/b.csv.new.svg": the picture `review` draws.
std::string picture_path_for(const std::string& pending);

/// "golden/a/b.csv.new" -> "golden/a/b.csv"; nullopt for a path that does
/// not end in ".csv.new".
std::optional<std::string> golden_of_pending(const std::string& pending);

/// What `check` did with a failing scenario's trajectory.
struct Recorded {
  std::string line;     ///< for the report, ending in '\n'; "" when nothing was done
  std::string pending;  ///< the `.new` written; "" when none
  bool failed = false;  ///< the file could not be written (`line` says why)
};

/// Writes `csv` (the run's trajectory as bless would write it) as the
/// pending result of `golden`, or as the golden itself, atomically.
Recorded record_result(PendingAction action, const std::string& golden, const std::string& csv, const Roots& roots);

/// Removes `golden`'s `.new` and its picture, when they exist.
void drop_pending(const std::string& golden);

/// One pending result.
struct PendingItem {
  std::string pending;   ///< "golden/a/b.csv.new"
  std::string golden;    ///< "golden/a/b.csv"
  std::string scenario;  ///< "scenarios/a/b.json", which may no longer exist
  std::string name;      ///< "a/b", what --filter matches
};

/// Every `*.csv.new` below `golden_dir`, sorted.
std::vector<PendingItem> find_pending(const Roots& roots);

/// The pending results that `paths` name, or all of them when there are
/// none, kept by `filter`. A PATH may be a `.csv.new` file, its golden, a
/// scenario file (through the roots), or a folder inside the golden root or
/// the scenario root (every pending result below it, or below its golden
/// folder). Refused (stderr lines) for a path that does not exist, lies
/// outside both roots, or names a file with no pending result.
Expected<std::vector<PendingItem>> select_pending(const std::vector<std::string>& paths, const Roots& roots,
                                                  const ScenarioFilter& filter);

}  // namespace stepslide
