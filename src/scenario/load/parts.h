// What the parts of the scenario loader share: the strict JSON reader, the
// accepted ranges, the world's running totals and one reader per part of the
// document. Private to src/scenario/load*.cpp; the public API is load.h.
//
// Every reader records each problem it finds with the JsonReader and carries
// on, so one pass lists them all. The order in which a reader looks at keys
// decides the order of problems found at the same place: keep it.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "scenario/json/reader.h"
#include "scenario/load/input_files.h"
#include "scenario/scenario.h"

namespace stepslide::loader {

// The loader reads JSON throughout; its vocabulary is strict_json's.
using namespace strict_json;
using Limits = ScenarioLimits;

inline constexpr Range kCoordinate = between(-Limits::max_coordinate, Limits::max_coordinate);
inline constexpr Range kSize{0.0, Limits::max_coordinate, true, false, nullptr, nullptr};
inline constexpr Range kTick = at_least(0.0);
/// A collision layer's highest number (stepslide/contact_filter.h kMaxLayer).
inline constexpr double kLayerLimit = 31.0;
/// Each component of a velocity: linear motion, wish_velocity, the character's start.
inline constexpr Range kSpeed{-Limits::max_speed, Limits::max_speed, false, false, "the speed limit", "the speed limit"};
/// Angles in degrees: yaw_deg, rotation_deg.
inline constexpr Range kAngle{-Limits::max_angle_deg, Limits::max_angle_deg, false, false, "the angle limit",
                              "the angle limit"};
inline constexpr Range kSpinRate{-Limits::max_spin_deg_per_s, Limits::max_spin_deg_per_s, false, false,
                                 "the spin rate limit", "the spin rate limit"};

/// The accepted names of an enumerated string and what each means.
template <class T>
using Options = std::vector<std::pair<const char*, T>>;

/// Where the file being read lies and what loading has read so far: level
/// includes and mesh files resolve their paths here and record what they read.
struct LoadContext {
  PathPolicy paths;
  std::string dir;             ///< directory of the file being read
  std::string pointer_prefix;  ///< "" in the scenario; "levels/a.json#" in a level (BodyDef::json_path)
  std::vector<std::string> include_chain;  ///< files being read, outermost first (opened paths)
  std::vector<InputFile>* inputs = nullptr;
  std::vector<std::string>* notes = nullptr;
  std::string scenario_label;  ///< the top file, for notes
};

/// Totals over the whole world, for the resource limits.
struct WorldBudget {
  LoadContext* context = nullptr;
  std::int64_t bodies = 0;  ///< after stairs expand into one box per step
  std::int64_t triangles = 0;
  bool bodies_reported = false;
  bool triangles_reported = false;
  std::unordered_map<std::string, std::string> first_use_of_name;  ///< name -> body's JSON path
};

// Small vector arithmetic, only what validation needs.
inline Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
inline double length(const Vec3& v) { return std::sqrt(dot(v, v)); }

// scenario/load/common.cpp: values more than one part reads.

/// Unit vector along `v`, or false when `v` is (nearly) zero.
bool normalize(const Vec3& v, Vec3& out);
/// An [x, y, z] direction ("up", a spin axis), normalised.
bool read_direction(JsonReader& r, const Field& f, Vec3& out);
/// Ticks of keyframes must strictly increase. `latest` is the largest valid
/// tick so far, or -1; `note` names it in the message.
void require_increasing(JsonReader& r, const Field& tick_field, std::int64_t tick, std::int64_t& latest,
                        const char* note);

// scenario/load/shapes.cpp

/// A mesh file read with "merge": false: one body per node.
struct SplitMesh {
  std::vector<ShapeDef> parts;  ///< each a mesh; mesh_file.node names its node
};

/// A world body's shape; meshes count against `budget`. Returns whether the
/// type is known (then shape.type is set). A mesh file with "merge": false
/// fills `split` instead of `shape`'s triangles.
bool read_body_shape(JsonReader& r, const Field& f, ShapeDef& shape, WorldBudget& budget, SplitMesh& split);
/// The character's shape: a capsule, sphere, cylinder or box.
void read_character_shape(JsonReader& r, const Field& f, ShapeDef& shape);

// scenario/load/motion.cpp

/// A body's "motion" object. Absent: the body is static.
void read_motion(JsonReader& r, const Field& f, MotionDef& motion);

// scenario/load/heightfield_file.cpp

/// `{"type": "heightfield", "file": "terrain.png", "cell_size": 1, "height_range": [lo, hi]}`:
/// rows, columns and heights from a greyscale PNG (height_image.h).
void read_heightfield_file(JsonReader& r, ObjectReader& o, ShapeDef& shape, WorldBudget& budget);

// scenario/load/bodies.cpp

/// The "world" array of bodies and level includes.
void read_world(JsonReader& r, const Field& f, std::vector<BodyDef>& world, LoadContext& context);
/// The bodies of one "world" array (the scenario's or a level's), sharing `budget`.
void read_world_items(JsonReader& r, const Field& f, std::vector<BodyDef>& world, WorldBudget& budget);

// level_include.cpp

/// A `{"include": "levels/a.json"}` item of a world array: the level's bodies
/// are appended to `world`; its problems are reported at the item, naming the level.
void read_include(JsonReader& r, const Field& f, std::vector<BodyDef>& world, WorldBudget& budget);

// scenario/load/character.cpp

/// The "character" object. Absent: the contract's default character (docs/format.md §1).
/// `input` null: the one "character"; else one of "characters", which has a
/// "name" and may have its own "input" (read into `input`).
void read_character(JsonReader& r, const Field& f, CharacterDef& character, const Vec3& up = Vec3{0, 1, 0},
                    std::vector<InputKey>* input = nullptr);
/// "characters": the first into s.character and s.input, the others into s.others.
void read_characters(JsonReader& r, const Field& f, Scenario& s);
/// No character of "characters" (`f`) is named as a dynamic body is.
void check_character_names(JsonReader& r, const Field& f, const Scenario& s);
/// A name that may prefix trajectory columns: letters, digits, '_' and '-'.
bool column_safe(const std::string& name);

// scenario/load/input.cpp

/// The "input" array of keyframes. `up` is the scenario's: steering needs it
/// to lean no more than 80 degrees from the Y axis.
void read_input(JsonReader& r, const Field& f, const Vec3& up, std::vector<InputKey>& input);

// scenario/load/expect.cpp

/// The "expect" array of checks. `ticks` is the range a checked tick must lie in;
/// `world` gives the body names an `on_body` check may use.
void read_expect(JsonReader& r, const Field& f, const Range& ticks, const Scenario& scenario,
                 std::vector<ExpectCheck>& checks);

}  // namespace stepslide::loader
