#include "gate/commands/import_level.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <tuple>

#include "base/file_io.h"
#include "base/format.h"
#include "gate/commands/floor_survey.h"
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

/// The spot chosen and why, for stdout.
struct DropPoint {
  Vec3 from{0, 0, 0};
  std::string why;
};

/// Where the character's feet come to rest dropped from just above a floor at
/// (x, y, z), or why it cannot stand there.
Expected<Vec3> stand_on(const Scenario& scenario, World& world, double x, double y, double z) {
  return drop_character(scenario, world, Vec3{x, y + kDropClearance, z});
}

/// --at X,Z: the walkable floors under the point, lowest first; the lowest with
/// room to stand is taken.
Expected<DropPoint> drop_at_column(const Scenario& scenario, World& world, double x, double z) {
  using Result = Expected<DropPoint>;
  std::vector<FloorHit> floors = floors_under(world, scenario, x, z);
  std::reverse(floors.begin(), floors.end());
  std::string listing = "floors under x=" + readable_number(x) + " z=" + readable_number(z) + ", lowest first:\n";
  std::optional<DropPoint> chosen;
  for (const FloorHit& floor : floors) {
    const std::string y = readable_number(floor.point[1]);
    listing += "  y " + y;
    if (!floor.walkable) {
      listing += "  too steep (" + readable_number(floor.slope_deg) + " deg)\n";
      continue;
    }
    const Expected<Vec3> feet = stand_on(scenario, world, x, floor.point[1], z);
    if (!feet) {
      listing += "  no room: " + feet.error() + "\n";
    } else if (chosen) {
      listing += "  (--at " + readable_number(x) + "," + readable_number(std::round((floor.point[1] + kDropClearance) * 1000) / 1000) + "," +
                 readable_number(z) + " to stand here)\n";
    } else {
      listing += "  chosen: the lowest walkable floor with room to stand\n";
      chosen = DropPoint{Vec3{x, floor.point[1] + kDropClearance, z}, ""};
    }
  }
  if (floors.empty()) listing += "  (none)\n";
  if (!chosen) {
    return Result::failure(error_line("--at " + readable_number(x) + "," + readable_number(z) +
                                      ": no walkable floor with room to stand under that point") + listing);
  }
  chosen->why = listing;
  return *chosen;
}

/// For each cell of `region` (in its order): how many cell steps it lies from
/// the nearest cell outside the region.
std::vector<int> depth_inside(const FloorSurvey& survey, const FloorRegion& region) {
  std::vector<int> at(survey.floors.size(), -1);  // depth by cell; -1: not in the region
  std::vector<std::int64_t> queue;
  for (const auto& entry : region.cells) at[static_cast<std::size_t>(entry.first)] = 0;
  auto inside = [&](int i, int j) {
    return i >= 0 && j >= 0 && i < survey.nx && j < survey.nz && at[static_cast<std::size_t>(j) * survey.nx + i] >= 0;
  };
  const int steps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  for (const auto& entry : region.cells) {
    const int i = static_cast<int>(entry.first % survey.nx), j = static_cast<int>(entry.first / survey.nx);
    bool border = false;
    for (const auto& st : steps) border = border || !inside(i + st[0], j + st[1]);
    if (border) {
      at[static_cast<std::size_t>(entry.first)] = 1;
      queue.push_back(entry.first);
    }
  }
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const int i = static_cast<int>(queue[q] % survey.nx), j = static_cast<int>(queue[q] / survey.nx);
    for (const auto& st : steps) {
      if (!inside(i + st[0], j + st[1])) continue;
      const std::size_t n = static_cast<std::size_t>(j + st[1]) * survey.nx + i + st[0];
      if (at[n] != 0) continue;
      at[n] = at[static_cast<std::size_t>(queue[q])] + 1;
      queue.push_back(static_cast<std::int64_t>(n));
    }
  }
  std::vector<int> depth;
  for (const auto& entry : region.cells) depth.push_back(at[static_cast<std::size_t>(entry.first)]);
  return depth;
}

/// Without --at: the largest connected walkable floor, at its cell deepest
/// inside it (farthest from its border; ties nearest its middle) where the
/// character has room, else the next such cell, and so on.
Expected<DropPoint> drop_on_largest_floor(const ImportRequest& request, const Scenario& scenario, World& world,
                                          const FloorSurvey& survey) {
  using Result = Expected<DropPoint>;
  constexpr std::size_t kRegionsTried = 8, kCellsTried = 64;
  const std::vector<FloorRegion> regions = floor_regions(survey);
  for (std::size_t r = 0; r < regions.size() && r < kRegionsTried; ++r) {
    const FloorRegion& region = regions[r];
    double mx = 0.0, mz = 0.0, my = 0.0;
    for (const auto& [cell, y] : region.cells) {
      mx += survey.centre_x(static_cast<int>(cell % survey.nx));
      mz += survey.centre_z(static_cast<int>(cell / survey.nx));
      my += y;
    }
    const double n = static_cast<double>(region.cells.size());
    mx /= n;
    mz /= n;
    my /= n;
    // Deepest inside first: cells farthest (in steps) from the floor's border,
    // then nearest its middle, so the character starts in the open.
    const std::vector<int> depth = depth_inside(survey, region);
    std::vector<std::tuple<int, double, std::size_t>> order;
    for (std::size_t k = 0; k < region.cells.size(); ++k) {
      const std::int64_t cell = region.cells[k].first;
      const double dx = survey.centre_x(static_cast<int>(cell % survey.nx)) - mx;
      const double dz = survey.centre_z(static_cast<int>(cell / survey.nx)) - mz;
      order.emplace_back(-depth[k], dx * dx + dz * dz, k);
    }
    std::sort(order.begin(), order.end());
    for (std::size_t k = 0; k < order.size() && k < kCellsTried; ++k) {
      const auto& [cell, y] = region.cells[std::get<2>(order[k])];
      const double x = survey.centre_x(static_cast<int>(cell % survey.nx));
      const double z = survey.centre_z(static_cast<int>(cell / survey.nx));
      if (!stand_on(scenario, world, x, y, z)) continue;
      DropPoint point{Vec3{x, y + kDropClearance, z}, ""};
      point.why = "spot: the largest walkable floor (" + readable_number(std::round(region.area * 10) / 10) +
                  " m2 around y " + readable_number(std::round(my * 100) / 100) +
                  ", of " + std::to_string(regions.size()) + " connected floors), deepest inside it with room to stand\n";
      return point;
    }
  }
  return Result::failure(error_line(request.level + ": no walkable floor with room to stand found; give --at X,Z"));
}

/// Without --at, first: the first spawn point the level names (file order)
/// where the character, dropped from 0.1 m above it, lands on a walkable floor
/// with room to stand. None when the level names none or none of them works
/// (`tried` then says why each failed).
std::optional<DropPoint> drop_on_spawn(const Scenario& scenario, World& world, std::string& tried) {
  const std::vector<LevelSpawn> spawns = level_spawns(scenario, world);
  for (std::size_t i = 0; i < spawns.size(); ++i) {
    const LevelSpawn& spawn = spawns[i];
    const Vec3 from{spawn.position[0], spawn.position[1] + kDropClearance, spawn.position[2]};
    const Expected<Vec3> feet = drop_character(scenario, world, from);
    if (!feet) {
      tried += "spawn point " + spawn.name + " skipped: " + feet.error() + "\n";
      continue;
    }
    DropPoint point{from, ""};
    point.why = tried + "spot: spawn point " + spawn.name + " (" + readable_number(spawn.position[0]) + ", " +
                readable_number(spawn.position[1]) + ", " + readable_number(spawn.position[2]) + "), " +
                (i == 0 ? "the first" : "the first usable") + " of the " + std::to_string(spawns.size()) +
                " spawn points the level names, dropped " +
                readable_number(std::round((from[1] - (*feet)[1]) * 1000) / 1000) +
                " m onto the floor below it (--at X,Z to choose another spot)\n";
    return point;
  }
  return std::nullopt;
}

Expected<DropPoint> drop_point(const ImportRequest& request, const Scenario& scenario, World& world,
                               const FloorSurvey& survey) {
  using Result = Expected<DropPoint>;
  if (!request.at.empty()) {
    const Expected<PointOption> at = parse_point_option(request.at, true);
    if (!at) return Result::failure(at.error());
    if (at->y) return DropPoint{Vec3{at->x, *at->y, at->z}, ""};
    return drop_at_column(scenario, world, at->x, at->z);
  }
  std::string tried;
  if (std::optional<DropPoint> spawn = drop_on_spawn(scenario, world, tried)) return *spawn;
  Expected<DropPoint> floor = drop_on_largest_floor(request, scenario, world, survey);
  if (floor) {
    floor->why = (tried.empty() ? std::string("spawn points: none in the level\n")
                                : tried + "spawn points: none with room to stand\n") + floor->why;
  }
  return floor;
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
  const FloorSurvey survey = survey_floors(world, *world_only.scenario);
  const Expected<DropPoint> from = drop_point(request, *world_only.scenario, world, survey);
  if (!from) return refused(from.error());
  const std::string text = readable_json(scenario_document(request, *item, from->from)) + "\n";
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
  result.text += from->why;
  for (const std::string& note : final_load.notes) result.text += "note: " + note + "\n";
  result.text += "risers (height jumps between walkable floors up to " + readable_number(kSurveyMaxRiser) +
                 " m, in cell sides of " + readable_number(survey.pitch) + " m): " + riser_summary(survey) + "\n";
  if (const std::optional<double> riser = common_riser_over_step(survey)) {
    result.text += "hint: the level's most common riser above max_step_height " +
                   readable_number(survey.max_step_height) + " m is " + readable_number(*riser) +
                   " m; to climb it set character.settings.max_step_height to " +
                   readable_number(std::ceil(*riser * 100.0 + 1.0) / 100.0) + " (stepslide map draws them)\n";
  }
  return result;
}

}  // namespace stepslide
