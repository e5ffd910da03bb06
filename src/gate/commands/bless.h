// `stepslide bless`: writing goldens from this build's runs. A golden is
// written only when its bytes change, and never for a scenario whose own
// expectations fail.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gate/core/check.h"
#include "gate/core/exit_code.h"
#include "gate/core/fingerprint.h"
#include "gate/core/project.h"
#include "gate/core/scenario_file.h"
#include "gate/core/sharding.h"

namespace stepslide {

enum class GoldenChange { New, Changed, MetadataOnly, Unchanged };

struct BlessOutcome {
  std::string golden;
  Verdict verdict = Verdict::Pass;  ///< Fail: expectations failed, nothing written
  GoldenChange change = GoldenChange::New;
  std::string report;  ///< the exact block to print, ending in '\n'
  /// Invalid because the run produced a non-finite value past the loader: exit 3.
  bool internal_error = false;
};

/// Simulates a valid scenario inside options.scenario_root and writes its
/// golden atomically, unless its expectations fail (a golden must never record behaviour the scenario itself
/// calls wrong). Writes nothing when the file's bytes would not change.
BlessOutcome bless_scenario(const LoadedScenario& loaded, const GateOptions& options);

/// The `bless` command's options, as given on the command line.
struct BlessRequest {
  std::vector<std::string> paths;  ///< empty: the scenario root
  std::string scenario_root = "scenarios";
  std::string golden_dir = "golden";
  std::vector<std::string> filters;      ///< --filter GLOB / -GLOB (filter.h)
  bool force = false;                    ///< bless even in CI (ci.h)
  std::string controller = "stepslide";  ///< only stepslide: goldens record ours
  std::string fingerprint = build_fingerprint();
  /// The environment, for CI; none by default.
  EnvLookup env = [](const char*) -> const char* { return nullptr; };
  /// Called with each outcome as soon as it is known, in file order.
  std::function<void(const BlessOutcome&)> on_outcome;
  /// The project file to read for the roots (docs/format.md §4).
  ProjectUse project;
};

struct BlessRun {
  int exit_code = kExitOk;
  /// Why nothing was blessed (stderr text: a refused option, CI, no
  /// scenarios, an invalid scenario); exit 2 and nothing else is set.
  std::string errors;
  std::string warnings;  ///< stderr text: a --filter that matched no scenario
  std::vector<BlessOutcome> outcomes;  ///< one per scenario, in file order
  /// Goldens no scenario maps to, among those the paths cover (discovery.h
  /// covered_golden_dirs) that the filters keep.
  std::vector<std::string> orphans;
};

/// Blesses every scenario `request` names and its filters keep, after loading
/// all of them: one invalid scenario, or one outside the scenario root (it
/// has no golden; the refusal gives the command that would work), and
/// nothing is written. Blessing a golden removes its pending result.
/// Exit code: 2 when a golden cannot be written, else 1 when a scenario
/// fails its expectations, else 0.
BlessRun run_bless(const BlessRequest& request);

/// "note: GOLDEN has no scenario; `stepslide check` fails on it until it is deleted"
std::string orphan_note(const std::string& golden);

}  // namespace stepslide
