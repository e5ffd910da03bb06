// Collide and slide.
#include "stepslide/stages.h"

#include <algorithm>
#include <cmath>

#include "internal.h"

namespace stepslide {

using namespace detail;

namespace {

/// Relative tolerance of the crease test: sliding along the new plane counts
/// as pushing back into the previous one only when it does so by more than
/// this fraction of the motion. Two walls at right angles give a dot product
/// of a few 1e-17 of either sign, and Bullet's normals differ in the last bit
/// between CPUs (fused multiply-adds on arm64), so an exact test against zero
/// flips between sliding and following the crease. Either choice moves the
/// feet by at most this fraction of the motion divided by the sine of the
/// angle between the planes: far below the gate's tolerances.
constexpr double kCreaseTolerance = 1e-9;

}  // namespace

bool pushes_into(const btVector3& remainder, const btVector3& normal, const btVector3& previous_normal) {
  if (previous_normal.isZero()) return false;
  const btVector3 along_plane = remainder - normal * remainder.dot(normal);
  return along_plane.dot(previous_normal) < -kCreaseTolerance * remainder.length();
}

btVector3 slide_direction(const btVector3& remainder, const btVector3& normal, const btVector3& previous_normal) {
  const btVector3 along_plane = remainder - normal * remainder.dot(normal);
  if (!pushes_into(remainder, normal, previous_normal)) return along_plane;
  // The planes form an acute corner: sliding along the new one would push back
  // into the old one, so follow the line where they meet.
  const btVector3 crease = safe_normalized(normal.cross(previous_normal));
  return crease * remainder.dot(crease);
}

btVector3 clip_walking_velocity(const btVector3& velocity, const btVector3& plane, const btVector3& previous_wall,
                                const btVector3& up) {
  if (velocity.dot(plane) >= 0) return velocity;
  const btVector3 clipped = slide_direction(velocity, plane, previous_wall);
  const double rise = clipped.dot(up);
  return rise > 0 ? clipped - up * rise : clipped;
}

namespace {

/// Below this (the cosine of the normal with up), a surface faces down: a
/// ceiling or the sloping underside of a walkway, about 6 degrees or more
/// past vertical.
constexpr double kCeilingCosine = -0.1;
/// Normals closer than this (about 0.8 degrees) are the same face's.
constexpr double kSameFaceCosine = 0.9999;

/// The plane a hit makes the remainder slide along. Walking into something
/// too steep to stand on, it is treated as a vertical wall, so sliding never
/// carries the character up a steep incline. A surface facing down (a
/// sloping underside) is slid along as it is: flattened, it would be a wall
/// standing across the crease it makes with the ground, and every iteration
/// would stop at it although the crease is open in the direction of the input.
btVector3 slide_plane(const CharacterContext& ctx, const btVector3& hit_normal, const SlideOptions& options) {
  const bool steep_up = !ctx.is_walkable(hit_normal) && hit_normal.dot(ctx.up) >= kCeilingCosine;
  const bool flatten = options.horizontal_only || (options.grounded && steep_up);
  if (!flatten) return hit_normal;
  const btVector3 flat = safe_normalized(horizontal_part(hit_normal, ctx.up));
  return flat.isZero() ? hit_normal : flat;
}

/// The velocity after a hit. Walking keeps its horizontal velocity over
/// walkable surfaces (ramps, step edges); only walls take away the part that
/// runs into them, creasing only with an earlier wall (`previous_wall`) and
/// never turned upward (clip_walking_velocity). Landing on walkable ground
/// stops the fall and keeps the horizontal velocity: projecting it onto an
/// upslope would launch the character.
btVector3 clip_velocity(const CharacterContext& ctx, const btVector3& velocity, bool walkable,
                        const btVector3& plane, const btVector3& previous_plane, const btVector3& previous_wall,
                        const SlideOptions& options) {
  const bool walking = options.grounded || options.horizontal_only;
  if (walkable) {
    if (walking) return velocity;
    const double down = velocity.dot(ctx.up);
    return down < 0 ? velocity - ctx.up * down : velocity;
  }
  if (walking) return clip_walking_velocity(velocity, plane, previous_wall, ctx.up);
  if (velocity.dot(plane) >= 0) return velocity;
  return slide_direction(velocity, plane, previous_plane);
}

/// True when the surface just beyond `point` (a sweep's contact, into the
/// obstacle) does not have the hit's normal: the hit is an edge's or a
/// corner's (GJK blends the faces there), not a face's like a ramp's.
bool is_edge(const CharacterContext& ctx, const btVector3& point, const btVector3& normal) {
  const btVector3 into = safe_normalized(horizontal_part(-normal, ctx.up));
  const btVector3 at = point + into * kEdgeRayInset;
  const RayHit face =
      observed_ray(ctx, RayEvent::Purpose::Tread, at + ctx.up * kEdgeRayInset, at - ctx.up * kEdgeRayInset);
  return !face.hit || face.normal.dot(normal) < kSameFaceCosine;
}

}  // namespace

SlideResult slide(const CharacterContext& ctx, const btVector3& position, const btVector3& motion,
                  const btVector3& velocity, const SlideOptions& options) {
  SlideResult r;
  r.position = position;
  r.velocity = velocity;
  btVector3 remaining = motion;
  btVector3 previous_plane(0, 0, 0);
  btVector3 previous_wall(0, 0, 0);  // the last plane that clipped the velocity
  bool on_crease = false;
  for (int i = 0; i < options.max_iterations; ++i) {
    if (remaining.length2() < kMinMove * kMinMove) break;
    ++r.iterations;
    const SweepHit hit = ctx.queries->sweep(ctx.sweep_shape, ctx.sweep_transform_at(r.position),
                                            ctx.sweep_transform_at(r.position + remaining).getOrigin());
    SweepEvent event;
    event.purpose = options.purpose;
    event.from = r.position;
    event.to = r.position + remaining;
    event.hit = hit;
    if (!hit.hit) {
      if (ctx.observer != nullptr) ctx.observer->on_sweep(event);
      r.position += remaining;
      remaining.setZero();
      break;
    }
    // The swept shape is the character grown by the skin (its bottom kept at
    // the feet): where it touches a wall the character is a skin away along
    // the wall's normal, however glancing the approach, and it can never creep
    // into that gap.
    r.position += remaining * hit.fraction;
    const btVector3 left = remaining * (1.0 - hit.fraction);
    btVector3 plane = slide_plane(ctx, hit.normal, options);
    const btVector3 forward = horizontal_part(left, ctx.up);
    event.tries_step = options.allow_step_up && is_riser(ctx, hit.normal) && forward.length() > kMinMove;
    // Rolling over an edge (a walkable hit above the feet while walking)
    // lifts the feet onto what the edge belongs to: only where there is
    // headroom to stand on it. Under a low ceiling the edge is a riser the
    // character stops at, not a ramp that wedges it under the ceiling.
    bool walkable = ctx.is_walkable(hit.normal);
    const double edge_height = (hit.point - r.position).dot(ctx.up);
    const bool rolls_over_edge = options.allow_step_up && walkable && edge_height > kGroundClearance &&
                                 is_edge(ctx, hit.point, hit.normal);
    if (rolls_over_edge && edge_headroom(ctx, r.position, hit.normal, edge_height) == StepRule::NoHeadroom) {
      const btVector3 flat = safe_normalized(horizontal_part(hit.normal, ctx.up));
      if (!flat.isZero()) {
        plane = flat;
        walkable = false;
      }
    }
    event.slid_along = plane;
    event.stopped = on_crease;  // already following a crease, and a third plane blocks it
    event.crease = !on_crease && pushes_into(left, plane, previous_plane);
    if (ctx.observer != nullptr) ctx.observer->on_sweep(event);
    if (hit.normal.dot(ctx.up) < -1e-6) r.hit_ceiling = true;

    bool keeps_velocity = false;
    if (event.tries_step) {
      const StepUpResult step = step_up(ctx, r.position, forward, hit.normal, hit.point);
      if (step.rule == StepRule::Accepted) {
        r.stepped = true;
        r.position = step.position;
        remaining.setZero();
        break;
      }
      // Refused only because this tick's motion did not carry the shape far
      // enough over the edge: keep the speed, so the next tick tries again
      // with a full tick of motion instead of starting from rest (at high
      // tick rates it would never get over).
      keeps_velocity = step.rule == StepRule::NoHeightGained;
      r.retrying_step = r.retrying_step || keeps_velocity;
    }
    if (event.stopped) {
      remaining.setZero();
      r.velocity.setZero();
      break;
    }
    remaining = slide_direction(left, plane, previous_plane);
    // In the air, sliding along a surface that faces down (the rounded
    // underside of a box's edge) turns horizontal motion into falling: the
    // slide never falls faster than the motion it came from (which gravity
    // and terminal_velocity already bound). Scaled, not clipped, so it stays
    // along the surface.
    if (!options.grounded && !options.horizontal_only) {
      const double fall = -remaining.dot(ctx.up);
      const double allowed = std::max(0.0, -left.dot(ctx.up));
      if (fall > allowed) remaining *= allowed / fall;
    }
    on_crease = event.crease;
    if (!keeps_velocity) {
      r.velocity = clip_velocity(ctx, r.velocity, walkable, plane, previous_plane, previous_wall, options);
    }
    previous_plane = plane;
    if (!walkable) previous_wall = plane;
  }
  r.blocked = remaining.length2() >= kMinMove * kMinMove;
  return r;
}

}  // namespace stepslide
