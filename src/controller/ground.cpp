// The ground under the character: the downward probe and the best support.
#include "stepslide/stages.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "controller/internal.h"

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
  // On one face of a box or triangle the shape itself says which: no ray.
  if (!c.face_normal.isZero() && ctx.is_walkable(c.face_normal)) return c.face_normal;
  const btVector3 away = safe_normalized(horizontal_part(c.point - feet, ctx.up));
  const btVector3 at = c.point + away * (0.1 * kEdgeRayInset);
  const RayHit face =
      observed_ray(ctx, RayEvent::Purpose::FaceNormal, at + ctx.up * kEdgeRayInset, at - ctx.up * kEdgeRayInset);
  if (!face.hit || !ctx.is_walkable(face.normal)) return c.normal;
  return face.normal;
}

}  // namespace

namespace {

bool is_moving_body(const Contact& c) { return detail::is_moving(c.object); }

/// A probe contact with a moving (kinematic) body the character's shape
/// itself overlaps by more than `depth` (the probe is the shape grown by
/// `probe_inflation`).
bool inside_moving_body(const Contact& c, double probe_inflation, double depth) {
  return c.distance + probe_inflation < -depth && detail::is_moving(c.object);
}

/// Whether the character is pinned inside a moving body at the probe's
/// start `position`: the real shape there overlaps one by more than the skin
/// (depenetration and the end-of-move check never leave that much unless
/// they could not clear it). Asked only when the probe saw such a contact:
/// a box's or cylinder's inflated probe may report a deep overlap the shape
/// itself does not have (its shortest way out is sideways), and the body
/// must then still stop the snap.
bool pinned_in_moving_body(const CharacterContext& ctx, const btVector3& position,
                           const std::vector<Contact>& contacts) {
  const double skin = ctx.settings->skin_width;
  const bool deep = std::any_of(contacts.begin(), contacts.end(), [&](const Contact& c) {
    return inside_moving_body(c, ctx.probe_inflation, skin);
  });
  return deep && penetration_at(ctx, position).moving > skin;
}

/// Whether a contact after the `first` ones can support the feet by its own
/// walkable normal (choose_support's rank 2): one anywhere outranks every
/// perch, so the perch rays before it would be cast for nothing (a capsule
/// on a chair's seat touches dozens of steep triangles of its back and of
/// the table's edge).
bool walkable_support_after(const CharacterContext& ctx, const std::vector<Contact>& contacts, std::size_t first,
                            double window) {
  return std::any_of(contacts.begin() + static_cast<std::ptrdiff_t>(first), contacts.end(), [&](const Contact& c) {
    return c.normal.dot(ctx.up) > 0.05 && c.distance + ctx.probe_inflation <= window &&
           !inside_moving_body(c, ctx.probe_inflation, kPenetrationTolerance) && ctx.is_walkable(c.normal);
  });
}

/// Whether the character's shape is a capsule or a sphere: its probe is the
/// shape grown by a ball, so a probe contact's normal is the real shape's
/// separating direction (see Proof).
bool is_rounded(const CharacterContext& ctx) {
  const int shape = ctx.shape->getShapeType();
  return shape == CAPSULE_SHAPE_PROXYTYPE || shape == SPHERE_SHAPE_PROXYTYPE;
}

/// The best support among the probe's `contacts` around `stopped` (the feet
/// having come down `swept` from where the probe started): a surface walkable
/// by its own normal first, else an edge the character is perched on; the
/// nearest of either kind. Its exact distance puts the feet exactly on the
/// ground. `g` holds what was found before (the sweep's hit, if any) and is
/// updated; returns the rank found (2 walkable, 1 perched, 0 none) and sets
/// `best` to the walkable contact when there is one.
int choose_support(const CharacterContext& ctx, const btVector3& stopped, double swept,
                   const std::vector<Contact>& contacts, bool pinned, GroundInfo& g, const Contact** best) {
  // Bullet's overlap query reports overlaps only, not small gaps, so the
  // contacts are taken with a copy of the shape grown by probe_inflation: an
  // overlap of depth p is a gap of probe_inflation - p.
  const double window = ctx.probe_inflation;
  // How far down the feet can go before touching anything: moving down by t
  // closes a plane's gap by exactly t·rise, an edge's by at least that and
  // never by more than t. `swept` is known clear.
  double snap_limit = std::numeric_limits<double>::infinity();
  double sweep_passed_into = std::numeric_limits<double>::infinity();
  const int shape = ctx.shape->getShapeType();
  const bool flat = shape == BOX_SHAPE_PROXYTYPE || shape == CYLINDER_SHAPE_PROXYTYPE;
  const bool rounded = is_rounded(ctx);
  for (const Contact& c : contacts) {
    const double rise = c.normal.dot(ctx.up);
    // Pinned inside a moving body (a box that came down on the character and
    // stopped), that body neither supports the feet (below) nor stops the
    // snap: else every tick's probe, starting kGroundClearance up, stopped
    // inside it at once and left the feet that much higher, a 2 mm creep per
    // tick up through the body.
    if (pinned && inside_moving_body(c, ctx.probe_inflation, kPenetrationTolerance)) continue;
    // A contact beside the shape bounds nothing below it only while the
    // shape is clear of it along its normal. A capsule's or sphere's probe
    // is the shape grown by a sphere, so its normal is the real shape's
    // separating direction; a box's or cylinder's probe is a bigger box or
    // cylinder, and its overlap direction is only Bullet's shortest way out
    // of that: over a triangle rising just inside the bottom edge it points
    // sideways, while the real shape already overlaps the triangle's extent
    // along it and meets the triangle as soon as it moves down. Only the
    // sweep then says how far down is clear.
    if (rise <= 0.05 && flat && c.distance + ctx.probe_inflation <= 0.0) snap_limit = swept;
    if (rise <= 0.05) continue;
    const double gap = std::max(0.0, c.distance + ctx.probe_inflation);
    // A walkable face, or any contact a capsule or sphere is clear of, bounds
    // the approach by its plane (see Proof): not reached before gap/rise.
    // Else an edge's gap closes by at most t. (Bounding a rounded shape's
    // steep contact by its gap alone stopped the snap short of where the
    // sweep, taken from a little higher, stops: a wedged capsule's feet then
    // never came to rest.)
    const bool by_plane = ctx.is_walkable(c.normal) || (rounded && c.distance + ctx.probe_inflation >= 0.0);
    snap_limit = std::min(snap_limit, swept + (by_plane ? gap / rise : gap));
    // The shape already deep inside the static level where the sweep
    // stopped: the sweep passed into a triangle it should have hit (Bullet's
    // box cast can miss a sloping face). Moving up by
    // depth/rise clears that contact's plane: the feet go no lower.
    const double depth = -(c.distance + ctx.probe_inflation);
    if (depth > 0.5 * ctx.settings->skin_width && !is_moving_body(c)) {
      sweep_passed_into = std::min(sweep_passed_into, swept - depth / rise);
    }
  }
  snap_limit = std::min(std::max(snap_limit, swept), sweep_passed_into);
  // Below that the probe saw nothing: anything it did not touch is more
  // than its reach away from where the sweep stopped, and the feet never go
  // lower than that reach (a steep contact's plane bound, gap/rise, can be
  // far longer, past a floor the probe never met).
  snap_limit = std::min(snap_limit, swept + window);

  int best_rank = 0;  // 2: walkable surface, 1: perched on an edge
  int walkable_later = -1;  // walkable_support_after, asked once at the first perch ray: -1 not yet
  for (const Contact& c : contacts) {
    const double rise = c.normal.dot(ctx.up);
    if (rise <= 0.05) continue;  // beside or above the shape, not under it
    const double gap = c.distance + ctx.probe_inflation;
    if (gap > window) continue;
    // A moving body the shape is inside of (a crusher it is stuck in) is not
    // ground to stand on; and the probe never lifts the feet above where it
    // started looking.
    if (inside_moving_body(c, ctx.probe_inflation, kPenetrationTolerance)) continue;
    const double distance = std::max(0.0, std::min(swept + gap / rise, snap_limit));
    int rank = 0;
    btVector3 face(0, 0, 0);
    if (ctx.is_walkable(c.normal)) {
      rank = 2;
      face = c.normal;
    } else if (best_rank < 2 && !(best_rank == 1 && distance >= g.distance && g.walkable)) {
      // (A perch no nearer than the one held could not replace it: no ray.)
      if (walkable_later < 0) walkable_later = walkable_support_after(ctx, contacts, static_cast<std::size_t>(&c - contacts.data()) + 1, window) ? 1 : 0;
      if (walkable_later == 1) continue;
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
    if (rank == 2) *best = &c;
  }
  return best_rank;
}

/// Whether the support chosen from the contacts where the shape is, without
/// a sweep, is where the sweep would have put it, and if so how clear of the
/// static level the shape is once moved there (else -infinity).
///
/// Moving down by t closes a contact's gap by at most t. Closer bounds: for a
/// contact on a face (its normal the face's own) the shape lies wholly on the
/// face's side of its plane, so the gap closes by exactly t·rise until the
/// plane is reached, and the face cannot be touched sooner than gap/rise. For
/// a capsule or sphere the same holds at any contact it is clear of (an edge,
/// a corner): the probe is the shape grown by a sphere, so its contact normal
/// is the real shape's separating direction, and the obstacle lies beyond the
/// plane through its closest point, which the shape cannot reach before
/// gap/rise. The support's distance t = gap/rise is then exact when the
/// support is a face, the snap did not cap it, and nothing else can be
/// reached before t (or lies on a face level with it: seams between
/// coplanar boxes or triangles). The same bounds give the clearance left at
/// t: gap - t·rise where the plane bound holds, gap - t elsewhere,
/// probe_inflation - t from anything the probe did not touch; kept apart
/// for static and moving bodies (ClearanceCertificate).
struct Proof {
  bool exact = false;
  double static_clearance = -std::numeric_limits<double>::infinity();
  double moving_clearance = -std::numeric_limits<double>::infinity();
};

/// Whether a probe contact bounds the shape's approach by its plane: moving
/// down by t brings the shape no nearer to it than gap - t·rise (see Proof).
bool plane_bound(const CharacterContext& ctx, const Contact& c, double gap, double rise, bool rounded) {
  const bool face = !c.face_normal.isZero() && c.face_normal.dot(ctx.up) > 0;
  return rise > 0 && (face || (rounded && gap >= 0));
}

/// Lowers `proof`'s clearance from the body of contact `c` to what is left
/// once the shape has moved `t` down (Proof's bounds).
void lower_clearance(Proof& proof, const Contact& c, double gap, double rise, double t, bool bound) {
  const bool moving = c.object != nullptr && (c.object->isKinematicObject() || !c.object->isStaticObject());
  double& clearance = moving ? proof.moving_clearance : proof.static_clearance;
  clearance = std::min(clearance, bound ? gap - t * rise : gap - t);
}

Proof exact_without_sweep(const CharacterContext& ctx, const std::vector<Contact>& contacts, const Contact& best,
                          const GroundInfo& g) {
  constexpr double kSameFace = 1e-6;  // 1 - cos: within 0.08 degrees
  Proof proof;
  const double t = g.distance;
  // Anything the probe did not touch is more than probe_inflation away, so
  // it cannot be reached before t only if t is within that.
  if (t > ctx.probe_inflation) return proof;
  if (g.normal.dot(best.normal) < 1.0 - kSameFace) return proof;
  const double best_rise = best.normal.dot(ctx.up);
  if (std::fabs(std::max(0.0, (best.distance + ctx.probe_inflation) / best_rise) - t) > 1e-12) return proof;
  const bool rounded = is_rounded(ctx);
  proof.static_clearance = proof.moving_clearance = ctx.probe_inflation - t;
  for (const Contact& c : contacts) {
    const double gap = c.distance + ctx.probe_inflation;
    const double rise = c.normal.dot(ctx.up);
    const bool bound = plane_bound(ctx, c, gap, rise, rounded);
    lower_clearance(proof, c, gap, rise, t, bound);
    if (&c == &best || rise <= 0.05) continue;
    const double reached_no_earlier_than = bound ? gap / rise : gap;
    if (reached_no_earlier_than > t + 1e-9) continue;
    if (c.normal.dot(g.normal) < 1.0 - kSameFace) return Proof{};
  }
  proof.exact = true;
  return proof;
}

/// Whether `c` lies on a horizontal edge where a box's top face meets an
/// upright side: the edge's region (the ball's centre above the top and
/// outside the side) holds the centre all the way down to touching, so the
/// edge itself is what a shape coming straight down meets first on that box.
bool on_upright_edge(const CharacterContext& ctx, const Contact& c, BoxEdge* edge) {
  constexpr double kUpright = 1e-12;
  if (!c.face_normal.isZero() || !ctx.queries->box_edge(c, edge)) return false;
  const double top = edge->faces[0].dot(ctx.up);
  const double side = edge->faces[1].dot(ctx.up);
  const bool first_on_top = std::fabs(top - 1.0) <= kUpright && std::fabs(side) <= kUpright;
  const bool second_on_top = std::fabs(side - 1.0) <= kUpright && std::fabs(top) <= kUpright;
  return first_on_top || second_on_top;
}

/// The support the contacts where the shape is give without a sweep when a
/// capsule or sphere rests beside a step's edge (its rounded bottom over
/// the edge of a box: the contact's normal leans, the face's does not, so
/// exact_without_sweep cannot prove it): the exact drop onto the edge
/// (drop_onto_edge), when nothing else can be reached before it. The
/// bounds are exact_without_sweep's (anything the probe did not touch is
/// more than probe_inflation away; every other contact by its plane or its
/// gap), but no other contact may be reached by then at all; the shape then
/// touches the edge (clearance 0 from it). Sets `g.distance` when proven.
Proof exact_edge_drop(const CharacterContext& ctx, const std::vector<Contact>& contacts, const Contact& best,
                      bool pinned, GroundInfo& g) {
  Proof proof;
  const double gap = best.distance + ctx.probe_inflation;
  if (pinned || !is_rounded(ctx) || is_moving_body(best) || !(gap >= 0.0)) return proof;
  BoxEdge edge;
  if (!on_upright_edge(ctx, best, &edge)) return proof;
  const double rise = best.normal.dot(ctx.up);
  const double t = drop_onto_edge(best.normal, gap, ctx.horizontal_radius + edge.rounding, ctx.up);
  // Never above the first-order bound the sweep's contacts give (the gap
  // closes by at most t·rise), never beyond what untouched bodies allow.
  if (!(t >= gap / rise && t <= ctx.probe_inflation)) return proof;
  proof.static_clearance = proof.moving_clearance = ctx.probe_inflation - t;
  for (const Contact& c : contacts) {
    if (&c == &best) {
      proof.static_clearance = std::min(proof.static_clearance, 0.0);
      continue;
    }
    const double c_gap = c.distance + ctx.probe_inflation;
    const double c_rise = c.normal.dot(ctx.up);
    const bool bound = plane_bound(ctx, c, c_gap, c_rise, true);
    lower_clearance(proof, c, c_gap, c_rise, t, bound);
    if (c_rise <= 0.0) continue;
    const double reached_no_earlier_than = bound ? c_gap / c_rise : c_gap;
    if (reached_no_earlier_than <= t + 1e-9) return Proof{};
  }
  proof.exact = true;
  g.distance = t;
  return proof;
}

/// The clearance proof of a support the sweep found: `contacts` were taken
/// where the sweep stopped, `swept` down, and the support's distance puts
/// the feet `distance - swept` lower still. The same bounds as without a
/// sweep hold there (they ask only that the contacts be every body within
/// the probe's reach of where they were taken): so the next tick's overlap
/// check is answered by the certificate on stairs too, where the support
/// is a step's edge and the probe always sweeps. Not when the feet end
/// above where the contacts were taken, or beyond the probe's reach below.
Proof swept_clearance(const CharacterContext& ctx, const std::vector<Contact>& contacts, double swept,
                      double distance) {
  const double t = distance - swept;
  Proof proof;
  if (!(t >= 0.0 && t <= ctx.probe_inflation)) return proof;
  const bool rounded = is_rounded(ctx);
  proof.static_clearance = proof.moving_clearance = ctx.probe_inflation - t;
  for (const Contact& c : contacts) {
    const double gap = c.distance + ctx.probe_inflation;
    const double rise = c.normal.dot(ctx.up);
    lower_clearance(proof, c, gap, rise, t, plane_bound(ctx, c, gap, rise, rounded));
  }
  return proof;
}

/// Whether the probe's sweep, stopped at `stopped`, passed into the static
/// level: the real shape there overlaps it by more than half the skin.
/// Bullet's box cast can miss a mesh face it should hit (through a
/// heightfield face, leaving the box inside it with the shortest way out
/// sideways, where no depth/rise bound applies). Asked only when a
/// probe contact there is that deep.
bool passed_into_level(const CharacterContext& ctx, const btVector3& stopped, const std::vector<Contact>& contacts) {
  const double allowed = 0.5 * ctx.settings->skin_width;
  const bool deep = std::any_of(contacts.begin(), contacts.end(), [&](const Contact& c) {
    return !is_moving_body(c) && c.distance + ctx.probe_inflation < -allowed;
  });
  return deep && penetration_at(ctx, stopped).level > allowed;
}

/// The farthest the shape can go down from `position` (clear) toward
/// `distance` (not clear) with the static level overlapped by at most half
/// the skin, to 2^-16 of the distance: bisection on exact overlap queries,
/// for the rare sweep that is wrong.
double lowest_clear(const CharacterContext& ctx, const btVector3& position, double distance) {
  const double allowed = 0.5 * ctx.settings->skin_width;
  double clear = 0.0;
  double blocked = distance;
  for (int i = 0; i < 16; ++i) {
    const double middle = 0.5 * (clear + blocked);
    (penetration_at(ctx, position - ctx.up * middle).level <= allowed ? clear : blocked) = middle;
  }
  return clear;
}

/// The ground below the probe started at `position` (center-based feet), up
/// to `max_distance` down. Sets `*clearance` (when not null) to the shape's
/// proven clearance from static objects where the probe puts it, when it is
/// also proven clear of moving ones; else to -infinity.
/// With `sweep` false, only the contacts where the shape is are asked: a
/// support they prove exactly, or nothing.
GroundInfo probe_ground_from(const CharacterContext& ctx, const btVector3& position, double max_distance,
                             double* clearance, bool sweep = true) {
  if (clearance != nullptr) *clearance = -std::numeric_limits<double>::infinity();
  std::vector<Contact> contacts;
  // First the contacts where the shape already is: when they hold walkable
  // ground within the probe's reach, nothing lower can be met first (it
  // would be a contact too, nearer), so the downward sweep would only find
  // the same support. That is every tick spent walking on the ground.
  ctx.probe_object->setWorldTransform(ctx.transform_at(position));
  ctx.queries->contacts(ctx.probe_object, 0.0, contacts);
  const bool pinned = pinned_in_moving_body(ctx, position, contacts);
  {
    GroundInfo g;
    g.found = true;
    g.distance = 0.0;
    const Contact* best = nullptr;
    if (choose_support(ctx, position, 0.0, contacts, pinned, g, &best) == 2 && g.distance <= max_distance) {
      g.normal = face_normal_at(ctx, position, *best);
      Proof proof = exact_without_sweep(ctx, contacts, *best, g);
      if (!proof.exact) proof = exact_edge_drop(ctx, contacts, *best, pinned, g);
      if (proof.exact && g.distance <= max_distance) {
        if (clearance != nullptr && proof.moving_clearance >= -CollisionQueries::kClearanceTolerance) {
          *clearance = proof.static_clearance;
        }
        return g;
      }
    }
  }
  if (!sweep) return GroundInfo{};

  // Else sweep down to the first thing in the way, and look at every contact
  // around where it stopped: its closest hit may be a riser edge or a steep
  // face the shape is only leaning on, with the floor right below; and it
  // stops within a millimetre of the surface.
  GroundInfo g;
  const SweepHit hit =
      observed_sweep(ctx, SweepEvent::Purpose::GroundProbe, position, position - ctx.up * max_distance);
  if (!hit.hit) return g;
  g.found = true;
  g.object = hit.object;
  g.normal = hit.normal;
  g.distance = hit.fraction * max_distance;
  btVector3 stopped = position - ctx.up * g.distance;
  bool bisected = false;
  if (g.distance != 0.0) {  // else the contacts where it stands are those already found
    ctx.probe_object->setWorldTransform(ctx.transform_at(stopped));
    ctx.queries->contacts(ctx.probe_object, 0.0, contacts);
    if (passed_into_level(ctx, stopped, contacts)) {
      bisected = true;
      g.distance = lowest_clear(ctx, position, g.distance);
      stopped = position - ctx.up * g.distance;
      ctx.probe_object->setWorldTransform(ctx.transform_at(stopped));
      ctx.queries->contacts(ctx.probe_object, 0.0, contacts);
    }
  }
  const double swept = g.distance;
  const Contact* best = nullptr;
  const int rank = choose_support(ctx, stopped, swept, contacts, pinned, g, &best);
  if (rank == 2) g.normal = face_normal_at(ctx, stopped, *best);
  if (clearance != nullptr && rank > 0 && !bisected) {
    const Proof proof = swept_clearance(ctx, contacts, swept, g.distance);
    if (proof.moving_clearance >= -CollisionQueries::kClearanceTolerance) *clearance = proof.static_clearance;
  }
  return g;
}

/// probe_ground, also giving the clearance proof of probe_ground_from
/// (measured at the feet raised by kGroundClearance).
GroundInfo probe_ground_proving(const CharacterContext& ctx, const btVector3& feet, double max_distance,
                                double* clearance, bool sweep = true) {
  // Look from kGroundClearance above the feet, so ground up to that much
  // higher (which walking sweeps skim over) is found too: distances are
  // measured from there and the clearance taken off at the end.
  GroundInfo g =
      probe_ground_from(ctx, feet + ctx.up * kGroundClearance, max_distance + kGroundClearance, clearance, sweep);
  g.distance -= kGroundClearance;
  return g;
}

}  // namespace

double detail::drop_onto_edge(const btVector3& normal, double gap, double radius, const btVector3& up) {
  const double reach = gap + radius;
  const double v = reach * normal.dot(up);
  const double h = reach * (normal - up * normal.dot(up)).length();
  if (!(v > 0.0) || !(h < radius)) return std::numeric_limits<double>::infinity();
  return v - std::sqrt((radius - h) * (radius + h));
}

GroundInfo probe_ground(const CharacterContext& ctx, const btVector3& feet, double max_distance) {
  return probe_ground_proving(ctx, feet, max_distance, nullptr);
}

namespace {

/// How deep the shape at `position` reaches into anything above it: the
/// contacts that push the feet down (undersides, ceilings), level and moving
/// bodies alike.
double ceiling_depth(const CharacterContext& ctx, const btVector3& position) {
  std::vector<Contact> contacts;
  ctx.object->setWorldTransform(ctx.transform_at(position));
  ctx.queries->contacts(ctx.object, 0.0, contacts);
  double deepest = 0.0;
  for (const Contact& c : contacts) {
    if (c.normal.dot(ctx.up) < 0.0) deepest = std::max(deepest, -c.distance);
  }
  return deepest;
}

/// The snap may lift the feet (ground found up to kGroundClearance above
/// them): never into what is just above. Wedged under a static box's
/// underside, a box character would otherwise be lifted into it. Returns
/// how far up the feet may go, at most `lift`: all of it when the lifted
/// shape overlaps no ceiling, else the highest clear lift found by
/// bisection (0 when even the start overlaps one).
double clear_lift(const CharacterContext& ctx, const btVector3& position, double lift) {
  const double allowed = kPenetrationTolerance;
  if (ceiling_depth(ctx, position + ctx.up * lift) <= allowed) return lift;
  if (ceiling_depth(ctx, position) > allowed) return 0.0;
  double clear = 0.0;
  double blocked = lift;
  for (int i = 0; i < 16; ++i) {
    const double middle = 0.5 * (clear + blocked);
    (ceiling_depth(ctx, position + ctx.up * middle) <= allowed ? clear : blocked) = middle;
  }
  return clear;
}

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

bool lands_rising(const btVector3& velocity, const btVector3& ground_normal) {
  return velocity.dot(ground_normal) <= 0.0;
}

namespace {

/// How far below the ground found a ceiling must hold the feet before the
/// walk that took them there is undone.
constexpr double kHeldByCeiling = 1e-4;

/// The ground under `position` (probe_ground_proving) with the snap's lift
/// held clear of ceilings: never lifts the shape into what is above it. Sets
/// `*held` when a ceiling keeps the feet below the ground found (`distance`
/// is then the lift allowed), and `*clearance` to the proof's clearance (or
/// -infinity when held).
GroundInfo ground_to_stand_on(const CharacterContext& ctx, const btVector3& position, double reach, bool sweep,
                              double* clearance, bool* held) {
  *held = false;
  GroundInfo g = probe_ground_proving(ctx, position, reach, clearance, sweep);
  // The contacts already proved the lifted place clear (the common case,
  // walking up bumps): nothing above to ask about.
  const bool proven_clear = *clearance >= -kPenetrationTolerance;
  if (g.found && g.walkable && g.distance < 0.0 && !proven_clear) {
    const double lift = clear_lift(ctx, position, -g.distance);
    if (lift < -g.distance) {
      // Held below the ground the probe found: the proof of clearance was
      // for the lifted place, not this one. Held by more than a hair (the
      // bisection's and the contacts' rounding) counts as held by a ceiling.
      *held = lift < -g.distance - kHeldByCeiling;
      *clearance = -std::numeric_limits<double>::infinity();
    }
    g.distance = -lift;
  }
  return g;
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
  const bool rising = state.velocity.dot(up) > kLeavingGroundSpeed;
  const btCollisionObject* ridden = state.ground_object;  // for the observer only
  leave_ground(state);
  // Rising, the character leaves the ground, unless it moves into walkable
  // ground all the same (a weak jump up a ramp that rises faster under the
  // feet than the jump lifts them): then the ground has caught it, and it
  // lands, its rise taken over by the slope. Looked for only when the tick
  // met a surface, and not on the tick of a jump; by the contacts where the
  // shape is, without the probe's sweep (a slope that caught the feet is
  // touching them).
  if (!rising || (!intent.jumped && intent.met_surface)) {
    const double reach =
        intent.airborne ? ctx.ground_tolerance() : ctx.settings->step_down_height + ctx.ground_tolerance();
    double clearance = 0.0;
    bool held = false;
    // Standing still (the move went nowhere), every tick asks the probe's
    // first query again.
    if (intent.has_move_start && state.position == intent.move_start) {
      ctx.queries->carry_next_query(ctx.probe_object, state.position);
    }
    GroundInfo g = ground_to_stand_on(ctx, state.position, reach, !rising, &clearance, &held);
    if (rising && !(g.found && g.walkable && lands_rising(state.velocity, g.normal))) g = GroundInfo{};
    // Walking where a ceiling keeps the feet below the ground (up a groove
    // or a ramp into a low ceiling: the walk moves on along the ground and
    // the snap would lift the head into the ceiling), the character cannot
    // stand there: the move is undone, and the feet stand where it started,
    // at rest (the velocity across up is what it achieved, nothing). Else
    // each tick crept on and up into the ceiling until the depenetration
    // could not clear the wedge.
    if (held && g.found && !intent.airborne && intent.has_move_start && state.position != intent.move_start) {
      state.position = intent.move_start;
      state.velocity = up * state.velocity.dot(up);
      g = ground_to_stand_on(ctx, state.position, reach, true, &clearance, &held);
    }
    if (g.found && g.walkable) {
      state.position -= up * g.distance;
      stand_on(state, g);
      // Clear of the static level where it now stands, as the ground
      // contacts proved: next tick's overlap check need not ask Bullet again.
      if (clearance >= -CollisionQueries::kClearanceTolerance) {
        ctx.queries->certify_clear(ctx.object, ctx.transform_at(state.position), clearance);
      }
      // Landing stops the fall, and a rise the slope took over.
      const double into_ground = state.velocity.dot(up);
      if (into_ground < 0 || rising) state.velocity -= up * into_ground;
    }
    if (ctx.observer != nullptr) ctx.observer->on_ground({g, state.grounded ? g.distance : 0.0, state.grounded});
  }
  // Leaving a moving body keeps what it gave the feet.
  const bool left = intent.was_grounded && !state.grounded;
  if (left && ctx.settings->inherit_ground_velocity) state.velocity += state.carried_velocity;
  if (left && ctx.observer != nullptr && detail::is_moving(ridden)) {
    report_handover(ctx, state, ridden, ctx.settings->inherit_ground_velocity);
  }
}

}  // namespace stepslide
