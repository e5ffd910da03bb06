// What the character does to the dynamic bodies around it: pushes the ones it
// walks into, weighs on the one it stands on, and hits the one it lands on,
// each by an impulse bounded by the character's mass (and, for pushes, by
// max_push_strength). Bodies act on the character only by moving: it is
// kinematic, so they carry it (riding) and push it out of their way
// (depenetration), never by impulses.
//
// A Pushable is anything that takes such impulses: a Bullet btRigidBody with
// a finite mass (inverse mass > 0), or a PushableObject, a collision object
// that answers for itself (another character's body in the world,
// CharacterController::add_to_world). The math below only needs what a
// Pushable answers, so both take the same pushes.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <LinearMath/btVector3.h>

class btRigidBody;

namespace stepslide {

/// A collision object that takes pushes itself, not through Bullet's
/// dynamics: what a character is to the other characters in its world
/// (CharacterBody, controller.h). A game may derive its own. Its answers
/// must depend only on its state between updates, never on the order in
/// which it is asked.
class PushableObject : public btCollisionObject {
 public:
  /// Marks the object as a PushableObject (Bullet's CO_USER_TYPE).
  PushableObject();
  ~PushableObject() override;
  /// As Pushable's: the object's velocity at world `point`, the inverse
  /// mass it shows a push along unit `direction` there, and an impulse
  /// (N·s, world frame) given to it at `point`.
  virtual btVector3 velocity_at(const btVector3& point) const = 0;
  virtual double inverse_mass_along(const btVector3& point, const btVector3& direction) const = 0;
  virtual void apply_impulse(const btVector3& impulse, const btVector3& point) = 0;
};

class Pushable {
 public:
  Pushable() = default;
  /// The pushable behind `object`: a btRigidBody whose inverse mass is > 0
  /// (static and kinematic rigid bodies, and plain collision objects, are
  /// not), or a PushableObject.
  static Pushable of(const btCollisionObject* object);

  explicit operator bool() const { return body_ != nullptr || other_ != nullptr; }
  const btCollisionObject* object() const;

  /// Velocity of the body's material point at world `point`.
  btVector3 velocity_at(const btVector3& point) const;
  /// The body's speed at `point`, as velocity_at, without direction.
  double speed_at(const btVector3& point) const { return velocity_at(point).length(); }
  /// How much the body's point at `point` speeds up along `direction` (unit)
  /// per unit of impulse along it: 1/m plus the turning part
  /// ((r × d)·I⁻¹(r × d)), with r from the centre of mass to `point`.
  double inverse_mass_along(const btVector3& point, const btVector3& direction) const;
  /// Applies `impulse` (N·s, world frame) at world `point`, waking the body.
  void apply_impulse(const btVector3& impulse, const btVector3& point) const;

 private:
  explicit Pushable(btRigidBody* body) : body_(body) {}
  explicit Pushable(PushableObject* other) : other_(other) {}
  btRigidBody* body_ = nullptr;
  PushableObject* other_ = nullptr;  ///< set instead of body_
};

/// The size of the impulse the character gives a body it moves into at
/// `approach_speed` (its velocity relative to the body's point, into the
/// body, m/s; nothing when <= 0). Three bounds, the least wins: the
/// character's momentum (mass·approach), its strength over the tick
/// (max_strength·dt: a body that needs more to move does not move), and
/// what brings the body's point up to the character's speed along the push
/// (approach / inverse_mass_along: a push never throws a body away faster
/// than the character walks). N·s.
double push_impulse(double character_mass, double max_strength, double dt, double approach_speed,
                    double inverse_mass_along);

/// The impulse standing on a body gives it over one tick: the character's
/// weight, mass·gravity·dt (gravity in m/s², world frame), shared between the
/// character and the body's point under it as if they moved together: times
/// 1 / (1 + mass·inverse_mass_along), with the body's inverse mass along
/// gravity at the feet. The character is kinematic and does not fall with a
/// tipping seesaw; its full weight on the free end of a light plank would
/// spin it up as if the character had no inertia of its own. On a body much
/// heavier than the character it is the whole weight. N·s.
btVector3 weight_impulse(double character_mass, const btVector3& gravity, double dt, double inverse_mass_along);

/// The size of the impulse a landing gives the body landed on, at
/// `impact_speed` into it (relative, m/s; nothing when <= 0): the
/// character's momentum along the normal, never more than stops the body's
/// point moving away slower than the character came (as push_impulse
/// without the strength bound). N·s.
double landing_impulse(double character_mass, double impact_speed, double inverse_mass_along);

/// What a ridden dynamic body hands the character when it leaves: the
/// velocity the carry gave the feet, never faster than `body_speed` (the
/// body's own speed where the character stands). A tumbling body's carry
/// can swing the feet, above its surface, faster than any point of the body
/// moves; the character is never thrown faster than the body moves.
btVector3 clamp_handover(const btVector3& carried_velocity, double body_speed);

}  // namespace stepslide
