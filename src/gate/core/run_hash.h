// The determinism hash of a run (docs/format.md §3.2 "--hash"): one short
// value per trajectory, and one per suite, so that two machines compare a
// whole suite by one line each instead of shipping CSV files around.
#pragma once

#include <string>
#include <vector>

#include "scenario/trajectory.h"

namespace stepslide {

/// "fnv1a64:<16 hex digits>": 64-bit FNV-1a over the trajectory's CSV text
/// as `to_csv` writes it, without the `#` metadata lines (the header line and
/// every row, each ending in '\n'). Numbers are written in the shortest form
/// that reads back to the same double, so two runs hash alike exactly when
/// every cell has the same bits (apart from the sign of a zero and NaN
/// payloads, which the CSV does not keep), whoever built the binary; a golden
/// read back from disk hashes like the run that wrote it.
std::string trajectory_hash(const Trajectory& t);

/// One scenario's hash, under the name it is listed by.
struct NamedHash {
  std::string name;  ///< the scenario's path relative to its scenario root (or as given)
  std::string hash;  ///< trajectory_hash; "" when the scenario did not run
};

/// The name a scenario's hash is listed under: its path relative to
/// `scenario_root` when it lies below it, else the path as given, with '/'.
std::string hash_name(const std::string& scenario, const std::string& scenario_root);

/// "hash fnv1a64:<hex> <name>\n", or "hash - <name> (no run)\n".
std::string hash_line(const NamedHash& h);

/// "hash fnv1a64:<hex> suite of N scenarios\n": FNV-1a over
/// "<name> <hash or ->\n" for each scenario in the order given (sorted paths),
/// so it moves when any scenario's run, name or presence does.
std::string suite_hash_line(const std::vector<NamedHash>& hashes);

}  // namespace stepslide
