// `stepslide list`: the scenarios and the state of their goldens, from the
// file system alone (no scenario is loaded or simulated, so it is instant):
//   ok       golden present, nothing pending
//   pending  a `.new` waits for review (pending.h), with or without a golden
//   missing  no golden, nothing pending
//   outside  outside the scenario root: no golden can map to it
//   orphan   a golden, or a `.new`, that no scenario maps to (among the
//            goldens the paths cover, as `check` counts them)
#pragma once

#include <string>
#include <vector>

#include "gate/core/exit_code.h"

namespace stepslide {

enum class ListStatus { Ok, Pending, Missing, Outside, Orphan };

struct ListEntry {
  ListStatus status = ListStatus::Ok;
  std::string path;    ///< the scenario; for an orphan, the golden or `.new`
  std::string detail;  ///< "golden/a.csv.new (no golden yet)", ...; "" for ok
};

/// The `list` command's options, as given.
struct ListRequest {
  std::vector<std::string> paths;  ///< empty: the scenario root
  std::string scenario_root = "scenarios";
  std::string golden_dir = "golden";
  std::vector<std::string> filters;  ///< --filter
};

struct ListRun {
  int exit_code = kExitOk;  ///< 2 for a usage error; else 0, whatever the states
  std::string errors;       ///< stderr text of a usage error
  std::string warnings;     ///< a --filter that matched no scenario
  std::vector<ListEntry> entries;  ///< scenarios in path order, then orphans
};

ListRun run_list(const ListRequest& request);

/// One aligned line per entry ("pending  scenarios/a.json  golden/a.csv.new"),
/// then "N scenarios: a ok, b pending, c missing[, d outside][; e orphans]".
std::string list_text(const std::vector<ListEntry>& entries);

}  // namespace stepslide
