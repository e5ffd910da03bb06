// The move of a tick: walking along the ground plane, or flying.
#include "stepslide/stages.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "controller/internal.h"

namespace stepslide {

using namespace detail;

btVector3 ground_motion(const CharacterContext& ctx, const CharacterState& state, const btVector3& horizontal,
                        double dt) {
  const btVector3 step = horizontal * dt;
  const btVector3& n = state.ground_normal;
  const double n_up = n.dot(ctx.up);
  if (n_up <= 1e-6) return step;
  // Lift the motion onto the ground plane.
  const btVector3 on_plane = step - ctx.up * (n.dot(step) / n_up);
  if (ctx.settings->constant_horizontal_speed) return on_plane;
  return safe_normalized(on_plane) * step.length();
}

namespace {

/// Whether the ground check's first overlap query, asked here ahead of it,
/// proves that the shape at `end` overlaps nothing by more than `allowed`:
/// then the end-of-move check needs no query of its own, and the ground
/// check finds this one in the contact memo (the same object, pose and
/// threshold: probe_ground_from looks from the feet raised by
/// kGroundClearance). Only for a capsule or sphere, whose probe is the shape
/// grown by a ball of radius probe_inflation: the shape at `end` grown by
/// probe_inflation - kGroundClearance lies inside the probe raised by
/// kGroundClearance, so each body overlaps the shape at least that much less
/// deeply than it overlaps the probe, and one the probe does not overlap is
/// clear of it.
bool clear_by_ground_contacts(const CharacterContext& ctx, const btVector3& end, double allowed) {
  const int shape = ctx.shape->getShapeType();
  if (shape != CAPSULE_SHAPE_PROXYTYPE && shape != SPHERE_SHAPE_PROXYTYPE) return false;
  const double margin = ctx.probe_inflation - kGroundClearance;
  if (margin <= 0.0) return false;
  std::vector<Contact> contacts;
  ctx.probe_object->setWorldTransform(ctx.transform_at(end + ctx.up * kGroundClearance));
  ctx.queries->remember_next_query(ctx.probe_object);
  ctx.queries->contacts(ctx.probe_object, 0.0, contacts);
  return std::all_of(contacts.begin(), contacts.end(),
                     [&](const Contact& c) { return -c.distance - margin <= allowed; });
}

/// Bullet's convex cast reports no hit on a triangle the shape starts within
/// a millimetre of when the closest-point normal there is tangent to the
/// motion: a flat-bottomed box resting on a ridge of a mesh or heightfield
/// slides along the ridge's normal and passes into the next triangle's face,
/// which shares the ridge. Every sweep after a hit starts that close, so a
/// slide that hit something is checked at its end: overlapping the world by
/// more than half the skin, it is pushed out; when that fails, the move is
/// undone (the start was clear).
///
/// Moving bodies count as much as the level: the sweeps met them where they
/// are this tick, so an overlap at the end is the move's, not the body's
/// (with a thin skin a slide could end inside a descending box's underside,
/// and pushing out of a heightfield beside a box could push the feet into
/// it). A character already overlapping a moving body at the
/// start (pinned: depenetration could not clear it) is only kept out of
/// the level, as before: undoing every move would freeze it in place.
btVector3 clear_end_of_move(const CharacterContext& ctx, const btVector3& start, const btVector3& end,
                            bool walking, bool may_rise) {
  const double allowed = 0.5 * ctx.settings->skin_width;
  if (walking && clear_by_ground_contacts(ctx, end, allowed)) return end;
  const Penetration at_end = penetration_at(ctx, end);
  if (at_end.level <= allowed && at_end.moving <= allowed) return end;
  const bool pinned = at_end.moving > allowed && penetration_at(ctx, start).moving > allowed;
  if (pinned && at_end.level <= allowed) return end;
  const DepenetrationResult freed =
      pinned ? depenetrate_level(ctx, end, !walking) : depenetrate_move_end(ctx, end, !walking);
  if (!freed.converged) return start;
  // In the air and not rising, clearing a static overlap never lifts the feet
  // above where the tick started: pushed out along a steep face's normal by
  // the skin every tick, a character pressed into the face would creep up it.
  if (!may_rise && at_end.moving <= allowed && (freed.position - start).dot(ctx.up) > 0) return start;
  return freed.position;
}

/// Bullet's convex cast reports a hit once the shapes are within 1 mm, and
/// misses grazing contacts inside that: a skin under twice that cannot be
/// kept by the sweeps alone, so every move is checked at its end.
constexpr double kThinSkin = 2e-3;

/// Boxes and cylinders have a flat bottom: standing on a mesh or
/// heightfield it is always within a millimetre of the triangles under it,
/// and GJK's normal there is the bottom face's, tangent to a walking motion,
/// so even the first sweep of a tick can pass into a rising triangle. Their
/// moves are always checked at the end (one overlap query per tick).
bool has_flat_bottom(const CharacterContext& ctx) {
  const int type = ctx.shape->getShapeType();
  return type == BOX_SHAPE_PROXYTYPE || type == CYLINDER_SHAPE_PROXYTYPE;
}

}  // namespace

int move_character(const CharacterContext& ctx, CharacterState& state, const Intent& intent, double dt,
                   std::vector<SweepHit>* touched) {
  SlideOptions options;
  options.max_iterations = ctx.settings->max_slide_iterations;
  SlideResult moved;
  if (intent.airborne) {
    moved = slide(ctx, state.position, intent.velocity * dt, intent.velocity, options);
  } else {
    options.grounded = true;
    options.allow_step_up = intent.may_step_up;
    if (ctx.is_walkable(state.ground_normal)) options.ground_normal = state.ground_normal;
    moved = slide(ctx, state.position, ground_motion(ctx, state, intent.horizontal, dt), intent.horizontal, options);
  }
  if (touched != nullptr) *touched = std::move(moved.touched);
  const btVector3 start = state.position;
  const bool check_end = moved.iterations > 1 || has_flat_bottom(ctx) || ctx.settings->skin_width < kThinSkin;
  state.position = check_end ? clear_end_of_move(ctx, start, moved.position, !intent.airborne,
                                                    !intent.airborne || intent.velocity.dot(ctx.up) > 0) : moved.position;
  btVector3 velocity = moved.velocity;
  // Blocked means blocked: walking, when the slide could not use all of its
  // motion (a remainder was left, or the move was undone), the horizontal
  // velocity is what the collisions allowed, the distance moved over the
  // tick, as Jolt's character reports it; not the speed the input asked for.
  // Except while a step-up is retried for want of motion (see slide).
  const bool undone = moved.position != state.position && state.position == start;
  if (!intent.airborne && ((moved.blocked && !moved.retrying_step) || undone)) {
    // Below kMinMove it is rounding: standing still reports exactly zero.
    btVector3 moved_by = horizontal_part(state.position - start, ctx.up);
    if (moved_by.length2() < kMinMove * kMinMove) moved_by.setZero();
    velocity = moved_by / dt + ctx.up * velocity.dot(ctx.up);
  }
  // Clipping against a downward-facing surface (the rounded underside of a
  // box) turns horizontal speed into falling speed: never past the limit.
  state.velocity = limit_fall_speed(velocity, ctx.gravity, ctx.settings->terminal_velocity);
  return moved.iterations;
}

}  // namespace stepslide
