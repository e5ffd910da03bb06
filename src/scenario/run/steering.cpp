#include "scenario/run/steering.h"

#include <algorithm>
#include <cmath>

#include "base/portable_math.h"
#include "stepslide/stages.h"

namespace stepslide {

namespace {

/// The world direction the controller gives a stick of `right`, `forward`:
/// its own wish_direction, so the frame here is exactly the one it turns by.
btVector3 stick_axis(double right, double forward, double camera_yaw_deg, const btVector3& up) {
  CharacterInput input;
  input.move_right = right;
  input.move_forward = forward;
  input.yaw_deg = camera_yaw_deg;
  return wish_direction(input, up);
}

}  // namespace

double steering_distance(const Vec3& feet, const Vec2& target) {
  return portable::hypot(target[0] - feet[0], target[1] - feet[2]);
}

Vec2 stick_toward(const Vec3& offset, double camera_yaw_deg, const Vec3& up, double length) {
  const btVector3 u(up[0], up[1], up[2]);
  const btVector3 d(offset[0], offset[1], offset[2]);
  const btVector3 across = d - u * u.dot(d);
  const double across_length = across.length();
  if (!(across_length > 0.0)) return {0.0, 0.0};
  const btVector3 direction = across / across_length;
  const double right = direction.dot(stick_axis(1, 0, camera_yaw_deg, u)) * length;
  const double forward = direction.dot(stick_axis(0, 1, camera_yaw_deg, u)) * length;
  // Rounding may take a component a hair past 1; the loader's own range is [-1, 1].
  return {std::clamp(right, -1.0, 1.0), std::clamp(forward, -1.0, 1.0)};
}

double eased_stick(const SteeringDef& def, double distance, double walk_speed, double dt, double beyond) {
  double length = def.stick;
  if (def.slow_within > 0.0) length *= std::min(1.0, (distance + beyond) / def.slow_within);
  const double one_tick = walk_speed * dt;  // metres a full stick asks for in one tick
  if (one_tick > 0.0) length = std::min(length, distance / one_tick);
  return length;
}

double Steering::beyond(const Vec3& feet) const {
  if (next_ + 1 >= def_->targets.size()) return 0.0;  // the last target: stop on it
  const Vec2& here = def_->targets[next_];
  const Vec2& after = def_->targets[next_ + 1];
  const double in_x = here[0] - feet[0], in_z = here[1] - feet[2];
  const double out_x = after[0] - here[0], out_z = after[1] - here[1];
  const double in = portable::hypot(in_x, in_z), out = portable::hypot(out_x, out_z);
  if (!(in > 0.0) || !(out > 0.0)) return 0.0;
  const double cosine = (in_x * out_x + in_z * out_z) / (in * out);
  return def_->slow_within * (1.0 + cosine) / 2.0;
}

bool Steering::advance(const Vec3& feet) {
  while (!arrived() && steering_distance(feet, def_->targets[next_]) <= def_->radius) ++next_;
  return !arrived();
}

Vec2 Steering::stick(const Vec3& feet, const Vec3& velocity, double camera_yaw_deg, const Vec3& up,
                     double walk_speed, double dt) {
  if (!advance(feet)) return {0.0, 0.0};
  const Vec2& target = def_->targets[next_];
  const double distance = steering_distance(feet, target);
  Vec3 push{target[0] - feet[0], 0.0, target[1] - feet[2]};
  const double past = beyond(feet);
  double length = eased_stick(*def_, distance, walk_speed, dt, past);
  if (def_->slow_within > 0.0 && walk_speed > 0.0) {
    // The velocity wanted, walk_speed * (distance + past) / slow_within toward the
    // target (capped by the length), minus the velocity there is, over walk_speed:
    // the stick then brakes, and pushes against sideways speed.
    const double wanted = (distance + past) / (distance * def_->slow_within);
    for (int i = 0; i < 3; i += 2) push[i] = push[i] * wanted - velocity[i] / walk_speed;
    length = std::min(length, portable::hypot(push[0], push[2]));
  }
  return stick_toward(push, camera_yaw_deg, up, length);
}

}  // namespace stepslide
