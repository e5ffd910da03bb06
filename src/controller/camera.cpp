// Steps and the camera: how much of a tick's vertical move was a step, and
// the eye offset that absorbs it.
#include "stepslide/stages.h"

#include <cmath>

#include "base/portable_math.h"
#include "controller/internal.h"

namespace stepslide {

double stepped_height(const btVector3& start, const btVector3& ground_normal, const btVector3& end,
                      const btVector3& up) {
  const btVector3 moved = end - start;
  const double n_up = ground_normal.dot(up);
  const double along_ground = n_up > 1e-6 ? -ground_normal.dot(horizontal_part(moved, up)) / n_up : 0.0;
  const double stepped = moved.dot(up) - along_ground;
  // Below this it is rounding, not a step (flat ground gives ~1e-17).
  return std::fabs(stepped) > 1e-9 ? stepped : 0.0;
}

double update_camera(double camera_dy, double step_dy, double camera_smoothing, double dt) {
  return camera_dy * portable::exp(-camera_smoothing * dt) - step_dy;
}

void absorb_steps(const CharacterContext& ctx, CharacterState& state, const Intent& intent, const WalkStart& start,
                  double dt, TickReport& report) {
  if (!intent.airborne && state.grounded) {
    report.step_dy = stepped_height(start.position, start.ground_normal, state.position, ctx.up);
    if (std::fabs(report.step_dy) >= ctx.settings->min_step_event) {
      report.steps.push_back({report.step_dy > 0 ? StepEvent::Kind::Up : StepEvent::Kind::Down, report.step_dy});
    }
  }
  state.camera_dy = update_camera(state.camera_dy, report.step_dy, ctx.settings->camera_smoothing, dt);
}

}  // namespace stepslide
