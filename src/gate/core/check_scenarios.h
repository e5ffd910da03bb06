// Checking many scenarios on several threads while reporting them in input
// order, so `check -j 4` prints exactly what `-j 1` prints.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gate/core/check.h"

namespace stepslide {

/// Checks `scenarios` on `jobs` threads (jobs < 1: one per core). `on_ready`
/// is called on the calling thread, once per scenario, in input order, as soon
/// as that scenario and every one before it are done. Returns all outcomes in
/// input order.
std::vector<CheckOutcome> check_scenarios(const std::vector<std::string>& scenarios, const GateOptions& options,
                                          int jobs, const std::function<void(const CheckOutcome&)>& on_ready);

}  // namespace stepslide
