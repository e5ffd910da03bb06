// The scenario: plain data read from a stepslide/scenario@1 JSON file
// (docs/format.md §1), each definition with the contract's defaults. No Bullet types here,
// so the loader can be used and tested alone. Loading is in load.h.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stepslide/settings.h"

namespace stepslide {

using Vec3 = std::array<double, 3>;
using Vec2 = std::array<double, 2>;

inline constexpr const char* kScenarioFormat = "stepslide/scenario@1";

/// Resource limits, enforced by the loader with a clear error.
struct ScenarioLimits {
  static constexpr std::int64_t max_file_bytes = 64ll * 1024 * 1024;
  static constexpr std::int64_t max_ticks = 1000000;
  static constexpr int max_tick_rate = 10000;
  static constexpr std::int64_t max_bodies = 200000;
  static constexpr std::int64_t max_triangles = 2000000;  ///< over all meshes
  static constexpr std::int64_t max_hull_points = 4096;
  static constexpr std::int64_t max_heightfield_cells = 4000000;
  static constexpr int max_stairs_steps = 10000;
  static constexpr int max_json_depth = 64;
  /// Memory for the parsed document: 16 bytes per byte of file, plus 32 MiB
  /// for small files. A JSON value takes at least 16 bytes in memory, so a
  /// document of 2-byte values ("0,") needs 8 per byte, and the densest real
  /// content (vertices and triangles of one-digit numbers, "[1,0,2],") 14;
  /// nested or tiny arrays, objects and strings need 20 to 35, and are refused
  /// when they go past it. With the file itself and the parser's member
  /// counts, a load peaks at no more than 20 times the file size.
  static constexpr std::int64_t max_memory_per_file_byte = 16;
  static constexpr std::int64_t memory_allowance = 32ll * 1024 * 1024;
  static constexpr double max_coordinate = 1e6;  ///< |any position or size| in metres

  // Rates and angles. Every one of them is multiplied by time (at most
  // max_ticks / tick_rate = 1e6 s, at tick_rate 1) or fed to sin/cos, so an
  // unbounded one turns a valid, finite file into NaN rows (1e308 deg/s
  // overflows to infinity after 1.8 s). The bounds keep every product finite
  // *and* meaningful in double precision:
  //  - max_speed (m/s, each component of a linear motion's velocity, an input's
  //    wish_velocity and the character's initial velocity): the largest
  //    terminal_velocity setting, so no input moves anything faster than the
  //    controller's own settings can. Over 1e6 s that is at most 1e10 m, where
  //    a double still resolves 2e-6 m, below the smallest skin_width (1e-5 m).
  //  - max_spin_deg_per_s: 1e6 deg/s (100 deg per tick even at the top tick
  //    rate). Over 1e6 s, 1e12 deg (1.7e10 rad): finite, and sin/cos of it
  //    still resolved to 4e-6 rad.
  //  - max_angle_deg (yaw_deg, rotation_deg of bodies and motion keys): 1e6 deg
  //    (2778 turns), resolved to 1.2e-10 deg; larger angles mean nothing more
  //    and, near 1e308, overflow when converted to radians.
  /// Kinematic bodies x ticks. Each moving body is posed and refitted in the
  /// broadphase every tick, 0.25 to 0.4 us of CPU per body-tick on the
  /// development machine wherever the bodies are (bench/limits_bench.cpp), so
  /// this bounds that work to 25-40 s per run: 100 platforms for the longest
  /// run, or 100 000 bodies for 1 000 ticks.
  static constexpr std::int64_t max_moving_body_ticks = 100000000;
  /// Dynamic bodies x ticks: each is integrated, collided and solved by
  /// Bullet every tick (bench/dynamic_bodies_bench.cpp measures the cost);
  /// this bounds that work to about a minute per run.
  static constexpr std::int64_t max_dynamic_body_ticks = 20000000;
  static constexpr double max_mass = 1e6;  ///< kg; a dynamic body's mass, and the character's
  static constexpr double max_speed = 1e4;
  static constexpr double max_spin_deg_per_s = 1e6;
  static constexpr double max_angle_deg = 1e6;
};

enum class ShapeType { Box, Sphere, Capsule, Cylinder, ConvexHull, Mesh, Heightfield, Stairs, Ramp };

/// Which axis of a mesh file points up. Z: the file is turned so +Z becomes +Y.
enum class UpAxis { Y, Z };

/// A mesh shape read from a file (docs/format.md §1.1 "mesh file"). The loader
/// fills ShapeDef::vertices and triangles from it; this is what was asked.
struct MeshFileDef {
  std::string file;  ///< as written, relative to the file that names it; "" for an inline mesh
  std::string path;  ///< as opened (relative to the working directory)
  double scale = 1.0;
  UpAxis up_axis = UpAxis::Y;
  std::vector<std::string> include, exclude;  ///< node or mesh name globs
  bool merge = true;  ///< false: one body per node
  std::string node;   ///< merge false: the node this body holds
};

/// A shape as written in the file. Only the fields of `type` are meaningful.
struct ShapeDef {
  ShapeType type = ShapeType::Box;
  Vec3 half_extents{0.5, 0.5, 0.5};                 // box
  double radius = 0.5;                               // sphere, capsule, cylinder
  double height = 1.0;                               // capsule (tip to tip), cylinder
  std::vector<Vec3> points;                          // convex_hull
  std::vector<Vec3> vertices;                        // mesh
  std::vector<std::array<std::int32_t, 3>> triangles;  // mesh
  MeshFileDef mesh_file;                             // mesh read from a file
  int rows = 0, columns = 0;                         // heightfield
  double cell_size = 1.0;                            // heightfield
  std::vector<double> heights;                       // heightfield, row-major (row = local Z)
  std::string image_file;                            // heightfield read from a PNG: the path as written
  Vec2 height_range{0, 0};                           // ... and the heights its darkest and lightest values mean
  int steps = 0;                                     // stairs
  double rise = 0.0, run = 0.0, width = 0.0;         // stairs (width also ramp)
  double length = 0.0, angle_deg = 0.0;              // ramp
  double thickness = 0.2;                            // ramp
};

enum class MotionType { None, Linear, Spin, Keyframes };

struct MotionKey {
  std::int64_t tick = 0;
  Vec3 position{0, 0, 0};
  Vec3 rotation_deg{0, 0, 0};
};

struct MotionDef {
  MotionType type = MotionType::None;
  Vec3 velocity{0, 0, 0};  // linear
  Vec3 axis{0, 1, 0};      // spin, normalised by the loader
  double deg_per_s = 0.0;  // spin
  /// keyframes, ticks strictly increasing. Before the first key the body
  /// moves from its own position/rotation_deg (at tick 0) to the first key;
  /// after the last it holds the last key.
  std::vector<MotionKey> keys;
};

/// How a dynamic body moves under Bullet's dynamics (docs/format.md §1.1
/// "dynamic bodies"). Defaults are Bullet's own for a rigid body.
struct DynamicsDef {
  double mass = 0.0;             ///< kg; 0: not dynamic (static or kinematic)
  double friction = 0.5;         ///< Bullet multiplies the two bodies' frictions
  double restitution = 0.0;      ///< Bullet multiplies the two bodies' restitutions
  double linear_damping = 0.0;   ///< fraction of linear velocity lost per second, [0, 1]
  double angular_damping = 0.0;  ///< fraction of angular velocity lost per second, [0, 1]
  Vec3 velocity{0, 0, 0};          ///< m/s at tick 0, world frame (a capture's bodies start moving)
  Vec3 angular_velocity{0, 0, 0};  ///< rad/s at tick 0, world frame
};

struct BodyDef {
  std::string name;  ///< empty when not given; unique when given; required when dynamic
  ShapeDef shape;
  Vec3 position{0, 0, 0};
  Vec3 rotation_deg{0, 0, 0};  ///< about world X, then Y, then Z
  MotionDef motion;
  /// Collision layer, 0 .. kMaxLayer (stepslide/contact_filter.h): the
  /// character collides with it when its `collides_with` lists it.
  int layer = 0;
  /// Blocks the character only from the side its local +Y faces (a one-way
  /// platform): jumped up through, landed on, dropped through on `drop`.
  bool one_way = false;
  DynamicsDef dynamics;   ///< friction and restitution apply to every body; the rest only with a mass
  bool dynamic() const { return dynamics.mass > 0.0; }
  std::string json_path;  ///< e.g. "/world/3", for messages
};

/// Steering (docs/format.md §1.2 "move_to", "waypoints"): the runner aims the
/// stick at each target in turn, from the character's state every tick.
struct SteeringDef {
  std::vector<Vec2> targets;  ///< world [x, z]; move_to: one; waypoints: followed in order
  bool waypoints = false;     ///< written as "waypoints" (else "move_to"), for messages and plots
  double stick = 1.0;         ///< stick length while far from a target, in (0, 1]
  double radius = 0.25;       ///< a target is reached when the feet are this close horizontally, m
  double slow_within = 1.0;   ///< the stick eases off linearly within this distance of a target, m; 0: never
};

inline constexpr double kDefaultSteeringRadius = 0.25;
inline constexpr double kDefaultSlowWithin = 1.0;

/// One input keyframe; a field that is absent keeps its earlier value.
/// `move`, `wish_velocity` and `steer` each set what drives the character and
/// clear the other two.
struct InputKey {
  std::int64_t tick = 0;
  std::optional<Vec2> move;           ///< [right, forward], each in [-1, 1]
  std::optional<double> yaw_deg;
  std::optional<Vec2> wish_velocity;  ///< world [x, z] m/s
  std::optional<bool> jump;
  std::optional<SteeringDef> steer;   ///< move_to or waypoints
  std::optional<bool> drop;           ///< held: one-way bodies do not block
  std::optional<bool> crouch;         ///< held: the character asks for its crouch_shape
};

struct ExpectCheck {
  /// docs/format.md §1.4's four, plus the extensions: Stuck (the `stuck` column), the
  /// x/z bounds, horizontal speed and progress measured from the feet's motion, the body
  /// stood on, jitter (NoOscillation), a point reached, and step events counted.
  enum class Kind {
    Position, Grounded, MaxPenetration, YBetween, Stuck,
    XBetween, ZBetween, SpeedBetween, OnBody, NoOscillation, Reaches, StepEvents, Moving,
    MaxRiseGain, MaxJumpApex,
    /// A dynamic body's (`body_name`): its origin comes within `tolerance` of
    /// `position` by `tick`; its speed stays at most `hi`; its up axis stays
    /// within `hi` degrees of the scenario's up.
    BodyReaches, BodyAtRest, BodyUpright,
    /// The ground normal changes between consecutive grounded rows at most
    /// `max_changes` times; the velocity columns across up match the feet's
    /// displacement over the tick within `max_gain` m/s.
    MaxGroundNormalChanges, VelocityAchieved,
    /// The velocity columns' length stays at most `hi` m/s.
    MaxSpeed
  };
  Kind kind = Kind::Position;
  std::string json_path;  ///< "/expect/2", used in failure messages
  /// Position: the tick checked. Reaches: the last tick by which the point must be
  /// reached. `tick_is_end`: the last tick.
  std::int64_t tick = 0;
  bool tick_is_end = false;
  /// Position and Reaches: the point; null coordinates are not checked.
  std::array<std::optional<double>, 3> position{};
  double tolerance = 1e-3;  ///< Position: `tolerance`; Reaches: `within`
  /// Range checks: ticks [first, last], inclusive. `last_is_end`: up to the last tick.
  std::int64_t first = 0, last = 0;
  bool last_is_end = false;
  bool grounded = false;
  bool stuck = false;
  double max_penetration = 0.0;
  /// XBetween, YBetween, ZBetween (metres) and SpeedBetween (m/s): [lo, hi].
  double lo = 0.0, hi = 0.0;
  /// OnBody: the body's name and its index in Scenario::world (the `ground_body` column).
  std::string body_name;
  std::int64_t body_index = -1;
  /// NoOscillation: ticks per window (>= 2; a window of W ticks spans rows s to s + W)
  /// and the largest path length minus net displacement of the feet over one window, metres.
  std::int64_t window = 2;
  double max_wander = 0.0;
  /// StepEvents: accepted [lo, hi] counts of up and down events; absent: not checked.
  std::optional<std::array<std::int64_t, 2>> steps_up, steps_down;
  /// Moving: the least horizontal speed while the input pushes, m/s.
  double min_speed = 0.0;
  /// MaxRiseGain: the most upward speed (m/s, along up) an airborne tick may
  /// gain over max(0, the speed before). MaxJumpApex: the highest the feet may
  /// rise above where they left the ground, metres.
  double max_gain = 0.0;
  /// The character a character check reads (its optional "character"): 0 the
  /// first (Scenario::character), i >= 1 Scenario::others[i - 1].
  std::size_t character = 0;
  /// MaxGroundNormalChanges: how many grounded rows may stand on another
  /// normal than the grounded row before.
  std::int64_t max_changes = 0;
};

/// How closely the gate compares the columns a key names (docs/format.md §4.2):
/// one entry of a scenario's "tolerance" block or a project file's
/// "tolerances". A cell passes when |expected - actual| <= max(abs, rel *
/// |expected|). Plain data: the gate turns these into its diff rules.
struct ColumnTolerance {
  std::string pattern;    ///< a column name, or a glob over column names (`*`, `?`)
  double abs = 0.0;       ///< absolute tolerance, >= 0
  double rel = 0.0;       ///< relative tolerance, >= 0, a fraction of |expected|
  std::string json_path;  ///< "/tolerance/local_*", for messages
};

/// The contract's default character (docs/format.md §1): a capsule 1.8 m tall with radius 0.3 m.
inline ShapeDef default_character_shape() {
  ShapeDef shape;
  shape.type = ShapeType::Capsule;
  shape.radius = 0.3;
  shape.height = 1.8;
  return shape;
}

/// How the character's start is found (docs/format.md §1 "place").
enum class Placement {
  Given,    ///< `position` is the feet
  OnFloor,  ///< the feet go on the first surface a downward sweep from `position` meets
};

/// The controller's state at tick 0 beyond the feet and velocity
/// (docs/format.md §1 `character.state`): what a scenario captured from a
/// game (stepslide::CaptureRecorder) needs to resume exactly. The defaults are
/// what reset() leaves.
struct ResumeState {
  std::optional<Vec3> ground_normal;  ///< replaces the normal reset() found, when grounded
  double camera_dy = 0.0;
  bool jump_held = false;
  double ground_yaw_deg = 0.0;
};

struct CharacterDef {
  ShapeDef shape = default_character_shape();  ///< capsule, sphere, cylinder or box
  /// The shape taken while an input keyframe's `crouch` is held (docs/format.md
  /// §1.3): the same kind as `shape`, no taller; none when absent.
  std::optional<ShapeDef> crouch_shape;
  /// Feet: the lowest point of the shape. With Placement::OnFloor the loader
  /// replaces the point asked for (kept in `requested_position`) by the feet on the floor.
  Vec3 position{0, 0, 0};
  Placement place = Placement::Given;
  Vec3 requested_position{0, 0, 0};
  Vec3 velocity{0, 0, 0};
  ControllerSettings settings;
  ResumeState state;
  /// The layers the character collides with, one bit per layer; all by default.
  std::uint32_t collides_with = 0xffffffffu;
  /// The layer of the character's own body (0 .. 31): another character
  /// collides with it when that one's `collides_with` lists it.
  int layer = 0;
  /// In "characters": its unique name, which prefixes its trajectory columns
  /// (but the first's, docs/format.md §1.7). "" for the one "character".
  std::string name;
  std::string json_path = "/character";  ///< "/characters/1", for messages
};

/// A character after the first of "characters": its definition and its own
/// input keyframes.
struct OtherCharacter {
  CharacterDef def;
  std::vector<InputKey> input;
};

struct Scenario {
  std::string name;
  std::string description;
  std::string source_path;  ///< file it was read from, as given
  int tick_rate = 60;
  std::int64_t ticks = 0;
  Vec3 gravity{0, -9.81, 0};
  Vec3 up{0, 1, 0};  ///< unit; -gravity normalised unless given
  /// The first character ("character", or the first of "characters"), with
  /// `input` its input; the others of "characters" in file order, the order
  /// in which the runner updates them after it (docs/format.md §1.7).
  CharacterDef character;
  std::vector<OtherCharacter> others;
  std::vector<BodyDef> world;
  std::vector<InputKey> input;
  std::vector<ExpectCheck> expect;
  std::vector<ColumnTolerance> tolerance;  ///< the scenario's own, over the project's (docs/format.md §4.2)
  /// Why the scenario's path is on a knife edge, so that `check --perturb`
  /// reports its spread without failing (docs/format.md §3.2); "" when not declared.
  std::string chaotic;

  std::size_t character_count() const { return 1 + others.size(); }
  /// Character `i` (0: the first), and its input.
  const CharacterDef& character_at(std::size_t i) const { return i == 0 ? character : others[i - 1].def; }
  const std::vector<InputKey>& input_of(std::size_t i) const { return i == 0 ? input : others[i - 1].input; }
  /// The prefix of character `i`'s columns: "" for the first, "<name>." for the others.
  std::string column_prefix(std::size_t i) const { return i == 0 ? std::string() : others[i - 1].def.name + "."; }
};

}  // namespace stepslide
