// Riding kinematic bodies: the feet are carried rigidly with the body stood on.
#include "stepslide/stages.h"

#include <cmath>

#include "internal.h"

namespace stepslide {

btVector3 carry_with_ground(const btVector3& feet, const btTransform& before, const btTransform& after) {
  return after * (before.inverse() * feet);
}

double yaw_about(const btQuaternion& turn, const btVector3& up) {
  btVector3 reference = horizontal_part(btVector3(1, 0, 0), up);
  if (reference.length2() < 1e-12) reference = horizontal_part(btVector3(0, 0, 1), up);
  reference.normalize();
  const btVector3 turned = horizontal_part(quatRotate(turn, reference), up);
  return std::atan2(reference.cross(turned).dot(up), reference.dot(turned)) * 180.0 / kPi;
}

void ride_ground(const CharacterContext& ctx, CharacterState& state, double dt) {
  state.carried_velocity.setZero();
  if (!state.grounded || state.ground_object == nullptr || !state.ground_object->isKinematicObject()) return;
  const btTransform& now = state.ground_object->getWorldTransform();
  const btVector3 carried = carry_with_ground(state.position, state.ground_transform, now);
  const btVector3 from = state.position;
  state.carried_velocity = (carried - state.position) / dt;
  state.position = carried;
  double turned_deg = 0.0;
  if (ctx.settings->turn_with_ground) {
    turned_deg = yaw_about(now.getRotation() * state.ground_transform.getRotation().inverse(), ctx.up);
    state.ground_yaw_deg += turned_deg;
  }
  if (ctx.observer != nullptr) {
    RideEvent e;
    e.kind = RideEvent::Kind::Carry;
    e.body = state.ground_object;
    e.from = from;
    e.to = carried;
    e.velocity = state.carried_velocity;
    e.turned_deg = turned_deg;
    ctx.observer->on_ride(e);
  }
}

}  // namespace stepslide
