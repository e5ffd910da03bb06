// Acting on pending results (pending.h): `accept` moves a `.new` over its
// golden, `reject` deletes it. A `.new` is accepted only when it is a
// trajectory and its scenario still exists, loads, and is the very file the
// result was run from (the scenario hash in its metadata), so an accepted
// golden always records what its scenario does in the build that checked it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gate/core/exit_code.h"
#include "gate/core/pending.h"
#include "scenario/scenario.h"
#include "scenario/trajectory.h"

namespace stepslide {

/// A pending result read and matched with its scenario.
struct PendingResult {
  PendingItem item;
  std::optional<Trajectory> result;  ///< the `.new`, when it is a trajectory
  std::optional<Trajectory> golden;  ///< the golden, when it exists and is a trajectory
  bool golden_exists = false;
  std::optional<Scenario> scenario;  ///< when the scenario file loads
  /// Why it may not be accepted, one sentence with the command that helps
  /// (no line break); "" when it may.
  std::string refusal;
  std::string scenario_errors;  ///< the loader's lines, when the scenario is invalid
};

/// Reads `item`'s `.new`, its golden and its scenario, and judges whether it
/// may be accepted.
PendingResult read_pending(const PendingItem& item, const Roots& roots);

/// "new", "changed: first divergence at ...", "metadata only: same
/// trajectory": what accepting `result` does to its golden.
std::string golden_change_text(const PendingResult& result);

/// Moves the `.new` over its golden (one atomic rename) and removes its
/// picture; "accepted GOLDEN (new)\n". Refused with the reason when the
/// result may not be accepted or the rename fails.
Expected<std::string> accept_pending(const PendingResult& result);

/// Deletes the `.new` and its picture; "rejected PENDING\n".
Expected<std::string> reject_pending(const PendingItem& item);

/// The `accept` and `reject` commands' options, as given.
struct AcceptRequest {
  bool reject = false;             ///< reject instead of accept
  std::vector<std::string> paths;  ///< what to act on (pending.h select_pending)
  bool all = false;                ///< every pending result; exclusive with paths
  std::string scenario_root = "scenarios";
  std::string golden_dir = "golden";
  std::vector<std::string> filters;  ///< --filter
  /// Each result's line(s) as soon as it is done, and whether it went to plan.
  std::function<void(const std::string& text, bool ok)> on_item;
};

struct AcceptRun {
  /// 0 all done; 1 when a result was not accepted (its scenario is gone,
  /// invalid or changed); 2 for a usage error or a file that could not be
  /// moved or removed.
  int exit_code = kExitOk;
  std::string errors;  ///< stderr text of a usage error; nothing was done
  std::size_t done = 0;
  std::size_t refused = 0;
  std::string closing;  ///< "2 accepted, 1 not accepted" or "no pending results ..."
};

AcceptRun run_accept(const AcceptRequest& request);

}  // namespace stepslide
