// Stepping up: up, forward, down, and the rules that accept or refuse a step.
#include "stepslide/stages.h"

#include <algorithm>
#include <cmath>

#include "controller/internal.h"
#include "controller/step_up_rules.h"

namespace stepslide {

using namespace detail;

namespace {

/// A character resting against a wall is a skin away from it only to
/// within Bullet's cast tolerance (1 mm), and on a mesh the hit's normal may
/// be blended with an edge's, tilting the ray: without this margin the ray
/// passes a hair short of the wall the character rests against, and the
/// five sweeps of a doomed step-up follow, tick after tick (at rest in a
/// dense mesh's corner).
constexpr double kRiserReachTolerance = 2e-3;
/// How far above and below a contact the rays of touched_above_step look:
/// a contact on an edge has material on one side of it only.
constexpr double kRiserRayOffset = 1e-3;

/// True when the riser the sweep met still stands just above the highest
/// step allowed, where it was met: then any tread behind it is too high.
/// Independent of which point of the contact the sweep reported: on a face
/// the shape touches flush the contact is a segment, and the exact sweeps
/// report its lowest point (Bullet's GJK some higher one), so a rule that
/// reads the riser's height from the point changes its verdict with the
/// query (and a character at rest against a tall riser sweeps for nothing).
/// The ray looks as far as the face through the contact (plus the skin the
/// point may sit off it and the reach tolerance), no further: a riser
/// behind a shallow tread is the next step's, not this one's. Not the
/// shape's horizontal radius: a box character meets a riser at an angle
/// with a corner, further out than its inscribed circle.
bool riser_above_step(const CharacterContext& ctx, const btVector3& position, const btVector3& riser_point,
                      const btVector3& into_step) {
  const double face = (riser_point - position).dot(into_step);
  const double within = face + ctx.settings->skin_width + kRiserReachTolerance;
  if (within <= 0) return false;
  const btVector3 from = position + ctx.up * (ctx.settings->max_step_height + kMinStepGain + kRiserRayOffset);
  return observed_ray(ctx, RayEvent::Purpose::RiserHeight, from, from + into_step * within).hit;
}

/// True when the obstacle was touched higher than a step above the feet and
/// stands within reach there: the raised shape would meet it too. The eye
/// ray and riser_above_step miss what lies wholly above them (the low edge
/// of a sloping underside at 1.1 m); rays just above and below the
/// contact's height see it (the second only when the first misses). Without
/// it, each refused attempt costs five sweeps, tick after tick, in a wedge
/// under a stair. On a flush contact every point of the contact
/// segment lies on the face met, so these rays see it from any point above
/// the step; when the point reported lies lower, the face above it is
/// riser_above_step's to see.
bool touched_above_step(const CharacterContext& ctx, const btVector3& position, const btVector3& riser_point,
                        const btVector3& into_step, double reach) {
  const double height = (riser_point - position).dot(ctx.up);
  if (height <= ctx.settings->max_step_height + kMinStepGain) return false;
  for (const double offset : {kRiserRayOffset, -kRiserRayOffset}) {
    const btVector3 from = position + ctx.up * (height + offset);
    if (observed_ray(ctx, RayEvent::Purpose::RiserHeight, from, from + into_step * reach).hit) return true;
  }
  return false;
}

}  // namespace

namespace detail {

bool step_up_refused_early(const CharacterContext& ctx, const btVector3& position,
                           const btVector3& horizontal_motion, const btVector3& riser_normal,
                           const btVector3& riser_point) {
  const ControllerSettings& s = *ctx.settings;
  const btVector3 into_step = safe_normalized(horizontal_part(-riser_normal, ctx.up));
  // The swept shape is grown by the skin: it would meet anything within its
  // radius plus the skin plus the forward motion.
  const double reach = ctx.horizontal_radius + s.skin_width + kRiserReachTolerance +
                       std::max(0.0, horizontal_motion.dot(into_step));
  // If the obstacle still stands ahead at the height the raised shape would
  // be widest, the raised shape cannot move forward over it either.
  const btVector3 eye = position + ctx.up * (s.max_step_height + std::min(ctx.horizontal_radius, ctx.feet_to_center));
  return observed_ray(ctx, RayEvent::Purpose::RiserHeight, eye, eye + into_step * reach).hit ||
         riser_above_step(ctx, position, riser_point, into_step) ||
         touched_above_step(ctx, position, riser_point, into_step, reach);
}

StepUpResult attempt_step_up(const CharacterContext& ctx, const btVector3& position,
                             const btVector3& horizontal_motion, const btVector3& riser_normal,
                             const btVector3& riser_point, bool early_out) {
  const ControllerSettings& s = *ctx.settings;
  StepUpResult result;
  if (!is_riser(ctx, riser_normal)) {
    result.rule = StepRule::RiserNotSteep;
    return result;
  }
  if (horizontal_part(horizontal_motion, ctx.up).length() <= kMinMove) {
    result.rule = StepRule::NotMovingHorizontally;
    return result;
  }
  // Cheap early out before three sweeps (step_up_refused_early).
  if (early_out && step_up_refused_early(ctx, position, horizontal_motion, riser_normal, riser_point)) {
    result.rule = StepRule::RiserTooTall;
    return result;
  }
  const btVector3 into_step = safe_normalized(horizontal_part(-riser_normal, ctx.up));
  const int iterations = std::max(1, s.step_up_slide_iterations);

  // Up, sliding along sloped ceilings.
  SlideOptions up_options;
  up_options.max_iterations = iterations;
  up_options.purpose = SweepEvent::Purpose::StepUp;
  const SlideResult raised = slide(ctx, position, ctx.up * s.max_step_height, btVector3(0, 0, 0), up_options);
  const double raised_by = (raised.position - position).dot(ctx.up);
  if (raised_by <= kMinStepGain) {
    result.rule = StepRule::BlockedByCeiling;
    return result;
  }

  // Forward by the rest of the horizontal motion, sliding along walls.
  SlideOptions forward_options;
  forward_options.max_iterations = iterations;
  forward_options.horizontal_only = true;  // never ride up an edge: that would step higher than allowed
  forward_options.purpose = SweepEvent::Purpose::StepForward;
  const SlideResult moved = slide(ctx, raised.position, horizontal_motion, btVector3(0, 0, 0), forward_options);

  // Down by no more than the height gained.
  const btVector3 top = moved.position;
  const SweepHit down = observed_sweep(ctx, SweepEvent::Purpose::StepDown, top, top - ctx.up * raised_by);
  if (!down.hit) {
    result.rule = StepRule::NoLanding;
    return result;
  }
  const btVector3 landing = top - ctx.up * (raised_by * down.fraction);
  // The raised shape must have got over the edge. When the forward move made
  // no progress toward the step, the down sweep only comes to rest on the
  // riser's edge beside the start (a rounded shape overlaps it horizontally)
  // and the "height gained" is that edge's, not a tread's: the ground snap
  // would drop the feet back where they started, tick after tick. Blocked by
  // a ceiling, the rule names it.
  if ((landing - position).dot(into_step) <= kMinMove) {
    result.rule = moved.hit_ceiling ? StepRule::NoHeadroom : StepRule::NoRoomToStand;
    return result;
  }
  const double gained = (landing - position).dot(ctx.up);
  if (gained <= kMinStepGain) {
    result.rule = StepRule::NoHeightGained;
    return result;
  }
  if (gained > s.max_step_height + kMinStepGain) {
    result.rule = StepRule::RiserTooTall;
    return result;
  }

  // The sweep's normal at a step's edge is the edge's, not the tread's: look
  // at the tread itself with a ray just past the edge, into the step.
  const double probe = s.max_step_height;
  const btVector3 tread_at = down.point + into_step * kEdgeRayInset;
  const RayHit tread = observed_ray(ctx, RayEvent::Purpose::Tread, tread_at + ctx.up * probe, tread_at - ctx.up * probe);
  if (!tread.hit) {
    result.rule = StepRule::NoRoomToStand;
    return result;
  }
  if (!ctx.is_walkable(tread.normal)) {
    result.rule = StepRule::LandingTooSteep;
    return result;
  }
  // A rounded shape can come to rest perched on the edge of a riser taller
  // than the step height; what counts is the tread's height above the feet.
  const double tread_height = tread.point.dot(ctx.up);
  if (tread_height - position.dot(ctx.up) > s.max_step_height + kMinStepGain) {
    result.rule = StepRule::RiserTooTall;
    return result;
  }
  // Headroom: standing on the tread, the character reaches as high as the
  // up sweep had to go to clear it. A ceiling that stopped the up sweep below
  // that leaves no room (the landing would wedge the shape under it).
  if (tread_height - position.dot(ctx.up) > raised_by + kMinStepGain) {
    result.rule = StepRule::NoHeadroom;
    return result;
  }
  // Room to stand: the tread (or a higher one) must continue min_step_depth
  // beyond the riser.
  const btVector3 depth_at = riser_point + into_step * s.min_step_depth;
  const btVector3 depth_from = depth_at + ctx.up * (tread_height + probe - depth_at.dot(ctx.up));
  const RayHit far =
      observed_ray(ctx, RayEvent::Purpose::RoomToStand, depth_from, depth_from - ctx.up * (2 * probe));
  if (!far.hit || !ctx.is_walkable(far.normal) || far.point.dot(ctx.up) < tread_height - kMinStepGain - 1e-3) {
    result.rule = StepRule::NoRoomToStand;
    return result;
  }

  // Headroom over the tread: standing there, the character reaches its full
  // height above it. Without it the step would leave the shape perched on
  // the edge, wedged under the ceiling (it stops at the riser instead).
  const double stand_height = 2 * ctx.feet_to_center + s.skin_width;
  const btVector3 head_from = far.point + ctx.up * kEdgeRayInset;
  if (observed_ray(ctx, RayEvent::Purpose::Headroom, head_from, far.point + ctx.up * stand_height).hit) {
    result.rule = StepRule::NoHeadroom;
    return result;
  }

  result.rule = StepRule::Accepted;
  result.position = landing;  // the ground snap settles it exactly onto the tread
  result.height = tread_height - position.dot(ctx.up);
  return result;
}

}  // namespace detail

StepRule edge_headroom(const CharacterContext& ctx, const btVector3& position, const btVector3& edge_normal,
                       double height) {
  const SweepHit up = observed_sweep(ctx, SweepEvent::Purpose::StepUp, position, position + ctx.up * height);
  const StepRule rule = up.hit ? StepRule::NoHeadroom : StepRule::Accepted;
  if (ctx.observer != nullptr) {
    ctx.observer->on_step_attempt({position, btVector3(0, 0, 0), edge_normal, rule, rule == StepRule::Accepted ? height : 0.0});
  }
  return rule;
}

StepUpResult step_up(const CharacterContext& ctx, const btVector3& position, const btVector3& horizontal_motion,
                     const btVector3& riser_normal, const btVector3& riser_point) {
  const StepUpResult result = attempt_step_up(ctx, position, horizontal_motion, riser_normal, riser_point, true);
  if (ctx.observer != nullptr) {
    ctx.observer->on_step_attempt({position, horizontal_motion, riser_normal, result.rule, result.height});
  }
  return result;
}

}  // namespace stepslide
