// The character as data: its shape, the input of one tick, the state kept
// between ticks, and what a tick reports. Plain values with documented
// defaults; nothing here queries the world.
#pragma once

#include <LinearMath/btTransform.h>

#include <algorithm>
#include <memory>
#include <vector>

class btCollisionObject;
class btCollisionWorld;
class btConvexShape;

namespace stepslide {

/// The character's convex shape. Its local Y axis is aligned with `up`.
struct CharacterShapeDesc {
  enum class Kind { Capsule, Sphere, Cylinder, Box };
  Kind kind = Kind::Capsule;
  double radius = 0.3;                    ///< capsule, sphere, cylinder. m
  double height = 1.8;                    ///< capsule (tip to tip), cylinder. m
  btVector3 half_extents{0.3, 0.9, 0.3};  ///< box. m
};

/// Bullet rounds a box's edges by its collision margin, carved out of the
/// box (btBoxShape::setMargin keeps the outer size). 1 mm keeps edges crisp
/// while leaving GJK well conditioned (Bullet's default 4 cm would round them
/// visibly). The scenario world's boxes, a box-shaped character and the
/// capture recorder's replica of a world's boxes all use box_margin(), so
/// they cannot drift apart; a game that builds its level's boxes with it is
/// captured exactly.
constexpr double kBoxMargin = 0.001;

/// The margin of a box of `half_extents`: 1 mm, or half its smallest half
/// extent when that is less, so the core (half extents - margin) keeps at
/// least half of every extent and never inverts. Depends on the box's size
/// only, never on which axis is its thinnest.
inline double box_margin(const btVector3& half_extents) {
  return std::min(kBoxMargin, 0.5 * std::min({half_extents.x(), half_extents.y(), half_extents.z()}));
}

/// The Bullet shape for `desc`, grown by `inflation` metres on every side.
/// Cylinders and boxes get a small collision margin (Bullet's default 4 cm
/// would round their edges visibly).
std::unique_ptr<btConvexShape> make_character_shape(const CharacterShapeDesc& desc, double inflation);
/// Lowest point of the shape below its centre, along local Y.
double feet_to_center(const CharacterShapeDesc& shape);
/// Radius of the largest horizontal circle inside the shape.
double horizontal_radius(const CharacterShapeDesc& shape);

/// Input for one tick, already resolved from keyframes.
struct CharacterInput {
  double move_right = 0.0;    ///< stick, [-1, 1]; the stick vector is clamped to length 1
  double move_forward = 0.0;  ///< stick, [-1, 1]
  double yaw_deg = 0.0;       ///< camera yaw; 0 looks along -Z, positive turns left
  /// Walk at `wish_velocity` instead of the stick (the stick is ignored).
  bool use_wish_velocity = false;
  /// The walking velocity wished for, world frame, m/s. When
  /// use_wish_velocity is set, the tick's velocity across `up` becomes its
  /// part across `up` at once (its part along `up` is dropped: gravity and
  /// jumping own that): no acceleration, no friction, no walk_speed limit.
  /// The scenario format's `wish_velocity` [x, z] is (x, 0, z) here.
  btVector3 wish_velocity{0, 0, 0};
  bool jump = false;  ///< button held
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
  btVector3 carried_velocity{0, 0, 0};
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

/// The ground under the character, from a downward probe.
struct GroundInfo {
  bool found = false;          ///< something within the probe distance
  bool walkable = false;       ///< ... and the surface is within max_slope_deg
  double distance = 0.0;       ///< along -up from the feet to the surface (negative: above the feet)
  btVector3 normal{0, 0, 0};   ///< surface normal (the real face, not an edge's)
  btVector3 point{0, 0, 0};    ///< where the shape touches it
  const btCollisionObject* object = nullptr;
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
  /// The character could climb it but not stand on it: the ceiling above is
  /// lower than the character is tall (it stops at the riser instead).
  NoHeadroom,
};
/// The rule in words, as `stepslide trace` prints it.
const char* step_rule_name(StepRule rule);

}  // namespace stepslide
