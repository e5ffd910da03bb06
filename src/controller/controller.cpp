// CharacterController: owns the shapes, the settings and the state, and runs
// the tick as the composition of the stages (stages.h), in order.
#include "stepslide/controller.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "controller/internal.h"
#include "stepslide/math.h"

namespace stepslide {

using namespace detail;

namespace {

bool same_clearance(const ClearanceRecord& a, const ClearanceRecord& b) {
  if (a.held != b.held) return false;
  if (!a.held) return true;
  if (!same_transform(a.pose, b.pose) || a.static_clearance != b.static_clearance ||
      a.object_count != b.object_count || a.moving.size() != b.moving.size())
    return false;
  for (std::size_t i = 0; i < a.moving.size(); ++i) {
    if (a.moving[i].first != b.moving[i].first || !same_transform(a.moving[i].second, b.moving[i].second)) return false;
  }
  return true;
}

}  // namespace

bool same_snapshot(const ControllerSnapshot& x, const ControllerSnapshot& y) {
  if (!same_clearance(x.clearance, y.clearance) || !same_shape(x.shape, y.shape)) return false;
  if (!same_vector(x.pushed, y.pushed) || !same_vector(x.body_before, y.body_before)) return false;
  const CharacterState& a = x.state;
  const CharacterState& b = y.state;
  return same_vector(a.position, b.position) && same_vector(a.velocity, b.velocity) && a.grounded == b.grounded &&
         same_vector(a.ground_normal, b.ground_normal) && a.ground_object == b.ground_object &&
         same_transform(a.ground_transform, b.ground_transform) && same_vector(a.carried_velocity, b.carried_velocity) &&
         a.ground_yaw_deg == b.ground_yaw_deg && a.camera_dy == b.camera_dy && a.jump_was_held == b.jump_was_held;
}

CharacterController::CharacterController(btCollisionWorld* world, const CharacterShapeDesc& shape,
                                         const ControllerSettings& settings, const btVector3& up,
                                         const btVector3& gravity)
    : world_(world), queries_(world, &object_), shape_desc_(shape), shape_(make_character_shape(shape, 0.0)), settings_(settings) {
  const Status valid = validate_settings(settings);
  if (!valid) throw std::invalid_argument("stepslide::CharacterController: " + valid.error());
  object_.setCollisionShape(shape_.get());
  ctx_.probe_object = &probe_object_;
  ctx_.queries = &queries_;
  ctx_.shape = shape_.get();
  ctx_.object = &object_;
  ctx_.feet_to_center = feet_to_center(shape);
  ctx_.horizontal_radius = horizontal_radius(shape);
  ctx_.up = up.normalized();
  ctx_.orientation = rotation_onto_up(ctx_.up);
  ctx_.gravity = gravity;
  ctx_.use_settings(&settings_);
  rebuild_skin_shapes();
}

CharacterController::~CharacterController() { remove_from_world(); }

btVector3 CharacterBody::velocity_at(const btVector3&) const { return owner_->state().velocity + pushed_; }

double CharacterBody::inverse_mass_along(const btVector3&, const btVector3& direction) const {
  const CharacterContext& ctx = owner_->context();
  return horizontal_part(direction, ctx.up).length2() / owner_->settings().mass;
}

void CharacterBody::apply_impulse(const btVector3& impulse, const btVector3&) {
  const CharacterContext& ctx = owner_->context();
  pushed_ += horizontal_part(impulse, ctx.up) / owner_->settings().mass;
}

void CharacterController::add_to_world() {
  if (in_world_) return;
  // Kinematic, so every query treats it as a moving body (ride, push-out,
  // the clearance proof); no contact response, so Bullet's dynamics never
  // solve a contact with it (dynamic bodies meet characters only through
  // the controller's pushes). In the kinematic group, whose mask leaves out
  // the static and kinematic bodies and the other characters: it pairs in
  // the broadphase with dynamic bodies only, while every query sees it.
  object_.setCollisionFlags(object_.getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT |
                            btCollisionObject::CF_NO_CONTACT_RESPONSE);
  object_.setActivationState(DISABLE_DEACTIVATION);
  in_world_ = true;
  place_body();
  world_->addCollisionObject(&object_, btBroadphaseProxy::KinematicFilter,
                             btBroadphaseProxy::AllFilter & ~(btBroadphaseProxy::StaticFilter |
                                                               btBroadphaseProxy::KinematicFilter));
  queries_.forget_clearance();
}

void CharacterController::remove_from_world() {
  if (!in_world_) return;
  world_->removeCollisionObject(&object_);
  in_world_ = false;
  queries_.forget_clearance();
}

void CharacterController::place_body() {
  if (!in_world_) return;
  object_.setInterpolationWorldTransform(ctx_.transform_at(body_before_));
  object_.setWorldTransform(ctx_.transform_at(state_.position));
  if (object_.getBroadphaseHandle() != nullptr) world_->updateSingleAabb(&object_);
}

Status CharacterController::set_settings(const ControllerSettings& settings) {
  const Status valid = validate_settings(settings);
  if (!valid) return valid;
  const bool skin_changed = settings.skin_width != settings_.skin_width;
  settings_ = settings;
  ctx_.use_settings(&settings_);
  if (skin_changed) rebuild_skin_shapes();
  return Status();
}

void CharacterController::rebuild_skin_shapes() {
  sweep_shape_ = make_character_shape(shape_desc_, settings_.skin_width);
  ctx_.sweep_shape = sweep_shape_.get();
  sweep_shape_->getAabb(btTransform(ctx_.orientation), ctx_.sweep_low, ctx_.sweep_high);
  // The ground probe must see gaps a little larger than the skin.
  ctx_.probe_inflation = std::max(kMinProbeInflation, 2 * settings_.skin_width);
  probe_shape_ = make_character_shape(shape_desc_, ctx_.probe_inflation);
  probe_object_.setCollisionShape(probe_shape_.get());
}

void CharacterController::reset(const btVector3& feet, const btVector3& velocity) {
  state_ = CharacterState{};
  state_.position = feet;
  state_.velocity = velocity;
  classify_ground(ctx_, state_);
  object_.pushed_.setZero();
  body_before_ = feet;
  place_body();
}

TickReport CharacterController::update(const CharacterInput& input, double dt) {
  TickReport report;
  if (in_world_) {
    // Other characters' pushes since the last update (CharacterBody), and
    // the body's pose a tick before.
    if (!object_.pushed_.isZero()) {
      state_.velocity += object_.pushed_;
      object_.pushed_.setZero();
    }
    body_before_ = state_.position;
  }
  queries_.begin_tick();
  ride_ground(ctx_, state_, dt);  // the world has already moved this tick

  const btVector3 carried = state_.position;
  const bool rising = !state_.grounded && state_.velocity.dot(ctx_.up) > kLeavingGroundSpeed;
  const DepenetrationResult freed = depenetrate(ctx_, state_.position, !state_.grounded, rising);
  state_.position = freed.position;
  report.depen_iters = freed.iterations;
  report.depenetration_converged = freed.converged;

  Intent intent = steer(ctx_, state_, input, dt);
  intent.may_step_up = (freed.position - carried).dot(ctx_.up) <= kGroundClearance;
  const WalkStart walk_start{state_.position, state_.ground_normal};
  intent.move_start = state_.position;
  intent.has_move_start = true;
  std::vector<SweepHit> touched;  // dynamic bodies run into; stays empty (no allocation) without any
  report.slide_iters = move_character(ctx_, state_, intent, dt, &touched);
  intent.met_surface = freed.iterations > 0 || report.slide_iters > 1;
  settle(ctx_, state_, intent);
  absorb_steps(ctx_, state_, intent, walk_start, dt, report);
  push_bodies(ctx_, state_, intent, touched, dt);
  report.sweeps = queries_.counts().sweeps;
  queries_.end_tick();
  if (in_world_) place_body();
  return report;
}

ControllerSnapshot CharacterController::save_state() const {
  return ControllerSnapshot{state_, queries_.clearance(&object_), shape_desc_, object_.pushed_, body_before_};
}

void CharacterController::restore_state(const ControllerSnapshot& snapshot) {
  if (!same_shape(snapshot.shape, shape_desc_)) adopt_shape(snapshot.shape, make_character_shape(snapshot.shape, 0.0));
  state_ = snapshot.state;
  object_.pushed_ = snapshot.pushed;
  body_before_ = snapshot.body_before;
  place_body();
  queries_.forget_clearance();
  queries_.restore_clearance(snapshot.clearance, &object_);
}

double CharacterController::penetration_depth() {
  object_.setWorldTransform(ctx_.transform_at(state_.position));
  return queries_.penetration_depth(&object_);
}

namespace {

/// Extent of the shape along its local Y (up), m.
double shape_height(const CharacterShapeDesc& shape) { return 2 * feet_to_center(shape); }

}  // namespace

bool same_shape(const CharacterShapeDesc& a, const CharacterShapeDesc& b) {
  return a.kind == b.kind && a.radius == b.radius && a.height == b.height && a.half_extents == b.half_extents;
}

ShapeChangeResult CharacterController::set_shape(const CharacterShapeDesc& shape, double max_penetration) {
  ShapeChangeResult result;
  if (same_shape(shape, shape_desc_)) return result;
  std::unique_ptr<btConvexShape> candidate = make_character_shape(shape, 0.0);
  fit_object_.setCollisionShape(candidate.get());
  fit_object_.setWorldTransform(btTransform(ctx_.basis(), state_.position + ctx_.up * feet_to_center(shape)));
  result.penetration = queries_.penetration_depth(&fit_object_);
  fit_object_.setCollisionShape(nullptr);
  result.changed = result.penetration <= max_penetration;
  if (ctx_.observer) {
    ctx_.observer->on_shape_change({result.changed, state_.position, result.penetration, max_penetration,
                                    shape_height(shape_desc_), shape_height(shape)});
  }
  if (!result.changed) {
    char reason[160];
    std::snprintf(reason, sizeof reason, "the new shape would overlap the world by %.6g m at the feet (at most %.6g m allowed)",
                  result.penetration, max_penetration);
    result.reason = reason;
    return result;
  }
  // The camera follows the stance as it follows a step: an eye placed from
  // the shape's top stays where it was and glides to the new height.
  state_.camera_dy += shape_height(shape_desc_) - shape_height(shape);
  adopt_shape(shape, std::move(candidate));
  queries_.forget_clearance();
  place_body();
  return result;
}

void CharacterController::adopt_shape(const CharacterShapeDesc& desc, std::unique_ptr<btConvexShape> shape) {
  shape_desc_ = desc;
  shape_ = std::move(shape);
  object_.setCollisionShape(shape_.get());
  ctx_.shape = shape_.get();
  ctx_.feet_to_center = feet_to_center(desc);
  ctx_.horizontal_radius = horizontal_radius(desc);
  rebuild_skin_shapes();
}

}  // namespace stepslide
