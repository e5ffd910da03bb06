// Riding kinematic bodies: the feet are carried with the body stood on, as a
// swept move that the rest of the level (and every other body) can stop.
#include "stepslide/stages.h"

#include <cmath>

#include "base/portable_math.h"
#include "controller/internal.h"
#include "stepslide/pushable.h"

namespace stepslide {

btVector3 carry_with_ground(const btVector3& feet, const btTransform& before, const btTransform& after) {
  return after * (before.inverse() * feet);
}

double yaw_about(const btQuaternion& turn, const btVector3& up) {
  btVector3 reference = horizontal_part(btVector3(1, 0, 0), up);
  if (reference.length2() < 1e-12) reference = horizontal_part(btVector3(0, 0, 1), up);
  reference.normalize();
  const btVector3 turned = horizontal_part(quatRotate(turn, reference), up);
  return portable::atan2(reference.cross(turned).dot(up), reference.dot(turned)) * 180.0 / kPi;
}

namespace {

/// One cast of a carry, reported to the observer when it was made.
SweepHit carry_cast(const CharacterContext& ctx, const btVector3& from, const btVector3& to,
                    const btCollisionObject* ridden, CarryResult& r) {
  // The skin-grown shape, as every move sweeps it: stopped where it touches,
  // the character keeps the skin from what stopped it. The ridden body moves
  // with the feet, so it is not in the way. Its origins as sweep_transform_at
  // places them; the rotation is built only when the sweep is cast.
  const double lift = ctx.feet_to_center + ctx.settings->skin_width + detail::kGroundClearance;
  const btVector3 from_origin = from + ctx.up * lift;
  const btVector3 to_origin = to + ctx.up * lift;
  if (!ctx.queries->may_hit(ctx.sweep_low, ctx.sweep_high, from_origin, to_origin, ridden)) return SweepHit{};
  const SweepHit hit = ctx.queries->sweep(ctx.sweep_shape, ctx.sweep_transform_at(from), to_origin, ridden);
  ++r.casts;
  if (ctx.observer != nullptr) {
    SweepEvent e;
    e.purpose = SweepEvent::Purpose::Carry;
    e.from = from;
    e.to = to;
    e.hit = hit;
    if (hit.hit) e.slid_along = hit.normal;
    ctx.observer->on_sweep(e);
  }
  return hit;
}

}  // namespace

CarryResult sweep_carry(const CharacterContext& ctx, const btVector3& from, const btVector3& carried,
                        const btCollisionObject* ridden) {
  CarryResult r;
  r.position = carried;
  if (carried == from) return r;  // the body did not move at the feet: nothing to sweep
  r.hit = carry_cast(ctx, from, carried, ridden, r);
  if (!r.hit.hit) return r;
  r.position = from + (carried - from) * r.hit.fraction;
  // The surface met takes only the part of the carry into it: the rest (the
  // body's motion along the wall, a lift's rise beside it) still carries the
  // feet, swept once more and stopped at whatever it meets.
  const btVector3 left = (carried - from) * (1.0 - r.hit.fraction);
  const btVector3 along = left - r.hit.normal * left.dot(r.hit.normal);
  if (along.length2() < detail::kMinMove * detail::kMinMove) return r;
  const SweepHit slid = carry_cast(ctx, r.position, r.position + along, ridden, r);
  r.position += along * (slid.hit ? slid.fraction : 1.0);
  return r;
}

void ride_ground(const CharacterContext& ctx, CharacterState& state, double dt) {
  state.carried_velocity.setZero();
  if (!state.grounded || !detail::is_moving(state.ground_object)) return;
  const btTransform& now = state.ground_object->getWorldTransform();
  const btVector3 from = state.position;
  const btVector3 carried = carry_with_ground(from, state.ground_transform, now);
  const CarryResult carry = sweep_carry(ctx, from, carried, state.ground_object);
  // What the ground really did to the feet: stopped at a wall, the character
  // moved (and later hands over) only as far as it got.
  state.carried_velocity = (carry.position - from) / dt;
  // A dynamic body (a tumbling crate) hands over no more than its own speed there.
  if (const Pushable body = Pushable::of(state.ground_object)) {
    state.carried_velocity = clamp_handover(state.carried_velocity, body.speed_at(carry.position));
  }
  state.position = carry.position;
  // The stick's frame turns with the surface under the feet even when a wall
  // stops the feet: the character still stands on the turning body, and
  // turning the frame moves no shape (the character's orientation is fixed).
  double turned_deg = 0.0;
  if (ctx.settings->turn_with_ground) {
    turned_deg = yaw_about(now.getRotation() * state.ground_transform.getRotation().inverse(), ctx.up);
    state.ground_yaw_deg += turned_deg;
  }
  if (ctx.observer == nullptr) return;
  RideEvent e;
  e.kind = carry.hit.hit ? RideEvent::Kind::Blocked : RideEvent::Kind::Carry;
  e.body = state.ground_object;
  e.from = from;
  e.to = carry.position;
  e.wanted = carried;
  e.velocity = (carried - from) / dt;
  e.character_velocity = state.carried_velocity;
  e.turned_deg = turned_deg;
  if (carry.hit.hit) {
    e.blocker = carry.hit.object;
    e.normal = carry.hit.normal;
  }
  ctx.observer->on_ride(e);
}

}  // namespace stepslide
