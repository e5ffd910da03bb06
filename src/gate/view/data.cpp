#include "gate/view/data.h"

#include <cmath>

#include "base/format.h"
#include "gate/plot/geometry.h"
#include "gate/plot/run_events.h"
#include "gate/plot/traces.h"
#include "gate/view/geometry.h"
#include "gate/view/level.h"
#include "gate/view/overlay.h"
#include "scenario/load/convert.h"

namespace stepslide::view {

namespace {

/// Smaller steps (a capsule rolling over a bumpy mesh) are not listed, nor drawn as stepping.
constexpr double kShownStep = 0.001;

Json scenario_json(const Scenario& s) {
  return Json{{"name", s.name},
              {"description", s.description},
              {"source", s.source_path},
              {"tick_rate", s.tick_rate},
              {"ticks", s.ticks},
              {"up", encode_point(to_bt(s.up), kRowDigits)}};
}

double feet_to_centre(const ShapeDef& shape) {
  switch (shape.type) {
    case ShapeType::Sphere: return shape.radius;
    case ShapeType::Box: return shape.half_extents[1];
    default: return 0.5 * shape.height;  // capsule, cylinder
  }
}

Json character_json(const Scenario& s, const ShapeDef& shape) {
  return Json{{"shape", shape_kind_name(shape.type)},
              {"mesh", encode_mesh(character_mesh(shape, to_bt(s.up)), kGeometryDigits)},
              {"centre", quantise(feet_to_centre(shape), kGeometryDigits)},
              {"digits", kGeometryDigits}};
}

/// null, or the crouch shape and the rows crouched (data.h).
Json stance_json(const ViewDocument& d) {
  const Scenario& s = *d.scenario;
  if (d.stance == nullptr || !s.character.crouch_shape) return nullptr;
  const ShapeDef& crouch = *s.character.crouch_shape;
  const double standing = character_height(s.character.shape);
  std::vector<double> crouched;
  for (std::int64_t row = d.first; row <= d.last; ++row) {
    const auto i = static_cast<std::size_t>(row);
    crouched.push_back(i < d.stance->size() && (*d.stance)[i] < standing ? 1.0 : 0.0);
  }
  return Json{{"mesh", encode_mesh(character_mesh(crouch, to_bt(s.up)), kGeometryDigits)},
              {"centre", quantise(feet_to_centre(crouch), kGeometryDigits)},
              {"digits", kGeometryDigits},
              {"crouched", encode_column(crouched, 0)}};
}

/// A body's pose at `tick`: a dynamic body's from its columns in the run
/// shown (`crate.x` ... `crate.qw`: the world holds only its last pose).
btTransform shown_pose(const ViewDocument& d, const WorldBody& body, std::int64_t tick) {
  if (!d.scenario->world[body.def_index].dynamic() || d.runs.empty() || d.runs[0].trajectory == nullptr) {
    return d.world->body_pose(body.def_index, tick);
  }
  const Trajectory& t = *d.runs[0].trajectory;
  double v[7] = {0, 0, 0, 0, 0, 0, 1};
  const char* suffixes[7] = {".x", ".y", ".z", ".qx", ".qy", ".qz", ".qw"};
  for (int i = 0; i < 7; ++i) {
    const int column = t.column_index(body.name + suffixes[i]);
    if (column >= 0 && static_cast<std::size_t>(tick) < t.rows.size()) v[i] = t.cell(static_cast<std::size_t>(tick), column);
  }
  // The columns hold the centre of mass; the mesh is drawn in the body frame.
  return btTransform(btQuaternion(v[3], v[4], v[5], v[6]), btVector3(v[0], v[1], v[2])) * body.local_offset.inverse();
}

/// A static body in world coordinates; a moving one in its own frame with
/// its pose at every tick shown.
Json body_json(const ViewDocument& d, const WorldBody& body) {
  const Scenario& s = *d.scenario;
  const BodyDef& def = s.world[body.def_index];
  const bool moving = def.motion.type != MotionType::None || def.dynamic();
  Json j{{"name", body.name}, {"shape", shape_kind_name(def.shape.type)}, {"moving", moving}};
  if (def.one_way) {
    j["one_way"] = encode_point(d.world->body_pose(body.def_index, 0).getBasis() * btVector3(0, 1, 0), kRowDigits);
  }
  const TriMesh local = body_mesh(s, body);
  if (!moving) {
    TriMesh placed;
    placed.append(local, d.world->body_pose(body.def_index, 0));
    j["mesh"] = encode_mesh(placed, kGeometryDigits);
    return j;
  }
  j["mesh"] = encode_mesh(local, kGeometryDigits);
  std::vector<double> poses;
  for (std::int64_t tick = d.first; tick <= d.last; ++tick) {
    const btTransform pose = shown_pose(d, body, tick);
    const btQuaternion q = pose.getRotation();
    poses.insert(poses.end(), {pose.getOrigin().x(), pose.getOrigin().y(), pose.getOrigin().z(), q.x(), q.y(), q.z(),
                               q.w()});
  }
  j["poses"] = encode_rows(poses, 7, kRowDigits);
  return j;
}

/// Every column but tick and time (rows are ticks; check_view_reference
/// made sure), rows first..last.
Json columns_json(const Trajectory& t, std::int64_t first, std::int64_t last) {
  Json columns = Json::object();
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    if (t.columns[c] == "tick" || t.columns[c] == "time") continue;
    std::vector<double> values;
    for (std::int64_t row = first; row <= last; ++row) values.push_back(t.rows[static_cast<std::size_t>(row)][c]);
    columns[t.columns[c]] = encode_column(values, kRowDigits);
  }
  return columns;
}

/// The plot's steps (plot::trace_data) of at least kShownStep that overlap
/// the ticks shown.
Json steps_json(const Scenario& s, const ViewRun& run, std::int64_t first, std::int64_t last) {
  const plot::TraceData data =
      plot::trace_data(plot::make_frame(s.up), PlotTrace{run.label, run.trajectory}, s.tick_rate);
  Json steps = Json::array();
  for (const plot::TraceData::Step& step : data.steps) {
    const auto a = static_cast<std::int64_t>(step.first), b = static_cast<std::int64_t>(step.last);
    if (b < first || a > last || std::fabs(step.total) < kShownStep) continue;
    steps.push_back(Json{{"first", a}, {"last", b}, {"up", step.total > 0}, {"total", readable_number(step.total)}});
  }
  return steps;
}

Json run_json(const ViewDocument& d, const ViewRun& run) {
  return Json{{"label", run.label},
              {"role", run.role},
              {"columns", columns_json(*run.trajectory, d.first, d.last)},
              {"steps", steps_json(*d.scenario, run, d.first, d.last)}};
}

Json divergence_json(const std::optional<Divergence>& divergence) {
  if (!divergence) return nullptr;
  const Divergence& v = *divergence;
  return Json{{"tick", static_cast<std::int64_t>(v.row)},
              {"column", v.column},
              {"expected", v.expected.empty() ? "(no row)" : v.expected},
              {"actual", v.actual.empty() ? "(no row)" : v.actual},
              {"error", readable_number(v.error)},
              {"tolerance", readable_number(v.tolerance)}};
}

/// null outside a level; else where the page cuts it (gate/view/level.h).
Json level_json(const ViewDocument& d) {
  const std::optional<LevelCut> cut = level_cut(*d.scenario, *d.world, *d.runs.front().trajectory, d.first);
  if (!cut) return nullptr;
  return Json{{"cut_above_feet", quantise(cut->above_feet, kGeometryDigits)},
              {"character_height", quantise(cut->character_height, kGeometryDigits)},
              {"digits", kGeometryDigits}};
}

/// The other characters' colours, in file order (the first character's
/// blue, the ghost's violet and the path's state colours left out), round
/// again after the last.
constexpr const char* kOtherColours[] = {"#00897b", "#8d6e63", "#c0ca33", "#5e35b1", "#00acc1", "#6d4c41"};

/// The other characters ("characters", docs/format.md §1.7): each one's
/// name, colour (the legend lists both), shape and its columns of the run
/// shown, as a run (`b.x` read as `x`).
Json other_characters_json(const ViewDocument& d) {
  Json characters = Json::array();
  if (d.runs.empty() || d.runs.front().trajectory == nullptr) return characters;
  constexpr std::size_t kColours = sizeof kOtherColours / sizeof kOtherColours[0];
  for (const OtherCharacter& other : d.scenario->others) {
    const Trajectory columns = columns_of(*d.runs.front().trajectory, other.def.name + ".");
    Json character = character_json(*d.scenario, other.def.shape);
    character["name"] = other.def.name;
    character["colour"] = kOtherColours[characters.size() % kColours];
    character["run"] = run_json(d, ViewRun{other.def.name, "character", &columns});
    characters.push_back(character);
  }
  return characters;
}

Json trace_json(const ViewDocument& d) {
  if (d.trace == nullptr) return nullptr;
  Json ticks = Json::array();
  for (const Json& events : *d.trace) ticks.push_back(overlay_events(events));
  return Json{{"first", d.trace_first}, {"digits", kGeometryDigits}, {"ticks", ticks}};
}

}  // namespace

const char* shape_kind_name(ShapeType type) {
  switch (type) {
    case ShapeType::Box: return "box";
    case ShapeType::Sphere: return "sphere";
    case ShapeType::Capsule: return "capsule";
    case ShapeType::Cylinder: return "cylinder";
    case ShapeType::ConvexHull: return "convex_hull";
    case ShapeType::Mesh: return "mesh";
    case ShapeType::Heightfield: return "heightfield";
    case ShapeType::Stairs: return "stairs";
    case ShapeType::Ramp: return "ramp";
  }
  return "?";
}

Json view_document(const ViewDocument& d) {
  Json bodies = Json::array();
  for (const WorldBody& body : d.world->bodies()) bodies.push_back(body_json(d, body));
  Json runs = Json::array();
  for (const ViewRun& run : d.runs) runs.push_back(run_json(d, run));
  Json expectations = Json::array();
  for (const ExpectationFailure& f : d.expectation_failures) {
    expectations.push_back(f.check + " at tick " + std::to_string(f.tick) + ": " + f.message);
  }
  return Json{{"format", "stepslide/view@1"},
              {"scenario", scenario_json(*d.scenario)},
              {"ticks", Json::array({d.first, d.last})},
              {"digits", kRowDigits},
              {"character", character_json(*d.scenario, d.scenario->character.shape)},
              {"characters", other_characters_json(d)},
              {"bodies", bodies},
              {"runs", runs},
              {"divergence", divergence_json(d.divergence)},
              {"structural", d.structural},
              {"expectations", expectations},
              {"trace", trace_json(d)},
              {"level", level_json(d)},
              {"stance", stance_json(d)}};
}

}  // namespace stepslide::view
