// A scenario's `expect` checks (docs/format.md §1.4), evaluated on the trajectory its
// run produced.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "scenario/trajectory.h"

namespace stepslide {

struct ExpectationFailure {
  std::string check;    ///< JSON path of the check, e.g. "/expect/2"
  std::int64_t tick = 0;
  std::string message;  ///< "feet at (1, 0, 2) are 0.3 m from the expected position, more than the tolerance 0.001"
};

/// True when a check needs the overlap depth of every row (max_penetration),
/// which the runner only measures when asked.
bool needs_penetration(const Scenario& scenario);

/// Every failed check of `scenario.expect`, in check order; a range check
/// reports its first failing tick only. `t` has the runner's columns and one
/// row per tick; `penetration` has one depth per row when needs_penetration;
/// `pushed` says for each row whether the input that made it pushed (a stick
/// or wish_velocity not zero), as the runner fed it: steering decides its
/// stick from the character's state, which only the runner knows.
std::vector<ExpectationFailure> check_expectations(const Scenario& scenario, const Trajectory& t,
                                                   const std::vector<double>& penetration,
                                                   const std::vector<bool>& pushed);

/// The same with several characters: `penetration` and `pushed` hold one
/// list per character (Scenario::character_at's order), and each check reads
/// the columns of the character it names (ExpectCheck::character).
std::vector<ExpectationFailure> check_expectations(const Scenario& scenario, const Trajectory& t,
                                                   const std::vector<std::vector<double>>& penetration,
                                                   const std::vector<std::vector<bool>>& pushed);

}  // namespace stepslide
