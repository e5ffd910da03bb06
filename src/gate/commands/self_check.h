// `stepslide check --self-check`: is the simulation itself deterministic?
// Every scenario is run twice in this one process, the second pass in
// reverse order, so that state leaking from one run into another (statics,
// caches, uninitialised memory) shows as a difference. Reported apart from
// regressions: a nondeterministic scenario makes its golden meaningless.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gate/core/scenario_file.h"

namespace stepslide {

/// One run of a loaded scenario as text: the trajectory CSV followed by its
/// failed expectations. Anything that differs between runs shows in it.
using RunText = std::function<std::string(const LoadedScenario&)>;

/// simulate() on the scenario, as RunText.
std::string simulation_text(const LoadedScenario& loaded);

struct SelfCheckOutcome {
  std::string scenario;
  bool deterministic = true;
  std::string report;  ///< "" when deterministic, else "NONDETERMINISTIC path: ...\n"
};

/// Runs every valid scenario of `files` twice (the second pass in reverse
/// order) and compares the texts. Invalid scenarios are skipped: `check`
/// already reports them.
std::vector<SelfCheckOutcome> self_check(const std::vector<std::string>& files, const RunText& run = simulation_text);

/// "self-check: 45 scenarios run twice in one process, 0 nondeterministic"
std::string self_check_line(const std::vector<SelfCheckOutcome>& outcomes);

}  // namespace stepslide
