// A rigid body's own motion: its inertia, its world inverse inertia, and one
// step of semi-implicit Euler (velocities from gravity and damping, then the
// pose from the velocities, the orientation by a quaternion update). All of
// it is this build's arithmetic (no fused multiply-adds, docs/architecture.md),
// so it gives the same bits on every CPU.
#pragma once

#include <LinearMath/btMatrix3x3.h>
#include <LinearMath/btQuaternion.h>
#include <LinearMath/btTransform.h>
#include <LinearMath/btVector3.h>

namespace stepslide::dynamics {

/// The principal moments of inertia (kg·m²) of a solid box of `mass`
/// (kg) and `half_extents` (m) about its centre: m/3·(b² + c²) for each
/// axis, b and c the other two half extents.
btVector3 box_inertia(double mass, const btVector3& half_extents);

/// The same of a solid sphere of `radius`: 2/5·m·r² about every axis.
btVector3 sphere_inertia(double mass, double radius);

/// 1/x of each moment, 0 where a moment is 0 (a body that does not turn
/// about that axis).
btVector3 inverse_moments(const btVector3& moments);

/// The inverse inertia in the world frame of a body turned by `basis`
/// whose inverse principal moments (body frame) are `inverse_local`:
/// R·diag(inverse_local)·Rᵀ, in the order Bullet's btRigidBody writes it, so
/// x86-64 builds of Bullet and of this code give the same bits.
btMatrix3x3 world_inverse_inertia(const btMatrix3x3& basis, const btVector3& inverse_local);

/// What a step does to a body's velocities before its contacts are solved:
/// gravity (m/s²) for `dt` seconds, then the dampings (the fraction of
/// velocity lost per second) as v / (1 + dt·damping), which never reverses
/// a velocity and loses about `damping` of it over a second.
void integrate_velocity(btVector3& linear, btVector3& angular, const btVector3& gravity, double dt,
                        double linear_damping, double angular_damping);

/// The orientation `q` turned by `angular` (rad/s, world frame) for `dt`
/// seconds: q + dt/2·(ω, 0)·q, renormalised. A first-order update: a
/// body spinning at ω turns by ω·dt per step to within (ω·dt)²/2.
btQuaternion integrate_orientation(const btQuaternion& q, const btVector3& angular, double dt);

}  // namespace stepslide::dynamics
