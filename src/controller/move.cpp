// The move of a tick: walking along the ground plane, or flying.
#include "stepslide/stages.h"

#include "internal.h"

namespace stepslide {

btVector3 ground_motion(const CharacterContext& ctx, const CharacterState& state, const btVector3& horizontal,
                        double dt) {
  const btVector3 step = horizontal * dt;
  const btVector3& n = state.ground_normal;
  const double n_up = n.dot(ctx.up);
  if (n_up <= 1e-6) return step;
  // Lift the motion onto the ground plane.
  const btVector3 on_plane = step - ctx.up * (n.dot(step) / n_up);
  if (ctx.settings->constant_horizontal_speed) return on_plane;
  return safe_normalized(on_plane) * step.length();
}

int move_character(const CharacterContext& ctx, CharacterState& state, const Intent& intent, double dt) {
  SlideOptions options;
  options.max_iterations = ctx.settings->max_slide_iterations;
  SlideResult moved;
  if (intent.airborne) {
    moved = slide(ctx, state.position, intent.velocity * dt, intent.velocity, options);
  } else {
    options.grounded = true;
    options.allow_step_up = true;
    moved = slide(ctx, state.position, ground_motion(ctx, state, intent.horizontal, dt), intent.horizontal, options);
  }
  state.position = moved.position;
  state.velocity = moved.velocity;
  return moved.iterations;
}

}  // namespace stepslide
