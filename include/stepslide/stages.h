// The stages of a tick, each a function over explicit inputs that can be
// called and tested alone, and the composed stages CharacterController::update
// runs in order (ride_ground, depenetrate, steer, move_character, settle,
// absorb_steps, push_bodies): a game that needs a different tick can compose its own from
// them. No I/O.
#pragma once

#include <LinearMath/btTransform.h>

#include <cmath>

#include "stepslide/character.h"
#include "stepslide/collision.h"
#include "stepslide/math.h"
#include "stepslide/observer.h"
#include "stepslide/settings.h"

namespace stepslide {

/// Everything the stages need to query the world: the adapter, the shape and
/// its collision object, the settings, the up axis and gravity. The
/// controller owns and fills it; a game composing its own tick may too.
struct CharacterContext {
  CollisionQueries* queries = nullptr;
  const btConvexShape* shape = nullptr;
  /// The shape grown by skin_width on every side and raised by skin_width,
  /// so its bottom stays at the feet (see sweep_transform_at). Motion is swept
  /// with it: the character stops a skin short of walls and ceilings, along
  /// their normal at any angle of approach, while it walks with its feet on
  /// the ground, where the grown shape does not overlap the floor and so never
  /// catches on internal edges of meshes or seams between boxes.
  const btConvexShape* sweep_shape = nullptr;
  /// `sweep_shape`'s bounds at `orientation`, about its centre: what a
  /// carry's swept bounds are made of (sweep_carry) without asking the shape
  /// every tick.
  btVector3 sweep_low{0, 0, 0};
  btVector3 sweep_high{0, 0, 0};
  btCollisionObject* object = nullptr;  ///< owns `shape`, used for overlap queries
  /// The shape grown by `probe_inflation` on every side: Bullet's overlap
  /// query reports no gaps, so small gaps are measured as overlaps of this one.
  btCollisionObject* probe_object = nullptr;
  double probe_inflation = 0.0;
  double feet_to_center = 0.0;          ///< along up
  /// Radius of the largest horizontal circle inside the shape's outline.
  double horizontal_radius = 0.0;
  btVector3 up{0, 1, 0};
  btQuaternion orientation = btQuaternion::getIdentity();  ///< local Y onto up
  btVector3 gravity{0, -9.81, 0};  ///< m/s²
  const ControllerSettings* settings = nullptr;
  /// cos(settings->max_slope_deg), kept with the settings (the walkability
  /// test runs several times per tick).
  double cos_max_slope = 0.70710678118654757;  // cos(45 degrees), the default max_slope_deg
  ControllerObserver* observer = nullptr;  ///< optional

  btTransform transform_at(const btVector3& feet) const;
  /// `orientation` as a matrix, made again only when it changes (the overlap
  /// queries place the shape dozens of times a tick).
  const btMatrix3x3& basis() const;
  /// Pose of `sweep_shape` for the character's feet at `feet`.
  btTransform sweep_transform_at(const btVector3& feet) const;
  /// Points the stages at `s` and caches what is derived from it.
  void use_settings(const ControllerSettings* s);
  /// Within max_slope_deg of up (a slope of exactly the limit is walkable).
  bool is_walkable(const btVector3& normal) const;
  /// Ground closer than this to the feet counts as touching: twice the skin.
  double ground_tolerance() const;

 private:
  mutable bool basis_made_ = false;
  mutable btQuaternion basis_of_;  ///< what basis_ was made from
  mutable btMatrix3x3 basis_;
};

// ---- Stages -----------------------------------------------------------------

struct DepenetrationResult {
  btVector3 position{0, 0, 0};
  int iterations = 0;       ///< overlap queries that found overlap
  bool converged = true;    ///< no overlap deeper than tolerance remains
};
/// Pushes the shape out of every overlap at once: each iteration gathers all
/// contacts, solves for one correction that clears each of them plus the skin,
/// applies it, and looks again, up to max_depenetration_iterations. When they
/// cannot all be cleared (crushed, wedged), only the static level is cleared:
/// a moving body may keep overlapping the character, the level may not.
/// `converged` is then false (the trajectory's `stuck`).
/// `airborne`: the character is in the air, and the level's faces it cannot
/// stand on push it out across `up`, never up (airborne_push_out). In the
/// air there is no step: a moving body lifts the feet by no more than it
/// rose at the contact this tick, plus the skin (on the ground, a push along
/// a moving body's normal may lift them up to max_step_height); deeper, the
/// character stays inside it, stuck. `rising`: airborne and moving up; a
/// shallow overlap of the level alone whose walkable-looking normal is an
/// edge's, not a face's, pushes out across `up` too (no climbing an edge in
/// the air by the skin restored each tick).
DepenetrationResult depenetrate(const CharacterContext& ctx, const btVector3& position, bool airborne = false,
                                 bool rising = false);

/// How one overlap of the static level is cleared: along `direction`, by
/// `depth` (the correction c must reach direction·c >= depth).
struct PushDirection {
  btVector3 direction{0, 0, 0};
  double depth = 0.0;
};
/// In the air, an overlap with a surface the character cannot stand on
/// that faces up (a steep face, the rounded side of an edge) is cleared
/// across `up`: along the normal's part across `up`, by depth / its length,
/// which clears the surface's plane as far as the normal would without
/// lifting the feet. Pushed along the normal, a character pressed into a
/// steep face by the stick (a sweep that starts within Bullet's cast
/// tolerance of the face misses it, so each move ends a little inside) rose
/// by the skin times the normal's rise on every push: it climbed the face in
/// the air. Walkable ground (a landing), surfaces facing down or sideways,
/// and faces within about 3 degrees of level keep the normal.
PushDirection airborne_push_out(const btVector3& normal, double depth, const btVector3& up, double cos_max_slope);

/// Clears the static level only (moving bodies may keep overlapping).
DepenetrationResult depenetrate_level(const CharacterContext& ctx, const btVector3& position, bool airborne = false);
/// Clears the static level and moving bodies alike, each along its contact
/// normal (after a move that ran into them: the bodies did not push), never
/// through the level and never lifting the feet more than a step out of a
/// moving body (not converged then).
DepenetrationResult depenetrate_move_end(const CharacterContext& ctx, const btVector3& position,
                                         bool airborne = false);

/// Deepest overlaps of the shape at a position, 0 when clear.
struct Penetration {
  double level = 0.0;   ///< with the static level
  double moving = 0.0;  ///< with moving (kinematic) bodies
};
Penetration penetration_at(const CharacterContext& ctx, const btVector3& position);

/// At most this many planes are solved together in one move (the slide
/// iterations, plus margin); the oldest is dropped beyond it.
constexpr int kMaxSlidePlanes = 8;

/// The planes one move has met, each a unit normal facing the character.
/// Normals within about 3 degrees of each other are one plane (the newest
/// normal kept): a dense mesh's flat wall answers with its face normal and
/// with normals blended with its triangles' edges.
struct SlidePlanes {
  btVector3 normals[kMaxSlidePlanes];
  int count = 0;
  /// Adds a plane; false when it merged into one already there.
  bool add(const btVector3& normal);
  /// True when `normal` is one of the planes (within the same 3 degrees).
  bool contains(const btVector3& normal) const;
};

struct PlaneSolution {
  btVector3 direction{0, 0, 0};
  int active = 0;        ///< planes it slides along: 0 (free), 1 (a plane) or 2 (a crease)
  bool blocked = false;  ///< the planes together allow no motion toward `wanted`
};

/// The motion closest to `wanted` that pushes into none of `planes` (by
/// more than 1e-9 of its length): `wanted` itself, its projection onto a
/// plane or onto the crease of two, or zero. All the planes at once, as
/// Jolt's CharacterVirtual solves its contacts: clipping against the latest
/// plane alone lets an obtuse corner's second wall send the character back
/// the way it came.
PlaneSolution constrain_to_planes(const btVector3& wanted, const SlidePlanes& planes);

/// The walking velocity after the walls met in a move (already flattened to
/// vertical planes, or surfaces facing down), solved together. Walkable
/// surfaces never clip a walking velocity, so they are not among `walls`: a
/// crease between a wall and a floor edge's tilted normal climbs. And a walk
/// without a jump never leaves with upward velocity from a collision: its
/// upward part is dropped (the feet follow the ground, the ground snap puts
/// them on it), else the next tick would start airborne and fly.
btVector3 clip_walking_velocity(const btVector3& velocity, const SlidePlanes& walls, const btVector3& up);

/// The rule above for every move: no collision turns a velocity or a motion
/// upward. Given what the planes allowed (`clipped`, from constrain_to_planes
/// of `wanted`), the result rises no faster than max(0, the rise of
/// `wanted`): a velocity falling or level before stays so, one rising keeps
/// at most its own rise. When `clipped` rises faster: rising, the answer is
/// the point of the segment from the closest non-rising motion the planes
/// allow to `clipped` that rises exactly that much; falling or level, it is
/// the part across `up` slid along the planes without rising plus the fall
/// solved against them on its own. Either lies in the planes' cone: the
/// capsule's round bottom meeting an edge in the air is slid along the edge
/// and down it, not launched up it, and pushing into two edges does not hold
/// it up. Only a jump, a body that carries or pushes, or an accepted step up
/// may lift the character.
PlaneSolution limit_rise(const btVector3& wanted, const PlaneSolution& clipped, const SlidePlanes& planes,
                         const btVector3& up);

struct SlideOptions {
  int max_iterations = 4;
  /// Grounded walking: non-walkable normals are flattened to horizontal so
  /// steep inclines are not climbed by sliding, and steps are tried.
  bool grounded = false;
  bool allow_step_up = false;
  /// Every normal is flattened: the motion stays horizontal (the forward
  /// sweep of a step-up).
  bool horizontal_only = false;
  /// Walking: the ground the character stands on (zero: none). It is one of
  /// the planes the motion is solved against from the start, so a slide
  /// along a sloping underside never pushes the feet down into the floor
  /// (the ground snap would lift them back into the underside).
  btVector3 ground_normal{0, 0, 0};
  /// How the sweeps are labelled for an observer.
  SweepEvent::Purpose purpose = SweepEvent::Purpose::Slide;
};
struct SlideResult {
  btVector3 position{0, 0, 0};
  btVector3 velocity{0, 0, 0};  ///< the input velocity clipped against the planes hit
  int iterations = 0;
  bool stepped = false;  ///< a step up was accepted (it ends the slide)
  bool hit_ceiling = false;
  bool blocked = false;         ///< a remainder was left unmoved
  /// A step-up was refused only for want of motion this tick (no height
  /// gained): the velocity was kept so the next tick tries with a full tick.
  bool retrying_step = false;
  /// The hits on pushable (dynamic) bodies, in order (pushable.h); empty in a world without.
  std::vector<SweepHit> touched;
};
/// Collide-and-slide of `motion` from `position`: sweep, stop where the
/// skin-grown shape touches, project the rest onto the surface (or follow
/// the crease of two surfaces), repeat.
SlideResult slide(const CharacterContext& ctx, const btVector3& position, const btVector3& motion,
                  const btVector3& velocity, const SlideOptions& options);

struct StepUpResult {
  StepRule rule = StepRule::Accepted;
  btVector3 position{0, 0, 0};  ///< landing (valid when accepted)
  double height = 0.0;          ///< gained
};
/// One step-up attempt after a blocking hit with `riser_normal`: sweep up by
/// max_step_height, forward by `horizontal_motion`, down by no more than the
/// height gained; accept only a walkable landing with room to stand.
StepUpResult step_up(const CharacterContext& ctx, const btVector3& position, const btVector3& horizontal_motion,
                     const btVector3& riser_normal, const btVector3& riser_point);

/// Whether the character at `position` can rise by `height` (the top of an
/// edge it is about to roll over while walking): Accepted, or NoHeadroom when
/// a ceiling is in the way. Reported to the observer as a step attempt.
StepRule edge_headroom(const CharacterContext& ctx, const btVector3& position, const btVector3& edge_normal,
                       double height);

/// Downward probe up to `max_distance` below the feet (and from 2 mm above
/// them, so `distance` may be slightly negative: ground a hair higher than the
/// feet). Picks the best support among all contacts where the sweep stopped:
/// a surface walkable by its own normal, else an edge the character is
/// perched on, checked with a ray at the face beside the edge.
GroundInfo probe_ground(const CharacterContext& ctx, const btVector3& position, double max_distance);

/// Direction the stick asks for, in the plane normal to `up` (length ≤ 1).
btVector3 wish_direction(const CharacterInput& input, const btVector3& up);

/// Horizontal velocity update on the ground: accelerate the stick's direction
/// toward walk_speed·|stick| at ground_acceleration; the rest decays by
/// exp(-friction·dt).
btVector3 ground_velocity(const btVector3& horizontal, const btVector3& wish, const ControllerSettings& s,
                          double dt);
/// Horizontal velocity update in the air (air_acceleration toward the wish,
/// no friction).
btVector3 air_velocity(const btVector3& horizontal, const btVector3& wish, const ControllerSettings& s, double dt);

/// How far the feet moved up (+) or down (-) between `start` and `end`
/// beyond what walking along the ground plane (normal `ground_normal` at the
/// start) explains: the whole rise of a stair however it arrives (a step
/// up, rolling over an edge, a snap down), nothing on flat ground or a
/// uniform slope, a little over curved terrain.
double stepped_height(const btVector3& start, const btVector3& ground_normal, const btVector3& end,
                      const btVector3& up);

/// Camera offset after a tick: the old offset decays by exp(-camera_smoothing·dt)
/// (independent of tick rate), then this tick's steps are absorbed (-step_dy).
double update_camera(double camera_dy, double step_dy, double camera_smoothing, double dt);

/// Where the feet end up when the kinematic body they stand on moves from
/// `before` to `after`: the point is carried rigidly, so on a turning body it
/// follows the arc, not the tangent.
btVector3 carry_with_ground(const btVector3& feet, const btTransform& before, const btTransform& after);

/// Angle in degrees the rotation `turn` turns the horizontal plane about `up`
/// (positive counter-clockwise seen from above, like yaw_deg).
double yaw_about(const btQuaternion& turn, const btVector3& up);


// ---- Composed stages: CharacterController::update runs them in this order ----

/// A carry by the ridden body, swept: where the feet end and what stopped them.
struct CarryResult {
  btVector3 position{0, 0, 0};  ///< feet after the carry
  SweepHit hit;                 ///< what the carry met first (hit == false: carried all the way)
  int casts = 0;                ///< convex casts made (0: nothing but the ridden body was near)
};

/// The carry from `from` to `carried` (where the ridden body takes the feet)
/// as a swept move against everything but the character and `ridden`, so it
/// never moves the shape into or through the level or another body. At the
/// first hit the feet stop, keeping the skin (the skin-grown shape is swept),
/// and the part of the rest along the surface hit (the rest without its
/// component into the surface) is swept once more and stops at whatever it
/// meets: a wall takes only the part of the carry that runs into it. Swept
/// along straight lines (on a turning body: the chord of the arc). No cast
/// is made when the body did not move at the feet, nor when the broadphase
/// holds nothing else in the swept bounds.
CarryResult sweep_carry(const CharacterContext& ctx, const btVector3& from, const btVector3& carried,
                        const btCollisionObject* ridden);

/// Carries the feet with the kinematic body they stand on, by how far it
/// moved since the last tick (the world has already moved), as a swept move
/// (sweep_carry) that a wall stops short: the body then slides on under the
/// feet, and a body that goes on pushing the character into the wall is
/// the depenetration's crush (the tick reports it stuck). Records the velocity
/// the carry really gave the feet in `state.carried_velocity` (zero
/// otherwise). With turn_with_ground, also accumulates the body's turn about
/// up, in full even when the feet were stopped (they still stand on it).
void ride_ground(const CharacterContext& ctx, CharacterState& state, double dt);

/// What the character means to do this tick, from input, gravity and jumping.
struct Intent {
  btVector3 velocity{0, 0, 0};    ///< the whole velocity for this tick
  btVector3 horizontal{0, 0, 0};  ///< its part across `up` (what walking moves by)
  bool was_grounded = false;
  bool jumped = false;
  bool airborne = false;  ///< not grounded, or jumping this tick
  /// False when this tick's depenetration already lifted the feet: that lift
  /// was the tick's step, and a step-up on top of it would rise nearly two steps
  /// in one tick. Set by the tick, not by steer.
  bool may_step_up = true;
  /// This tick's depenetration moved the feet, or its move slid along
  /// something: a rising character may have met walkable ground that lands
  /// it (settle, lands_rising). Set by the tick, not by steer.
  bool met_surface = false;
  /// Where the feet were when the move started (after depenetration): a walk
  /// that a ceiling keeps below the ground goes back there (settle). Set by
  /// the tick, not by steer; unset, settle never undoes a move.
  btVector3 move_start{0, 0, 0};
  bool has_move_start = false;
};
/// `velocity` with its part along `gravity` limited to `terminal_velocity`
/// (the rest unchanged). Applied after gravity and again after the move:
/// sliding under an overhang turns horizontal speed into falling speed.
btVector3 limit_fall_speed(const btVector3& velocity, const btVector3& gravity, double terminal_velocity);

/// The velocity model: stick, acceleration, friction, air control, jumping
/// (on the press, not while held: updates `state.jump_was_held`), gravity and
/// terminal velocity.
Intent steer(const CharacterContext& ctx, CharacterState& state, const CharacterInput& input, double dt);

/// This tick's walking motion: `horizontal`·dt lifted onto the ground plane
/// of `state` (keeping horizontal speed or speed along the slope, as the
/// settings say).
btVector3 ground_motion(const CharacterContext& ctx, const CharacterState& state, const btVector3& horizontal,
                        double dt);

/// Moves by the intent: walking, horizontally along the ground plane with
/// step-ups (gravity waits for settle, so it never makes a step fall short);
/// in the air, by the whole velocity. Sets position and the velocity left
/// after the surfaces hit; returns the slide iterations.
/// `touched`, when given, receives the hits on pushable bodies (SlideResult::touched).
int move_character(const CharacterContext& ctx, CharacterState& state, const Intent& intent, double dt,
                   std::vector<SweepHit>* touched = nullptr);

/// What the character did to dynamic bodies this tick (pushable.h), after it
/// moved and settled: a push on each body `touched` (the move's hits on
/// pushables, the first hit of each body), its weight on the body it stands
/// on, and, when it landed this tick, a landing impulse on it.
/// `intent.velocity` is what it tried to move with. Each impulse goes to the
/// observer (PushEvent). The velocity the slide clipped against a pushed body
/// comes back up to that body's speed away from the character (never above
/// the intent's), so the character keeps pace with a crate it pushes; never
/// upward (following a body up a face that leans down toward the character
/// would lift it by its own push).
void push_bodies(const CharacterContext& ctx, CharacterState& state, const Intent& intent,
                 const std::vector<SweepHit>& touched, double dt);

/// Whether a rising character lands on the walkable ground (of
/// `ground_normal`) the probe found under it: when its velocity does not
/// point away from the ground's plane, the slope rises under the feet at
/// least as fast as they rise (a weak jump up a ramp), and the ground has
/// caught it.
bool lands_rising(const btVector3& velocity, const btVector3& ground_normal);

/// The ground check after the move: snaps down onto ground within
/// step_down_height when walking (stairs, downhill), lands when falling,
/// never while moving away from the ground (lands_rising), never on the tick
/// of a jump while moving up. Leaving a moving body keeps the velocity it gave
/// the feet (inherit_ground_velocity).
void settle(const CharacterContext& ctx, CharacterState& state, const Intent& intent);

/// Where this tick's walk started, for telling steps from slopes.
struct WalkStart {
  btVector3 position{0, 0, 0};
  btVector3 ground_normal{0, 0, 0};
};
/// Reports the stepped height (report.step_dy, and a step event when it is
/// at least min_step_event) and lets the camera absorb it.
void absorb_steps(const CharacterContext& ctx, CharacterState& state, const Intent& intent, const WalkStart& start,
                  double dt, TickReport& report);

/// Classifies the ground under `state.position` without moving it: sets
/// grounded, the ground normal and the body stood on (a trajectory's row 0).
void classify_ground(const CharacterContext& ctx, CharacterState& state);

}  // namespace stepslide
