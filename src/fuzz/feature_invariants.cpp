#include "fuzz/feature_invariants.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "base/format.h"
#include "fuzz/random_features.h"
#include "scenario/load/convert.h"
#include "scenario/load/world.h"
#include "scenario/run/simulate.h"
#include "stepslide/collision.h"
#include "stepslide/contact_filter.h"
#include "stepslide/controller.h"

namespace stepslide {

namespace {

/// Upward-free rounding a speed may gain (the clip of a velocity against
/// planes works on values of a few m/s).
constexpr double kSpeedSlack = 1e-6;
/// How far past a limit an overlap may measure by rounding alone.
constexpr double kDepthRounding = 1e-9;
/// How far below a one-way body's top the feet may start and still be
/// above it (rounding of a character standing on it).
constexpr double kOnTop = 0.001;
/// How near (m, beyond the skin) a moving body must come to the character
/// to count as touching it, for the speed it may hand over.
constexpr double kTouchReach = 0.1;
/// How far a resting stack's box may drift, and turn, while nothing came
/// near: Bullet's solver lets a stack settle by about a tick of free fall
/// in its first ticks (a centimetre at 30 Hz) and creep by millimetres; a
/// stack that topples or flies apart goes far beyond.
constexpr double kRestDrift = 0.03;
constexpr double kRestTurnDeg = 3.0;
/// How near anything must come to a stack to count as touching it.
constexpr double kStackReach = 0.1;

std::string text(double v) { return format_number(v); }
std::string text(const btVector3& v) { return "(" + text(v.x()) + ", " + text(v.y()) + ", " + text(v.z()) + ")"; }

double angle_between(const btTransform& a, const btTransform& b) {
  const btQuaternion turn = a.getRotation().inverse() * b.getRotation();
  return 2.0 * std::acos(std::min(1.0, std::fabs(static_cast<double>(turn.getW()))));
}

/// Farthest any point of a body travels between two poses.
double travel(const btCollisionShape* shape, const btTransform& before, const btTransform& after) {
  btVector3 centre;
  btScalar radius = 0;
  shape->getBoundingSphere(centre, radius);
  return (after.getOrigin() - before.getOrigin()).length() + angle_between(before, after) * (centre.length() + radius);
}

bool moving(const BodyDef& def) { return def.dynamic() || def.motion.type != MotionType::None; }

/// The pose a moving body had a tick ago: World keeps it as the
/// interpolation transform of kinematic and dynamic bodies alike.
const btTransform& pose_before(const WorldBody& body, const BodyDef& def) {
  return moving(def) ? body.object->getInterpolationWorldTransform() : body.object->getWorldTransform();
}

void bounds(const btCollisionObject* object, const btTransform& pose, btVector3* low, btVector3* high) {
  object->getCollisionShape()->getAabb(pose, *low, *high);
}

/// Which bodies a depth measurement counts (FeatureChecker::depth).
class BodySelection : public ContactFilter {
 public:
  BodySelection(const Scenario& scenario, const World& world, std::size_t only)
      : scenario_(scenario), world_(world), only_(only) {}
  bool collides_with(const btCollisionObject& body) const override {
    const int index = body.getUserIndex();
    if (index < 0 || static_cast<std::size_t>(index) >= world_.bodies().size()) return false;
    const std::size_t def = world_.bodies()[static_cast<std::size_t>(index)].def_index;
    if (only_ != kEvery) return def == only_;
    const BodyDef& b = scenario_.world[def];
    return !b.one_way && (scenario_.character.collides_with & layer_bit(b.layer)) != 0;
  }
  bool validate(const ContactCandidate&) const override { return true; }
  static constexpr std::size_t kEvery = static_cast<std::size_t>(-1);

 private:
  const Scenario& scenario_;
  const World& world_;
  std::size_t only_;
};

}  // namespace

FeatureChecker::FeatureChecker(const Scenario& scenario) : scenario_(scenario), dt_(1.0 / scenario.tick_rate) {
  up_ = btVector3(scenario.up[0], scenario.up[1], scenario.up[2]);
  for (const BodyDef& def : scenario.world) {
    has_dynamic_ = has_dynamic_ || def.dynamic();
    has_one_way_ = has_one_way_ || def.one_way;
  }
}

FeatureChecker::~FeatureChecker() = default;

namespace {

/// `name` is the box `level` up its stack (<group>_<level>).
bool is_stack_level(const std::string& name, std::size_t level) {
  const std::size_t underscore = name.find('_');
  return underscore != std::string::npos && name.substr(underscore + 1) == std::to_string(level);
}

}  // namespace

void FeatureChecker::start(const TickView& view) {
  // The queries only read the world (the checker measures, never moves).
  queries_ = std::make_unique<CollisionQueries>(const_cast<World&>(view.world).collision_world(), nullptr);
  std::map<std::string, std::size_t> stack_of;
  for (std::size_t i = 0; i < view.world.bodies().size(); ++i) {
    const WorldBody& body = view.world.bodies()[i];
    const BodyDef& def = scenario_.world[body.def_index];
    if (!def.dynamic() || def.name.rfind(kRestingStackPrefix, 0) != 0) continue;
    const std::string group = def.name.substr(0, def.name.find('_'));
    auto [it, fresh] = stack_of.emplace(group, stacks_.size());
    if (fresh) stacks_.emplace_back();
    stacks_[it->second].bodies.push_back(i);
    stacks_[it->second].start.push_back(body.object->getWorldTransform());
    stacks_[it->second].whole = stacks_[it->second].whole && is_stack_level(def.name, stacks_[it->second].bodies.size() - 1);
  }
  // A stack with a box taken out (the shrinker drops bodies one by one) is
  // no longer built at rest: what stood on the missing box falls.
  stacks_.erase(std::remove_if(stacks_.begin(), stacks_.end(), [](const Stack& s) { return !s.whole; }), stacks_.end());
}

void FeatureChecker::observe(const TickView& view, std::vector<Violation>* out) {
  const CharacterState& s = view.controller.state();
  const btVector3 centre = s.position + up_ * view.controller.context().feet_to_center;
  if (view.tick == 0) {
    start(view);
  } else {
    check_body_tunnel(view, centre, out);
    check_speed(view, out);
    check_rest(view, out);
    check_crouch_fit(view, out);
    check_one_way(view, out);
  }
  previous_position_ = s.position;
  previous_velocity_ = s.velocity;
  previous_centre_ = centre;
  previous_shape_ = view.controller.shape();
  character_bounds(view, s.position, &previous_low_, &previous_high_);
  previous_ground_ = s.grounded ? s.ground_object : nullptr;
  previous_push_ = view.controller.body().pending_push();
}

void FeatureChecker::character_bounds(const TickView& view, const btVector3& feet, btVector3* low,
                                      btVector3* high) const {
  const CharacterContext& ctx = view.controller.context();
  ctx.shape->getAabb(btTransform(ctx.basis(), feet + up_ * ctx.feet_to_center), *low, *high);
}

bool FeatureChecker::drop_held(std::int64_t input_tick) const {
  bool held = false;
  for (const InputKey& key : scenario_.input) {
    if (key.tick > input_tick) break;
    if (key.drop) held = *key.drop;
  }
  return held;
}

double FeatureChecker::overlap(const TickView& view) {
  if (!has_one_way_ || queries_ == nullptr) return view.controller.penetration_depth();
  const CharacterContext& ctx = view.controller.context();
  const btTransform pose(ctx.basis(), view.controller.state().position + up_ * ctx.feet_to_center);
  return depth(view, ctx.shape, pose, BodySelection::kEvery);
}

double FeatureChecker::depth(const TickView& view, const btConvexShape* shape, const btTransform& pose,
                             std::size_t only) {
  BodySelection selection(scenario_, view.world, only);
  queries_->set_filter(&selection);
  btCollisionObject object;
  object.setCollisionShape(const_cast<btConvexShape*>(shape));
  object.setWorldTransform(pose);
  const double deepest = queries_->penetration_depth(&object);
  queries_->set_filter(nullptr);
  return deepest;
}

/// The character's centre never passes through a dynamic box, nor a box
/// through it: the centre's path seen from the box (its pose a tick ago,
/// then now) crosses no pair of its opposite faces well inside the others.
void FeatureChecker::check_body_tunnel(const TickView& view, const btVector3& centre, std::vector<Violation>* out) {
  if (!has_dynamic_) return;
  const CharacterShapeDesc& shape = view.controller.shape();
  using Kind = CharacterShapeDesc::Kind;
  const double inner = shape.kind == Kind::Box
                           ? std::min({shape.half_extents.x(), shape.half_extents.y(), shape.half_extents.z()})
                       : shape.kind == Kind::Cylinder ? std::min(shape.radius, 0.5 * shape.height)
                                                      : shape.radius;
  for (const WorldBody& body : view.world.bodies()) {
    const BodyDef& def = scenario_.world[body.def_index];
    if (!def.dynamic() || def.shape.type != ShapeType::Box) continue;
    if ((scenario_.character.collides_with & layer_bit(def.layer)) == 0) continue;
    const btVector3 half = static_cast<const btBoxShape*>(body.object->getCollisionShape())->getHalfExtentsWithMargin();
    // The box is the body's shape, at its object's pose.
    const btVector3 a = body.object->getInterpolationWorldTransform().invXform(previous_centre_);
    const btVector3 b = body.object->getWorldTransform().invXform(centre);
    const double margin = (b - a).length() + inner;
    for (int k = 0; k < 3; ++k) {
      const double h = half[k];
      if (!((a[k] > h && b[k] < -h) || (a[k] < -h && b[k] > h))) continue;
      const btVector3 mid = a + (b - a) * (a[k] / (a[k] - b[k]));
      bool inside = true;
      for (int i = 0; i < 3; ++i) {
        if (i != k && std::fabs(mid[i]) > half[i] - margin) inside = false;
      }
      if (!inside) continue;
      out->push_back({InvariantKind::BodyTunnel, view.tick,
                      "the shape's centre and dynamic body " + def.name + " passed through each other along its local " +
                          "xyz"[k] + " axis: centre " + text(previous_centre_) + " -> " + text(centre),
                      0.0});
      return;
    }
  }
}

/// No speed from nowhere: across `up`, the speed grows to no more than the
/// input asks (walk_speed, or along a slope up to max_slope_deg that over
/// its cosine; a wish_velocity's length); along it, by no more than a jump
/// and a tick of gravity; and besides, by no more than the speeds of the
/// moving bodies within reach of the character, where it starts the tick
/// (with the shape it has then) or ends it. The body it stood on carries the
/// feet rigidly, at their own distance from its centre, which may lie beyond
/// any point of the body (feet past its edge): that body counts the farther
/// of its own travel and the feet's carry. (A slide turns speed from one
/// into the other, never adds to the whole.) The speed it starts from is
/// the row before's plus the push the other characters gave it after that
/// row was made (they update after it, and it takes their push at the
/// start of its next update). That push is counted as given: a pusher may
/// have stopped against the character since (its speed now is no bound on
/// it), and its size is the push rule's (push_impulse: never more than the
/// pusher's approach speed), tested on its own.
void FeatureChecker::check_speed(const TickView& view, std::vector<Violation>* out) {
  const ControllerSettings& settings = view.controller.settings();
  const CharacterState& s = view.controller.state();
  btVector3 low, high;
  character_bounds(view, s.position, &low, &high);
  low.setMin(previous_low_);
  high.setMax(previous_high_);
  const double reach = settings.skin_width + kTouchReach;
  low -= btVector3(reach, reach, reach);
  high += btVector3(reach, reach, reach);
  double bodies = 0.0;
  for (const WorldBody& body : view.world.bodies()) {
    const BodyDef& def = scenario_.world[body.def_index];
    if (!moving(def)) continue;
    const btTransform& before = pose_before(body, def);
    const btTransform& now = body.object->getWorldTransform();
    btVector3 body_low, body_high, was_low, was_high;
    bounds(body.object, now, &body_low, &body_high);
    bounds(body.object, before, &was_low, &was_high);
    body_low.setMin(was_low);
    body_high.setMax(was_high);
    const bool ridden = body.object == previous_ground_;
    if (!ridden && !TestAabbAgainstAabb2(low, high, body_low, body_high)) continue;
    double moved = travel(body.object->getCollisionShape(), before, now);
    if (ridden) moved = std::max(moved, (now * before.invXform(previous_position_) - previous_position_).length());
    bodies += moved / dt_;
  }
  // The other characters of "characters" push the character up to their
  // own speed and carry it when it stands on one: moving bodies too. Each
  // counts the more of this tick and the tick before: they update after the
  // first, so what one did in its update of the tick before (moved under
  // the feet, pushed) reaches the first only in this tick's update.
  previous_others_.resize(view.others.size(), 0.0);
  for (std::size_t i = 0; i < view.others.size(); ++i) {
    const OtherCharacterView& other = view.others[i];
    const btCollisionObject& body = other.controller.body();
    btVector3 body_low, body_high, was_low, was_high;
    bounds(&body, body.getWorldTransform(), &body_low, &body_high);
    bounds(&body, body.getInterpolationWorldTransform(), &was_low, &was_high);
    body_low.setMin(was_low);
    body_high.setMax(was_high);
    double now = 0.0;
    if (TestAabbAgainstAabb2(low, high, body_low, body_high)) {
      now = other.controller.state().velocity.length() +
            travel(body.getCollisionShape(), body.getInterpolationWorldTransform(), body.getWorldTransform()) / dt_;
    }
    bodies += std::max(now, previous_others_[i]);
    previous_others_[i] = now;
  }
  const double gravity = btVector3(scenario_.gravity[0], scenario_.gravity[1], scenario_.gravity[2]).length();
  const double slope = std::cos(std::min(settings.max_slope_deg, 89.0) * kPi / 180.0);
  const double input = view.input.use_wish_velocity ? view.input.wish_velocity.length() : settings.walk_speed;
  const double jump = view.input.jump ? settings.jump_speed : 0.0;
  const btVector3 start = previous_velocity_ + previous_push_;
  const double along = start.dot(up_);
  const double across = (start - up_ * along).length();
  const double flat = std::max(across, input / slope);
  const double vertical = std::fabs(along) + jump + gravity * dt_;
  const double allowed = std::sqrt(flat * flat + vertical * vertical) + bodies + kSpeedSlack;
  const double speed = s.velocity.length();
  if (speed > allowed) {
    out->push_back({InvariantKind::Speed, view.tick,
                    "the speed went from " + text(previous_velocity_.length()) +
                        (previous_push_.isZero() ? "" : " (" + text(start.length()) + " with the characters' push)") +
                        " to " + text(speed) +
                        " m/s; input, jump, gravity and the moving bodies within reach (" + text(bodies) +
                        " m/s) allow " + text(allowed) + " m/s; feet " + text(s.position),
                    allowed});
  }
}

/// A stack the generator built at rest stays at rest while nothing comes
/// near it: neither the character nor any other moving body.
void FeatureChecker::check_rest(const TickView& view, std::vector<Violation>* out) {
  if (stacks_.empty()) return;
  btVector3 character_low, character_high;
  character_bounds(view, view.controller.state().position, &character_low, &character_high);
  const double reach = view.controller.settings().skin_width + kStackReach;
  character_low -= btVector3(reach, reach, reach);
  character_high += btVector3(reach, reach, reach);
  for (Stack& stack : stacks_) {
    if (stack.touched) continue;
    const auto member = [&stack](std::size_t i) {
      return std::find(stack.bodies.begin(), stack.bodies.end(), i) != stack.bodies.end();
    };
    for (const std::size_t i : stack.bodies) {
      btVector3 low, high;
      bounds(view.world.bodies()[i].object, view.world.bodies()[i].object->getWorldTransform(), &low, &high);
      low -= btVector3(kStackReach, kStackReach, kStackReach);
      high += btVector3(kStackReach, kStackReach, kStackReach);
      if (TestAabbAgainstAabb2(low, high, character_low, character_high)) stack.touched = true;
      // The other characters of "characters" touch it as the first does.
      for (const OtherCharacterView& o : view.others) {
        btVector3 other_low, other_high;
        bounds(&o.controller.body(), o.controller.body().getWorldTransform(), &other_low, &other_high);
        const double other_reach = o.controller.settings().skin_width;
        other_low -= btVector3(other_reach, other_reach, other_reach);
        other_high += btVector3(other_reach, other_reach, other_reach);
        if (TestAabbAgainstAabb2(low, high, other_low, other_high)) stack.touched = true;
      }
      for (std::size_t j = 0; j < view.world.bodies().size() && !stack.touched; ++j) {
        const WorldBody& other = view.world.bodies()[j];
        if (member(j) || !moving(scenario_.world[other.def_index])) continue;
        btVector3 other_low, other_high;
        bounds(other.object, other.object->getWorldTransform(), &other_low, &other_high);
        if (TestAabbAgainstAabb2(low, high, other_low, other_high)) stack.touched = true;
      }
    }
    if (stack.touched) continue;
    // Bullet's contacts between stacked boxes catch the upper ones only
    // after up to three ticks of free fall at the start (the top of four
    // boxes: 1 + 2 + 3 ticks' worth of g dt²).
    const double gravity = btVector3(scenario_.gravity[0], scenario_.gravity[1], scenario_.gravity[2]).length();
    const double settle = 6.0 * gravity * dt_ * dt_;
    for (std::size_t k = 0; k < stack.bodies.size(); ++k) {
      const WorldBody& body = view.world.bodies()[stack.bodies[k]];
      const btTransform& now = body.object->getWorldTransform();
      const double drift = (now.getOrigin() - stack.start[k].getOrigin()).length();
      const double turn = angle_between(stack.start[k], now) * 180.0 / kPi;
      if (drift <= kRestDrift + settle && turn <= kRestTurnDeg) continue;
      out->push_back({InvariantKind::Rest, view.tick,
                      "body " + scenario_.world[body.def_index].name + " of a stack at rest moved " + text(drift) +
                          " m and turned " + text(turn) + " degrees with nothing near it",
                      kRestDrift});
      stack.touched = true;  // said once
      return;
    }
  }
}

/// A shape is taken only where it fits: the shape the character changed to
/// overlaps no body it collides with (one-way bodies aside: the controller
/// asks its contact filter about those) where the change was made, at the
/// feet of the row before, by more than the runner's maximum (0: its skin
/// may, the shape itself may not).
void FeatureChecker::check_crouch_fit(const TickView& view, std::vector<Violation>* out) {
  const CharacterShapeDesc& shape = view.controller.shape();
  if (same_shape(shape, previous_shape_)) return;
  const std::unique_ptr<btConvexShape> made = make_character_shape(shape, 0.0);
  const btTransform pose(view.controller.context().basis(), previous_position_ + up_ * feet_to_center(shape));
  const double deepest = depth(view, made.get(), pose, BodySelection::kEvery);
  if (deepest > kStanceFitTolerance + kDepthRounding) {
    out->push_back({InvariantKind::CrouchFit, view.tick,
                    "the shape changed (to one " + text(2.0 * feet_to_center(shape)) + " m tall) where it overlaps the world by " +
                        text(deepest) + " m; feet " + text(previous_position_),
                    0.0});
  }
}

/// The character never ends a tick inside a one-way box (deeper than the
/// skin) that it was above at the start of the tick (its feet on or above
/// the top face, less a millimetre), unless `drop` was held or the tick
/// reported it stuck.
void FeatureChecker::check_one_way(const TickView& view, std::vector<Violation>* out) {
  if (!view.report.depenetration_converged) return;
  const double skin = view.controller.settings().skin_width;
  bool dropping = false;
  bool asked = false;
  for (const WorldBody& body : view.world.bodies()) {
    const BodyDef& def = scenario_.world[body.def_index];
    if (!def.one_way || def.dynamic() || def.shape.type != ShapeType::Box) continue;
    if ((scenario_.character.collides_with & layer_bit(def.layer)) == 0) continue;
    const btTransform& before = pose_before(body, def);
    const btVector3 normal = before.getBasis().getColumn(1);
    if (normal.dot(up_) < 0.999) continue;  // tilted: "above" would need the shape's own extent along it
    const btVector3 half = static_cast<const btBoxShape*>(body.object->getCollisionShape())->getHalfExtentsWithMargin();
    const double above = (previous_position_ - before.getOrigin()).dot(normal) - half.y();
    if (above < -kOnTop) continue;
    if (!asked) {
      dropping = drop_held(view.tick - 1);
      asked = true;
    }
    if (dropping) return;
    const CharacterContext& ctx = view.controller.context();
    const btTransform pose(ctx.basis(), view.controller.state().position + up_ * ctx.feet_to_center);
    const double deepest = depth(view, ctx.shape, pose, body.def_index);
    if (deepest > skin + kDepthRounding) {
      out->push_back({InvariantKind::OneWay, view.tick,
                      "ended the tick " + text(deepest) + " m inside one-way body " + body.name +
                          ", whose top its feet were " + text(above) + " m above at the start; feet " +
                          text(previous_position_) + " -> " + text(view.controller.state().position),
                      skin});
      return;
    }
  }
}

}  // namespace stepslide
