// Shapes (docs/format.md §1.1): the primitives, convex hulls, meshes, heightfields and
// the stairs and ramp generators, each with its own checks: hulls must span a
// volume, mesh triangles must have area, and meshes, hulls and heightfields
// stay within the resource limits.

#include <algorithm>
#include <cmath>

#include "scenario/load/mesh_import.h"
#include "scenario/load/parts.h"

namespace stepslide::loader {

namespace {

/// A convex hull whose points all lie within this fraction of its size from
/// one plane has no volume.
constexpr double kHullFlatness = 1e-6;
/// A mesh triangle whose doubled area is below this fraction of its longest
/// edge squared has no area.
constexpr double kTriangleFlatness = 1e-9;

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

/// Reports each triangle with the same three corners as an earlier one, in
/// any order and whichever vertex indices name them. A repeat adds nothing to
/// the surface but costs every query that reaches it: 100 000 copies of one
/// triangle under the feet took 3.4 s per tick. `valid`: the triangles to
/// compare, in document order.
void report_repeated_triangles(JsonReader& r, const Field& f, const ShapeDef& shape,
                               const std::vector<std::size_t>& valid) {
  using Corners = std::array<Vec3, 3>;
  std::vector<Corners> corners(valid.size());
  for (std::size_t k = 0; k < valid.size(); ++k) {
    const auto& t = shape.triangles[valid[k]];
    corners[k] = {shape.vertices[static_cast<std::size_t>(t[0])], shape.vertices[static_cast<std::size_t>(t[1])],
                  shape.vertices[static_cast<std::size_t>(t[2])]};
    std::sort(corners[k].begin(), corners[k].end());
  }
  std::vector<std::size_t> order(valid.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&corners](std::size_t a, std::size_t b) {
    return corners[a] != corners[b] ? corners[a] < corners[b] : a < b;
  });
  if (order.empty()) return;
  std::size_t first = order[0];  // the earliest of a run of equal triangles sorts first
  for (std::size_t k = 1; k < order.size(); ++k) {
    if (corners[order[k]] != corners[first]) {
      first = order[k];
      continue;
    }
    r.error(f.item(valid[order[k]]).where,
            "expected distinct triangles, got a repeat of triangle " + std::to_string(valid[first]));
  }
}

const Options<UpAxis> kUpAxes = {{"y", UpAxis::Y}, {"z", UpAxis::Z}};

/// An array of name globs ("include", "exclude"); false when any is invalid.
bool read_globs(JsonReader& r, const Field& f, std::vector<std::string>& out) {
  if (!f) return true;
  if (!r.array(f)) return false;
  out.resize(f.value->size());
  bool ok = true;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!r.string(f.item(i), out[i])) {
      ok = false;
    } else if (out[i].empty()) {
      r.error(f.item(i).where, "expected a name or glob, got \"\"");
      ok = false;
    }
  }
  return ok;
}

/// The options of a mesh file; false when any is invalid.
bool read_mesh_file_options(JsonReader& r, ObjectReader& o, MeshFileDef& def) {
  bool ok = true;
  const Field scale = o.optional("scale");
  if (scale) ok = r.number(scale, Range{0.0, Limits::max_coordinate, true, false, nullptr, nullptr}, def.scale) && ok;
  const Field up_axis = o.optional("up_axis");
  if (up_axis) ok = r.choice(up_axis, kUpAxes, def.up_axis) && ok;
  const Field merge = o.optional("merge");
  if (merge) ok = r.boolean(merge, def.merge) && ok;
  ok = read_globs(r, o.optional("include"), def.include) && ok;
  ok = read_globs(r, o.optional("exclude"), def.exclude) && ok;
  return ok;
}

/// "; 12 spawn points" for the import note, "" for none.
std::string describe_spawns(std::size_t count) {
  if (count == 0) return "";
  return "; " + std::to_string(count) + (count == 1 ? " spawn point" : " spawn points");
}

/// `{"type": "mesh", "file": "levels/house.glb", ...}`: the triangles come
/// from the file (mesh_import.h), counted against the triangle limit. Every
/// problem with the file is reported at "file", naming it.
void read_mesh_file(JsonReader& r, ObjectReader& o, ShapeDef& shape, WorldBudget& budget, SplitMesh& split) {
  const Field file = o.required("file");
  for (const char* inline_key : {"vertices", "triangles"}) {
    const Field stray = o.optional(inline_key);
    if (stray) r.error(stray.where, std::string("expected either \"file\" or \"vertices\" and \"triangles\", got both"));
  }
  MeshFileDef& def = shape.mesh_file;
  const bool options_ok = read_mesh_file_options(r, o, def);
  if (!r.string(file, def.file) || !options_ok) return;
  LoadContext& context = *budget.context;
  const Expected<std::string> path = resolve_input_path(def.file, context.dir, context.paths);
  if (!path) {
    r.error(file.where, path.error());
    return;
  }
  def.path = *path;
  const std::string shown = input_display_path(def.path, context.paths);
  MeshImportOptions options;
  options.scale = def.scale;
  options.up_axis = def.up_axis;
  options.include = def.include;
  options.exclude = def.exclude;
  options.merge = def.merge;
  options.max_triangles = std::max<std::int64_t>(0, Limits::max_triangles - budget.triangles);
  options.triangles_before = budget.triangles;
  options.paths = context.paths;
  if (budget.triangles_reported) return;  // over the limit already: one error says so
  Expected<ImportedMesh> mesh = import_mesh_file(def.path, options);
  if (!mesh) {
    r.error(file.where, shown + ": " + mesh.error());
    if (mesh.error().rfind(kOverTriangleLimit, 0) == 0) budget.triangles_reported = true;
    return;
  }
  budget.triangles += mesh->stats.source_triangles;  // what was read, as the limit counts it
  for (const InputFile& read : mesh->files) {
    add_input(*context.inputs, InputFile{input_display_path(read.path, context.paths), read.fnv1a64});
  }
  context.notes->push_back(context.scenario_label + ": " + context.pointer_prefix + file.where.pointer() + ": " +
                           shown + ": " + describe_import(mesh->stats) + describe_spawns(mesh->spawns.size()));
  for (MeshPart& part : mesh->parts) {
    ShapeDef& target = def.merge ? shape : split.parts.emplace_back(shape);
    target.vertices = std::move(part.vertices);
    target.triangles = std::move(part.triangles);
    target.mesh_file.node = std::move(part.name);
  }
}

void read_mesh(JsonReader& r, ObjectReader& o, ShapeDef& shape, WorldBudget& budget, SplitMesh& split) {
  if (o.has("file")) {
    read_mesh_file(r, o, shape, budget, split);
    return;
  }
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
  std::vector<std::size_t> valid;
  valid.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (read_triangle(r, triangles.item(i), vertex_count, vertices_ok ? &shape.vertices : nullptr,
                      shape.triangles[i]) &&
        vertices_ok) {
      valid.push_back(i);
    }
  }
  report_repeated_triangles(r, triangles, shape, valid);
}

void read_heightfield(JsonReader& r, ObjectReader& o, const Field& f, ShapeDef& shape, WorldBudget* budget) {
  if (o.has("file") && budget != nullptr) {
    read_heightfield_file(r, o, shape, *budget);
    return;
  }
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

/// Reads a shape of one of `types`. `budget` is null for the character, which
/// cannot be a mesh.
/// Returns whether the type is known (then shape.type is set).
bool read_shape(JsonReader& r, const Field& f, const Options<ShapeType>& types, ShapeDef& shape, WorldBudget* budget,
                SplitMesh* split) {
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
      read_mesh(r, o, shape, *budget, *split);
      break;
    case ShapeType::Heightfield:
      read_heightfield(r, o, f, shape, budget);
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

}  // namespace

bool read_body_shape(JsonReader& r, const Field& f, ShapeDef& shape, WorldBudget& budget, SplitMesh& split) {
  return read_shape(r, f, kBodyShapes, shape, &budget, &split);
}

void read_character_shape(JsonReader& r, const Field& f, ShapeDef& shape) {
  read_shape(r, f, kCharacterShapes, shape, nullptr, nullptr);
}

}  // namespace stepslide::loader
