// Scenario loading (SPEC §1): strict JSON in, a validated Scenario out, or
// every problem found, each with its JSON Pointer, in document order.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <unordered_map>

#include "base/file_io.h"
#include "scenario/json_reader.h"
#include "scenario/load.h"

namespace stepslide {

namespace {

using namespace strict_json;
using Limits = ScenarioLimits;

/// Listing stops after this many problems: a broken generated file may hold
/// millions, and a person reads the first few.
constexpr std::size_t kMaxErrors = 1000;
/// Direction vectors ("up", a spin axis) and gravity shorter than this count as zero.
constexpr double kMinVectorLength = 1e-12;
/// A convex hull whose points all lie within this fraction of its size from
/// one plane has no volume.
constexpr double kHullFlatness = 1e-6;
/// A mesh triangle whose doubled area is below this fraction of its longest
/// edge squared has no area.
constexpr double kTriangleFlatness = 1e-9;

constexpr Range kAnyNumber{};
constexpr Range kCoordinate = between(-Limits::max_coordinate, Limits::max_coordinate);
constexpr Range kSize{0.0, Limits::max_coordinate, true, false, nullptr, nullptr};
constexpr Range kNonNegativeSize = between(0.0, Limits::max_coordinate);
constexpr Range kStick = between(-1.0, 1.0);
constexpr Range kTick = at_least(0.0);

template <class T>
using Options = std::vector<std::pair<const char*, T>>;

const Options<ShapeType> kBodyShapes = {
    {"box", ShapeType::Box},
    {"sphere", ShapeType::Sphere},
    {"capsule", ShapeType::Capsule},
    {"cylinder", ShapeType::Cylinder},
    {"convex_hull", ShapeType::ConvexHull},
    {"mesh", ShapeType::Mesh},
    {"heightfield", ShapeType::Heightfield},
    {"stairs", ShapeType::Stairs},
    {"ramp", ShapeType::Ramp},
};
const Options<ShapeType> kCharacterShapes = {
    {"capsule", ShapeType::Capsule},
    {"sphere", ShapeType::Sphere},
    {"cylinder", ShapeType::Cylinder},
    {"box", ShapeType::Box},
};
const Options<MotionType> kMotionTypes = {
    {"linear", MotionType::Linear},
    {"spin", MotionType::Spin},
    {"keyframes", MotionType::Keyframes},
};
const Options<ExpectCheck::Kind> kCheckKinds = {
    {"position", ExpectCheck::Kind::Position},
    {"grounded", ExpectCheck::Kind::Grounded},
    {"max_penetration", ExpectCheck::Kind::MaxPenetration},
    {"y_between", ExpectCheck::Kind::YBetween},
    {"stuck", ExpectCheck::Kind::Stuck},
};

/// Totals over the whole world, for the resource limits.
struct WorldBudget {
  std::int64_t bodies = 0;  ///< after stairs expand into one box per step
  std::int64_t triangles = 0;
  bool bodies_reported = false;
  bool triangles_reported = false;
  std::unordered_map<std::string, std::string> first_use_of_name;  ///< name -> body's JSON path
};

// ---------------------------------------------------------------------------
// Small geometry, only what validation needs.

Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double length(const Vec3& v) { return std::sqrt(dot(v, v)); }

/// Unit vector along `v`, or false when `v` is (nearly) zero.
bool normalize(const Vec3& v, Vec3& out) {
  const double len = length(v);
  if (!(len >= kMinVectorLength)) return false;
  out = {v[0] / len, v[1] / len, v[2] / len};
  return true;
}

std::string format_vector(const Vec3& v) {
  return "[" + number_text(v[0]) + ", " + number_text(v[1]) + ", " + number_text(v[2]) + "]";
}

/// True when all points lie on one plane (or line), within kHullFlatness of
/// the hull's size. Picks the widest triangle the points allow and measures
/// how far any point is from its plane.
bool is_flat(const std::vector<Vec3>& points) {
  const Vec3& a = points[0];
  auto farthest = [&points](auto&& distance) {
    std::size_t best = 0;
    double best_distance = 0.0;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const double d = distance(points[i]);
      if (d > best_distance) {
        best = i;
        best_distance = d;
      }
    }
    return std::make_pair(best, best_distance);
  };
  const auto [b, size] = farthest([&a](const Vec3& p) { return length(sub(p, a)); });
  if (size == 0.0) return true;
  const Vec3 ab = sub(points[b], a);
  const auto [c, area2] = farthest([&](const Vec3& p) { return length(cross(ab, sub(p, a))); });
  if (area2 <= kHullFlatness * size * size) return true;  // all on one line
  const Vec3 normal = cross(ab, sub(points[c], a));       // length area2
  const double height = farthest([&](const Vec3& p) { return std::abs(dot(normal, sub(p, a))); }).second / area2;
  return height <= kHullFlatness * size;
}

bool has_zero_area(const Vec3& a, const Vec3& b, const Vec3& c) {
  const double longest = std::max({length(sub(b, a)), length(sub(c, b)), length(sub(a, c))});
  return length(cross(sub(b, a), sub(c, a))) <= kTriangleFlatness * longest * longest;
}

// ---------------------------------------------------------------------------
// Shapes

/// Reads an array of at least `min_count` [x, y, z] points.
bool read_points(JsonReader& r, const Field& f, std::size_t min_count, const char* noun, std::vector<Vec3>& out) {
  if (!r.array(f)) return false;
  const std::size_t count = f.value->size();
  if (count < min_count) {
    r.error(f.where, "expected at least " + std::to_string(min_count) + " " + noun + ", got " +
                         JsonReader::describe_count(*f.value));
    return false;
  }
  out.resize(count);
  bool ok = true;
  for (std::size_t i = 0; i < count; ++i) ok = r.numbers(f.item(i), kCoordinate, out[i]) && ok;
  return ok;
}

/// Reports each point equal to an earlier one; true when there was any.
bool report_duplicate_points(JsonReader& r, const Field& f, const std::vector<Vec3>& points) {
  std::vector<std::size_t> order(points.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&points](std::size_t a, std::size_t b) { return points[a] != points[b] ? points[a] < points[b] : a < b; });
  bool found = false;
  std::size_t first = order[0];  // earliest index among equal points
  for (std::size_t k = 1; k < order.size(); ++k) {
    if (points[order[k]] != points[first]) {
      first = order[k];
      continue;
    }
    r.error(f.item(order[k]).where, "expected distinct points, got a repeat of point " + std::to_string(first));
    found = true;
  }
  return found;
}

void read_convex_hull(JsonReader& r, ObjectReader& o, ShapeDef& shape) {
  const Field points = o.required("points");
  if (points && points.value->is_array() && points.value->size() > static_cast<std::size_t>(Limits::max_hull_points)) {
    r.error(points.where, "expected at most " + std::to_string(Limits::max_hull_points) +
                              " points (the hull point limit), got " + JsonReader::describe_count(*points.value));
    return;
  }
  if (!read_points(r, points, 4, "points", shape.points)) return;
  if (report_duplicate_points(r, points, shape.points)) return;
  if (is_flat(shape.points)) r.error(points.where, "expected points spanning a volume, got points in one plane");
}

std::string format_indices(const std::array<std::int32_t, 3>& t) {
  return "[" + std::to_string(t[0]) + ", " + std::to_string(t[1]) + ", " + std::to_string(t[2]) + "]";
}

/// One [i, j, k]. `vertex_count` is negative when unknown; `vertices` is null
/// when they are not all valid, which skips the area check.
bool read_triangle(JsonReader& r, const Field& f, std::int64_t vertex_count, const std::vector<Vec3>* vertices,
                   std::array<std::int32_t, 3>& out) {
  if (!f.value->is_array() || f.value->size() != 3) {
    r.error(f.where, "expected an array of 3 vertex indices, got " + JsonReader::describe_count(*f.value));
    return false;
  }
  Range index = kTick;
  if (vertex_count >= 0)
    index = Range{0.0, static_cast<double>(vertex_count), false, true, nullptr, "the vertex count"};
  bool ok = true;
  for (std::size_t k = 0; k < 3; ++k) ok = r.integer(f.item(k), index, out[k]) && ok;
  if (!ok) return false;
  if (out[0] == out[1] || out[1] == out[2] || out[0] == out[2]) {
    r.error(f.where, "expected 3 different vertex indices, got " + format_indices(out));
    return false;
  }
  if (vertices && has_zero_area((*vertices)[out[0]], (*vertices)[out[1]], (*vertices)[out[2]])) {
    r.error(f.where, "expected a triangle with non-zero area, got vertices " + format_indices(out) + " on one line");
    return false;
  }
  return true;
}

void read_mesh(JsonReader& r, ObjectReader& o, ShapeDef& shape, WorldBudget& budget) {
  const Field vertices = o.required("vertices");
  const bool vertices_ok = read_points(r, vertices, 3, "vertices", shape.vertices);
  const Field triangles = o.required("triangles");
  if (!r.array(triangles)) return;
  const std::size_t count = triangles.value->size();
  if (count == 0) {
    r.error(triangles.where, "expected at least 1 triangle, got an array of 0");
    return;
  }
  budget.triangles += static_cast<std::int64_t>(count);
  if (budget.triangles > Limits::max_triangles) {
    if (!budget.triangles_reported) {
      r.error(triangles.where, "expected at most " + std::to_string(Limits::max_triangles) +
                                   " triangles over all meshes (the triangle limit), got " +
                                   std::to_string(budget.triangles) + " so far");
    }
    budget.triangles_reported = true;
    return;
  }
  const bool vertices_known = vertices && vertices.value->is_array();
  const std::int64_t vertex_count = vertices_known ? static_cast<std::int64_t>(vertices.value->size()) : -1;
  shape.triangles.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    read_triangle(r, triangles.item(i), vertex_count, vertices_ok ? &shape.vertices : nullptr, shape.triangles[i]);
  }
}

void read_heightfield(JsonReader& r, ObjectReader& o, const Field& f, ShapeDef& shape) {
  const bool rows_ok = r.integer(o.required("rows"), at_least(2), shape.rows);
  const bool columns_ok = r.integer(o.required("columns"), at_least(2), shape.columns);
  r.number(o.required("cell_size"), kSize, shape.cell_size);
  const Field heights = o.required("heights");
  std::int64_t cells = -1;
  if (rows_ok && columns_ok) {
    cells = static_cast<std::int64_t>(shape.rows) * shape.columns;
    if (cells > Limits::max_heightfield_cells) {
      r.error(f.where, "expected at most " + std::to_string(Limits::max_heightfield_cells) +
                           " cells (the heightfield cell limit), got rows x columns = " + std::to_string(cells));
      return;
    }
  }
  if (!r.array(heights)) return;
  const std::size_t count = heights.value->size();
  if (cells >= 0 && count != static_cast<std::size_t>(cells)) {
    r.error(heights.where, "expected " + std::to_string(cells) + " heights (rows x columns), got " +
                               JsonReader::describe_count(*heights.value));
    return;
  }
  if (count > static_cast<std::size_t>(Limits::max_heightfield_cells)) return;  // rows or columns already reported
  shape.heights.resize(count);
  for (std::size_t i = 0; i < count; ++i) r.number(heights.item(i), kCoordinate, shape.heights[i]);
}

void read_stairs(JsonReader& r, ObjectReader& o, ShapeDef& shape) {
  const Range steps{1.0, Limits::max_stairs_steps, false, false, nullptr, "the stairs step limit"};
  r.integer(o.required("steps"), steps, shape.steps);
  r.number(o.required("rise"), kSize, shape.rise);
  r.number(o.required("run"), kSize, shape.run);
  r.number(o.required("width"), kSize, shape.width);
}

void read_ramp(JsonReader& r, ObjectReader& o, ShapeDef& shape) {
  r.number(o.required("length"), kSize, shape.length);
  r.number(o.required("width"), kSize, shape.width);
  r.number(o.required("angle_deg"), Range{0.0, 90.0, true, true, nullptr, nullptr}, shape.angle_deg);
  r.number(o.optional("thickness"), kSize, shape.thickness);
}

/// radius, and for capsules and cylinders height; a capsule is at least a sphere.
void read_round(JsonReader& r, ObjectReader& o, ShapeDef& shape) {
  const bool radius_ok = r.number(o.required("radius"), kSize, shape.radius);
  if (shape.type == ShapeType::Sphere) return;
  const Field height = o.required("height");
  const bool height_ok = r.number(height, kSize, shape.height);
  if (radius_ok && height_ok && shape.type == ShapeType::Capsule) {
    r.within(height, at_least(2 * shape.radius, "2 * radius"));
  }
}

/// Reads a shape of one of `types`. `budget` is null for the character.
/// Returns whether the type is known (then shape.type is set).
bool read_shape(JsonReader& r, const Field& f, const Options<ShapeType>& types, ShapeDef& shape, WorldBudget* budget) {
  if (!r.object(f)) return false;
  ObjectReader o(r, f);
  // Without a valid type, which other keys belong here is unknown: stop.
  if (!r.choice(o.required("type"), types, shape.type)) return false;
  switch (shape.type) {
    case ShapeType::Box:
      r.numbers(o.required("half_extents"), kSize, shape.half_extents);
      break;
    case ShapeType::Sphere:
    case ShapeType::Capsule:
    case ShapeType::Cylinder:
      read_round(r, o, shape);
      break;
    case ShapeType::ConvexHull:
      read_convex_hull(r, o, shape);
      break;
    case ShapeType::Mesh:
      read_mesh(r, o, shape, *budget);
      break;
    case ShapeType::Heightfield:
      read_heightfield(r, o, f, shape);
      break;
    case ShapeType::Stairs:
      read_stairs(r, o, shape);
      break;
    case ShapeType::Ramp:
      read_ramp(r, o, shape);
      break;
  }
  o.reject_unknown();
  return true;
}

// ---------------------------------------------------------------------------
// Bodies and motion

/// An [x, y, z] direction, normalised.
bool read_direction(JsonReader& r, const Field& f, Vec3& out) {
  Vec3 v{};
  if (!r.numbers(f, kCoordinate, v)) return false;
  if (normalize(v, out)) return true;
  r.error(f.where, "expected a non-zero vector, got " + format_vector(v));
  return false;
}

/// Ticks of keyframes must strictly increase. `latest` is the largest valid
/// tick so far, or -1.
void require_increasing(JsonReader& r, const Field& tick_field, std::int64_t tick, std::int64_t& latest,
                        const char* note) {
  if (latest >= 0 && tick <= latest) r.within(tick_field, above(static_cast<double>(latest), note), "an integer");
  latest = std::max(latest, tick);
}

void read_motion_keys(JsonReader& r, const Field& f, std::vector<MotionKey>& keys) {
  if (!r.array(f)) return;
  if (f.value->empty()) {
    r.error(f.where, "expected at least 1 key, got an array of 0");
    return;
  }
  std::int64_t latest = -1;
  keys.resize(f.value->size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const Field item = f.item(i);
    if (!r.object(item)) continue;
    ObjectReader o(r, item);
    MotionKey& key = keys[i];
    const Field tick = o.required("tick");
    if (r.integer(tick, kTick, key.tick)) require_increasing(r, tick, key.tick, latest, "the previous key's tick");
    r.numbers(o.required("position"), kCoordinate, key.position);
    r.numbers(o.optional("rotation_deg"), kAnyNumber, key.rotation_deg);
    o.reject_unknown();
  }
}

void read_motion(JsonReader& r, const Field& f, MotionDef& motion) {
  if (!r.object(f)) return;
  ObjectReader o(r, f);
  if (!r.choice(o.required("type"), kMotionTypes, motion.type)) return;
  switch (motion.type) {
    case MotionType::Linear:
      r.numbers(o.required("velocity"), kCoordinate, motion.velocity);
      break;
    case MotionType::Spin:
      read_direction(r, o.required("axis"), motion.axis);
      r.number(o.required("deg_per_s"), kAnyNumber, motion.deg_per_s);
      break;
    case MotionType::Keyframes:
      read_motion_keys(r, o.required("keys"), motion.keys);
      break;
    case MotionType::None:
      break;
  }
  o.reject_unknown();
}

const char* static_only_noun(ShapeType type) {
  switch (type) {
    case ShapeType::Mesh:
      return "mesh";
    case ShapeType::Heightfield:
      return "heightfield";
    case ShapeType::Stairs:
      return "stairs";
    case ShapeType::Ramp:
      return "ramp";
    default:
      return nullptr;
  }
}

/// Body names must be unique; the later use is the error.
void check_name(JsonReader& r, const Field& name_field, const BodyDef& body, WorldBudget& budget) {
  const auto [first, inserted] = budget.first_use_of_name.emplace(body.name, body.json_path);
  if (!inserted) {
    r.error(name_field.where, "duplicate body name " + quote(body.name) + ", first used by " + first->second);
  }
}

void count_body(JsonReader& r, const Field& f, const ShapeDef& shape, WorldBudget& budget) {
  budget.bodies += shape.type == ShapeType::Stairs ? std::max(shape.steps, 1) : 1;
  if (budget.bodies > Limits::max_bodies && !budget.bodies_reported) {
    r.error(f.where, "expected at most " + std::to_string(Limits::max_bodies) +
                         " bodies (the body limit; stairs count one per step), got more");
    budget.bodies_reported = true;
  }
}

void read_body(JsonReader& r, const Field& f, BodyDef& body, WorldBudget& budget) {
  if (!r.object(f)) return;
  body.json_path = f.where.pointer();
  ObjectReader o(r, f);
  const Field name = o.optional("name");
  if (r.string(name, body.name)) check_name(r, name, body, budget);
  const bool shape_known = read_shape(r, o.required("shape"), kBodyShapes, body.shape, &budget);
  count_body(r, f, body.shape, budget);
  r.numbers(o.optional("position"), kCoordinate, body.position);
  r.numbers(o.optional("rotation_deg"), kAnyNumber, body.rotation_deg);
  const Field motion = o.optional("motion");
  const char* static_noun = shape_known ? static_only_noun(body.shape.type) : nullptr;
  if (motion && static_noun) {
    r.error(motion.where, std::string("expected no \"motion\": ") + static_noun + " bodies are static only");
  } else {
    read_motion(r, motion, body.motion);
  }
  o.reject_unknown();
}

void read_world(JsonReader& r, const Field& f, std::vector<BodyDef>& world) {
  if (!r.array(f)) return;
  if (f.value->size() > static_cast<std::size_t>(Limits::max_bodies)) {
    r.error(f.where, "expected at most " + std::to_string(Limits::max_bodies) + " bodies (the body limit), got " +
                         JsonReader::describe_count(*f.value));
    return;
  }
  WorldBudget budget;
  world.resize(f.value->size());
  for (std::size_t i = 0; i < world.size(); ++i) read_body(r, f.item(i), world[i], budget);
}

// ---------------------------------------------------------------------------
// Character, input, expectations

void read_settings(JsonReader& r, const Field& f, ControllerSettings& settings) {
  if (!r.object(f)) return;
  const auto& members = f.value->get_ref<const Json::object_t&>();
  std::size_t i = 0;
  for (auto it = members.begin(); it != members.end(); ++it, ++i) {
    const Field value{&it->second, Where::member(f.where, it->first, i)};
    const SettingInfo* info = find_setting(it->first);
    if (!info) {
      r.error(value.where, "unknown setting " + quote(it->first));
      continue;
    }
    const Range range = between(info->min_value, info->max_value);
    if (info->is_integer) {
      int v = 0;
      if (r.integer(value, range, v)) set_setting(settings, *info, v);
    } else {
      double v = 0.0;
      if (r.number(value, range, v)) set_setting(settings, *info, v);
    }
  }
}

void read_character(JsonReader& r, const Field& f, CharacterDef& character) {
  character.shape.type = ShapeType::Capsule;  // the default when "shape" is absent
  character.shape.radius = 0.3;
  character.shape.height = 1.8;
  if (!r.object(f)) return;
  ObjectReader o(r, f);
  read_shape(r, o.optional("shape"), kCharacterShapes, character.shape, nullptr);
  r.numbers(o.optional("position"), kCoordinate, character.position);
  r.numbers(o.optional("velocity"), kCoordinate, character.velocity);
  read_settings(r, o.optional("settings"), character.settings);
  o.reject_unknown();
}

void read_input(JsonReader& r, const Field& f, std::vector<InputKey>& input) {
  if (!r.array(f)) return;
  std::int64_t latest = -1;
  input.resize(f.value->size());
  for (std::size_t i = 0; i < input.size(); ++i) {
    const Field item = f.item(i);
    if (!r.object(item)) continue;
    ObjectReader o(r, item);
    InputKey& key = input[i];
    const Field tick = o.required("tick");
    if (r.integer(tick, kTick, key.tick)) require_increasing(r, tick, key.tick, latest, "the previous keyframe's tick");
    const Field move = o.optional("move");
    const Field wish = o.optional("wish_velocity");
    Vec2 v{};
    if (r.numbers(move, kStick, v)) key.move = v;
    if (r.numbers(wish, kCoordinate, v)) key.wish_velocity = v;
    double yaw = 0.0;
    if (r.number(o.optional("yaw_deg"), kAnyNumber, yaw)) key.yaw_deg = yaw;
    bool jump = false;
    if (r.boolean(o.optional("jump"), jump)) key.jump = jump;
    if (move && wish) {
      r.error(item.where,
              "expected at most one of \"move\" and \"wish_velocity\" (setting one clears the other), "
              "got both");
    }
    o.reject_unknown();
  }
}

/// An integer tick within `ticks`, or "end".
bool read_tick_or_end(JsonReader& r, const Field& f, const Range& ticks, std::int64_t& tick, bool& is_end) {
  if (!f) return false;
  if (f.value->is_string() && f.value->get_ref<const std::string&>() == "end") {
    is_end = true;
    return true;
  }
  if (!f.value->is_number()) {
    r.error(f.where, "expected an integer or \"end\", got " + describe(*f.value));
    return false;
  }
  return r.integer(f, ticks, tick);
}

void read_tick_range(JsonReader& r, const Field& f, const Range& ticks, ExpectCheck& check) {
  if (!f) return;
  if (!f.value->is_array() || f.value->size() != 2) {
    r.error(f.where, "expected an array of 2 ticks [first, last], got " + JsonReader::describe_count(*f.value));
    return;
  }
  const Field first = f.item(0);
  const Field last = f.item(1);
  const bool first_ok = r.integer(first, ticks, check.first);
  const bool last_ok = read_tick_or_end(r, last, ticks, check.last, check.last_is_end);
  if (first_ok && last_ok && !check.last_is_end) {
    r.within(last, at_least(static_cast<double>(check.first), "the first tick"), "an integer");
  }
}

/// [x, y, z] where a null coordinate is not checked.
void read_checked_position(JsonReader& r, const Field& f, std::array<std::optional<double>, 3>& out) {
  if (!f) return;
  if (!f.value->is_array() || f.value->size() != 3) {
    r.error(f.where, "expected an array of 3 numbers or nulls, got " + JsonReader::describe_count(*f.value));
    return;
  }
  for (std::size_t i = 0; i < 3; ++i) {
    const Field coordinate = f.item(i);
    double v = 0.0;
    if (!coordinate.value->is_null() && r.number(coordinate, kCoordinate, v)) out[i] = v;
  }
}

void read_y_between(JsonReader& r, const Field& f, ExpectCheck& check) {
  Vec2 range{};
  if (!r.numbers(f, kCoordinate, range)) return;
  check.y_lo = range[0];
  check.y_hi = range[1];
  r.within(f.item(1), at_least(range[0], "the low bound"));
}

/// Which check this is: exactly one of the kind keys must be present.
bool read_check_kind(JsonReader& r, const Field& f, const ObjectReader& o, ExpectCheck::Kind& kind) {
  std::vector<const char*> all;
  std::string present;
  int count = 0;
  for (const auto& [name, value] : kCheckKinds) {
    all.push_back(name);
    if (!o.has(name)) continue;
    present += (count++ > 0 ? " and " : "") + quote(name);
    kind = value;
  }
  if (count == 1) return true;
  r.error(f.where, "expected exactly " + JsonReader::one_of(all) + ", got " + (count == 0 ? "none" : present));
  return false;
}

void read_check(JsonReader& r, const Field& f, const Range& ticks, ExpectCheck& check) {
  if (!r.object(f)) return;
  check.json_path = f.where.pointer();
  ObjectReader o(r, f);
  if (!read_check_kind(r, f, o, check.kind)) {
    // Which keys belong is unclear; report only keys no check knows.
    for (const char* key :
         {"tick", "ticks", "position", "tolerance", "grounded", "max_penetration", "y_between", "stuck"}) {
      o.optional(key);
    }
    o.reject_unknown();
    return;
  }
  if (check.kind == ExpectCheck::Kind::Position) {
    read_tick_or_end(r, o.required("tick"), ticks, check.tick, check.tick_is_end);
    read_checked_position(r, o.required("position"), check.position);
    r.number(o.optional("tolerance"), kSize, check.tolerance);
  } else {
    read_tick_range(r, o.required("ticks"), ticks, check);
    if (check.kind == ExpectCheck::Kind::Grounded) r.boolean(o.required("grounded"), check.grounded);
    if (check.kind == ExpectCheck::Kind::Stuck) r.boolean(o.required("stuck"), check.stuck);
    if (check.kind == ExpectCheck::Kind::MaxPenetration) {
      r.number(o.required("max_penetration"), kNonNegativeSize, check.max_penetration);
    }
    if (check.kind == ExpectCheck::Kind::YBetween) read_y_between(r, o.required("y_between"), check);
  }
  o.reject_unknown();
}

void read_expect(JsonReader& r, const Field& f, const Range& ticks, std::vector<ExpectCheck>& checks) {
  if (!r.array(f)) return;
  checks.resize(f.value->size());
  for (std::size_t i = 0; i < checks.size(); ++i) read_check(r, f.item(i), ticks, checks[i]);
}

// ---------------------------------------------------------------------------
// The document

/// "up" defaults to -gravity normalised, so it is required only when gravity is zero.
void read_gravity_and_up(JsonReader& r, ObjectReader& o, const Field& root, Scenario& s) {
  const Field gravity = o.optional("gravity");
  const bool gravity_ok = !gravity || r.numbers(gravity, kCoordinate, s.gravity);
  const Field up = o.optional("up");
  if (up) {
    read_direction(r, up, s.up);
  } else if (gravity_ok && !normalize({-s.gravity[0], -s.gravity[1], -s.gravity[2]}, s.up)) {
    r.error(root.where, "missing required key \"up\" (gravity is zero)");
  }
}

void read_scenario(JsonReader& r, const Field& root, Scenario& s) {
  if (!r.object(root)) return;
  ObjectReader o(r, root);
  const Field format = o.required("format");
  if (format && !(format.value->is_string() && format.value->get_ref<const std::string&>() == kScenarioFormat)) {
    r.error(format.where, "expected " + quote(kScenarioFormat) + ", got " + describe(*format.value));
  }
  std::string schema_reference;  // "$schema": for editors (schema/scenario.schema.json); ignored here
  r.string(o.optional("$schema"), schema_reference);
  r.string(o.optional("name"), s.name);
  r.string(o.optional("description"), s.description);
  r.integer(o.optional("tick_rate"), between(1, Limits::max_tick_rate), s.tick_rate);
  const Range tick_count{1.0, static_cast<double>(Limits::max_ticks), false, false, nullptr, "the tick limit"};
  const bool ticks_ok = r.integer(o.required("ticks"), tick_count, s.ticks);
  read_gravity_and_up(r, o, root, s);
  read_character(r, o.optional("character"), s.character);
  read_world(r, o.optional("world"), s.world);
  read_input(r, o.optional("input"), s.input);
  const Range checked_ticks =
      ticks_ok ? Range{0.0, static_cast<double>(s.ticks), false, false, nullptr, "the scenario's ticks"}
               : between(0.0, static_cast<double>(Limits::max_ticks));
  read_expect(r, o.optional("expect"), checked_ticks, s.expect);
  o.reject_unknown();
}

std::string default_name(const std::string& file_label) {
  std::string name = std::filesystem::path(file_label).filename().string();
  constexpr std::string_view kExtension = ".json";
  if (name.size() >= kExtension.size() &&
      name.compare(name.size() - kExtension.size(), kExtension.size(), kExtension) == 0) {
    name.resize(name.size() - kExtension.size());
  }
  return name;
}

LoadResult failure(const std::string& file, std::string message) {
  LoadResult result;
  result.errors.push_back(LoadError{file, "", std::move(message)});
  return result;
}

LoadResult load_text(const std::string& text, const std::string& file_label) {
  if (static_cast<std::int64_t>(text.size()) > Limits::max_file_bytes) {
    return failure(file_label, "file too large: " + std::to_string(text.size()) + " bytes (limit " +
                                   std::to_string(Limits::max_file_bytes) + ")");
  }
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    return failure(file_label, "empty file: expected a JSON object");
  }
  // One duplicate more than can be listed, so the listing says it was cut short.
  ParsedJson parsed = parse_json(text, Limits::max_json_depth, kMaxErrors + 1);
  JsonReader reader(kMaxErrors);
  for (JsonIssue& issue : parsed.issues) reader.add(std::move(issue));
  Scenario scenario;
  scenario.source_path = file_label;
  scenario.name = default_name(file_label);
  if (parsed.ok) read_scenario(reader, Field{&parsed.document, Where{}}, scenario);

  LoadResult result;
  for (JsonIssue& issue : reader.take_sorted_issues()) {
    result.errors.push_back(LoadError{file_label, std::move(issue.pointer), std::move(issue.message)});
  }
  if (result.errors.empty()) result.scenario = std::move(scenario);
  return result;
}

/// Bad input must never escape as an exception; what could still throw here
/// is running out of memory or a bug, reported as an error of this file.
template <class Load>
LoadResult never_throwing(const std::string& file, Load&& load) {
  try {
    return load();
  } catch (const std::exception& e) {
    return failure(file, std::string("internal error while loading: ") + e.what());
  } catch (...) {
    return failure(file, "internal error while loading");
  }
}

}  // namespace

// A problem with the whole document (empty JSON path) reads "FILE: message";
// any other "FILE: /json/path: message". JSON Pointers always start with '/',
// so the two forms cannot be confused.
std::string format_error(const LoadError& e) {
  if (e.json_path.empty()) return e.file + ": " + e.message;
  return e.file + ": " + e.json_path + ": " + e.message;
}

LoadResult load_scenario_text(const std::string& text, const std::string& file_label) {
  return never_throwing(file_label, [&] { return load_text(text, file_label); });
}

LoadResult load_scenario_file(const std::string& path) {
  return never_throwing(path, [&] {
    const Expected<std::string> text = read_file(path, Limits::max_file_bytes);
    return text ? load_text(*text, path) : failure(path, text.error());
  });
}

}  // namespace stepslide
