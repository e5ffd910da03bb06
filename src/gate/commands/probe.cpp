#include "gate/commands/probe.h"

#include "base/format.h"
#include "gate/commands/point_option.h"
#include "gate/commands/level_source.h"
#include "scenario/load/floor_probe.h"
#include "scenario/load/world.h"

namespace stepslide {

namespace {

std::string vector_text(const Vec3& v) {
  return "(" + readable_number(v[0]) + ", " + readable_number(v[1]) + ", " + readable_number(v[2]) + ")";
}

std::string floor_line(const FloorHit& floor) {
  return "  y " + readable_number(floor.point[1]) + "  normal " + vector_text(floor.normal) + "  slope " +
         readable_number(floor.slope_deg) + " deg  " + (floor.walkable ? "walkable" : "too steep") + "  body " +
         floor.body + "\n";
}

}  // namespace

ProbeResult probe_scenario_file(const ProbeRequest& request) {
  ProbeResult result;
  const Expected<PointOption> at = parse_point_option(request.at, false);
  if (!at) {
    result.errors = at.error();
    result.exit_code = kExitInvalid;
    return result;
  }
  LoadOptions options;
  options.allow_outside = request.allow_outside;
  const LoadResult loaded = load_level_or_scenario(request.scenario, options);
  if (!loaded.scenario) {
    result.errors = format_load_errors(loaded);
    result.exit_code = kExitInvalid;
    return result;
  }
  const Scenario& scenario = *loaded.scenario;
  World world(scenario);
  const std::vector<FloorHit> floors = floors_under(world, scenario, at->x, at->z);
  result.text = "floors under x=" + readable_number(at->x) + " z=" + readable_number(at->z) + " in " +
                request.scenario + ", top to bottom:\n";
  for (const FloorHit& floor : floors) result.text += floor_line(floor);
  if (floors.empty()) result.text += "  (none)\n";
  return result;
}

}  // namespace stepslide
