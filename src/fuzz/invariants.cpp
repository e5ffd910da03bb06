#include "fuzz/invariants.h"

#include <BulletCollision/CollisionShapes/btTriangleCallback.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>

#include "base/format.h"
#include "fuzz/feature_invariants.h"
#include "scenario/load/world.h"
#include "scenario/run/simulate.h"
#include "stepslide/collision.h"
#include "stepslide/contact_filter.h"
#include "stepslide/controller.h"
#include "stepslide/math.h"

namespace stepslide {

namespace {

/// Slack for rounding in the height bound, and the ground clearance the
/// controller keeps when walking (2 mm) with room to spare.
constexpr double kRiseSlack = 0.005;
/// How far past the skin width an overlap may measure and still be the skin:
/// the depth is computed from positions of a few metres, so its last bits
/// (about 1e-16 m there) carry rounding. Fresh fuzz worlds found depths of
/// skin + 1.1e-16 m; anything from 1 nm up is a real overlap.
constexpr double kOverlapRounding = 1e-9;
/// Upward speed an airborne tick may gain by rounding alone (the clip of a
/// velocity against planes works on values of a few m/s).
constexpr double kLaunchSlack = 1e-6;
/// Height a flight may rise above its ballistic apex by rounding and by the
/// millimetres a slide along a surface may lift the feet.
constexpr double kApexSlack = 0.01;
/// Skins a flight may also rise by: the take-off row's feet may sit inside
/// the skin of the surface they leave, and the push-out that restores the
/// skin gap along a sloped surface's normal lifts them by skin / cos(slope),
/// at most two skins on surfaces up to 60 degrees.
constexpr double kApexSkins = 2.0;

// ---- Static geometry the centre must never pass through ---------------------

struct SolidBox {
  btTransform pose;
  btVector3 half;
  std::string body;
};

struct Triangle {
  btVector3 a, b, c;
};

/// A static mesh or heightfield in world space. Its boundary edges (used by
/// one triangle only) are where the character may legitimately pass around it.
struct Surface {
  std::vector<Triangle> triangles;
  std::vector<std::pair<btVector3, btVector3>> boundary;
  btVector3 lo, hi;  ///< bounding box
  std::string body;
};

class TriangleCollector : public btTriangleCallback {
 public:
  TriangleCollector(const btTransform& pose, std::vector<Triangle>* out) : pose_(pose), out_(out) {}
  void processTriangle(btVector3* v, int, int) override {
    out_->push_back(Triangle{pose_ * v[0], pose_ * v[1], pose_ * v[2]});
  }

 private:
  btTransform pose_;
  std::vector<Triangle>* out_;
};

using PointKey = std::array<double, 3>;
PointKey key_of(const btVector3& v) { return {v.x(), v.y(), v.z()}; }

std::vector<std::pair<btVector3, btVector3>> boundary_edges(const std::vector<Triangle>& triangles) {
  std::map<std::pair<PointKey, PointKey>, int> uses;
  auto add = [&uses](const btVector3& p, const btVector3& q) {
    PointKey a = key_of(p), b = key_of(q);
    if (b < a) std::swap(a, b);
    ++uses[{a, b}];
  };
  for (const Triangle& t : triangles) {
    add(t.a, t.b);
    add(t.b, t.c);
    add(t.c, t.a);
  }
  std::vector<std::pair<btVector3, btVector3>> edges;
  for (const auto& [edge, count] : uses) {
    if (count != 1) continue;
    edges.push_back({btVector3(edge.first[0], edge.first[1], edge.first[2]),
                     btVector3(edge.second[0], edge.second[1], edge.second[2])});
  }
  return edges;
}

Surface make_surface(std::vector<Triangle> triangles, const std::string& body) {
  Surface s;
  s.lo = btVector3(BT_LARGE_FLOAT, BT_LARGE_FLOAT, BT_LARGE_FLOAT);
  s.hi = -s.lo;
  for (const Triangle& t : triangles) {
    for (const btVector3& v : {t.a, t.b, t.c}) {
      s.lo.setMin(v);
      s.hi.setMax(v);
    }
  }
  s.boundary = boundary_edges(triangles);
  s.triangles = std::move(triangles);
  s.body = body;
  return s;
}

struct StaticGeometry {
  std::vector<SolidBox> boxes;
  std::vector<Surface> surfaces;
};

void add_boxes(const btCollisionShape* shape, const btTransform& pose, const std::string& body, StaticGeometry& g) {
  if (shape->getShapeType() == BOX_SHAPE_PROXYTYPE) {
    g.boxes.push_back({pose, static_cast<const btBoxShape*>(shape)->getHalfExtentsWithMargin(), body});
  } else if (shape->getShapeType() == COMPOUND_SHAPE_PROXYTYPE) {
    const auto* compound = static_cast<const btCompoundShape*>(shape);
    for (int i = 0; i < compound->getNumChildShapes(); ++i) {
      add_boxes(compound->getChildShape(i), pose * compound->getChildTransform(i), body, g);
    }
  }
}

StaticGeometry collect_static_geometry(const Scenario& scenario, const World& world) {
  StaticGeometry g;
  for (const WorldBody& body : world.bodies()) {
    const BodyDef& def = scenario.world[body.def_index];
    // Moving bodies, dynamic ones included (body_tunnel covers those), are
    // not static geometry.
    if (def.motion.type != MotionType::None || def.dynamic()) continue;
    // A one-way body is passed through by design, a body on a layer the
    // character ignores is not there for it.
    if (def.one_way || (scenario.character.collides_with & layer_bit(def.layer)) == 0) continue;
    const btCollisionShape* shape = body.object->getCollisionShape();
    const btTransform& pose = body.object->getWorldTransform();
    if (shape->isConcave()) {
      std::vector<Triangle> triangles;
      TriangleCollector collect(pose, &triangles);
      const btVector3 everywhere(1e9, 1e9, 1e9);
      static_cast<const btConcaveShape*>(shape)->processAllTriangles(&collect, -everywhere, everywhere);
      g.surfaces.push_back(make_surface(std::move(triangles), body.name));
    } else {
      add_boxes(shape, pose, body.name, g);
    }
  }
  return g;
}

// ---- Segment tests ------------------------------------------------------------

double distance_to_segment(const btVector3& p, const btVector3& a, const btVector3& b) {
  const btVector3 ab = b - a;
  const double length2 = ab.length2();
  const double t = length2 > 0.0 ? std::clamp((p - a).dot(ab) / length2, 0.0, 1.0) : 0.0;
  return (p - (a + ab * t)).length();
}

/// Where the segment from `a` to `b` passes through triangle `t`, if it does.
bool segment_hits_triangle(const btVector3& a, const btVector3& b, const Triangle& t, btVector3* point) {
  const btVector3 d = b - a, e1 = t.b - t.a, e2 = t.c - t.a;
  const btVector3 p = d.cross(e2);
  const double det = e1.dot(p);
  if (std::fabs(det) < 1e-14) return false;  // parallel
  const btVector3 s = a - t.a;
  const double u = s.dot(p) / det;
  if (u < 0.0 || u > 1.0) return false;
  const btVector3 q = s.cross(e1);
  const double v = d.dot(q) / det;
  if (v < 0.0 || u + v > 1.0) return false;
  const double along = e2.dot(q) / det;
  if (along < 0.0 || along > 1.0) return false;
  *point = a + d * along;
  return true;
}

/// A pass straight through `box`: the segment enters one face and leaves by
/// the opposite one, crossing the mid-plane at least `margin` inside the
/// other two extents (so it cannot have gone round an edge instead).
bool passes_through(const SolidBox& box, const btVector3& from, const btVector3& to, double margin, int* axis,
                    btVector3* crossing) {
  const btVector3 a = box.pose.invXform(from), b = box.pose.invXform(to);
  for (int k = 0; k < 3; ++k) {
    const double h = box.half[k];
    if (!((a[k] > h && b[k] < -h) || (a[k] < -h && b[k] > h))) continue;
    const btVector3 mid = a + (b - a) * (a[k] / (a[k] - b[k]));
    bool inside = true;
    for (int i = 0; i < 3; ++i) {
      if (i != k && std::fabs(mid[i]) > box.half[i] - margin) inside = false;
    }
    if (inside) {
      *axis = k;
      *crossing = box.pose * mid;
      return true;
    }
  }
  return false;
}

// ---- Numbers --------------------------------------------------------------------

bool finite(const btVector3& v) { return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z()); }

std::string text(double v) { return format_number(v); }
std::string text(const btVector3& v) { return "(" + text(v.x()) + ", " + text(v.y()) + ", " + text(v.z()) + ")"; }

/// Radius of the largest ball around the shape's centre that lies inside it.
double inner_radius(const ShapeDef& shape) {
  switch (shape.type) {
    case ShapeType::Cylinder: return std::min(shape.radius, 0.5 * shape.height);
    case ShapeType::Box: return std::min({shape.half_extents[0], shape.half_extents[1], shape.half_extents[2]});
    default: return shape.radius;
  }
}

/// Farthest any point of a moving body travels between two poses.
double body_travel(const btCollisionShape* shape, const btTransform& before, const btTransform& after) {
  btVector3 centre;
  btScalar radius = 0;
  shape->getBoundingSphere(centre, radius);
  const double reach = centre.length() + radius;
  const btQuaternion turn = before.getRotation().inverse() * after.getRotation();
  const double angle = 2.0 * std::acos(std::min(1.0, std::fabs(static_cast<double>(turn.getW()))));
  return (after.getOrigin() - before.getOrigin()).length() + angle * reach;
}

// ---- The per-tick checker -------------------------------------------------------

class Checker {
 public:
  explicit Checker(const Scenario& scenario) : scenario_(scenario), dt_(1.0 / scenario.tick_rate), features_(scenario) {
    up_ = btVector3(scenario.up[0], scenario.up[1], scenario.up[2]);
  }

  void observe(const TickView& view) {
    const CharacterState& s = view.controller.state();
    if (view.tick == 0) {
      geometry_ = collect_static_geometry(scenario_, view.world);
      feet_to_center_ = view.controller.context().feet_to_center;
      start_overlap_ = view.controller.penetration_depth();
    }
    check_finite(view.tick, s, view.report);
    const btVector3 centre = s.position + up_ * view.controller.context().feet_to_center;
    measure_character_travel(view);
    if (view.tick > 0 && finite(s.position) && finite(previous_position_)) {
      const double carry = moving_body_travel(view.world, view.tick) + others_travel(0);
      check_overlap(view);
      check_tunnel(view.tick, previous_centre_, centre);
      check_rise(view, carry);
      check_fall_speed(view, carry);
      check_launch(view, carry);
      check_apex(view, carry);
    }
    observe_others(view);
    features_.observe(view, &found_);
    for (const Violation& v : found_) add(v.kind, v.tick, v.message, v.limit);
    found_.clear();
    previous_grounded_ = s.grounded;
    previous_jump_held_ = view.tick > 0 && view.input.jump;  // tick 0's input is not played
    previous_position_ = s.position;
    previous_velocity_ = s.velocity;
    previous_centre_ = centre;
    ticks_ = view.tick;
  }

  void add(InvariantKind kind, std::int64_t tick, const std::string& message, double limit = 0.0) {
    for (const Violation& v : violations_) {
      if (v.kind == kind) return;  // the first of each kind says enough
    }
    violations_.push_back(Violation{kind, tick, message, limit});
  }

  InvariantReport report() const {
    InvariantReport r;
    r.violations = violations_;
    std::stable_sort(r.violations.begin(), r.violations.end(),
                     [](const Violation& a, const Violation& b) { return a.tick < b.tick; });
    r.ticks_checked = ticks_;
    return r;
  }

 private:
  const ControllerSettings& settings(const TickView& view) const { return view.controller.settings(); }

  void check_finite(std::int64_t tick, const CharacterState& s, const TickReport& report) {
    const bool ok = finite(s.position) && finite(s.velocity) && finite(s.ground_normal) && std::isfinite(s.camera_dy) &&
                    std::isfinite(report.step_dy);
    if (!ok) {
      add(InvariantKind::NonFinite, tick,
          "state is not finite: feet " + text(s.position) + ", velocity " + text(s.velocity) + ", camera_dy " +
              text(s.camera_dy));
    }
  }

  /// Sum over moving bodies of the farthest any of their points moved this tick.
  double moving_body_travel(const World& world, std::int64_t tick) const {
    double travel = 0.0;
    for (const WorldBody& body : world.bodies()) {
      const BodyDef& def = scenario_.world[body.def_index];
      if (def.dynamic()) {
        // World::step leaves a dynamic body's pose before the step as its
        // interpolation transform.
        travel += body_travel(body.object->getCollisionShape(), body.object->getInterpolationWorldTransform(),
                              body.object->getWorldTransform());
        continue;
      }
      if (def.motion.type == MotionType::None) continue;
      travel += body_travel(body.object->getCollisionShape(), world.body_pose(body.def_index, tick - 1),
                            world.body_pose(body.def_index, tick));
    }
    return travel;
  }

  void check_overlap(const TickView& view) {
    if (!view.report.depenetration_converged) return;  // reported as stuck: crushed or wedged, allowed
    double depth = features_.overlap(view);
    const double passed = passed_into_by(0);
    if (depth > settings(view).skin_width + passed && meets_both_ways(0)) {
      depth = world_depth(view, view.controller, scenario_.character.collides_with);
    }
    overlap_violation(view.tick, "", view.controller, depth, passed);
  }

  /// Accepts the scenario's own bodies on the layers of `collides_with`:
  /// the world without the characters.
  class ScenarioBodies : public ContactFilter {
   public:
    ScenarioBodies(const Scenario& scenario, const World& world, std::uint32_t collides_with)
        : scenario_(scenario), world_(world), collides_with_(collides_with) {}
    bool collides_with(const btCollisionObject& body) const override {
      const int index = body.getUserIndex();
      if (index < 0 || static_cast<std::size_t>(index) >= world_.bodies().size()) return false;
      const BodyDef& def = scenario_.world[world_.bodies()[static_cast<std::size_t>(index)].def_index];
      return !def.one_way && (collides_with_ & layer_bit(def.layer)) != 0;
    }
    bool validate(const ContactCandidate&) const override { return true; }

   private:
    const Scenario& scenario_;
    const World& world_;
    std::uint32_t collides_with_;
  };

  /// Deepest overlap of `c`'s shape, where it stands, with the scenario's
  /// bodies on its layers, the other characters left out: an overlap with
  /// another character is the pair's, bounded by the larger of their skins
  /// (`characters_overlap`). A character with a thick skin may end its move
  /// up to half that skin inside one with a thin skin, as inside anything.
  double world_depth(const TickView& view, const CharacterController& c, std::uint32_t collides_with) {
    if (pair_queries_ == nullptr) return 0.0;
    const CharacterContext& ctx = c.context();
    btCollisionObject object;
    object.setCollisionShape(const_cast<btConvexShape*>(ctx.shape));
    object.setWorldTransform(btTransform(ctx.basis(), c.state().position + up_ * ctx.feet_to_center));
    const ScenarioBodies bodies(scenario_, view.world, collides_with);
    pair_queries_->set_filter(&bodies);
    const double deepest = pair_queries_->penetration_depth(&object);
    pair_queries_->set_filter(nullptr);
    return deepest;
  }

  /// The overlap allowed is the skin, plus `passed` (passed_into_by).
  void overlap_violation(std::int64_t tick, const std::string& who, const CharacterController& controller,
                         double depth, double passed) {
    const double skin = controller.settings().skin_width;
    const double limit = skin + passed;
    if (depth > limit + kOverlapRounding) {
      add(InvariantKind::Overlap, tick,
          who + "overlaps the world by " + text(depth) + " m, more than skin_width " + text(skin) +
              (passed > 0.0 ? " plus " + text(passed) + " m that characters passing through it moved after it" : "") +
              ", and the tick did not report it stuck; feet " + text(controller.state().position),
          limit);
    }
  }

  /// The definition of the `index`-th character (0 the first), or null.
  const CharacterDef* character_def(std::size_t index) const {
    if (index == 0) return &scenario_.character;
    return index - 1 < scenario_.others.size() ? &scenario_.others[index - 1].def : nullptr;
  }

  /// How far the characters listed after the `self`-th that it collides
  /// with, but that do not collide with it, moved this tick. They move after
  /// its update and pass through it (docs/format.md §1.7): to it they are
  /// moving bodies, which push it out at its next update. Until then it
  /// overlaps one by at most that one's travel (a character's shape moves
  /// without turning) beyond where its own update left it.
  double passed_into_by(std::size_t self) const {
    const CharacterDef* me = character_def(self);
    double sum = 0.0;
    for (std::size_t j = self + 1; j < character_travel_.size() && me != nullptr; ++j) {
      const CharacterDef* other = character_def(j);
      if (other == nullptr) continue;
      const bool meets = (me->collides_with & layer_bit(other->layer)) != 0;
      const bool met = (other->collides_with & layer_bit(me->layer)) != 0;
      if (meets && !met) sum += character_travel_[j];
    }
    return sum;
  }

  /// The `self`-th character and some other collide both ways: their
  /// overlap is the pair's (`characters_overlap`, the larger skin), and an
  /// overlap deeper than `self`'s own allowance is measured again against
  /// the world's bodies alone. (An overlap with a one-sided neighbour stays
  /// in the measure, allowed that neighbour's travel: passed_into_by.)
  bool meets_both_ways(std::size_t self) const {
    const CharacterDef* me = character_def(self);
    for (std::size_t j = 0; j <= scenario_.others.size() && me != nullptr; ++j) {
      const CharacterDef* other = character_def(j);
      if (j == self || other == nullptr) continue;
      if ((me->collides_with & layer_bit(other->layer)) != 0 && (other->collides_with & layer_bit(me->layer)) != 0) {
        return true;
      }
    }
    return false;
  }

  // ---- The other characters of "characters" ----------------------------------

  /// What the checks of another character remember from the row before.
  struct Track {
    btVector3 position{0, 0, 0}, velocity{0, 0, 0}, centre{0, 0, 0};
    double start_overlap = 0.0;
    /// It collides with the bodies the first character does: the static
    /// geometry collected for the first is its own, so `tunnel` applies.
    bool same_layers = false;
  };

  /// The others get `overlap` (with the world and the other characters, as
  /// their controllers measure it; not where one-way bodies make the
  /// controller's verdict depend on the tick's start), `tunnel` and `rise`;
  /// every pair of characters gets `characters_overlap`.
  void observe_others(const TickView& view) {
    if (view.others.empty()) return;
    if (view.tick == 0) start_others(view);
    for (std::size_t i = 0; i < view.others.size() && i < tracks_.size(); ++i) {
      const OtherCharacterView& other = view.others[i];
      Track& track = tracks_[i];
      const CharacterState& s = other.controller.state();
      const btVector3 centre = s.position + up_ * other.controller.context().feet_to_center;
      const std::string who = "character " + other.name + " ";
      if (view.tick > 0 && finite(s.position) && finite(track.position)) {
        if (other.report.depenetration_converged && !has_one_way_) {
          double depth = other.controller.penetration_depth();
          const double passed = passed_into_by(i + 1);
          if (depth > other.controller.settings().skin_width + passed && i < scenario_.others.size() &&
              meets_both_ways(i + 1)) {
            depth = world_depth(view, other.controller, scenario_.others[i].def.collides_with);
          }
          overlap_violation(view.tick, who, other.controller, depth, passed);
        }
        if (track.same_layers) {
          check_tunnel(view.tick, track.centre, centre, inner_radius(scenario_.others[i].def.shape), who);
        }
        rise_violation(view.tick, who, other.controller, other.input, track.position, track.velocity,
                       track.start_overlap, moving_body_travel(view.world, view.tick) + others_travel(i + 1));
      }
      track.position = s.position;
      track.velocity = s.velocity;
      track.centre = centre;
    }
    if (view.tick > 0) check_characters_overlap(view);
  }

  /// How far each character (the first, then the others) moved this tick,
  /// before any of the checks below remembers the new positions.
  void measure_character_travel(const TickView& view) {
    character_travel_.assign(1 + view.others.size(), 0.0);
    if (view.tick == 0 || view.others.empty() || tracks_.size() != view.others.size()) return;
    character_travel_[0] = (view.controller.state().position - previous_position_).length();
    for (std::size_t i = 0; i < view.others.size(); ++i) {
      character_travel_[i + 1] = (view.others[i].controller.state().position - tracks_[i].position).length();
    }
    for (double& d : character_travel_) {
      if (!std::isfinite(d)) d = 0.0;
    }
  }

  /// What the characters but the `self`-th moved this tick: one carries or
  /// lifts another standing on it as a moving body would.
  double others_travel(std::size_t self) const {
    double sum = 0.0;
    for (std::size_t i = 0; i < character_travel_.size(); ++i) {
      if (i != self) sum += character_travel_[i];
    }
    return sum;
  }

  void start_others(const TickView& view) {
    tracks_.assign(view.others.size(), Track{});
    for (std::size_t i = 0; i < view.others.size() && i < scenario_.others.size(); ++i) {
      tracks_[i].start_overlap = view.others[i].controller.penetration_depth();
      tracks_[i].same_layers = meet_the_same_bodies(scenario_.others[i].def, scenario_.character);
    }
    for (const BodyDef& def : scenario_.world) has_one_way_ = has_one_way_ || def.one_way;
    pair_queries_ = std::make_unique<CollisionQueries>(const_cast<World&>(view.world).collision_world(), nullptr);
  }

  /// Whether two characters meet the same bodies of the world: their
  /// lists may differ on layers no body is on (the characters' own).
  bool meet_the_same_bodies(const CharacterDef& a, const CharacterDef& b) const {
    return std::all_of(scenario_.world.begin(), scenario_.world.end(), [&](const BodyDef& def) {
      return ((a.collides_with & layer_bit(def.layer)) != 0) == ((b.collides_with & layer_bit(def.layer)) != 0);
    });
  }

  /// Accepts one body: the character whose overlap a pair measures.
  class OnlyBody : public ContactFilter {
   public:
    explicit OnlyBody(const btCollisionObject& body) : body_(&body) {}
    bool collides_with(const btCollisionObject& body) const override { return &body == body_; }
    bool validate(const ContactCandidate&) const override { return true; }

   private:
    const btCollisionObject* body_;
  };

  /// No two characters overlap by more than the larger of their skins,
  /// unless either reported itself stuck this tick or they do not collide
  /// both ways (layers: one that passes through the other may end inside it).
  void check_characters_overlap(const TickView& view) {
    struct Member {
      const std::string* name;
      CharacterController* controller;
      const TickReport* report;
      const CharacterDef* def;
    };
    const std::string first = scenario_.character.name.empty() ? std::string("first") : scenario_.character.name;
    std::vector<Member> all{{&first, &view.controller, &view.report, &scenario_.character}};
    for (std::size_t i = 0; i < view.others.size(); ++i) {
      const OtherCharacterView& o = view.others[i];
      all.push_back({&o.name, &o.controller, &o.report, i < scenario_.others.size() ? &scenario_.others[i].def : nullptr});
    }
    const auto meet = [](const CharacterDef* a, const CharacterDef* b) {
      if (a == nullptr || b == nullptr) return true;
      return (a->collides_with & layer_bit(b->layer)) != 0 && (b->collides_with & layer_bit(a->layer)) != 0;
    };
    for (std::size_t i = 0; i < all.size(); ++i) {
      for (std::size_t j = i + 1; j < all.size(); ++j) {
        if (!meet(all[i].def, all[j].def)) continue;
        if (!all[i].report->depenetration_converged || !all[j].report->depenetration_converged) continue;
        const CharacterController& a = *all[i].controller;
        const CharacterController& b = *all[j].controller;
        if (!finite(a.state().position) || !finite(b.state().position)) continue;
        // Each shape where its state stands against the other's body where
        // its last update posed it: both ways, so that neither alone decides.
        const double depth = std::max(pair_depth(a, b), pair_depth(b, a));
        const double limit = std::max(a.settings().skin_width, b.settings().skin_width);
        if (depth > limit + kOverlapRounding) {
          add(InvariantKind::CharactersOverlap, view.tick,
              "characters " + *all[i].name + " and " + *all[j].name + " overlap by " + text(depth) +
                  " m, more than their skin " + text(limit) + ", and neither tick reported stuck; feet " +
                  text(a.state().position) + " and " + text(b.state().position),
              limit);
          return;
        }
      }
    }
  }

  /// Deepest overlap of `a`'s shape, where it stands, with `b`'s body, as
  /// the controller's queries measure it.
  double pair_depth(const CharacterController& a, const CharacterController& b) {
    const CharacterContext& ctx = a.context();
    btCollisionObject object;
    object.setCollisionShape(const_cast<btConvexShape*>(ctx.shape));
    object.setWorldTransform(btTransform(ctx.basis(), a.state().position + up_ * ctx.feet_to_center));
    const OnlyBody only(b.body());
    pair_queries_->set_filter(&only);
    const double deepest = pair_queries_->penetration_depth(&object);
    pair_queries_->set_filter(nullptr);
    return deepest;
  }

  /// For a fall through a floor-like surface (normal within 45 degrees of
  /// up, crossed going down): the lowest feet height that would have kept the
  /// centre above the crossing. NaN otherwise.
  double floor_limit(const btVector3& from, const btVector3& to, const btVector3& crossing,
                     const btVector3& normal) const {
    const double length = normal.length();
    const bool floor_like = length > 0.0 && std::fabs(normal.dot(up_)) >= std::sqrt(0.5) * length;
    if (!floor_like || (to - from).dot(up_) >= 0.0) return std::nan("");
    return crossing.dot(up_) - feet_to_center_;
  }

  void check_tunnel(std::int64_t tick, const btVector3& from, const btVector3& to) {
    check_tunnel(tick, from, to, inner_radius(scenario_.character.shape), "");
  }

  void check_tunnel(std::int64_t tick, const btVector3& from, const btVector3& to, double inner,
                    const std::string& who) {
    const double margin = (to - from).length() + inner;
    for (const SolidBox& box : geometry_.boxes) {
      int axis = 0;
      btVector3 crossing;
      if (passes_through(box, from, to, margin, &axis, &crossing)) {
        add(InvariantKind::Tunnel, tick,
            who + "the shape's centre passed through static box " + box.body + " along its local " + "xyz"[axis] +
                " axis, from " + text(from) + " to " + text(to),
            floor_limit(from, to, crossing, box.pose.getBasis().getColumn(axis)));
        return;
      }
    }
    btVector3 lo = from, hi = from;
    lo.setMin(to);
    hi.setMax(to);
    for (const Surface& surface : geometry_.surfaces) {
      if (hi.x() < surface.lo.x() || hi.y() < surface.lo.y() || hi.z() < surface.lo.z() ||
          lo.x() > surface.hi.x() || lo.y() > surface.hi.y() || lo.z() > surface.hi.z()) {
        continue;
      }
      for (const Triangle& t : surface.triangles) {
        btVector3 point;
        if (!segment_hits_triangle(from, to, t, &point)) continue;
        const bool near_boundary =
            std::any_of(surface.boundary.begin(), surface.boundary.end(),
                        [&](const auto& e) { return distance_to_segment(point, e.first, e.second) < margin; });
        if (near_boundary) continue;
        add(InvariantKind::Tunnel, tick,
            who + "the shape's centre passed through the surface of " + surface.body + " at " + text(point) + ", from " +
                text(from) + " to " + text(to),
            floor_limit(from, to, point, (t.b - t.a).cross(t.c - t.a)));
        return;
      }
    }
  }

  void check_rise(const TickView& view, double carry) {
    rise_violation(view.tick, "", view.controller, view.input, previous_position_, previous_velocity_,
                   start_overlap_, carry);
  }

  void rise_violation(std::int64_t tick, const std::string& who, const CharacterController& controller,
                      const CharacterInput& input, const btVector3& before,
                      const btVector3& velocity_before, double start_overlap, double carry) {
    const ControllerSettings& s = controller.settings();
    const CharacterState& state = controller.state();
    const double rise = (state.position - before).dot(up_);
    const btVector3 before_h = velocity_before - up_ * velocity_before.dot(up_);
    const btVector3 after_h = state.velocity - up_ * state.velocity.dot(up_);
    const double horizontal = std::max(before_h.length(), after_h.length());
    const double slope = std::tan(std::min(s.max_slope_deg, 89.9) * kPi / 180.0);
    const double allowed = std::max(0.0, velocity_before.dot(up_)) * dt_ + (input.jump ? s.jump_speed * dt_ : 0.0) +
                           s.max_step_height + slope * horizontal * dt_ + carry + 2.0 * s.skin_width + kRiseSlack +
                           start_overlap;
    if (rise > allowed) {
      add(InvariantKind::Rise, tick,
          who + "rose " + text(rise) + " m in one tick; velocity, jump, max_step_height, slope and moving bodies allow " +
              text(allowed) + " m; feet " + text(before) + " -> " + text(state.position),
          before.dot(up_) + allowed);
    }
  }

  void check_fall_speed(const TickView& view, double carry) {
    const ControllerSettings& s = settings(view);
    const double falling = -view.controller.state().velocity.dot(up_);
    const double allowed = s.terminal_velocity + (s.inherit_ground_velocity != 0 ? carry / dt_ : 0.0) + 1e-9;
    if (falling > allowed) {
      add(InvariantKind::FallSpeed, view.tick,
          "falls at " + text(falling) + " m/s, faster than terminal_velocity " + text(s.terminal_velocity) +
              (carry > 0.0 ? " plus what moving bodies hand over" : ""));
    }
  }

  /// No collision turns speed upward: on a tick that started in the air
  /// (where no jump starts), the upward speed does not grow.
  void check_launch(const TickView& view, double carry) {
    // A moving body's push turns its motion into any direction the contact
    // points, upward included, by more than it travelled: not checked then.
    if (previous_grounded_ || carry > 0.0) return;
    const double before = previous_velocity_.dot(up_);
    const double after = view.controller.state().velocity.dot(up_);
    const double gained = after - std::max(0.0, before);
    const double allowed = kLaunchSlack;
    if (gained > allowed) {
      // The limit is what was allowed: a finding's max_rise_gain check.
      add(InvariantKind::Launch, view.tick,
          "airborne, the upward speed went from " + text(before) + " to " + text(after) +
              " m/s without a jump or a moving body; feet " + text(view.controller.state().position),
          allowed);
    }
  }

  /// A flight (from the last grounded row to the next) rises no higher than
  /// the ballistic apex of its take-off speed: the jump's plus what the feet
  /// had going up.
  void check_apex(const TickView& view, double carry) {
    const CharacterState& state = view.controller.state();
    const double g = btVector3(scenario_.gravity[0], scenario_.gravity[1], scenario_.gravity[2]).dot(-up_);
    if (state.grounded || g <= 0.0) {
      in_flight_ = false;
      return;
    }
    if (!in_flight_) {
      in_flight_ = true;
      // The controller jumps on the button's press, not while it is held.
      const bool pressed = view.input.jump && !previous_jump_held_;
      const double jump = previous_grounded_ && pressed ? settings(view).jump_speed : 0.0;
      // Walking off, the tick that left the ground may have stepped up
      // first (onto a box the ground probe then missed): the flight starts
      // where that tick ended, if higher.
      takeoff_height_ = previous_position_.dot(up_);
      if (jump == 0.0) takeoff_height_ = std::max(takeoff_height_, state.position.dot(up_));
      takeoff_speed_ = jump + std::max(0.0, previous_velocity_.dot(up_));
      flight_moved_ = false;
    }
    // Once a moving body moved during the flight, what it gave is unknown
    // (see check_launch): the flight is not checked.
    if (carry > 0.0) flight_moved_ = true;
    const double v = takeoff_speed_;
    // The discrete flight gains at most v * dt on its first tick beyond the continuous apex.
    const double allowed = v * v / (2.0 * g) + v * dt_ + kApexSlack + kApexSkins * settings(view).skin_width;
    const double rise = state.position.dot(up_) - takeoff_height_;
    if (rise > allowed && !flight_moved_) {
      add(InvariantKind::Apex, view.tick,
          "rose " + text(rise) + " m above the take-off at " + text(takeoff_height_) + "; the ballistic apex of " +
              text(v) + " m/s allows " + text(allowed) + " m",
          allowed);
    }
  }

  const Scenario& scenario_;
  const double dt_;
  btVector3 up_;
  double feet_to_center_ = 0.0;
  /// How deep the character started inside the world: a start the file put
  /// there is pushed out, and may rise that much more than a tick allows.
  double start_overlap_ = 0.0;
  StaticGeometry geometry_;
  btVector3 previous_position_{0, 0, 0}, previous_velocity_{0, 0, 0}, previous_centre_{0, 0, 0};
  bool previous_grounded_ = true;
  /// Whether the jump button was held on the previous tick (the controller's
  /// jump_was_held before this tick's update).
  bool previous_jump_held_ = false;
  bool in_flight_ = false;  ///< the character has been airborne since takeoff_height_
  double takeoff_height_ = 0.0, takeoff_speed_ = 0.0;
  bool flight_moved_ = false;  ///< a moving body moved during the flight
  std::int64_t ticks_ = 0;
  std::vector<Violation> violations_;
  FeatureChecker features_;  ///< the invariants of dynamic bodies, crouching and one-way bodies
  std::vector<Violation> found_;
  std::vector<Track> tracks_;  ///< one per other character, in file order
  std::vector<double> character_travel_;  ///< this tick's, per character (the first's first)
  bool has_one_way_ = false;
  std::unique_ptr<CollisionQueries> pair_queries_;  ///< measures one character against another
};

/// The first trajectory row where two CSV texts differ (-1: the header), and both lines.
/// Identical to the bit: NaN equals NaN, 0 differs from -0.
bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// The first cell (row, then column) where two runs differ in any bit, as
/// "row N, column C: A then B"; row -1 when the columns or row counts differ.
std::pair<std::int64_t, std::string> first_difference(const Trajectory& a, const Trajectory& b) {
  if (a.columns != b.columns) return {-1, "the header"};
  const std::size_t rows = std::min(a.rows.size(), b.rows.size());
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < a.columns.size(); ++c) {
      if (same_bits(a.rows[r][c], b.rows[r][c])) continue;
      return {static_cast<std::int64_t>(r), "row " + std::to_string(r) + ", column " + a.columns[c] + ": " +
                                                format_number(a.rows[r][c]) + " then " + format_number(b.rows[r][c])};
    }
  }
  if (a.rows.size() != b.rows.size()) return {static_cast<std::int64_t>(rows), "the row count"};
  return {-1, "no difference"};
}

/// The rerun's rollback seed: the scenario's name, hashed as FNV-1a (the
/// same rewinds on every platform).
std::uint64_t rollback_seed(const Scenario& scenario) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : scenario.name) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h;
}

/// The row a rollback mismatch names ("rollback at tick T: row R column
/// ..."), or its tick when it names none.
std::int64_t rollback_row(const std::string& mismatch) {
  for (const char* key : {"row ", "tick "}) {
    const std::size_t at = mismatch.find(key);
    if (at != std::string::npos) return std::atoll(mismatch.c_str() + at + std::strlen(key));
  }
  return 0;
}

}  // namespace

bool invariant_is_open(InvariantKind) { return false; }

bool InvariantReport::failing() const {
  for (const Violation& v : violations) {
    if (!invariant_is_open(v.kind)) return true;
  }
  return false;
}

const char* invariant_name(InvariantKind kind) {
  switch (kind) {
    case InvariantKind::NonFinite: return "non_finite";
    case InvariantKind::Overlap: return "overlap";
    case InvariantKind::Tunnel: return "tunnel";
    case InvariantKind::Rise: return "rise";
    case InvariantKind::FallSpeed: return "fall_speed";
    case InvariantKind::Nondeterministic: return "nondeterministic";
    case InvariantKind::Exception: return "exception";
    case InvariantKind::Launch: return "launch";
    case InvariantKind::Apex: return "apex";
    case InvariantKind::Rollback: return "rollback";
    case InvariantKind::BodyTunnel: return "body_tunnel";
    case InvariantKind::Speed: return "speed";
    case InvariantKind::Rest: return "rest";
    case InvariantKind::CrouchFit: return "crouch_fit";
    case InvariantKind::OneWay: return "one_way";
    case InvariantKind::CharactersOverlap: return "characters_overlap";
  }
  return "?";
}

const Violation* InvariantReport::first(InvariantKind kind) const {
  for (const Violation& v : violations) {
    if (v.kind == kind) return &v;
  }
  return nullptr;
}

InvariantReport check_invariants(const Scenario& scenario, const InvariantOptions& options) {
  Checker checker(scenario);
  Trajectory observed;
  try {
    SimulationOptions observe;
    observe.on_tick = [&checker, &options](const TickView& view) {
      if (options.before_check) options.before_check(view);
      checker.observe(view);
    };
    SimulationResult result = simulate(scenario, observe);
    // The runner stops before handing a non-finite row to the observer, so
    // the checker never sees that tick: its stop is the violation.
    if (!result.error.empty()) {
      checker.add(InvariantKind::NonFinite, static_cast<std::int64_t>(result.trajectory.rows.size()),
                  "state is not finite: " + result.error);
    }
    observed = std::move(result.trajectory);
  } catch (const std::exception& e) {
    checker.add(InvariantKind::Exception, 0, std::string("simulation threw: ") + e.what());
    return checker.report();
  }
  if (options.check_rerun) {
    try {
      SimulationOptions rollback;
      rollback.rollback_seed = rollback_seed(scenario);
      const SimulationResult rolled = simulate(scenario, rollback);
      if (!rolled.rollback_mismatch.empty()) {
        checker.add(InvariantKind::Rollback, rollback_row(rolled.rollback_mismatch), rolled.rollback_mismatch);
      }
      const auto [row, where] = first_difference(observed, rolled.trajectory);
      if (where != "no difference" && rolled.rollback_mismatch.empty()) {
        checker.add(InvariantKind::Nondeterministic, std::max<std::int64_t>(row, 0),
                    "a second run differs from the first (which measured overlaps each tick) at " + where);
      }
    } catch (const std::exception& e) {
      checker.add(InvariantKind::Exception, 0, std::string("second run threw: ") + e.what());
    }
  }
  return checker.report();
}

std::string format_violations(const InvariantReport& report) {
  std::string out;
  for (const Violation& v : report.violations) {
    out += std::string(invariant_name(v.kind)) + " at tick " + std::to_string(v.tick) + ": " + v.message + "\n";
  }
  return out;
}

}  // namespace stepslide
