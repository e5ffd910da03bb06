// The velocity model: stick, acceleration, friction, air control.
#include "stepslide/stages.h"

#include <algorithm>
#include <cmath>

#include "base/portable_math.h"
#include "controller/internal.h"

namespace stepslide {

using namespace detail;

btVector3 wish_direction(const CharacterInput& input, const btVector3& up) {
  btVector3 forward = horizontal_part(btVector3(0, 0, -1), up);
  if (forward.length2() < 1e-12) forward = horizontal_part(btVector3(0, 1, 0), up);
  forward.normalize();
  const btQuaternion yaw(up, input.yaw_deg * kPi / 180.0);
  forward = quatRotate(yaw, forward);
  const btVector3 right = forward.cross(up);
  btVector3 wish = right * input.move_right + forward * input.move_forward;
  if (wish.length2() > 1.0) wish.normalize();
  return wish;
}

namespace {

/// Acceleration may turn the velocity toward the stick but never raise the
/// speed above the stick's target or the speed the character already had
/// (which friction or drag then take away). Without this, accelerating along
/// the stick while the sideways part decays would exceed the target, and
/// sliding along a wall would gain speed.
btVector3 limit_speed_gain(const btVector3& velocity, double before, double target) {
  const double limit = std::max(target, before);
  const double speed = velocity.length();
  return speed > limit ? velocity * (limit / speed) : velocity;
}

}  // namespace

btVector3 ground_velocity(const btVector3& horizontal, const btVector3& wish, const ControllerSettings& s,
                          double dt) {
  const double decay = portable::exp(-s.friction * dt);
  const double stick = wish.length();
  if (stick <= 0) {
    const btVector3 v = horizontal * decay;
    return v.length() < s.stop_speed ? btVector3(0, 0, 0) : v;
  }
  const btVector3 direction = wish / stick;
  const double target = s.walk_speed * stick;
  double along = horizontal.dot(direction);
  const btVector3 across = (horizontal - direction * along) * decay;
  if (along < target) {
    along = std::min(target, along + s.ground_acceleration * dt);
  } else {
    along = target + (along - target) * decay;
  }
  return limit_speed_gain(direction * along + across, horizontal.length(), target);
}

btVector3 air_velocity(const btVector3& horizontal, const btVector3& wish, const ControllerSettings& s, double dt) {
  const double stick = wish.length();
  if (stick <= 0) return horizontal;
  const btVector3 direction = wish / stick;
  const double target = s.walk_speed * stick;
  const double along = horizontal.dot(direction);
  if (along >= target) return horizontal;
  const btVector3 accelerated = horizontal + direction * (std::min(target, along + s.air_acceleration * dt) - along);
  return limit_speed_gain(accelerated, horizontal.length(), target);
}

btVector3 limit_fall_speed(const btVector3& velocity, const btVector3& gravity, double terminal_velocity) {
  const btVector3 down = safe_normalized(gravity);
  const double falling = velocity.dot(down);
  return falling > terminal_velocity ? velocity - down * (falling - terminal_velocity) : velocity;
}

Intent steer(const CharacterContext& ctx, CharacterState& state, const CharacterInput& input, double dt) {
  const btVector3& up = ctx.up;
  const ControllerSettings& s = *ctx.settings;
  const bool jump_pressed = input.jump && !state.jump_was_held;
  state.jump_was_held = input.jump;
  CharacterInput turned_input = input;
  turned_input.yaw_deg += state.ground_yaw_deg;
  const btVector3 wish = wish_direction(turned_input, up);

  Intent intent;
  intent.was_grounded = state.grounded;
  intent.jumped = state.grounded && jump_pressed;
  intent.airborne = !state.grounded || intent.jumped;
  btVector3 horizontal = horizontal_part(state.velocity, up);
  if (input.use_wish_velocity) {
    horizontal = horizontal_part(input.wish_velocity, up);
  } else if (state.grounded) {
    horizontal = ground_velocity(horizontal, wish, s, dt);
  } else {
    horizontal = air_velocity(horizontal, wish, s, dt);
  }
  double vertical = state.velocity.dot(up);
  if (state.grounded) vertical = intent.jumped ? s.jump_speed : 0.0;
  intent.horizontal = horizontal;
  intent.velocity = horizontal + up * vertical;
  if (intent.airborne) {
    intent.velocity = limit_fall_speed(intent.velocity + ctx.gravity * dt, ctx.gravity, s.terminal_velocity);
  }
  if (ctx.observer != nullptr) ctx.observer->on_velocity({state.velocity, intent.velocity, intent.jumped});
  return intent;
}

}  // namespace stepslide
