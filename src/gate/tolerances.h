// The comparison options of `check`, `diff` and `plot`: `--exact` and
// `--tol COLUMN=ABS` over the default rules.
#pragma once

#include <string>
#include <vector>

#include "stepslide/expected.h"
#include "gate/diff.h"

namespace stepslide {

/// Default rules, then `--exact` (every tolerance 0), then each `--tol
/// COLUMN=ABS` in order. Fails for a malformed option, a column the runner
/// does not write (the reason lists those it does) or a tolerance that is
/// negative or not finite; every reason starts with "--tol '<option>'".
Expected<DiffRules> make_diff_rules(bool exact, const std::vector<std::string>& tolerances);

/// Every tolerance 0, for bless, which reports any change at all.
DiffRules exact_diff_rules();

}  // namespace stepslide
