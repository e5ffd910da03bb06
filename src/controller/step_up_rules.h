// Private to the controller: the step-up attempt split into its early out
// (rays only) and the attempt itself, so tests can check that the early out
// never refuses a step the full attempt (its three sweeps) would accept.
#pragma once

#include <btBulletCollisionCommon.h>

#include "stepslide/stages.h"

namespace stepslide::detail {

/// The rays that refuse a riser as too tall before any sweep: true when the
/// obstacle stands ahead at the raised shape's widest height, when the riser
/// met continues just above max_step_height + kMinStepGain where it was met,
/// or when it was touched higher than a step and stands there.
bool step_up_refused_early(const CharacterContext& ctx, const btVector3& position,
                           const btVector3& horizontal_motion, const btVector3& riser_normal,
                           const btVector3& riser_point);

/// step_up without notifying the observer of the attempt; `early_out` false
/// skips step_up_refused_early (tests compare the two verdicts).
StepUpResult attempt_step_up(const CharacterContext& ctx, const btVector3& position,
                             const btVector3& horizontal_motion, const btVector3& riser_normal,
                             const btVector3& riser_point, bool early_out);

}  // namespace stepslide::detail
