// Private to the controller's implementation files: shared constants and
// small helpers. Not installed.
#pragma once

#include <btBulletCollisionCommon.h>

#include <cmath>
#include <vector>

#include "stepslide/math.h"
#include "stepslide/stages.h"

namespace stepslide {

/// Solves for a correction c with n_i·c >= depth_i for every contact: the
/// smallest such c when one exists (found exactly over active sets of up to
/// three contacts); otherwise, for contacts that oppose each other, the
/// balance point of simultaneous projection after `max_passes` passes.
/// Internal to depenetrate(); the unit tests call it too.
btVector3 solve_depenetration(const std::vector<btVector3>& normals, const std::vector<double>& depths,
                              int max_passes = 16);

}  // namespace stepslide

namespace stepslide::detail {

/// Motions shorter than this are finished: below GJK's resolution anyway.
constexpr double kMinMove = 1e-7;
/// Overlaps shallower than this are contact, not penetration: GJK reports
/// touching shapes a few nanometres either side of zero.
constexpr double kPenetrationTolerance = 1e-6;
/// Height a step must gain to count as one: well above the millimetre
/// Bullet's sweep may stop short, which a steep edge normal turns into a few
/// millimetres of apparent height.
constexpr double kMinStepGain = 5e-3;
/// Horizontal inset of the rays that look at the face beside an edge.
constexpr double kEdgeRayInset = 0.01;
/// Normals closer than this (about 0.8 degrees) are the same face's.
constexpr double kSameFaceCosine = 0.9999;
/// Walking sweeps skim this far above the ground, and the ground probe looks
/// from this high. Bullet's convex cast reports a hit as soon as the shapes
/// are within a millimetre, which on a plane made of many triangles (or boxes
/// side by side) turns every nearby internal edge into a tilted hit; 2 mm
/// clears that.
constexpr double kGroundClearance = 2e-3;
/// Least growth of the ground-contact probe shape over the character.
constexpr double kMinProbeInflation = 0.02;
/// Upward speed above which the character is leaving the ground.
constexpr double kLeavingGroundSpeed = 1e-6;

/// A body that moves on its own: kinematic (posed by the game) or dynamic
/// (moved by its physics). Static bodies are the level.
inline bool is_moving(const btCollisionObject* object) {
  return object != nullptr && (object->isKinematicObject() || !object->isStaticObject());
}

/// True when the surface just beyond `point` (a contact on a body, into it
/// across `up`) does not have `normal`: the contact is an edge's or a
/// corner's (GJK blends the faces there), not a face's like a ramp's. One
/// ray, beside the point.
bool is_edge(const CharacterContext& ctx, const btVector3& point, const btVector3& normal);

/// A blocking face steep enough to be a riser (not walkable) but not a ceiling.
inline bool is_riser(const CharacterContext& ctx, const btVector3& normal) {
  return !ctx.is_walkable(normal) && std::fabs(normal.dot(ctx.up)) < ctx.cos_max_slope;
}

/// How far a ball of `radius` may move down (along -`up`) before it touches
/// a straight line lying across `up` (a horizontal edge): the line is seen
/// from the ball's centre along -`normal` (unit, from the line toward the
/// centre), `gap` + `radius` away. Moving down by t keeps the centre's
/// horizontal offset h from the line and lowers its height v above it, so
/// it touches where h² + (v - t)² = radius²: t = v - sqrt(radius² - h²).
/// Infinity when the ball passes beside the line (h >= radius) or the line
/// is not below the centre (v <= 0); negative when already closer than
/// `radius`.
double drop_onto_edge(const btVector3& normal, double gap, double radius, const btVector3& up);

/// A ray, reported to the observer with its purpose.
RayHit observed_ray(const CharacterContext& ctx, RayEvent::Purpose purpose, const btVector3& from,
                    const btVector3& to);

/// A sweep of the real shape (ground probe) or the skin-grown one (steps),
/// from feet `from` to feet `to`, reported to the observer.
SweepHit observed_sweep(const CharacterContext& ctx, SweepEvent::Purpose purpose, const btVector3& from,
                        const btVector3& to);

}  // namespace stepslide::detail
