#include "scenario/run/input_track.h"

namespace stepslide {

InputTrack::InputTrack(const std::vector<InputKey>& keys, const Vec3& up, double walk_speed, double dt)
    : keys_(&keys), up_(up), walk_speed_(walk_speed), dt_(dt) {}

const CharacterInput& InputTrack::at(std::int64_t tick, const CharacterState& state) {
  if (tick == tick_) return current_;
  tick_ = tick;
  while (next_ < keys_->size() && (*keys_)[next_].tick <= tick) apply((*keys_)[next_++]);
  if (steering_) {
    // The camera frame the controller turns the stick by: the yaw, and the
    // ground's turn when turn_with_ground carries the character around.
    const Vec3 feet{state.position.x(), state.position.y(), state.position.z()};
    // How fast the feet really moved over the last tick: pressed into a wall the
    // controller's velocity can say 5 m/s while the feet stand still, and braking
    // for that would back the character off the wall and back, again and again.
    // Tick 0 has no last tick: the start velocity.
    const btVector3 moved = !previous_feet_ ? state.velocity : (state.position - *previous_feet_) / dt_;
    const Vec3 velocity{moved.x(), moved.y(), moved.z()};
    const double camera_yaw_deg = current_.yaw_deg + state.ground_yaw_deg;
    const Vec2 stick = steering_->stick(feet, velocity, camera_yaw_deg, up_, walk_speed_, dt_);
    current_.move_right = stick[0];
    current_.move_forward = stick[1];
    note_ = SteeringNote{key_steer_, steering_->arrived(), steering_->next_target(), 0.0, feet, velocity,
                         camera_yaw_deg, stick};
    if (!note_.arrived) note_.distance = steering_distance(feet, key_steer_->targets[note_.target]);
  }
  previous_feet_ = state.position;
  const bool pushes = current_.use_wish_velocity ? current_.wish_velocity.x() != 0.0 || current_.wish_velocity.z() != 0.0
                                                 : current_.move_right != 0.0 || current_.move_forward != 0.0;
  pushed_rows_.push_back(pushes);
  return current_;
}

/// move, wish_velocity and steering each say what drives the character and
/// end the others; yaw_deg and jump combine with whichever does.
void InputTrack::apply(const InputKey& key) {
  if (key.move || key.wish_velocity || key.steer) steering_.reset();
  if (key.move) {
    current_.move_right = (*key.move)[0];
    current_.move_forward = (*key.move)[1];
    current_.use_wish_velocity = false;
  }
  if (key.wish_velocity) {
    current_.wish_velocity = btVector3((*key.wish_velocity)[0], 0, (*key.wish_velocity)[1]);  // docs/format.md: [x, z]
    current_.use_wish_velocity = true;
    current_.move_right = current_.move_forward = 0.0;
  }
  if (key.steer) {
    steering_.emplace(*key.steer);
    key_steer_ = &*key.steer;
    current_.use_wish_velocity = false;
  }
  if (key.yaw_deg) current_.yaw_deg = *key.yaw_deg;
  if (key.jump) current_.jump = *key.jump;
  if (key.drop) drop_ = *key.drop;
  if (key.crouch) crouch_ = *key.crouch;
}

}  // namespace stepslide
