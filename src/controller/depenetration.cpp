// Depenetration: pushing the shape out of every overlap at once.
#include "stepslide/stages.h"

#include <algorithm>
#include <cmath>

#include "controller/internal.h"

namespace stepslide {

using namespace detail;

namespace {

/// Largest correction accepted, as a multiple of the summed overlap depths.
constexpr double kMaxCorrectionRatio = 2.5;
/// Below this length of a normal's part across `up` (a face within about
/// 3 degrees of level), an airborne push-out keeps the normal: pushed out
/// across, it would travel more than twenty times the overlap.
constexpr double kMinAcross = 0.05;

/// Correction with exactly the contacts in `subset` resolved (n_i·c = d_i),
/// as c = Σ λ_i n_i. False when the normals are dependent or some λ_i < 0
/// (that contact would be pulled, not pushed).
/// Up to three contacts' indices (a plain array: the solver tries hundreds
/// of these a tick, and a vector each cost an allocation).
struct Subset {
  std::size_t index[3];
  std::size_t size;
  std::size_t operator[](std::size_t i) const { return index[i]; }
};

bool solve_active_set(const std::vector<btVector3>& normals, const std::vector<double>& depths,
                      const Subset& subset, btVector3* correction) {
  const std::size_t k = subset.size;
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
  auto consider = [&](const Subset& subset) {
    btVector3 c;
    if (!solve_active_set(normals, depths, subset, &c) || !resolves_all(normals, depths, c)) return;
    if (best_length < 0 || c.length2() < best_length) {
      best_length = c.length2();
      *best = c;
    }
  };
  for (std::size_t i = 0; i < n; ++i) {
    consider({{i, 0, 0}, 1});
    for (std::size_t j = i + 1; j < n; ++j) {
      consider({{i, j, 0}, 2});
      for (std::size_t k = j + 1; k < n; ++k) consider({{i, j, k}, 3});
    }
  }
  return best_length >= 0;
}

}  // namespace

btVector3 solve_depenetration(const std::vector<btVector3>& normals, const std::vector<double>& depths,
                              int max_passes) {
  // A correction many times larger than the overlaps themselves only exists
  // between nearly opposing contacts: the character is wedged, and taking it
  // would teleport it (fuzzing found 89 m). Treat that as not clearable.
  double total_depth = 0.0;
  for (double d : depths) total_depth += std::max(d, 0.0);
  btVector3 exact;
  if (smallest_clearing_correction(normals, depths, &exact) && exact.length() <= kMaxCorrectionRatio * total_depth) {
    return exact;
  }
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

namespace {

/// Below this cosine between a moving body's motion at a contact and the
/// contact normal, the body is not approaching the character there (it
/// slides past or moves away): its motion does not say how to clear the
/// overlap, the contact normal does.
constexpr double kMinApproachCosine = 0.05;

/// How the overlaps with moving (kinematic) bodies are treated.
enum class Mode {
  /// Pushed along the body's motion at the contact, as far as it moved this
  /// tick (an overlap it did not cause this tick: along the contact normal).
  All,
  /// Crushed: the level blocks the push. Every contact is cleared along its
  /// contact normal: a body pressing the character into the floor squeezes it
  /// out sideways where the level allows it.
  Squeeze,
  /// Moving bodies are left alone; only the level is cleared.
  StaticOnly,
};

struct PushOut {
  btVector3 direction;
  double depth;
  /// False: clearing it would lift the feet more than a step onto the body
  /// (the character is pinned inside a body that came down on it). It is
  /// left, and the tick reports the character stuck.
  bool allowed = true;
  /// How far the feet may rise over the whole pass once this contact is
  /// involved (0 for the level, which never sets it).
  double lift_allowance = 0.0;
};

bool is_moving_body(const Contact& c) { return detail::is_moving(c.object); }

}  // namespace

PushDirection airborne_push_out(const btVector3& normal, double depth, const btVector3& up, double cos_max_slope) {
  const double rise = normal.dot(up);
  if (rise <= 0.0 || rise >= cos_max_slope - 1e-9) return {normal, depth};
  const btVector3 across = normal - up * rise;
  const double length = across.length();
  if (length < kMinAcross) return {normal, depth};
  return {across / length, depth / length};
}

namespace {

/// How far a moving body's point `point` rose along `up` this tick (0 when
/// it went down or across).
double rise_at(const btCollisionObject* body, const btVector3& point, const btVector3& up) {
  const btTransform& now = body->getWorldTransform();
  const btTransform& before = body->getInterpolationWorldTransform();
  return std::max(0.0, (now * (before.inverse() * point) - point).dot(up));
}

/// An airborne character's push along a moving body's contact normal (the
/// body's motion did not say how to clear it). There is no step in the air:
/// the push lifts the feet by no more than the body itself rose at the
/// contact this tick, plus the skin (a shallow overlap, a landing on it). A
/// face the character cannot stand on is left across up, as the level's is
/// (airborne_push_out). Deeper, the character is inside a body that holds
/// still or moves across (one that came down on it and stopped), and stays
/// there, stuck: pushed out along the normal it was popped up onto the body
/// (up to max_step_height in one tick, above the flight's ballistic apex).
PushOut airborne_push_along_normal(const CharacterContext& ctx, const Contact& c, double depth) {
  const double skin = ctx.settings->skin_width;
  const double body_rise = rise_at(c.object, c.point, ctx.up);
  const double allowance = body_rise + 2.0 * skin;
  const PushDirection flat = airborne_push_out(c.normal, depth + skin, ctx.up, ctx.cos_max_slope);
  const double lift = std::max(0.0, flat.direction.dot(ctx.up)) * (flat.depth - skin);
  return {flat.direction, flat.depth, lift <= body_rise + skin, allowance};
}

/// A rising character's push out of the level: as any airborne one's
/// (airborne_push_out: along a walkable face's normal, across up out of a
/// face it cannot stand on), but a walkable-looking normal that is an edge's
/// or a corner's, not a face's (the rounded contact where the shape meets
/// the top edge of a ramp it rises beside, a mesh's crease) is pushed out
/// across up too: along it, each push lifted the feet by the skin, tick
/// after tick, up over the edge while the flight rose, a step the step rules
/// never saw. Only for a shallow overlap (less than the skin: the skin gap
/// restored); falling, a walkable-looking contact is a landing. The ray that
/// tells an edge from a face is cast only when the push would lift the feet
/// along the normal.
PushOut rising_push_out(const CharacterContext& ctx, const Contact& c, double depth) {
  const double skin = ctx.settings->skin_width;
  PushDirection flat = airborne_push_out(c.normal, depth + skin, ctx.up, ctx.cos_max_slope);
  if (flat.direction == c.normal && depth < skin && c.normal.dot(ctx.up) > 0.0 && is_edge(ctx, c.point, c.normal)) {
    flat = airborne_push_out(c.normal, depth + skin, ctx.up, 2.0);  // every rising normal counts as steep
  }
  return {flat.direction, flat.depth};
}

/// How to clear one overlap. The level is left along the shortest way out.
/// A moving body pushes the character along its own motion at the contact:
/// the shortest way out of a thin platform that has come down through a
/// character's head would be up through it. The push is how far the overlap
/// reaches along that motion (depth / cos of the angle to the normal), never
/// more than the body moved. A push along a contact normal never lifts the
/// feet more than max_step_height out of a moving body: deeper, the
/// character was crushed or pinned by it and stays where it is, stuck (it is
/// never popped up onto a body that came down on it). In the air, no step:
/// see airborne_push_along_normal.
PushOut push_out(const CharacterContext& ctx, const Contact& c, Mode mode, bool airborne, bool rising_off_level) {
  const double skin = ctx.settings->skin_width;
  const double depth = -c.distance;
  if (!is_moving_body(c)) {
    if (!airborne) return {c.normal, depth + skin};
    if (rising_off_level) return rising_push_out(ctx, c, depth);
    const PushDirection flat = airborne_push_out(c.normal, depth + skin, ctx.up, ctx.cos_max_slope);
    return {flat.direction, flat.depth};
  }
  if (mode == Mode::All) {
    const btTransform& now = c.object->getWorldTransform();
    const btTransform& before = c.object->getInterpolationWorldTransform();
    const btVector3 moved = now * (before.inverse() * c.point) - c.point;
    const double distance = moved.length();
    if (distance > 1e-9) {
      const btVector3 along = moved / distance;
      const double approach = along.dot(c.normal);
      const double rise = std::max(0.0, moved.dot(ctx.up));
      const double allowance = (airborne ? 2.0 * skin : ctx.settings->max_step_height) + rise;
      if (approach > kMinApproachCosine) return {along, std::min(depth / approach, distance) + skin, true, allowance};
    }
  }
  if (airborne) return airborne_push_along_normal(ctx, c, depth);
  const double lift = c.normal.dot(ctx.up) * depth;
  return {c.normal, depth + skin, lift <= ctx.settings->max_step_height, ctx.settings->max_step_height};
}

/// No moving body overlaps the shape: only the level does.
bool only_level_overlaps(const std::vector<Contact>& contacts) {
  for (const Contact& c : contacts) {
    if (c.distance < -kPenetrationTolerance && is_moving_body(c)) return false;
  }
  return true;
}

/// True when moving the character's centre from `from` to `to` crosses a
/// static surface: a correction must never carry the shape through the
/// level (a mesh reports a triangle's contact with either of its two
/// normals, and between opposite ones the solver may find the way out on
/// the far side of the surface).
/// Closest ray hit on the static level only: moving bodies the character is
/// inside (a crusher) must not hide the level behind them.
struct LevelRay : btCollisionWorld::ClosestRayResultCallback {
  LevelRay(const btVector3& from, const btVector3& to, const btCollisionObject* self)
      : ClosestRayResultCallback(from, to), self_(self) {}
  bool needsCollision(btBroadphaseProxy* proxy) const override {
    const auto* object = static_cast<const btCollisionObject*>(proxy->m_clientObject);
    if (object == self_ || detail::is_moving(object)) return false;
    return ClosestRayResultCallback::needsCollision(proxy);
  }
  const btCollisionObject* self_;
};

bool crosses_level(const CharacterContext& ctx, const btVector3& from, const btVector3& to) {
  const btVector3 lift = ctx.up * ctx.feet_to_center;
  LevelRay ray(from + lift, to + lift, ctx.object);
  ctx.queries->world()->rayTest(from + lift, to + lift, ray);
  if (ctx.observer != nullptr) {
    RayEvent e;
    e.purpose = RayEvent::Purpose::DepenetrationPath;
    e.from = from + lift;
    e.to = to + lift;
    if (ray.hasHit()) {
      e.hit.hit = true;
      e.hit.fraction = ray.m_closestHitFraction;
      e.hit.normal = ray.m_hitNormalWorld.normalized();
      e.hit.point = ray.m_hitPointWorld;
      e.hit.object = ray.m_collisionObject;
    }
    ctx.observer->on_ray(e);
  }
  return ray.hasHit();
}

/// The contacts at `position`, as every pass's first query finds them.
void contacts_at(const CharacterContext& ctx, const btVector3& position, std::vector<Contact>* contacts) {
  ctx.object->setWorldTransform(ctx.transform_at(position));
  ctx.queries->contacts(ctx.object, 0.0, *contacts);
}

/// A pass's lists, kept from one pass to the next (their storage is reused).
struct Scratch {
  /// Room for the usual few at once, not grown one by one; only once there
  /// is an overlap (most ticks have none, and pay nothing).
  void make_room() {
    if (overlaps.capacity() != 0) return;
    contacts.reserve(8);
    overlaps.reserve(8);
    normals.reserve(8);
    depths.reserve(8);
  }
  std::vector<Contact> contacts;
  std::vector<Contact> overlaps;
  std::vector<btVector3> normals;
  std::vector<double> depths;
};

/// Iterates queries and corrections until no overlap deeper than the
/// tolerance is left (converged) or the iterations run out. `first`: the
/// contacts at `position` (contacts_at), when already asked for.
DepenetrationResult resolve_overlaps(const CharacterContext& ctx, const btVector3& position, Mode mode,
                                     bool airborne, int max_iterations, Scratch& scratch,
                                     const std::vector<Contact>* first = nullptr, bool rising = false) {
  DepenetrationResult result;
  result.position = position;
  double first_depth = -1.0;  // summed depths found by the first query
  double lift_allowance = 0.0;  // over the whole pass, once a moving body is involved
  bool moving_contact = false;
  std::vector<Contact>& contacts = scratch.contacts;
  std::vector<Contact>& overlaps = scratch.overlaps;
  std::vector<btVector3>& normals = scratch.normals;
  std::vector<double>& depths = scratch.depths;
  for (bool asked = first != nullptr;; asked = false) {
    if (asked) {
      ctx.object->setWorldTransform(ctx.transform_at(result.position));  // where the query left it
    } else {
      contacts_at(ctx, result.position, &contacts);
    }
    const std::vector<Contact>& found = asked ? *first : contacts;
    overlaps.clear();
    normals.clear();
    depths.clear();
    bool pinned = false;
    if (!found.empty()) scratch.make_room();
    // Once a moving body overlapped in this pass, it is a crush or a push: cleared as before.
    const bool rising_off_level = rising && !moving_contact && only_level_overlaps(found);
    for (const Contact& c : found) {
      if (c.distance >= -kPenetrationTolerance) continue;
      if (mode == Mode::StaticOnly && is_moving_body(c)) continue;
      const PushOut push = push_out(ctx, c, mode, airborne, rising_off_level);
      if (is_moving_body(c)) {
        moving_contact = true;
        lift_allowance = std::max(lift_allowance, push.lift_allowance);
      }
      if (!push.allowed) {
        pinned = true;
        continue;
      }
      overlaps.push_back(c);
      normals.push_back(push.direction);
      depths.push_back(push.depth);
    }
    if (normals.empty()) {
      result.converged = !pinned;
      return result;
    }
    if (first_depth < 0) {
      first_depth = 0.0;
      for (double d : depths) first_depth += d;
    }
    // Iterations that walk the character far beyond the overlap it started
    // with are climbing out of a wedge, not clearing an overlap.
    const bool wandered = (result.position - position).length() > kMaxCorrectionRatio * first_depth;
    if (result.iterations >= max_iterations || wandered) {
      result.converged = false;
      return result;
    }
    ++result.iterations;
    const btVector3 correction = solve_depenetration(normals, depths, 64);
    if (ctx.observer != nullptr) ctx.observer->on_depenetration({result.iterations, overlaps, correction});
    // Pushed by moving bodies, the feet may rise over all the iterations
    // together by a step (in the air, two skins) plus how far those bodies
    // rose: each contact's own
    // limit does not stop a sequence of shallow ones, nor a push along a
    // body's motion wedged against a wall, from lifting the character onto
    // the body or over the wall.
    const bool climbs = moving_contact && (result.position + correction - position).dot(ctx.up) > lift_allowance;
    if (climbs || crosses_level(ctx, result.position, result.position + correction)) {
      result.converged = false;
      return result;
    }
    result.position += correction;
  }
}

/// True when no contact overlaps the shape by more than the skin.
bool within_skin(const CharacterContext& ctx, const std::vector<Contact>& contacts) {
  for (const Contact& c : contacts) {
    if (-c.distance > ctx.settings->skin_width) return false;
  }
  return true;
}

}  // namespace

DepenetrationResult depenetrate_level(const CharacterContext& ctx, const btVector3& position, bool airborne) {
  Scratch scratch;
  return resolve_overlaps(ctx, position, Mode::StaticOnly, airborne, ctx.settings->max_depenetration_iterations,
                          scratch);
}

DepenetrationResult depenetrate_move_end(const CharacterContext& ctx, const btVector3& position, bool airborne) {
  Scratch scratch;
  return resolve_overlaps(ctx, position, Mode::Squeeze, airborne, ctx.settings->max_depenetration_iterations,
                          scratch);
}

Penetration penetration_at(const CharacterContext& ctx, const btVector3& position) {
  std::vector<Contact> contacts;
  ctx.object->setWorldTransform(ctx.transform_at(position));
  ctx.queries->contacts(ctx.object, 0.0, contacts);
  Penetration deepest;
  for (const Contact& c : contacts) {
    double& kind = is_moving_body(c) ? deepest.moving : deepest.level;
    kind = std::max(kind, -c.distance);
  }
  return deepest;
}

DepenetrationResult depenetrate(const CharacterContext& ctx, const btVector3& position, bool airborne, bool rising) {
  const int budget = ctx.settings->max_depenetration_iterations;
  // The three passes start from the same position: one query answers all
  // three first iterations (the contact memo would too, but a pass of eight
  // iterations pushes that query out of it).
  std::vector<Contact> first;
  contacts_at(ctx, position, &first);
  Scratch scratch;
  DepenetrationResult all = resolve_overlaps(ctx, position, Mode::All, airborne, budget, scratch, &first, rising);
  if (all.converged) return all;
  // The overlaps cannot all be cleared as the bodies pushed: crushed between a
  // moving body and the level, or wedged. First try to squeeze out along the
  // contact normals with the level kept clear; failing that, moving bodies may
  // keep overlapping the character, the level may not: it is never pushed
  // through the floor to escape a crusher, nor popped out on top of it.
  // Squeezed out, it is clear; left overlapping a moving body, the tick reports
  // it stuck (pinned).
  DepenetrationResult squeezed =
      resolve_overlaps(ctx, position, Mode::Squeeze, airborne, budget, scratch, &first, rising);
  squeezed.iterations += all.iterations;
  if (squeezed.converged) return squeezed;  // clear of everything: not pinned
  // Where it started, nothing overlapped it by more than the skin (what a
  // character may rest in): every pass only made it worse, pushing it out of
  // a shallow contact into another character or body. It stays, clear.
  if (within_skin(ctx, first)) {
    DepenetrationResult stay;
    stay.position = position;
    stay.iterations = squeezed.iterations;
    stay.converged = false;
    return stay;
  }
  DepenetrationResult level =
      resolve_overlaps(ctx, position, Mode::StaticOnly, airborne, budget, scratch, &first, rising);
  level.iterations += squeezed.iterations;
  level.converged = false;
  return level;
}

}  // namespace stepslide
