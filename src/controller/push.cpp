// The character's impulses on dynamic bodies (pushable.h): the math, and the
// stage that applies it after a tick's move.
#include "stepslide/pushable.h"

#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "controller/internal.h"
#include "stepslide/stages.h"

namespace stepslide {

PushableObject::PushableObject() { m_internalType = CO_USER_TYPE; }
PushableObject::~PushableObject() = default;

Pushable Pushable::of(const btCollisionObject* object) {
  if (object == nullptr) return Pushable();
  // The world is the game's; the controller changes nothing in it but the
  // velocities of bodies it pushes, which Bullet's dynamics own anyway, and
  // what the pushable objects (other characters) take themselves.
  if (object->getInternalType() == btCollisionObject::CO_USER_TYPE) {
    // A game's own CO_USER_TYPE objects that are not PushableObjects are not pushed.
    auto* other = dynamic_cast<PushableObject*>(const_cast<btCollisionObject*>(object));
    return other == nullptr ? Pushable() : Pushable(other);
  }
  auto* body = const_cast<btRigidBody*>(btRigidBody::upcast(object));
  if (body == nullptr || !(body->getInvMass() > 0.0)) return Pushable();
  return Pushable(body);
}

namespace {

/// A rigid body's inverse inertia in the world frame, from its local one
/// and its pose's basis, computed here: Bullet's copy (btRigidBody::
/// updateInertiaTensor) is its compiled code, contracted into fused
/// multiply-adds on arm64, and is not updated by a world that poses the body
/// itself (the scenario world's dynamics). The same formula in the same
/// order, so where Bullet's build does not contract (x86-64) the bits agree.
btMatrix3x3 world_inverse_inertia(const btRigidBody& body) {
  const btMatrix3x3& basis = body.getWorldTransform().getBasis();
  return basis.scaled(body.getInvInertiaDiagLocal()) * basis.transpose();
}

}  // namespace

const btCollisionObject* Pushable::object() const {
  if (other_ != nullptr) return other_;
  return body_;
}

btVector3 Pushable::velocity_at(const btVector3& point) const {
  if (other_ != nullptr) return other_->velocity_at(point);
  return body_->getVelocityInLocalPoint(point - body_->getCenterOfMassPosition());
}

double Pushable::inverse_mass_along(const btVector3& point, const btVector3& direction) const {
  if (other_ != nullptr) return other_->inverse_mass_along(point, direction);
  const btVector3 r = point - body_->getCenterOfMassPosition();
  const btVector3 turn = r.cross(direction);
  return body_->getInvMass() + turn.dot(world_inverse_inertia(*body_) * turn);
}

void Pushable::apply_impulse(const btVector3& impulse, const btVector3& point) const {
  if (other_ != nullptr) {
    other_->apply_impulse(impulse, point);
    return;
  }
  body_->activate(true);
  // btRigidBody::applyImpulse, with the inverse inertia computed here.
  if (body_->getInvMass() == 0.0) return;
  const btVector3 r = point - body_->getCenterOfMassPosition();
  body_->setLinearVelocity(body_->getLinearVelocity() + impulse * body_->getLinearFactor() * body_->getInvMass());
  body_->setAngularVelocity(body_->getAngularVelocity() +
                            world_inverse_inertia(*body_) * r.cross(impulse * body_->getLinearFactor()) *
                                body_->getAngularFactor());
}

double push_impulse(double character_mass, double max_strength, double dt, double approach_speed,
                    double inverse_mass_along) {
  if (!(approach_speed > 0.0)) return 0.0;
  double impulse = std::min(character_mass * approach_speed, max_strength * dt);
  if (inverse_mass_along > 0.0) impulse = std::min(impulse, approach_speed / inverse_mass_along);
  return impulse;
}

btVector3 weight_impulse(double character_mass, const btVector3& gravity, double dt, double inverse_mass_along) {
  const double shared = 1.0 / (1.0 + character_mass * std::max(inverse_mass_along, 0.0));
  return gravity * (character_mass * dt * shared);
}

double landing_impulse(double character_mass, double impact_speed, double inverse_mass_along) {
  return push_impulse(character_mass, std::numeric_limits<double>::infinity(), 1.0, impact_speed,
                      inverse_mass_along);
}

btVector3 clamp_handover(const btVector3& carried_velocity, double body_speed) {
  const double speed = carried_velocity.length();
  if (speed <= body_speed || speed <= 0.0) return carried_velocity;
  return carried_velocity * (std::max(body_speed, 0.0) / speed);
}

namespace {

/// The largest part t of `gain` (0 to 1) for which velocity + t gain is no
/// faster than `limit` (all of it when it never is, none when the velocity
/// already is).
double within_speed(const btVector3& velocity, const btVector3& gain, double limit) {
  const double a = gain.length2();
  if ((velocity + gain).length2() <= limit * limit || !(a > 0.0)) return 1.0;
  const double c = velocity.length2() - limit * limit;
  if (c >= 0.0) return 0.0;
  // |v + t g|^2 = limit^2: a t^2 + 2 b t + c = 0, the positive root (c < 0).
  const double b = velocity.dot(gain);
  return std::clamp((-b + std::sqrt(b * b - a * c)) / a, 0.0, 1.0);
}

void report(const CharacterContext& ctx, PushEvent::Kind kind, const Pushable& body, const btVector3& point,
            const btVector3& impulse, double approach, bool limited) {
  if (ctx.observer == nullptr) return;
  PushEvent e;
  e.kind = kind;
  e.body = body.object();
  e.point = point;
  e.impulse = impulse;
  e.approach_speed = approach;
  e.strength_limited = limited;
  ctx.observer->on_push(e);
}

/// The push on one body the move ran into, at its hit. `velocity`: what the
/// character tried to move with.
void push_one(const CharacterContext& ctx, const Pushable& body, const SweepHit& hit, const btVector3& velocity,
              double dt) {
  const btVector3 into = -hit.normal;  // the hit's normal points at the character
  const double approach = (velocity - body.velocity_at(hit.point)).dot(into);
  const double strength = ctx.settings->max_push_strength;
  const double size =
      push_impulse(ctx.settings->mass, strength, dt, approach, body.inverse_mass_along(hit.point, into));
  if (size <= 0.0) return;
  body.apply_impulse(into * size, hit.point);
  report(ctx, PushEvent::Kind::Push, body, hit.point, into * size, approach, size >= strength * dt);
}

/// The slide clipped the velocity against the body as against a wall; a
/// body that moves away lets the character follow it: its speed into the
/// body comes back up to the body's own there (after the push), never above
/// what it tried to move with. Following never lifts: on a face that leans
/// down toward the character the inward normal points a little up, and the
/// body moves that way only because the character pushed it; following it
/// up, the character would rise by its own push, in the air a launch
/// without a jump. The upward part of what following adds is dropped (a body
/// that rises into the character lifts it by its own motion, in
/// depenetration). Nor does following make the character faster than it
/// tried to move: the clip is not always across the hit's normal (landing
/// on a walkable face that tilts away keeps the horizontal velocity, as on
/// level ground), and adding the normal's part back on top of what such a
/// clip kept would give speed no body gave.
void follow(const btVector3& up, const Pushable& body, const SweepHit& hit, const btVector3& wanted,
            btVector3& velocity) {
  const btVector3 into = -hit.normal;
  const double allowed = std::min(body.velocity_at(hit.point).dot(into), wanted.dot(into));
  const double now = velocity.dot(into);
  if (allowed <= now) return;
  btVector3 gain = into * (allowed - now);
  const double lift = gain.dot(up);
  if (lift > 0.0) gain -= up * lift;
  velocity += gain * within_speed(velocity, gain, wanted.length());
}

/// Weight on the body stood on, and the landing on it.
void weigh_on_ground(const CharacterContext& ctx, const CharacterState& state, const Intent& intent, double dt) {
  const Pushable ground = Pushable::of(state.ground_object);
  if (!ground) return;
  const btVector3& point = state.position;
  if (!intent.was_grounded) {
    const btVector3 into = -state.ground_normal;
    const double impact = (intent.velocity - ground.velocity_at(point)).dot(into);
    const double size = landing_impulse(ctx.settings->mass, impact, ground.inverse_mass_along(point, into));
    if (size > 0.0) {
      ground.apply_impulse(into * size, point);
      report(ctx, PushEvent::Kind::Landing, ground, point, into * size, impact, false);
    }
  }
  const btVector3 down = ctx.gravity.fuzzyZero() ? btVector3(0, 0, 0) : ctx.gravity.normalized();
  const double inverse_mass = down.isZero() ? 0.0 : ground.inverse_mass_along(point, down);
  const btVector3 weight = weight_impulse(ctx.settings->mass, ctx.gravity, dt, inverse_mass);
  ground.apply_impulse(weight, point);
  report(ctx, PushEvent::Kind::Weight, ground, point, weight, 0.0, false);
}

}  // namespace

void push_bodies(const CharacterContext& ctx, CharacterState& state, const Intent& intent,
                 const std::vector<SweepHit>& touched, double dt) {
  for (std::size_t i = 0; i < touched.size(); ++i) {
    const auto first = std::find_if(touched.begin(), touched.begin() + static_cast<std::ptrdiff_t>(i),
                                    [&](const SweepHit& h) { return h.object == touched[i].object; });
    if (first != touched.begin() + static_cast<std::ptrdiff_t>(i)) continue;  // pushed once per tick
    // The body stood on is weighed on, not pushed.
    if (state.grounded && touched[i].object == state.ground_object) continue;
    const Pushable body = Pushable::of(touched[i].object);
    push_one(ctx, body, touched[i], intent.velocity, dt);
    follow(ctx.up, body, touched[i], intent.velocity, state.velocity);
  }
  if (state.grounded) weigh_on_ground(ctx, state, intent, dt);
}

}  // namespace stepslide
