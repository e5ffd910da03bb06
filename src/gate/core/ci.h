// Whether this process runs in a CI job. Decided in one place, so `bless`,
// the update mode of `check` and the console (progress line) can never
// disagree: `CI` unset, empty, `0` or `false` (any case) is not CI; any other
// value is. (GitHub Actions, GitLab, Buildkite, CircleCI and Travis all set
// CI=true; a person turning it off writes CI=false or CI=0.)
#pragma once

#include <string>

#include "gate/core/sharding.h"

namespace stepslide {

/// True when the value of the `CI` variable means a CI job: not null, not
/// empty, and neither "0" nor "false" in any case.
bool ci_value_means_ci(const char* value);

/// ci_value_means_ci(env("CI")).
bool running_in_ci(const EnvLookup& env);

/// "CI=true": how messages name the setting that made a command refuse.
std::string ci_setting_text(const EnvLookup& env);

}  // namespace stepslide
