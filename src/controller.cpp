#include "controller.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stepslide {

namespace {

constexpr double kPi = 3.14159265358979323846;
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

btVector3 horizontal_part(const btVector3& v, const btVector3& up) { return v - up * v.dot(up); }

btVector3 safe_normalized(const btVector3& v) {
  const double length = v.length();
  return length > 1e-12 ? v / length : btVector3(0, 0, 0);
}

btQuaternion orientation_for_up(const btVector3& up) {
  const btVector3 y(0, 1, 0);
  if (up.dot(y) < -0.999999) return btQuaternion(btVector3(1, 0, 0), kPi);
  return shortestArcQuat(y, up);
}

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

namespace {

RayHit observed_ray(const CharacterContext& ctx, RayEvent::Purpose purpose, const btVector3& from,
                    const btVector3& to) {
  const RayHit hit = ctx.queries->ray(from, to);
  if (ctx.observer != nullptr) ctx.observer->on_ray({purpose, from, to, hit});
  return hit;
}

/// A sweep of the real shape (ground probe) or the skin-grown one (steps),
/// from feet `from` to feet `to`, reported to the observer.
SweepHit observed_sweep(const CharacterContext& ctx, SweepEvent::Purpose purpose, const btVector3& from,
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

}  // namespace

// ---- Depenetration ------------------------------------------------------------

namespace {

/// Correction with exactly the contacts in `subset` resolved (n_i·c = d_i),
/// as c = Σ λ_i n_i. False when the normals are dependent or some λ_i < 0
/// (that contact would be pulled, not pushed).
bool solve_active_set(const std::vector<btVector3>& normals, const std::vector<double>& depths,
                      const std::vector<std::size_t>& subset, btVector3* correction) {
  const std::size_t k = subset.size();
  double gram[3][3];
  double rhs[3];
  for (std::size_t i = 0; i < k; ++i) {
    rhs[i] = depths[subset[i]];
    for (std::size_t j = 0; j < k; ++j) gram[i][j] = normals[subset[i]].dot(normals[subset[j]]);
  }
  double lambda[3] = {0, 0, 0};
  if (k == 1) {
    lambda[0] = rhs[0] / gram[0][0];
  } else if (k == 2) {
    const double det = gram[0][0] * gram[1][1] - gram[0][1] * gram[1][0];
    if (std::fabs(det) < 1e-10) return false;
    lambda[0] = (rhs[0] * gram[1][1] - gram[0][1] * rhs[1]) / det;
    lambda[1] = (gram[0][0] * rhs[1] - rhs[0] * gram[1][0]) / det;
  } else {
    const btMatrix3x3 g(gram[0][0], gram[0][1], gram[0][2], gram[1][0], gram[1][1], gram[1][2], gram[2][0],
                        gram[2][1], gram[2][2]);
    if (std::fabs(g.determinant()) < 1e-10) return false;
    const btVector3 l = g.inverse() * btVector3(rhs[0], rhs[1], rhs[2]);
    lambda[0] = l.x();
    lambda[1] = l.y();
    lambda[2] = l.z();
  }
  btVector3 c(0, 0, 0);
  for (std::size_t i = 0; i < k; ++i) {
    if (lambda[i] < 0) return false;
    c += normals[subset[i]] * lambda[i];
  }
  *correction = c;
  return true;
}

bool resolves_all(const std::vector<btVector3>& normals, const std::vector<double>& depths, const btVector3& c) {
  for (std::size_t i = 0; i < normals.size(); ++i) {
    if (normals[i].dot(c) < depths[i] - 1e-9) return false;
  }
  return true;
}

/// Smallest correction that clears every contact, if one exists. In 3D it is
/// a non-negative combination of at most three contact normals, so trying
/// every active set of one, two and three contacts finds it exactly.
bool smallest_clearing_correction(const std::vector<btVector3>& normals, const std::vector<double>& depths,
                                  btVector3* best) {
  const std::size_t n = std::min<std::size_t>(normals.size(), 12);  // deepest first
  double best_length = -1;
  auto consider = [&](const std::vector<std::size_t>& subset) {
    btVector3 c;
    if (!solve_active_set(normals, depths, subset, &c) || !resolves_all(normals, depths, c)) return;
    if (best_length < 0 || c.length2() < best_length) {
      best_length = c.length2();
      *best = c;
    }
  };
  for (std::size_t i = 0; i < n; ++i) {
    consider({i});
    for (std::size_t j = i + 1; j < n; ++j) {
      consider({i, j});
      for (std::size_t k = j + 1; k < n; ++k) consider({i, j, k});
    }
  }
  return best_length >= 0;
}

}  // namespace

btVector3 solve_depenetration(const std::vector<btVector3>& normals, const std::vector<double>& depths,
                              int max_passes) {
  btVector3 exact;
  if (smallest_clearing_correction(normals, depths, &exact)) return exact;
  // No correction clears them all: the contacts oppose each other (squeezed
  // between two walls). Simultaneous projection (Cimmino) moves each pass by
  // the average of what every violated contact asks for, and settles on the
  // balance point instead of bouncing from one side to the other as
  // sequential projection would.
  btVector3 correction(0, 0, 0);
  for (int pass = 0; pass < max_passes; ++pass) {
    btVector3 sum(0, 0, 0);
    int violated = 0;
    double worst = 0.0;
    for (std::size_t i = 0; i < normals.size(); ++i) {
      const double unresolved = depths[i] - normals[i].dot(correction);
      if (unresolved <= 0) continue;
      sum += normals[i] * unresolved;
      ++violated;
      worst = std::max(worst, unresolved);
    }
    if (violated == 0 || worst < 1e-9) break;
    correction += sum / violated;
  }
  return correction;
}

DepenetrationResult depenetrate(const CharacterContext& ctx, const btVector3& position) {
  DepenetrationResult result;
  result.position = position;
  std::vector<Contact> contacts;
  std::vector<btVector3> normals;
  std::vector<double> depths;
  for (;;) {
    ctx.object->setWorldTransform(ctx.transform_at(result.position));
    ctx.queries->contacts(ctx.object, 0.0, contacts);
    normals.clear();
    depths.clear();
    for (const Contact& c : contacts) {
      if (c.distance >= -kPenetrationTolerance) continue;
      normals.push_back(c.normal);
      depths.push_back(-c.distance + ctx.settings->skin_width);
    }
    if (normals.empty()) {
      result.converged = true;
      return result;
    }
    if (result.iterations >= ctx.settings->max_depenetration_iterations) {
      result.converged = false;
      return result;
    }
    ++result.iterations;
    const btVector3 correction = solve_depenetration(normals, depths, 64);
    if (ctx.observer != nullptr) {
      DepenetrationEvent e;
      e.iteration = result.iterations;
      for (const Contact& c : contacts) {
        if (c.distance < -kPenetrationTolerance) e.overlaps.push_back(c);
      }
      e.correction = correction;
      ctx.observer->on_depenetration(e);
    }
    result.position += correction;
  }
}

// ---- Collide and slide --------------------------------------------------------

btVector3 slide_direction(const btVector3& remainder, const btVector3& normal, const btVector3& previous_normal) {
  const btVector3 along_plane = remainder - normal * remainder.dot(normal);
  if (previous_normal.isZero() || along_plane.dot(previous_normal) >= 0) return along_plane;
  // The planes form an acute corner: sliding along the new one would push back
  // into the old one, so follow the line where they meet.
  const btVector3 crease = safe_normalized(normal.cross(previous_normal));
  return crease * remainder.dot(crease);
}

namespace {

bool is_riser(const CharacterContext& ctx, const btVector3& normal) {
  return !ctx.is_walkable(normal) && std::fabs(normal.dot(ctx.up)) < ctx.cos_max_slope();
}

}  // namespace

namespace {

/// The plane a hit makes the remainder slide along. Walking into something
/// too steep to stand on, it is treated as a vertical wall, so sliding never
/// carries the character up a steep incline.
btVector3 slide_plane(const CharacterContext& ctx, const btVector3& hit_normal, const SlideOptions& options) {
  const bool flatten = options.horizontal_only || (options.grounded && !ctx.is_walkable(hit_normal));
  if (!flatten) return hit_normal;
  const btVector3 flat = safe_normalized(horizontal_part(hit_normal, ctx.up));
  return flat.isZero() ? hit_normal : flat;
}

/// The velocity after a hit. Walking keeps its horizontal velocity over
/// walkable surfaces (ramps, step edges); only walls take away the part that
/// runs into them. Landing on walkable ground stops the fall and keeps the
/// horizontal velocity: projecting it onto an upslope would launch the
/// character.
btVector3 clip_velocity(const CharacterContext& ctx, const btVector3& velocity, const btVector3& hit_normal,
                        const btVector3& plane, const btVector3& previous_plane, const SlideOptions& options) {
  const bool walking = options.grounded || options.horizontal_only;
  if (ctx.is_walkable(hit_normal)) {
    if (walking) return velocity;
    const double down = velocity.dot(ctx.up);
    return down < 0 ? velocity - ctx.up * down : velocity;
  }
  if (velocity.dot(plane) >= 0) return velocity;
  return slide_direction(velocity, plane, previous_plane);
}

}  // namespace

SlideResult slide(const CharacterContext& ctx, const btVector3& position, const btVector3& motion,
                  const btVector3& velocity, const SlideOptions& options) {
  SlideResult r;
  r.position = position;
  r.velocity = velocity;
  btVector3 remaining = motion;
  btVector3 previous_plane(0, 0, 0);
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
    const btVector3 plane = slide_plane(ctx, hit.normal, options);
    const btVector3 forward = horizontal_part(left, ctx.up);
    event.tries_step = options.allow_step_up && is_riser(ctx, hit.normal) && forward.length() > kMinMove;
    event.slid_along = plane;
    event.stopped = on_crease;  // already following a crease, and a third plane blocks it
    event.crease = !on_crease && !previous_plane.isZero() &&
                   (left - plane * left.dot(plane)).dot(previous_plane) < 0;
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
    }
    if (event.stopped) {
      remaining.setZero();
      r.velocity.setZero();
      break;
    }
    remaining = slide_direction(left, plane, previous_plane);
    on_crease = event.crease;
    if (!keeps_velocity) r.velocity = clip_velocity(ctx, r.velocity, hit.normal, plane, previous_plane, options);
    previous_plane = plane;
  }
  r.blocked = remaining.length2() >= kMinMove * kMinMove;
  return r;
}

// ---- Stepping up ------------------------------------------------------------

namespace {

StepUpResult attempt_step_up(const CharacterContext& ctx, const btVector3& position,
                             const btVector3& horizontal_motion, const btVector3& riser_normal,
                             const btVector3& riser_point) {
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
  // Cheap early out before three sweeps: if the obstacle still stands ahead
  // at the height the raised shape would be widest, the raised shape cannot
  // move forward over it either.
  const btVector3 into_step = safe_normalized(horizontal_part(-riser_normal, ctx.up));
  const double reach = ctx.horizontal_radius + std::max(0.0, horizontal_motion.dot(into_step));
  const btVector3 eye = position + ctx.up * (s.max_step_height + std::min(ctx.horizontal_radius, ctx.feet_to_center));
  if (observed_ray(ctx, RayEvent::Purpose::RiserHeight, eye, eye + into_step * reach).hit) {
    result.rule = StepRule::RiserTooTall;
    return result;
  }
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

  result.rule = StepRule::Accepted;
  result.position = landing;  // the ground snap settles it exactly onto the tread
  result.height = tread_height - position.dot(ctx.up);
  return result;
}

}  // namespace

StepUpResult step_up(const CharacterContext& ctx, const btVector3& position, const btVector3& horizontal_motion,
                     const btVector3& riser_normal, const btVector3& riser_point) {
  const StepUpResult result = attempt_step_up(ctx, position, horizontal_motion, riser_normal, riser_point);
  if (ctx.observer != nullptr) {
    ctx.observer->on_step_attempt({position, horizontal_motion, riser_normal, result.rule, result.height});
  }
  return result;
}

// ---- Ground -----------------------------------------------------------------

namespace {

/// The face beside an edge contact, away from the character's axis: what the
/// character stands on when perched on that edge. Null normal when the ray
/// finds nothing walkable level with the edge.
btVector3 perch_face_normal(const CharacterContext& ctx, const btVector3& feet, const Contact& c) {
  const btVector3 away = safe_normalized(horizontal_part(c.point - feet, ctx.up));
  const btVector3 at = c.point + away * kEdgeRayInset;
  const double reach = std::max(0.05, 2 * ctx.settings->skin_width);
  const RayHit face = observed_ray(ctx, RayEvent::Purpose::PerchFace, at + ctx.up * reach, at - ctx.up * reach);
  if (!face.hit || !ctx.is_walkable(face.normal)) return btVector3(0, 0, 0);
  if (std::fabs((face.point - c.point).dot(ctx.up)) > 2 * kEdgeRayInset) return btVector3(0, 0, 0);
  return face.normal;
}

/// The face the character stands on at a contact: GJK's contact normal on a
/// flat face carries a little noise (motion lifted onto that plane would dip
/// into the real one), and at an edge it leans toward the character. A short
/// vertical ray just beside the contact, away from the axis, reads the face.
btVector3 face_normal_at(const CharacterContext& ctx, const btVector3& feet, const Contact& c) {
  const btVector3 away = safe_normalized(horizontal_part(c.point - feet, ctx.up));
  const btVector3 at = c.point + away * (0.1 * kEdgeRayInset);
  const RayHit face =
      observed_ray(ctx, RayEvent::Purpose::FaceNormal, at + ctx.up * kEdgeRayInset, at - ctx.up * kEdgeRayInset);
  if (!face.hit || !ctx.is_walkable(face.normal)) return c.normal;
  return face.normal;
}

}  // namespace

namespace {

GroundInfo probe_ground_from(const CharacterContext& ctx, const btVector3& position, double max_distance) {
  GroundInfo g;
  const SweepHit hit =
      observed_sweep(ctx, SweepEvent::Purpose::GroundProbe, position, position - ctx.up * max_distance);
  if (!hit.hit) return g;
  g.found = true;
  g.object = hit.object;
  g.normal = hit.normal;
  g.distance = hit.fraction * max_distance;

  // The sweep's closest hit may be a riser edge or a steep face the shape is
  // only leaning on, with the floor right below; and it stops within a
  // millimetre of the surface. So look at every contact around where it
  // stopped, and take the best support: a surface walkable by its own
  // normal first, else an edge the character is perched on; the nearest of
  // either kind. Its exact distance puts the feet exactly on the ground.
  // Bullet's overlap query reports overlaps only, not small gaps, so the
  // contacts are taken with a copy of the shape grown by probe_inflation: an
  // overlap of depth p is a gap of probe_inflation - p.
  const btVector3 stopped = position - ctx.up * g.distance;
  ctx.probe_object->setWorldTransform(ctx.transform_at(stopped));
  std::vector<Contact> contacts;
  ctx.queries->contacts(ctx.probe_object, 0.0, contacts);
  const double window = ctx.probe_inflation;
  // How far down the feet can go before touching anything: moving down by t
  // closes a plane's gap by exactly t·rise, an edge's by at least that and
  // never by more than t. The sweep itself proved `swept` clear.
  const double swept = g.distance;
  double snap_limit = std::numeric_limits<double>::infinity();
  for (const Contact& c : contacts) {
    const double rise = c.normal.dot(ctx.up);
    if (rise <= 0.05) continue;
    const double gap = std::max(0.0, c.distance + ctx.probe_inflation);
    snap_limit = std::min(snap_limit, swept + (ctx.is_walkable(c.normal) ? gap / rise : gap));
  }
  snap_limit = std::max(snap_limit, swept);

  int best_rank = 0;  // 2: walkable surface, 1: perched on an edge
  const Contact* best = nullptr;
  for (const Contact& c : contacts) {
    const double rise = c.normal.dot(ctx.up);
    if (rise <= 0.05) continue;  // beside or above the shape, not under it
    const double gap = c.distance + ctx.probe_inflation;
    if (gap > window) continue;
    const double distance = std::min(swept + gap / rise, snap_limit);
    int rank = 0;
    btVector3 face(0, 0, 0);
    if (ctx.is_walkable(c.normal)) {
      rank = 2;
      face = c.normal;
    } else if (best_rank < 2) {
      face = perch_face_normal(ctx, stopped, c);
      rank = face.isZero() ? 0 : 1;
    }
    if (rank == 0 || rank < best_rank || (rank == best_rank && distance >= g.distance && g.walkable)) continue;
    best_rank = rank;
    g.walkable = true;
    g.distance = distance;
    g.normal = face;
    g.object = c.object;
    g.point = c.point;
    best = &c;
  }
  if (best_rank == 2) g.normal = face_normal_at(ctx, stopped, *best);
  return g;
}

}  // namespace

GroundInfo probe_ground(const CharacterContext& ctx, const btVector3& feet, double max_distance) {
  // Look from kGroundClearance above the feet, so ground up to that much
  // higher (which walking sweeps skim over) is found too: distances are
  // measured from there and the clearance taken off at the end.
  GroundInfo g = probe_ground_from(ctx, feet + ctx.up * kGroundClearance, max_distance + kGroundClearance);
  g.distance -= kGroundClearance;
  return g;
}

// ---- Velocity ---------------------------------------------------------------

btVector3 wish_direction(const CharacterInput& input, const btVector3& up) {
  btVector3 forward = horizontal_part(btVector3(0, 0, -1), up);
  if (forward.length2() < 1e-12) forward = horizontal_part(btVector3(0, 1, 0), up);
  forward.normalize();
  const btQuaternion yaw(up, input.yaw_deg * kPi / 180.0);
  forward = quatRotate(yaw, forward);
  const btVector3 right = forward.cross(up);
  btVector3 wish = right * input.move_right + forward * input.move_forward;
  if (wish.length2() > 1.0) wish.normalize();
  return wish;
}

namespace {

/// Acceleration may turn the velocity toward the stick but never raise the
/// speed above the stick's target or the speed the character already had
/// (which friction or drag then take away). Without this, accelerating along
/// the stick while the sideways part decays would exceed the target, and
/// sliding along a wall would gain speed.
btVector3 limit_speed_gain(const btVector3& velocity, double before, double target) {
  const double limit = std::max(target, before);
  const double speed = velocity.length();
  return speed > limit ? velocity * (limit / speed) : velocity;
}

}  // namespace

btVector3 ground_velocity(const btVector3& horizontal, const btVector3& wish, const ControllerSettings& s,
                          double dt) {
  const double decay = std::exp(-s.friction * dt);
  const double stick = wish.length();
  if (stick <= 0) {
    const btVector3 v = horizontal * decay;
    return v.length() < s.stop_speed ? btVector3(0, 0, 0) : v;
  }
  const btVector3 direction = wish / stick;
  const double target = s.walk_speed * stick;
  double along = horizontal.dot(direction);
  const btVector3 across = (horizontal - direction * along) * decay;
  if (along < target) {
    along = std::min(target, along + s.ground_acceleration * dt);
  } else {
    along = target + (along - target) * decay;
  }
  return limit_speed_gain(direction * along + across, horizontal.length(), target);
}

btVector3 air_velocity(const btVector3& horizontal, const btVector3& wish, const ControllerSettings& s, double dt) {
  const double stick = wish.length();
  if (stick <= 0) return horizontal;
  const btVector3 direction = wish / stick;
  const double target = s.walk_speed * stick;
  const double along = horizontal.dot(direction);
  if (along >= target) return horizontal;
  const btVector3 accelerated = horizontal + direction * (std::min(target, along + s.air_acceleration * dt) - along);
  return limit_speed_gain(accelerated, horizontal.length(), target);
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
  ctx_.orientation = orientation_for_up(ctx_.up);
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
  const btVector3& up = ctx_.up;

  // 0. Ride: the world has already moved this tick; a kinematic body we stand
  // on carries us with it.
  state_.ground_velocity.setZero();
  if (state_.grounded && state_.ground_object != nullptr && state_.ground_object->isKinematicObject()) {
    const btTransform& now = state_.ground_object->getWorldTransform();
    const btVector3 carried = carry_with_ground(state_.position, state_.ground_transform, now);
    state_.ground_velocity = (carried - state_.position) / dt;
    state_.position = carried;
    if (settings_.turn_with_ground) {
      state_.ground_yaw_deg += yaw_about(now.getRotation() * state_.ground_transform.getRotation().inverse(), up);
    }
  }

  // 1. Out of any overlap (spawned inside geometry, pushed by a moving body).
  const DepenetrationResult freed = depenetrate(ctx_, state_.position);
  state_.position = freed.position;
  report.depen_iters = freed.iterations;
  report.depenetration_converged = freed.converged;

  // 2. Velocity from input, gravity and jumping.
  const bool jump_pressed = input.jump && !state_.jump_was_held;
  state_.jump_was_held = input.jump;
  CharacterInput turned_input = input;
  turned_input.yaw_deg += state_.ground_yaw_deg;
  const btVector3 wish = wish_direction(turned_input, up);
  btVector3 horizontal = horizontal_part(state_.velocity, up);
  double vertical = state_.velocity.dot(up);
  if (input.use_wish_velocity) {
    horizontal = horizontal_part(btVector3(input.wish_x, 0, input.wish_z), up);
  } else if (state_.grounded) {
    horizontal = ground_velocity(horizontal, wish, settings_, dt);
  } else {
    horizontal = air_velocity(horizontal, wish, settings_, dt);
  }
  const bool was_grounded = state_.grounded;
  const bool jumped = was_grounded && jump_pressed;
  if (was_grounded) vertical = jumped ? settings_.jump_speed : 0.0;
  btVector3 velocity = horizontal + up * vertical;
  const bool airborne = !was_grounded || jumped;
  if (airborne) {
    velocity += gravity_ * dt;
    const btVector3 down = safe_normalized(gravity_);
    const double falling = velocity.dot(down);
    if (falling > settings_.terminal_velocity) velocity -= down * (falling - settings_.terminal_velocity);
  }

  if (ctx_.observer != nullptr) ctx_.observer->on_velocity({state_.velocity, velocity, jumped});

  // 3. Move: on the ground along the ground plane with steps; in the air freely.
  const btVector3 walk_start = state_.position;
  const btVector3 walk_ground_normal = state_.ground_normal;
  SlideOptions options;
  options.max_iterations = settings_.max_slide_iterations;
  SlideResult moved;
  if (airborne) {
    moved = slide(ctx_, state_.position, velocity * dt, velocity, options);
  } else {
    options.grounded = true;
    options.allow_step_up = true;
    moved = slide(ctx_, state_.position, ground_motion(horizontal, dt), horizontal, options);
  }
  state_.position = moved.position;
  state_.velocity = moved.velocity;
  report.slide_iters = moved.iterations;

  // 4. Ground: snap down when walking (stairs, downhill); land when falling.
  const bool leaving_ground = state_.velocity.dot(up) > kLeavingGroundSpeed;
  state_.grounded = false;
  state_.ground_normal.setZero();
  state_.ground_object = nullptr;
  if (!leaving_ground) {
    const double reach = airborne ? ground_tolerance() : settings_.step_down_height + ground_tolerance();
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
  if (was_grounded && !state_.grounded && settings_.inherit_ground_velocity) {
    state_.velocity += state_.ground_velocity;
  }

  // 5. Steps, and the camera absorbing them.
  if (!airborne && state_.grounded) {
    report.step_dy = stepped_height(walk_start, walk_ground_normal, state_.position, up);
    if (std::fabs(report.step_dy) >= settings_.min_step_event) {
      report.steps.push_back({report.step_dy > 0 ? StepEvent::Kind::Up : StepEvent::Kind::Down, report.step_dy});
    }
  }
  state_.camera_dy = update_camera(state_.camera_dy, report.step_dy, settings_.camera_smoothing, dt);
  report.sweeps = queries_.counts().sweeps;
  return report;
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
