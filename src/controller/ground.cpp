// The ground under the character: the downward probe and the best support.
#include "stepslide/stages.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "internal.h"

namespace stepslide {

using namespace detail;

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
    // A moving body the shape is inside of (a crusher it is stuck in) is not
    // ground to stand on; and the probe never lifts the feet above where it
    // started looking.
    if (gap < -kPenetrationTolerance && c.object != nullptr && c.object->isKinematicObject()) continue;
    const double distance = std::max(0.0, std::min(swept + gap / rise, snap_limit));
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

namespace {

/// Not grounded, nothing stood on.
void leave_ground(CharacterState& state) {
  state.grounded = false;
  state.ground_normal.setZero();
  state.ground_object = nullptr;
}

/// Grounded on `g`, standing where the probe found it.
void stand_on(CharacterState& state, const GroundInfo& g) {
  state.grounded = true;
  state.ground_normal = g.normal;
  state.ground_object = g.object;
  state.ground_transform = g.object->getWorldTransform();
}

/// Tells the observer that the character left the kinematic body it rode.
void report_handover(const CharacterContext& ctx, const CharacterState& state, const btCollisionObject* body,
                     bool inherited) {
  RideEvent e;
  e.kind = RideEvent::Kind::Handover;
  e.body = body;
  e.from = e.to = state.position;
  e.velocity = inherited ? state.carried_velocity : btVector3(0, 0, 0);
  e.character_velocity = state.velocity;
  e.inherited = inherited;
  ctx.observer->on_ride(e);
}

}  // namespace

void classify_ground(const CharacterContext& ctx, CharacterState& state) {
  leave_ground(state);
  if (state.velocity.dot(ctx.up) > kLeavingGroundSpeed) return;
  const GroundInfo g = probe_ground(ctx, state.position, ctx.ground_tolerance());
  if (g.found && g.walkable) stand_on(state, g);
}

void settle(const CharacterContext& ctx, CharacterState& state, const Intent& intent) {
  const btVector3& up = ctx.up;
  const bool leaving_ground = state.velocity.dot(up) > kLeavingGroundSpeed;
  const btCollisionObject* ridden = state.ground_object;  // for the observer only
  leave_ground(state);
  if (!leaving_ground) {
    const double reach =
        intent.airborne ? ctx.ground_tolerance() : ctx.settings->step_down_height + ctx.ground_tolerance();
    const GroundInfo g = probe_ground(ctx, state.position, reach);
    if (g.found && g.walkable) {
      state.position -= up * g.distance;
      stand_on(state, g);
      const double into_ground = state.velocity.dot(up);
      if (into_ground < 0) state.velocity -= up * into_ground;
    }
    if (ctx.observer != nullptr) ctx.observer->on_ground({g, state.grounded ? g.distance : 0.0, state.grounded});
  }
  // Leaving a moving body keeps what it gave the feet.
  const bool left = intent.was_grounded && !state.grounded;
  if (left && ctx.settings->inherit_ground_velocity) state.velocity += state.carried_velocity;
  if (left && ctx.observer != nullptr && ridden != nullptr && ridden->isKinematicObject()) {
    report_handover(ctx, state, ridden, ctx.settings->inherit_ground_velocity);
  }
}

}  // namespace stepslide
