// Collide and slide.
#include "stepslide/stages.h"

#include <algorithm>
#include <cmath>

#include "controller/internal.h"
#include "stepslide/pushable.h"

namespace stepslide {

using namespace detail;

btVector3 clip_walking_velocity(const btVector3& velocity, const SlidePlanes& walls, const btVector3& up) {
  const btVector3 clipped = constrain_to_planes(velocity, walls).direction;
  const double rise = clipped.dot(up);
  return rise > 0 ? clipped - up * rise : clipped;
}

namespace {

/// Below this (the cosine of the normal with up), a surface faces down: a
/// ceiling or the sloping underside of a walkway, about 6 degrees or more
/// past vertical.
constexpr double kCeilingCosine = -0.1;

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

/// The velocity after the planes a move has met: the input velocity solved
/// against all of them at once (constrain_to_planes), so a corner that
/// blocks the motion blocks the velocity too. Walking keeps its horizontal
/// velocity over walkable surfaces (ramps, step edges): only walls are in
/// `planes`, and the result is never turned upward (clip_walking_velocity).
/// In the air, landing on walkable ground stops the fall and keeps the
/// horizontal velocity (projecting it onto an upslope would launch the
/// character): the ground counts as a floor facing straight up. Any other
/// surface never turns the velocity upward (limit_rise): an edge met with
/// the round bottom slides the velocity along it, never up over it.
btVector3 clip_velocity(const CharacterContext& ctx, const btVector3& velocity, const SlidePlanes& planes,
                        const SlideOptions& options) {
  if (options.grounded || options.horizontal_only) return clip_walking_velocity(velocity, planes, ctx.up);
  return limit_rise(velocity, constrain_to_planes(velocity, planes), planes, ctx.up).direction;
}

/// The plane a hit adds to the velocity's planes, or zero when it adds none
/// (walking over a walkable surface).
btVector3 velocity_plane(const CharacterContext& ctx, bool walkable, const btVector3& plane,
                         const SlideOptions& options) {
  if (!walkable) return plane;
  return options.grounded || options.horizontal_only ? btVector3(0, 0, 0) : ctx.up;
}

/// Whether a hit is a riser worth a step-up. Not when the surface faces
/// down (the underside of a spiral stair's tread met with the head: nothing
/// to step onto, and each attempt costs four sweeps, tick after tick); not
/// when the planes already met keep the motion off it (a corner's other
/// wall: the step could make no progress); not twice in one move.
bool tries_step_up(const CharacterContext& ctx, const SweepHit& hit, const btVector3& wanted,
                   const SlidePlanes& planes, const SlidePlanes& refused) {
  if (!is_riser(ctx, hit.normal) || hit.normal.dot(ctx.up) < kCeilingCosine) return false;
  const btVector3 forward = horizontal_part(constrain_to_planes(wanted, planes).direction, ctx.up);
  const btVector3 inward = safe_normalized(horizontal_part(-hit.normal, ctx.up));
  if (forward.length() <= kMinMove || forward.dot(inward) <= kMinMove) return false;
  return !refused.contains(safe_normalized(horizontal_part(hit.normal, ctx.up)));
}

}  // namespace

bool detail::is_edge(const CharacterContext& ctx, const btVector3& point, const btVector3& normal) {
  const btVector3 into = safe_normalized(horizontal_part(-normal, ctx.up));
  const btVector3 at = point + into * kEdgeRayInset;
  const RayHit face =
      observed_ray(ctx, RayEvent::Purpose::Tread, at + ctx.up * kEdgeRayInset, at - ctx.up * kEdgeRayInset);
  return !face.hit || face.normal.dot(normal) < kSameFaceCosine;
}

SlideResult slide(const CharacterContext& ctx, const btVector3& position, const btVector3& motion,
                  const btVector3& velocity, const SlideOptions& options) {
  SlideResult r;
  r.position = position;
  r.velocity = velocity;
  btVector3 remaining = motion;
  // Every sweep uses up part of the tick; what is left of it, times the
  // motion asked for, is what the planes met so far are solved against.
  double time_left = 1.0;
  SlidePlanes planes;           // every plane the motion met this move
  SlidePlanes velocity_planes;  // the ones that clip the velocity
  SlidePlanes refused_risers;   // step-ups already refused this move
  if (!options.ground_normal.isZero()) planes.add(options.ground_normal);
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
    time_left *= 1.0 - hit.fraction;
    if (Pushable::of(hit.object)) r.touched.push_back(hit);
    const btVector3 wanted = motion * time_left;
    btVector3 plane = slide_plane(ctx, hit.normal, options);
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
    event.tries_step = options.allow_step_up && tries_step_up(ctx, hit, wanted, planes, refused_risers);
    const btVector3 forward = horizontal_part(constrain_to_planes(wanted, planes).direction, ctx.up);
    SlidePlanes with_hit = planes;
    with_hit.add(plane);
    PlaneSolution solved = constrain_to_planes(wanted, with_hit);
    // In the air the motion obeys the velocity's rule: a surface it cannot
    // stand on never lifts it, nor does walkable ground while rising (falling,
    // walkable ground is landed on and followed), nor an edge whose rounded
    // contact only looks walkable (the feet would roll up over the edge in
    // the air: a step the step rules never saw). The ray that tells an edge
    // from a face is cast only when following the hit would lift the motion.
    if (!options.grounded && !options.horizontal_only) {
      const bool limits = !walkable || wanted.dot(ctx.up) > 0.0 ||
                          (solved.direction.dot(ctx.up) > 0.0 && is_edge(ctx, hit.point, hit.normal));
      if (limits) solved = limit_rise(wanted, solved, with_hit, ctx.up);
    }
    event.slid_along = plane;
    event.stopped = solved.blocked;
    event.crease = solved.active == 2;
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
      refused_risers.add(safe_normalized(horizontal_part(hit.normal, ctx.up)));
      // Refused only because this tick's motion did not carry the shape far
      // enough over the edge: keep the speed, so the next tick tries again
      // with a full tick of motion instead of starting from rest (at high
      // tick rates it would never get over).
      keeps_velocity = step.rule == StepRule::NoHeightGained;
      r.retrying_step = r.retrying_step || keeps_velocity;
    }
    planes = with_hit;
    if (!keeps_velocity) {
      const btVector3 clips = velocity_plane(ctx, walkable, plane, options);
      if (!clips.isZero()) {
        velocity_planes.add(clips);
        r.velocity = clip_velocity(ctx, velocity, velocity_planes, options);
      }
    }
    if (solved.blocked) {
      // The planes together allow no motion toward the one asked for: the
      // move ends here, rather than trading tiny slides back and forth
      // between them until the iterations run out. When the velocity's own
      // planes already stop it (walls met head on, a corner) it says so;
      // when a surface it slides over took part (a ledge's edge, the floor
      // under a sloping underside), the move is blocked: the velocity
      // becomes what the tick moved (move_character).
      r.blocked = !r.velocity.fuzzyZero();
      return r;
    }
    remaining = solved.direction;
    // In the air, sliding along a surface that faces down (the rounded
    // underside of a box's edge) turns horizontal motion into falling: the
    // slide never falls faster than the motion it came from (which gravity
    // and terminal_velocity already bound). Scaled, not clipped, so it stays
    // along the surface.
    if (!options.grounded && !options.horizontal_only) {
      const double fall = -remaining.dot(ctx.up);
      const double allowed = std::max(0.0, -wanted.dot(ctx.up));
      if (fall > allowed) remaining *= allowed / fall;
    }
  }
  r.blocked = remaining.length2() >= kMinMove * kMinMove;
  return r;
}

}  // namespace stepslide
