// The controller: its context, the tick that composes the stages, the
// camera, and riding the ground. The stages live in depenetration.cpp,
// velocity.cpp, slide.cpp, step_up.cpp and ground.cpp.
#include "stepslide/controller.h"

#include <algorithm>
#include <cmath>

#include "internal.h"

namespace stepslide {

using namespace detail;

namespace {

/// The character's shape, grown by `inflation` on every side.
std::unique_ptr<btConvexShape> make_character_shape(const CharacterShapeDesc& desc, double inflation) {
  const double r = desc.radius + inflation;
  switch (desc.kind) {
    case CharacterShapeDesc::Kind::Capsule:
      return std::make_unique<btCapsuleShape>(r, desc.height - 2 * desc.radius);
    case CharacterShapeDesc::Kind::Sphere:
      return std::make_unique<btSphereShape>(r);
    case CharacterShapeDesc::Kind::Cylinder: {
      auto cylinder = std::make_unique<btCylinderShape>(btVector3(r, 0.5 * desc.height + inflation, r));
      cylinder->setMargin(std::min(0.001, 0.25 * desc.radius));
      return cylinder;
    }
    case CharacterShapeDesc::Kind::Box: {
      auto box = std::make_unique<btBoxShape>(desc.half_extents + btVector3(inflation, inflation, inflation));
      box->setMargin(std::min(0.001, 0.5 * desc.half_extents.minAxis()));
      return box;
    }
  }
  return nullptr;
}

}  // namespace

const char* step_rule_name(StepRule rule) {
  switch (rule) {
    case StepRule::Accepted: return "accepted";
    case StepRule::NotGrounded: return "not grounded";
    case StepRule::NotMovingHorizontally: return "not moving horizontally";
    case StepRule::RiserNotSteep: return "riser not steep enough";
    case StepRule::BlockedByCeiling: return "blocked by ceiling";
    case StepRule::NoLanding: return "no landing";
    case StepRule::LandingTooSteep: return "landing too steep";
    case StepRule::NoRoomToStand: return "no room to stand";
    case StepRule::NoHeightGained: return "no height gained";
    case StepRule::RiserTooTall: return "riser taller than max_step_height";
  }
  return "?";
}

double feet_to_center(const CharacterShapeDesc& shape) {
  switch (shape.kind) {
    case CharacterShapeDesc::Kind::Capsule: return 0.5 * shape.height;
    case CharacterShapeDesc::Kind::Sphere: return shape.radius;
    case CharacterShapeDesc::Kind::Cylinder: return 0.5 * shape.height;
    case CharacterShapeDesc::Kind::Box: return shape.half_extents.y();
  }
  return 0.0;
}

double horizontal_radius(const CharacterShapeDesc& shape) {
  if (shape.kind == CharacterShapeDesc::Kind::Box) return std::min(shape.half_extents.x(), shape.half_extents.z());
  return shape.radius;
}

// ---- Context ----------------------------------------------------------------

btTransform CharacterContext::transform_at(const btVector3& feet) const {
  return btTransform(orientation, feet + up * feet_to_center);
}

btTransform CharacterContext::sweep_transform_at(const btVector3& feet) const {
  return btTransform(orientation, feet + up * (feet_to_center + settings->skin_width + kGroundClearance));
}

double CharacterContext::cos_max_slope() const { return std::cos(settings->max_slope_deg * kPi / 180.0); }

bool CharacterContext::is_walkable(const btVector3& normal) const {
  // A hair of tolerance so that a slope of exactly max_slope_deg is walkable.
  return normal.dot(up) >= cos_max_slope() - 1e-9;
}

// ---- Observed queries ------------------------------------------------------------

RayHit detail::observed_ray(const CharacterContext& ctx, RayEvent::Purpose purpose, const btVector3& from,
                    const btVector3& to) {
  const RayHit hit = ctx.queries->ray(from, to);
  if (ctx.observer != nullptr) ctx.observer->on_ray({purpose, from, to, hit});
  return hit;
}

/// A sweep of the real shape (ground probe) or the skin-grown one (steps),
/// from feet `from` to feet `to`, reported to the observer.
SweepHit detail::observed_sweep(const CharacterContext& ctx, SweepEvent::Purpose purpose, const btVector3& from,
                        const btVector3& to) {
  const bool grown = purpose != SweepEvent::Purpose::GroundProbe;
  const SweepHit hit =
      grown ? ctx.queries->sweep(ctx.sweep_shape, ctx.sweep_transform_at(from), ctx.sweep_transform_at(to).getOrigin())
            : ctx.queries->sweep(ctx.shape, ctx.transform_at(from), ctx.transform_at(to).getOrigin());
  if (ctx.observer != nullptr) {
    SweepEvent e;
    e.purpose = purpose;
    e.from = from;
    e.to = to;
    e.hit = hit;
    ctx.observer->on_sweep(e);
  }
  return hit;
}

double stepped_height(const btVector3& start, const btVector3& ground_normal, const btVector3& end,
                      const btVector3& up) {
  const btVector3 moved = end - start;
  const double n_up = ground_normal.dot(up);
  const double along_ground = n_up > 1e-6 ? -ground_normal.dot(horizontal_part(moved, up)) / n_up : 0.0;
  const double stepped = moved.dot(up) - along_ground;
  // Below this it is rounding, not a step (flat ground gives ~1e-17).
  return std::fabs(stepped) > 1e-9 ? stepped : 0.0;
}

double update_camera(double camera_dy, double step_dy, double camera_smoothing, double dt) {
  return camera_dy * std::exp(-camera_smoothing * dt) - step_dy;
}

btVector3 carry_with_ground(const btVector3& feet, const btTransform& before, const btTransform& after) {
  return after * (before.inverse() * feet);
}

double yaw_about(const btQuaternion& turn, const btVector3& up) {
  btVector3 reference = horizontal_part(btVector3(1, 0, 0), up);
  if (reference.length2() < 1e-12) reference = horizontal_part(btVector3(0, 0, 1), up);
  reference.normalize();
  const btVector3 turned = horizontal_part(quatRotate(turn, reference), up);
  return std::atan2(reference.cross(turned).dot(up), reference.dot(turned)) * 180.0 / kPi;
}

// ---- The controller ---------------------------------------------------------

CharacterController::CharacterController(btCollisionWorld* world, const CharacterShapeDesc& shape,
                                         const ControllerSettings& settings, const btVector3& up,
                                         const btVector3& gravity)
    : queries_(world, &object_),
      shape_(make_character_shape(shape, 0.0)),
      shape_desc_(shape),
      settings_(settings),
      gravity_(gravity) {
  object_.setCollisionShape(shape_.get());
  ctx_.probe_object = &probe_object_;
  ctx_.queries = &queries_;
  ctx_.shape = shape_.get();
  ctx_.object = &object_;
  ctx_.feet_to_center = feet_to_center(shape);
  ctx_.horizontal_radius = horizontal_radius(shape);
  ctx_.up = up.normalized();
  ctx_.orientation = rotation_onto_up(ctx_.up);
  ctx_.settings = &settings_;
  rebuild_skin_shapes();
}

void CharacterController::rebuild_skin_shapes() {
  sweep_shape_ = make_character_shape(shape_desc_, settings_.skin_width);
  sweep_shape_skin_ = settings_.skin_width;
  ctx_.sweep_shape = sweep_shape_.get();
  // The ground probe must see gaps a little larger than the skin.
  ctx_.probe_inflation = std::max(kMinProbeInflation, 2 * settings_.skin_width);
  probe_shape_ = make_character_shape(shape_desc_, ctx_.probe_inflation);
  probe_object_.setCollisionShape(probe_shape_.get());
}

CharacterController::~CharacterController() = default;

void CharacterController::reset(const btVector3& feet, const btVector3& velocity) {
  state_ = CharacterState{};
  state_.position = feet;
  state_.velocity = velocity;
  classify_ground();
}

void CharacterController::classify_ground() {
  state_.grounded = false;
  state_.ground_normal.setZero();
  state_.ground_object = nullptr;
  if (state_.velocity.dot(ctx_.up) > kLeavingGroundSpeed) return;
  const GroundInfo g = probe_ground(ctx_, state_.position, ground_tolerance());
  if (!g.found || !g.walkable) return;
  state_.grounded = true;
  state_.ground_normal = g.normal;
  state_.ground_object = g.object;
  state_.ground_transform = g.object->getWorldTransform();
}

double CharacterController::ground_tolerance() const { return 2 * settings_.skin_width; }

btVector3 CharacterController::ground_motion(const btVector3& horizontal, double dt) const {
  const btVector3 step = horizontal * dt;
  const btVector3& n = state_.ground_normal;
  const double n_up = n.dot(ctx_.up);
  if (n_up <= 1e-6) return step;
  // Lift the motion onto the ground plane.
  const btVector3 on_plane = step - ctx_.up * (n.dot(step) / n_up);
  if (settings_.constant_horizontal_speed) return on_plane;
  return safe_normalized(on_plane) * step.length();
}

TickReport CharacterController::update(const CharacterInput& input, double dt) {
  TickReport report;
  queries_.reset_counts();
  if (settings_.skin_width != sweep_shape_skin_) rebuild_skin_shapes();  // changed at run time

  ride_ground(dt);  // the world has already moved this tick

  const DepenetrationResult freed = depenetrate(ctx_, state_.position);
  state_.position = freed.position;
  report.depen_iters = freed.iterations;
  report.depenetration_converged = freed.converged;

  const Intent intent = steer(input, dt);
  const btVector3 walk_start = state_.position;
  const btVector3 walk_ground_normal = state_.ground_normal;
  report.slide_iters = move(intent, dt);
  settle(intent);
  absorb_steps(intent, walk_start, walk_ground_normal, dt, report);
  report.sweeps = queries_.counts().sweeps;
  return report;
}

void CharacterController::ride_ground(double dt) {
  state_.ground_velocity.setZero();
  if (!state_.grounded || state_.ground_object == nullptr || !state_.ground_object->isKinematicObject()) return;
  const btTransform& now = state_.ground_object->getWorldTransform();
  const btVector3 carried = carry_with_ground(state_.position, state_.ground_transform, now);
  state_.ground_velocity = (carried - state_.position) / dt;
  state_.position = carried;
  if (settings_.turn_with_ground) {
    state_.ground_yaw_deg +=
        yaw_about(now.getRotation() * state_.ground_transform.getRotation().inverse(), ctx_.up);
  }
}

CharacterController::Intent CharacterController::steer(const CharacterInput& input, double dt) {
  const btVector3& up = ctx_.up;
  const bool jump_pressed = input.jump && !state_.jump_was_held;
  state_.jump_was_held = input.jump;
  CharacterInput turned_input = input;
  turned_input.yaw_deg += state_.ground_yaw_deg;
  const btVector3 wish = wish_direction(turned_input, up);

  Intent intent;
  intent.was_grounded = state_.grounded;
  intent.jumped = state_.grounded && jump_pressed;
  intent.airborne = !state_.grounded || intent.jumped;
  btVector3 horizontal = horizontal_part(state_.velocity, up);
  if (input.use_wish_velocity) {
    horizontal = horizontal_part(btVector3(input.wish_x, 0, input.wish_z), up);
  } else if (state_.grounded) {
    horizontal = ground_velocity(horizontal, wish, settings_, dt);
  } else {
    horizontal = air_velocity(horizontal, wish, settings_, dt);
  }
  double vertical = state_.velocity.dot(up);
  if (state_.grounded) vertical = intent.jumped ? settings_.jump_speed : 0.0;
  intent.horizontal = horizontal;
  intent.velocity = horizontal + up * vertical;
  if (intent.airborne) {
    intent.velocity += gravity_ * dt;
    const btVector3 down = safe_normalized(gravity_);
    const double falling = intent.velocity.dot(down);
    if (falling > settings_.terminal_velocity) intent.velocity -= down * (falling - settings_.terminal_velocity);
  }
  if (ctx_.observer != nullptr) ctx_.observer->on_velocity({state_.velocity, intent.velocity, intent.jumped});
  return intent;
}

int CharacterController::move(const Intent& intent, double dt) {
  // Walking: horizontally along the ground plane, stepping up risers; gravity
  // waits for the ground check, so it can never make a step fall short.
  // In the air: the whole velocity.
  SlideOptions options;
  options.max_iterations = settings_.max_slide_iterations;
  SlideResult moved;
  if (intent.airborne) {
    moved = slide(ctx_, state_.position, intent.velocity * dt, intent.velocity, options);
  } else {
    options.grounded = true;
    options.allow_step_up = true;
    moved = slide(ctx_, state_.position, ground_motion(intent.horizontal, dt), intent.horizontal, options);
  }
  state_.position = moved.position;
  state_.velocity = moved.velocity;
  return moved.iterations;
}

void CharacterController::settle(const Intent& intent) {
  // Snap down when walking (stairs, downhill); land when falling; never while
  // moving up (a jump's apex is not ground).
  const btVector3& up = ctx_.up;
  const bool leaving_ground = state_.velocity.dot(up) > kLeavingGroundSpeed;
  state_.grounded = false;
  state_.ground_normal.setZero();
  state_.ground_object = nullptr;
  if (!leaving_ground) {
    const double reach = intent.airborne ? ground_tolerance() : settings_.step_down_height + ground_tolerance();
    const GroundInfo g = probe_ground(ctx_, state_.position, reach);
    if (g.found && g.walkable) {
      state_.position -= up * g.distance;
      state_.grounded = true;
      state_.ground_normal = g.normal;
      state_.ground_object = g.object;
      state_.ground_transform = g.object->getWorldTransform();
      const double into_ground = state_.velocity.dot(up);
      if (into_ground < 0) state_.velocity -= up * into_ground;
    }
    if (ctx_.observer != nullptr) {
      ctx_.observer->on_ground({g, state_.grounded ? g.distance : 0.0, state_.grounded});
    }
  }
  // Leaving a moving body keeps what it gave the feet.
  if (intent.was_grounded && !state_.grounded && settings_.inherit_ground_velocity) {
    state_.velocity += state_.ground_velocity;
  }
}

void CharacterController::absorb_steps(const Intent& intent, const btVector3& walk_start,
                                       const btVector3& walk_ground_normal, double dt, TickReport& report) {
  if (!intent.airborne && state_.grounded) {
    report.step_dy = stepped_height(walk_start, walk_ground_normal, state_.position, ctx_.up);
    if (std::fabs(report.step_dy) >= settings_.min_step_event) {
      report.steps.push_back({report.step_dy > 0 ? StepEvent::Kind::Up : StepEvent::Kind::Down, report.step_dy});
    }
  }
  state_.camera_dy = update_camera(state_.camera_dy, report.step_dy, settings_.camera_smoothing, dt);
}

double CharacterController::penetration_depth() {
  object_.setWorldTransform(ctx_.transform_at(state_.position));
  std::vector<Contact> contacts;
  queries_.contacts(&object_, 0.0, contacts);
  double deepest = 0.0;
  for (const Contact& c : contacts) deepest = std::max(deepest, -c.distance);
  return deepest;
}

}  // namespace stepslide
