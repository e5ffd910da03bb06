// The kinematic character controller. A tick is a composition of small public
// stages (depenetrate, update velocity, slide with step up, step down / snap,
// ground, camera), each a function over explicit state that can be called and
// tested alone. No I/O.
#pragma once

#include <btBulletCollisionCommon.h>

#include <memory>
#include <vector>

#include "stepslide/collision.h"
#include "stepslide/settings.h"

namespace stepslide {

/// The character's convex shape. Its local Y axis is aligned with `up`.
struct CharacterShapeDesc {
  enum class Kind { Capsule, Sphere, Cylinder, Box };
  Kind kind = Kind::Capsule;
  double radius = 0.3;               ///< capsule, sphere, cylinder. m
  double height = 1.8;               ///< capsule (tip to tip), cylinder. m
  btVector3 half_extents{0.3, 0.9, 0.3};  ///< box. m
};

/// Input for one tick, already resolved from keyframes.
struct CharacterInput {
  double move_right = 0.0;    ///< stick, [-1, 1]; the stick vector is clamped to length 1
  double move_forward = 0.0;  ///< stick, [-1, 1]
  double yaw_deg = 0.0;       ///< camera yaw; 0 looks along -Z, positive turns left
  bool use_wish_velocity = false;
  double wish_x = 0.0, wish_z = 0.0;  ///< world-frame horizontal velocity, m/s
  bool jump = false;                  ///< button held
};

/// The ground under the character, from a downward probe.
struct GroundInfo {
  bool found = false;        ///< something within the probe distance
  bool walkable = false;     ///< ... and the surface is within max_slope_deg
  double distance = 0.0;     ///< along -up from the feet to the surface (negative: above the feet)
  btVector3 normal{0, 0, 0};  ///< surface normal (the real face, not an edge's)
  btVector3 point{0, 0, 0};   ///< where the shape touches it
  const btCollisionObject* object = nullptr;
};

/// Everything that persists between ticks.
struct CharacterState {
  btVector3 position{0, 0, 0};  ///< feet: the lowest point of the shape
  btVector3 velocity{0, 0, 0};
  bool grounded = false;
  btVector3 ground_normal{0, 0, 0};
  const btCollisionObject* ground_object = nullptr;
  /// Pose of `ground_object` when the character last stood on it: the next
  /// tick carries the feet by how far that body has moved since.
  btTransform ground_transform = btTransform::getIdentity();
  /// Velocity the ground gave the feet over the last tick (zero on static ground).
  btVector3 ground_velocity{0, 0, 0};
  /// How far the ground has turned the character about up, in degrees
  /// (accumulated only with turn_with_ground).
  double ground_yaw_deg = 0.0;
  double camera_dy = 0.0;
  bool jump_was_held = false;
};

struct StepEvent {
  enum class Kind { Up, Down };
  Kind kind = Kind::Up;
  double dy = 0.0;  ///< signed vertical distance, + up
};

/// Why a step-up attempt was accepted or refused.
enum class StepRule {
  Accepted,
  NotGrounded,
  NotMovingHorizontally,
  RiserNotSteep,
  BlockedByCeiling,
  NoLanding,
  LandingTooSteep,
  NoRoomToStand,
  NoHeightGained,
  RiserTooTall,
};
const char* step_rule_name(StepRule rule);

/// What one tick did and cost.
struct TickReport {
  /// While walking: the vertical move not explained by the ground plane
  /// (stepped_height); what the camera absorbs. 0 in the air.
  double step_dy = 0.0;
  int sweeps = 0;
  int slide_iters = 0;
  int depen_iters = 0;
  /// False when the character could not be pushed clear this tick: squeezed
  /// between bodies (crushed) or wedged. Reported as the `stuck` column.
  bool depenetration_converged = true;
  std::vector<StepEvent> steps;
};

// ---- Observer ---------------------------------------------------------------

/// One convex sweep, and what the controller did with its hit.
struct SweepEvent {
  enum class Purpose { Slide, StepUp, StepForward, StepDown, GroundProbe };
  Purpose purpose = Purpose::Slide;
  btVector3 from{0, 0, 0};  ///< feet at the start
  btVector3 to{0, 0, 0};    ///< feet at the requested end
  SweepHit hit;
  /// Slides only: the plane the remainder was projected onto (the hit normal,
  /// flattened for walls when walking), or zero when nothing was hit.
  btVector3 slid_along{0, 0, 0};
  bool tries_step = false;  ///< the hit looks like a riser: a step up is tried before sliding
  bool crease = false;   ///< followed the crease of this plane and the previous one
  bool stopped = false;  ///< a third plane blocked the crease
};

/// One ray, and why it was cast.
struct RayEvent {
  enum class Purpose { RiserHeight, Tread, RoomToStand, PerchFace, FaceNormal };
  Purpose purpose = Purpose::Tread;
  btVector3 from{0, 0, 0};
  btVector3 to{0, 0, 0};
  RayHit hit;
};

/// One iteration of depenetration: the overlaps found and the correction applied.
struct DepenetrationEvent {
  int iteration = 0;
  std::vector<Contact> overlaps;
  btVector3 correction{0, 0, 0};
};

struct StepAttemptEvent {
  btVector3 from{0, 0, 0};     ///< feet where the attempt started
  btVector3 forward{0, 0, 0};  ///< horizontal motion tried
  btVector3 riser_normal{0, 0, 0};
  StepRule rule = StepRule::Accepted;
  double height = 0.0;  ///< tread above the feet, when accepted
};

struct GroundEvent {
  GroundInfo ground;         ///< what the probe found
  double snapped_by = 0.0;   ///< feet moved down by this (negative: up)
  bool grounded = false;     ///< the result
};

struct VelocityEvent {
  btVector3 before{0, 0, 0};
  btVector3 after{0, 0, 0};  ///< after input, friction, gravity and jumping
  bool jumped = false;
};

/// Receives every query the controller issues and every decision it takes,
/// in order. Attach one to explain a tick (stepslide trace); it is called
/// from the same code path that produces the trajectory, so it cannot
/// disagree with it, and costs one null test per event when absent.
class ControllerObserver {
 public:
  virtual ~ControllerObserver() = default;
  virtual void on_depenetration(const DepenetrationEvent&) {}
  virtual void on_sweep(const SweepEvent&) {}
  virtual void on_ray(const RayEvent&) {}
  virtual void on_step_attempt(const StepAttemptEvent&) {}
  virtual void on_ground(const GroundEvent&) {}
  virtual void on_velocity(const VelocityEvent&) {}
};

/// Everything the stages need to query the world: the adapter, the shape and
/// its collision object, the settings and the up axis.
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
  const ControllerSettings* settings = nullptr;
  ControllerObserver* observer = nullptr;  ///< optional

  btTransform transform_at(const btVector3& feet) const;
  /// Pose of `sweep_shape` for the character's feet at `feet`.
  btTransform sweep_transform_at(const btVector3& feet) const;
  double cos_max_slope() const;
  bool is_walkable(const btVector3& normal) const;
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
DepenetrationResult depenetrate(const CharacterContext& ctx, const btVector3& position);

/// Solves for a correction c with n_i·c >= depth_i for every contact: the
/// smallest such c when one exists (found exactly over active sets of up to
/// three contacts); otherwise, for contacts that oppose each other, the
/// balance point of simultaneous projection after `max_passes` passes.
/// Exposed for unit tests.
btVector3 solve_depenetration(const std::vector<btVector3>& normals, const std::vector<double>& depths,
                              int max_passes = 16);

/// The remainder of a motion after hitting `normal`, continuing along the
/// crease with `previous_normal` when the two planes form an acute corner
/// (sliding along one would push into the other). `previous_normal` may be zero.
btVector3 slide_direction(const btVector3& remainder, const btVector3& normal, const btVector3& previous_normal);

struct SlideOptions {
  int max_iterations = 4;
  /// Grounded walking: non-walkable normals are flattened to horizontal so
  /// steep inclines are not climbed by sliding, and steps are tried.
  bool grounded = false;
  bool allow_step_up = false;
  /// Every normal is flattened: the motion stays horizontal (the forward
  /// sweep of a step-up).
  bool horizontal_only = false;
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
/// exp(-friction·dt). Exposed for unit tests.
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

// ---- The controller ---------------------------------------------------------

class CharacterController {
 public:
  CharacterController(btCollisionWorld* world, const CharacterShapeDesc& shape, const ControllerSettings& settings,
                      const btVector3& up, const btVector3& gravity);
  ~CharacterController();
  CharacterController(const CharacterController&) = delete;
  CharacterController& operator=(const CharacterController&) = delete;

  /// Places the character and classifies its ground without moving it (row 0
  /// of a trajectory).
  void reset(const btVector3& feet, const btVector3& velocity);

  /// Advances one fixed tick of `dt` seconds.
  TickReport update(const CharacterInput& input, double dt);

  CharacterState& state() { return state_; }
  const CharacterState& state() const { return state_; }
  ControllerSettings& settings() { return settings_; }
  /// Reports every query and decision of the following ticks to `observer`
  /// (null to stop). The controller does not own it.
  void set_observer(ControllerObserver* observer) { ctx_.observer = observer; }
  const CharacterContext& context() const { return ctx_; }
  /// Deepest overlap of the shape with the world right now (0 when clear).
  double penetration_depth();

 private:
  /// What the character means to do this tick, from input, gravity and jumping.
  struct Intent {
    btVector3 velocity{0, 0, 0};    ///< the whole velocity for this tick
    btVector3 horizontal{0, 0, 0};  ///< its part across `up` (what walking moves by)
    bool was_grounded = false;
    bool jumped = false;
    bool airborne = false;  ///< not grounded, or jumping this tick
  };

  // The stages of update(), in order.
  void ride_ground(double dt);
  Intent steer(const CharacterInput& input, double dt);
  int move(const Intent& intent, double dt);
  void settle(const Intent& intent);
  void absorb_steps(const Intent& intent, const btVector3& walk_start, const btVector3& walk_ground_normal,
                    double dt, TickReport& report);

  void classify_ground();
  /// Rebuilds the shapes grown by the skin (after skin_width changes).
  void rebuild_skin_shapes();
  /// Ground closer than this counts as touching.
  double ground_tolerance() const;
  /// This tick's ground motion: horizontal velocity lifted onto the ground plane.
  btVector3 ground_motion(const btVector3& horizontal, double dt) const;

  CollisionQueries queries_;
  std::unique_ptr<btConvexShape> shape_;
  std::unique_ptr<btConvexShape> probe_shape_;
  CharacterShapeDesc shape_desc_;
  std::unique_ptr<btConvexShape> sweep_shape_;
  double sweep_shape_skin_ = 0.0;
  btCollisionObject object_;
  btCollisionObject probe_object_;
  ControllerSettings settings_;
  CharacterContext ctx_;
  btVector3 gravity_;
  CharacterState state_;
};

/// Lowest point of the shape below its centre, along local Y.
double feet_to_center(const CharacterShapeDesc& shape);
/// Radius of the largest horizontal circle inside the shape.
double horizontal_radius(const CharacterShapeDesc& shape);

}  // namespace stepslide
