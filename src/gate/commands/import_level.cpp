#include "gate/commands/import_level.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "base/file_io.h"
#include "base/format.h"
#include "gate/commands/point_option.h"
#include "gate/core/text.h"
#include "scenario/json/readable_json.h"
#include "scenario/load/convert.h"
#include "scenario/load/floor_probe.h"
#include "scenario/load/level_include.h"
#include "scenario/load/load.h"
#include "scenario/load/mesh_import.h"
#include "scenario/load/spawn.h"
#include "scenario/load/world.h"
#include "stepslide/math.h"

namespace stepslide {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr std::int64_t kImportTicks = 60;
/// The character drops from this far above a chosen triangle (plus its height).
constexpr double kDropClearance = 0.1;

/// A chosen drop point to the millimetre, whole numbers written as such: the
/// file stays readable, and the floor below decides where the feet end up anyway.
Json to_millimetres(double v) {
  const double mm = std::round(v * 1000.0) / 1000.0;
  if (mm == std::round(mm) && std::abs(mm) < 1e15) return Json(static_cast<std::int64_t>(mm));
  return Json(mm);
}

/// `level` as the scenario at `out` names it: relative to the scenario's directory.
std::string reference_from(const std::string& out, const std::string& level) {
  const fs::path out_dir = fs::absolute(fs::path(out)).parent_path();
  return fs::absolute(fs::path(level)).lexically_normal().lexically_relative(out_dir.lexically_normal()).generic_string();
}

Expected<Json> world_item(const ImportRequest& request, const std::string& reference) {
  using Result = Expected<Json>;
  if (mesh_format_name(request.level) != nullptr) {
    Json shape = {{"type", "mesh"}, {"file", reference}};
    if (request.scale != 1.0) shape["scale"] = request.scale;
    if (request.up_axis == "z") shape["up_axis"] = "z";
    return Json{{"name", "level"}, {"shape", shape}};
  }
  if (is_level_file(request.level)) {
    if (request.scale != 1.0 || request.up_axis != "y") {
      return Result::failure(error_line("--scale and --up-axis apply to mesh files; " + request.level +
                                        " is a level file (set them on its mesh shapes)"));
    }
    return Json{{"include", reference}};
  }
  std::error_code ec;
  if (!fs::exists(request.level, ec)) return Result::failure(error_line(request.level + ": no such file"));
  return Result::failure(error_line(request.level +
                                    ": expected a mesh file (.gltf, .glb, .obj, .fbx) or a level file "
                                    "(\"format\": \"stepslide/level@1\")"));
}

Json scenario_document(const ImportRequest& request, const Json& item, const Vec3& from) {
  Json doc;
  doc["format"] = kScenarioFormat;
  doc["description"] = "Imported from " + fs::path(request.level).filename().generic_string() +
                       " by stepslide import: the character stands where it is placed.";
  doc["ticks"] = kImportTicks;
  doc["character"] = {{"position", Json::array({to_millimetres(from[0]), to_millimetres(from[1]), to_millimetres(from[2])})},
                      {"place", "on_floor"}};
  doc["world"] = Json::array({item});
  return doc;
}

/// Above the centroid of the largest walkable mesh triangle, or nullopt when
/// the level has none.
std::optional<Vec3> largest_walkable_triangle(const Scenario& scenario, World& world) {
  const btVector3 up = to_bt(scenario.up).normalized();
  const double cos_max_slope = std::cos(scenario.character.settings.max_slope_deg * kDegToRad);
  double best_area = 0.0;
  std::optional<btVector3> best;
  for (const WorldBody& body : world.bodies()) {
    const ShapeDef& shape = scenario.world[body.def_index].shape;
    if (shape.type != ShapeType::Mesh) continue;
    const btTransform pose = world.body_pose(body.def_index, 0);
    for (const auto& t : shape.triangles) {
      const btVector3 a = pose * to_bt(shape.vertices[t[0]]), b = pose * to_bt(shape.vertices[t[1]]),
                      c = pose * to_bt(shape.vertices[t[2]]);
      const btVector3 n = (b - a).cross(c - a);
      const double area = 0.5 * n.length();
      if (area <= best_area || n.dot(up) < cos_max_slope * n.length()) continue;
      best_area = area;
      best = (a + b + c) / 3.0;
    }
  }
  if (!best) return std::nullopt;
  const double lift = 2.0 * feet_to_center(character_shape_desc(scenario.character.shape)) + kDropClearance;
  const btVector3 from = *best + up * lift;
  return Vec3{from.x(), from.y(), from.z()};
}

Expected<Vec3> drop_point(const ImportRequest& request, const Scenario& scenario, World& world) {
  using Result = Expected<Vec3>;
  if (!request.at.empty()) {
    const Expected<PointOption> at = parse_point_option(request.at, true);
    if (!at) return Result::failure(at.error());
    if (at->y) return Vec3{at->x, *at->y, at->z};
    const double top = world_extent_along(world, scenario.up).first + 1.0;
    return Vec3{at->x, top, at->z};
  }
  const std::optional<Vec3> spot = largest_walkable_triangle(scenario, world);
  if (!spot) {
    return Result::failure(error_line(request.level + ": no walkable mesh triangle to stand on; give --at X,Z"));
  }
  return *spot;
}

Status check_request(const ImportRequest& request) {
  if (request.up_axis != "y" && request.up_axis != "z") {
    return Status::failure(error_line("--up-axis: expected y or z, got \"" + request.up_axis + "\""));
  }
  if (!(request.scale > 0.0) || !std::isfinite(request.scale) || request.scale > ScenarioLimits::max_coordinate) {
    return Status::failure(error_line("--scale: expected a number > 0, got " + format_number(request.scale)));
  }
  std::error_code ec;
  if (fs::exists(request.out, ec) && !request.force) {
    return Status::failure(error_line(request.out + " exists; pass --force to overwrite it"));
  }
  if (fs::exists(request.out, ec) && !fs::is_regular_file(request.out, ec)) {
    return Status::failure(error_line(request.out + " is not a regular file"));
  }
  return Status();
}

ImportResult refused(std::string errors) {
  ImportResult result;
  result.exit_code = kExitInvalid;
  result.errors = std::move(errors);
  return result;
}

}  // namespace

ImportResult import_level(const ImportRequest& request) {
  if (Status ok = check_request(request); !ok) return refused(ok.error());
  const std::string reference = reference_from(request.out, request.level);
  if (!request.allow_outside && (reference.empty() || reference.rfind("..", 0) == 0)) {
    return refused(error_line(request.level + " lies outside the directory of " + request.out +
                              "; write the scenario beside or above the level, or pass --allow-outside"));
  }
  const Expected<Json> item = world_item(request, reference);
  if (!item) return refused(item.error());
  LoadOptions options;
  options.allow_outside = request.allow_outside;
  // Loaded once where the character stands as given, to find the spot, then
  // again as written, so what is written is exactly what `run` will load.
  Json provisional = scenario_document(request, *item, {0, 0, 0});
  provisional["character"].erase("place");
  LoadResult world_only = load_scenario_text(provisional.dump(2), request.out, options);
  if (!world_only.scenario) return refused(format_load_errors(world_only));
  World world(*world_only.scenario);
  const Expected<Vec3> from = drop_point(request, *world_only.scenario, world);
  if (!from) return refused(from.error());
  const std::string text = readable_json(scenario_document(request, *item, *from)) + "\n";
  const LoadResult final_load = load_scenario_text(text, request.out, options);
  if (!final_load.scenario) {
    return refused(format_load_errors(final_load) + "hint: choose the spot with --at X,Z (see stepslide probe)\n");
  }
  if (Status written = write_file_atomic(request.out, text); !written) {
    return refused(error_line("cannot write " + request.out + ": " + written.error()));
  }
  ImportResult result;
  const Vec3& feet = final_load.scenario->character.position;
  const Vec3& asked = final_load.scenario->character.requested_position;
  result.text = "wrote " + request.out + ": " + reference + ", character on_floor from (" + readable_number(asked[0]) +
                ", " + readable_number(asked[1]) + ", " + readable_number(asked[2]) + ") to feet (" +
                readable_number(feet[0]) + ", " + readable_number(feet[1]) + ", " + readable_number(feet[2]) + ")\n";
  for (const std::string& note : final_load.notes) result.text += "note: " + note + "\n";
  return result;
}

}  // namespace stepslide
