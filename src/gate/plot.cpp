// SVG pictures of a run. Geometry comes from the same Bullet world the runner
// builds (World), so what is drawn is what the character collided with.
#include "gate/plot.h"

#include "base/xml.h"
#include "scenario/convert.h"
#include "stepslide/math.h"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "scenario/world.h"

namespace stepslide {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Layout, in pixels.
constexpr double kWidth = 1000;
constexpr double kMarginLeft = 70;
constexpr double kTopViewY = 86;
constexpr double kTopViewMax = 470;    // largest side of the top view
constexpr double kLegendX = 600;
constexpr double kSideWidth = 900;
constexpr double kSideHeight = 230;
constexpr double kGapBelowTopView = 78;
/// Points closer than this on screen are merged: long runs stay small files.
constexpr double kMinPixelStep = 0.5;
/// A run that moves less than this horizontally is drawn against time instead.
constexpr double kMinSideDistance = 0.25;
/// The ground profile starts this far above the feet, so it finds the floor
/// under the character but not a ceiling above its head.
constexpr double kProfileRayLift = 0.5;
constexpr double kProfileRayDepth = 100.0;
/// At most this many ground-profile rays per run.
constexpr std::size_t kMaxProfileRays = 2000;
/// Finer detail than this is drawn as an outline only.
constexpr std::size_t kMaxMeshTriangles = 2000;
constexpr std::size_t kMaxHeightfieldCells = 2500;
constexpr int kRampBands = 8;
constexpr int kRoundSegments = 24;

// Colours.
constexpr const char* kTraceColour[] = {"#1565c0", "#ef6c00"};
constexpr const char* kStepUpColour = "#00897b";
constexpr const char* kStepDownColour = "#8e24aa";
constexpr const char* kDivergenceColour = "#d50000";
constexpr const char* kGroundColour = "#d8cfbf";
constexpr const char* kBodyStroke = "#6b5f4e";
constexpr const char* kGridColour = "#e4e4e4";
constexpr const char* kTextColour = "#222";
constexpr const char* kMutedText = "#666";
constexpr const char* kFont = "DejaVu Sans, Verdana, Arial, sans-serif";

struct P2 {
  double x = 0, y = 0;
};

// ---------------------------------------------------------------------------
// Text

/// Fixed-point with at most `decimals` decimals and no trailing zeros: compact
/// and the same on every machine ("C" formatting, no locale).
std::string num(double value, int decimals = 2) {
  if (!std::isfinite(value)) return "0";
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  std::string out = text;
  if (out.find('.') != std::string::npos) {
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
  }
  if (out == "-0") out = "0";
  return out;
}

/// Six significant digits, for labels.
std::string short_number(double value) {
  if (std::fabs(value) < 5e-10) value = 0.0;
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

/// name="value" with the value escaped.
std::string attr(const char* name, const std::string& value) {
  return std::string(" ") + name + "=\"" + xml_escape_attribute(value) + "\"";
}

/// Cuts `text` to `limit` characters (bytes of ASCII; never inside a UTF-8 sequence).
std::string clip_text(const std::string& text, std::size_t limit) {
  if (text.size() <= limit) return text;
  std::size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "...";
}

std::string text_element(double x, double y, const std::string& text, const std::string& extra = "") {
  return "<text" + attr("x", num(x)) + attr("y", num(y)) + extra + ">" + xml_escape_text(text) + "</text>\n";
}

// ---------------------------------------------------------------------------
// Numbers on axes

/// 1, 2 or 5 times a power of ten, at least `raw`.
double nice_step(double raw) {
  if (!(raw > 0) || !std::isfinite(raw)) return 1.0;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * power >= raw * (1 - 1e-9)) return m * power;
  }
  return 10 * power;
}

int decimals_for(double step) { return std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9))); }

// ---------------------------------------------------------------------------
// The projection: `a` to the right, `b` down the page, `h` up.

struct Frame {
  btVector3 up, right, down;
  std::string right_name, down_name, up_name;
};

std::string axis_name(const btVector3& v) {
  const char* names[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    if (std::fabs(v[i] - 1.0) < 1e-9) return names[i];
    if (std::fabs(v[i] + 1.0) < 1e-9) return std::string("-") + names[i];
  }
  return "";
}

/// Seen from above with Y up: x to the right, +z down the page, so forward
/// (-z, yaw 0) points up the page.
Frame make_frame(const Vec3& up_vector) {
  Frame f;
  f.up = btVector3(up_vector[0], up_vector[1], up_vector[2]).normalized();
  const btVector3 x(1, 0, 0), z(0, 0, 1);
  const btVector3 seed = std::fabs(f.up.dot(x)) < 0.9 ? x : z;
  f.right = (seed - f.up * seed.dot(f.up)).normalized();
  f.down = f.right.cross(f.up);
  f.right_name = axis_name(f.right);
  f.down_name = axis_name(f.down);
  f.up_name = axis_name(f.up);
  return f;
}

P2 plane_of(const Frame& f, const btVector3& p) { return {p.dot(f.right), p.dot(f.down)}; }

// ---------------------------------------------------------------------------
// Level outlines

/// One filled polygon of the top view: a box, a stair step, a band of a ramp,
/// a mesh triangle or a heightfield cell.
struct Part {
  std::vector<P2> outline;
  double top = 0.0;  ///< highest point, for shading and drawing order
};

struct BodyDrawing {
  std::string name;
  bool moving = false;
  std::vector<Part> start;  ///< at tick 0
  std::vector<Part> end;    ///< at the last tick (same as start for static bodies)
  double top = -kInf;
};

double cross(const P2& o, const P2& a, const P2& b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

/// Andrew's monotone chain; counter-clockwise, no repeated points.
std::vector<P2> convex_hull(std::vector<P2> points) {
  std::sort(points.begin(), points.end(), [](const P2& a, const P2& b) { return a.x != b.x ? a.x < b.x : a.y < b.y; });
  if (points.size() < 3) return points;
  std::vector<P2> hull(2 * points.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  for (std::size_t i = points.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  hull.resize(k > 1 ? k - 1 : k);
  return hull;
}

Part part_from_points(const Frame& f, const std::vector<btVector3>& world_points) {
  Part part;
  part.top = -kInf;
  std::vector<P2> plane;
  for (const btVector3& p : world_points) {
    plane.push_back(plane_of(f, p));
    part.top = std::max(part.top, p.dot(f.up));
  }
  part.outline = convex_hull(std::move(plane));
  return part;
}

/// Points on a sphere of `radius` around `centre` (local frame), enough for
/// its outline from any side.
void add_sphere_points(const btVector3& centre, double radius, std::vector<btVector3>& out) {
  for (int lat = -2; lat <= 2; ++lat) {
    const double phi = lat * kPi / 6;
    for (int i = 0; i < kRoundSegments; ++i) {
      const double theta = 2 * kPi * i / kRoundSegments;
      out.push_back(centre + radius * btVector3(std::cos(phi) * std::cos(theta), std::sin(phi),
                                                std::cos(phi) * std::sin(theta)));
    }
  }
  out.push_back(centre + btVector3(0, radius, 0));
  out.push_back(centre - btVector3(0, radius, 0));
}

/// Corners or samples of a convex Bullet shape, in its local frame. Returns
/// false for a shape this does not know (then its AABB is used).
bool convex_points(const btCollisionShape* shape, std::vector<btVector3>& out) {
  switch (shape->getShapeType()) {
    case BOX_SHAPE_PROXYTYPE: {
      const btVector3 h = static_cast<const btBoxShape*>(shape)->getHalfExtentsWithMargin();
      for (int i = 0; i < 8; ++i) out.emplace_back(i & 1 ? h.x() : -h.x(), i & 2 ? h.y() : -h.y(), i & 4 ? h.z() : -h.z());
      return true;
    }
    case SPHERE_SHAPE_PROXYTYPE:
      add_sphere_points(btVector3(0, 0, 0), static_cast<const btSphereShape*>(shape)->getRadius(), out);
      return true;
    case CAPSULE_SHAPE_PROXYTYPE: {
      const auto* capsule = static_cast<const btCapsuleShape*>(shape);
      btVector3 axis(0, 0, 0);
      axis[capsule->getUpAxis()] = capsule->getHalfHeight();
      add_sphere_points(axis, capsule->getRadius(), out);
      add_sphere_points(-axis, capsule->getRadius(), out);
      return true;
    }
    case CYLINDER_SHAPE_PROXYTYPE: {
      const btVector3 h = static_cast<const btCylinderShape*>(shape)->getHalfExtentsWithMargin();
      for (int i = 0; i < kRoundSegments; ++i) {
        const double theta = 2 * kPi * i / kRoundSegments;
        for (double y : {-h.y(), h.y()}) out.emplace_back(h.x() * std::cos(theta), y, h.x() * std::sin(theta));
      }
      return true;
    }
    case CONVEX_HULL_SHAPE_PROXYTYPE: {
      const auto* hull = static_cast<const btConvexHullShape*>(shape);
      for (int i = 0; i < hull->getNumPoints(); ++i) out.push_back(hull->getUnscaledPoints()[i]);
      return true;
    }
    default:
      return false;
  }
}

std::vector<btVector3> transformed(const btTransform& pose, const std::vector<btVector3>& local) {
  std::vector<btVector3> out;
  out.reserve(local.size());
  for (const btVector3& p : local) out.push_back(pose * p);
  return out;
}

/// A ramp's slab as bands across its slope, each shaded by its own height,
/// so the slope reads at a glance. The slab's top face is its local +Y face.
void add_ramp_bands(const Frame& f, const btTransform& pose, const btVector3& half, std::vector<Part>& parts) {
  for (int i = 0; i < kRampBands; ++i) {
    const double z0 = -half.z() + 2 * half.z() * i / kRampBands;
    const double z1 = -half.z() + 2 * half.z() * (i + 1) / kRampBands;
    parts.push_back(part_from_points(f, transformed(pose, {{-half.x(), half.y(), z0}, {half.x(), half.y(), z0},
                                                           {-half.x(), half.y(), z1}, {half.x(), half.y(), z1}})));
  }
}

/// Parts of a Bullet shape posed at `pose`: compound children one by one
/// (stair steps, a ramp's slab), convex shapes by their points.
void add_shape_parts(const Frame& f, const btCollisionShape* shape, const btTransform& pose, bool is_ramp,
                     std::vector<Part>& parts) {
  if (shape->getShapeType() == COMPOUND_SHAPE_PROXYTYPE) {
    const auto* compound = static_cast<const btCompoundShape*>(shape);
    for (int i = 0; i < compound->getNumChildShapes(); ++i) {
      add_shape_parts(f, compound->getChildShape(i), pose * compound->getChildTransform(i), is_ramp, parts);
    }
    return;
  }
  if (is_ramp && shape->getShapeType() == BOX_SHAPE_PROXYTYPE) {
    add_ramp_bands(f, pose, static_cast<const btBoxShape*>(shape)->getHalfExtentsWithMargin(), parts);
    return;
  }
  std::vector<btVector3> local;
  if (!convex_points(shape, local)) {
    btVector3 lo, hi;
    shape->getAabb(btTransform::getIdentity(), lo, hi);
    for (int i = 0; i < 8; ++i) local.emplace_back(i & 1 ? hi.x() : lo.x(), i & 2 ? hi.y() : lo.y(), i & 4 ? hi.z() : lo.z());
  }
  parts.push_back(part_from_points(f, transformed(pose, local)));
}


/// A mesh as its triangles, or as the outline of its vertices when it has
/// more than can be drawn usefully.
void add_mesh_parts(const Frame& f, const ShapeDef& s, const btTransform& pose, std::vector<Part>& parts) {
  if (s.triangles.size() > kMaxMeshTriangles) {
    std::vector<btVector3> all;
    for (const Vec3& v : s.vertices) all.push_back(pose * to_bt(v));
    parts.push_back(part_from_points(f, all));
    return;
  }
  for (const auto& t : s.triangles) {
    parts.push_back(part_from_points(f, {pose * to_bt(s.vertices[static_cast<std::size_t>(t[0])]),
                                         pose * to_bt(s.vertices[static_cast<std::size_t>(t[1])]),
                                         pose * to_bt(s.vertices[static_cast<std::size_t>(t[2])])}));
  }
}

/// A heightfield (SPEC §1.1: row = local Z, column = local X, centred on its
/// position) as its cells, or its extent when there are too many.
void add_heightfield_parts(const Frame& f, const ShapeDef& s, const btTransform& pose, std::vector<Part>& parts) {
  const auto rows = static_cast<std::size_t>(s.rows), columns = static_cast<std::size_t>(s.columns);
  auto corner = [&](std::size_t r, std::size_t c) {
    const double x = (static_cast<double>(c) - 0.5 * static_cast<double>(columns - 1)) * s.cell_size;
    const double z = (static_cast<double>(r) - 0.5 * static_cast<double>(rows - 1)) * s.cell_size;
    return pose * btVector3(x, s.heights[r * columns + c], z);
  };
  if ((rows - 1) * (columns - 1) > kMaxHeightfieldCells) {
    std::vector<btVector3> edge;
    for (std::size_t r = 0; r < rows; ++r) {
      edge.push_back(corner(r, 0));
      edge.push_back(corner(r, columns - 1));
    }
    for (std::size_t c = 0; c < columns; ++c) {
      edge.push_back(corner(0, c));
      edge.push_back(corner(rows - 1, c));
    }
    parts.push_back(part_from_points(f, edge));
    return;
  }
  for (std::size_t r = 0; r + 1 < rows; ++r) {
    for (std::size_t c = 0; c + 1 < columns; ++c) {
      parts.push_back(part_from_points(f, {corner(r, c), corner(r, c + 1), corner(r + 1, c), corner(r + 1, c + 1)}));
    }
  }
}

std::vector<Part> body_parts(const Frame& f, const Scenario& scenario, const World& world, const WorldBody& body,
                             std::int64_t tick) {
  const BodyDef& def = scenario.world[body.def_index];
  const btTransform pose = world.body_pose(body.def_index, tick);
  std::vector<Part> parts;
  if (def.shape.type == ShapeType::Mesh) {
    add_mesh_parts(f, def.shape, pose, parts);
  } else if (def.shape.type == ShapeType::Heightfield) {
    add_heightfield_parts(f, def.shape, pose, parts);
  } else {
    add_shape_parts(f, body.object->getCollisionShape(), pose * body.local_offset,
                    def.shape.type == ShapeType::Ramp, parts);
  }
  std::stable_sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) { return a.top < b.top; });
  return parts;
}

std::vector<BodyDrawing> level_drawings(const Frame& f, const Scenario& scenario, const World& world) {
  std::vector<BodyDrawing> drawings;
  for (const WorldBody& body : world.bodies()) {
    BodyDrawing d;
    d.name = body.name;
    d.moving = scenario.world[body.def_index].motion.type != MotionType::None;
    d.start = body_parts(f, scenario, world, body, 0);
    d.end = d.moving ? body_parts(f, scenario, world, body, scenario.ticks) : d.start;
    for (const Part& p : d.end) d.top = std::max(d.top, p.top);
    drawings.push_back(std::move(d));
  }
  // Higher bodies are drawn later, as seen from above.
  std::stable_sort(drawings.begin(), drawings.end(),
                   [](const BodyDrawing& a, const BodyDrawing& b) { return a.top < b.top; });
  return drawings;
}

// ---------------------------------------------------------------------------
// Trajectories

struct TraceData {
  std::string label;
  std::vector<P2> plane;          ///< (right, down) per row
  std::vector<double> height;     ///< along up
  std::vector<double> distance;   ///< horizontal distance travelled up to the row
  std::vector<double> time;
  std::vector<double> tick;
  std::vector<bool> valid;        ///< position finite
  std::vector<bool> airborne;     ///< grounded == 0 (false when the column is absent)
  std::vector<double> step_dy;    ///< 0 when the column is absent
  int airborne_rows = 0;
  /// A step: consecutive rows whose step_dy has the same sign (a capsule
  /// rolls over a stair edge in several small steps).
  struct Step {
    std::size_t first = 0, last = 0;
    double total = 0.0;
  };
  std::vector<Step> steps;
  std::size_t steps_up() const {
    return static_cast<std::size_t>(std::count_if(steps.begin(), steps.end(), [](const Step& s) { return s.total > 0; }));
  }
};

/// Groups the rows with a step event into steps, see TraceData::Step.
std::vector<TraceData::Step> group_steps(const std::vector<double>& step_dy, const std::vector<bool>& valid) {
  std::vector<TraceData::Step> steps;
  for (std::size_t i = 0; i < step_dy.size(); ++i) {
    if (step_dy[i] == 0.0 || !valid[i]) continue;
    const bool same_run = !steps.empty() && steps.back().last + 1 == i && (steps.back().total > 0) == (step_dy[i] > 0);
    if (!same_run) steps.push_back({i, i, 0.0});
    steps.back().last = i;
    steps.back().total += step_dy[i];
  }
  return steps;
}

double cell(const std::vector<double>& row, int column, double fallback) {
  if (column < 0 || static_cast<std::size_t>(column) >= row.size()) return fallback;
  return row[static_cast<std::size_t>(column)];
}

TraceData trace_data(const Frame& f, const PlotTrace& trace, int tick_rate) {
  const Trajectory& t = *trace.trajectory;
  const int x = t.column_index("x"), y = t.column_index("y"), z = t.column_index("z");
  const int grounded = t.column_index("grounded"), step = t.column_index("step_dy");
  const int tick = t.column_index("tick"), time = t.column_index("time");
  TraceData d;
  d.label = trace.label;
  double travelled = 0.0;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const std::vector<double>& row = t.rows[i];
    const btVector3 p(cell(row, x, NAN), cell(row, y, NAN), cell(row, z, NAN));
    const bool ok = std::isfinite(p.x()) && std::isfinite(p.y()) && std::isfinite(p.z());
    const P2 plane = ok ? plane_of(f, p) : P2{};
    if (ok && !d.plane.empty() && d.valid.back()) {
      travelled += std::hypot(plane.x - d.plane.back().x, plane.y - d.plane.back().y);
    }
    d.plane.push_back(plane);
    d.height.push_back(ok ? p.dot(f.up) : 0.0);
    d.distance.push_back(travelled);
    d.valid.push_back(ok);
    d.tick.push_back(cell(row, tick, static_cast<double>(i)));
    d.time.push_back(cell(row, time, d.tick.back() / tick_rate));
    const double g = cell(row, grounded, 1.0);
    d.airborne.push_back(g == 0.0);
    d.airborne_rows += g == 0.0 ? 1 : 0;
    const double dy = cell(row, step, 0.0);
    d.step_dy.push_back(std::isfinite(dy) ? dy : 0.0);
  }
  d.steps = group_steps(d.step_dy, d.valid);
  return d;
}

// ---------------------------------------------------------------------------
// Screen mapping

struct Box {
  double x0 = kInf, y0 = kInf, x1 = -kInf, y1 = -kInf;
  void add(double x, double y) {
    x0 = std::min(x0, x);
    y0 = std::min(y0, y);
    x1 = std::max(x1, x);
    y1 = std::max(y1, y);
  }
  bool empty() const { return !(x0 <= x1 && y0 <= y1); }
  double width() const { return x1 - x0; }
  double height() const { return y1 - y0; }
};

/// World units to pixels for one panel. `flip_y`: larger values go up the page.
struct Panel {
  double left = 0, top = 0, width = 0, height = 0;
  Box world;
  bool flip_y = false;
  P2 to_px(double x, double y) const {
    const double sx = width / world.width(), sy = height / world.height();
    return {left + (x - world.x0) * sx, flip_y ? top + (world.y1 - y) * sy : top + (y - world.y0) * sy};
  }
};

/// Pads `box` to at least `min_size` on each side and by `fraction` of its size.
Box padded(Box box, double fraction, double min_pad, double min_size) {
  if (box.empty()) box = Box{-1, -1, 1, 1};
  const double pad_x = std::max(min_pad, fraction * box.width());
  const double pad_y = std::max(min_pad, fraction * box.height());
  box = Box{box.x0 - pad_x, box.y0 - pad_y, box.x1 + pad_x, box.y1 + pad_y};
  const double grow_x = std::max(0.0, min_size - box.width()) / 2, grow_y = std::max(0.0, min_size - box.height()) / 2;
  return Box{box.x0 - grow_x, box.y0 - grow_y, box.x1 + grow_x, box.y1 + grow_y};
}

/// The top view keeps one scale on both axes; a very long, thin run is
/// widened so the level beside it shows too.
Box top_view_box(const std::vector<TraceData>& traces) {
  Box box;
  for (const TraceData& t : traces) {
    for (std::size_t i = 0; i < t.plane.size(); ++i) {
      if (t.valid[i]) box.add(t.plane[i].x, t.plane[i].y);
    }
  }
  box = padded(box, 0.15, 1.0, 3.0);
  constexpr double kMaxAspect = 1.4;
  if (box.width() * kMaxAspect < box.height()) {
    const double grow = (box.height() / kMaxAspect - box.width()) / 2;
    box.x0 -= grow;
    box.x1 += grow;
  } else if (box.height() * kMaxAspect < box.width()) {
    const double grow = (box.width() / kMaxAspect - box.height()) / 2;
    box.y0 -= grow;
    box.y1 += grow;
  }
  return box;
}

/// A polyline through rows [first, last] of a trace as SVG path data, breaking
/// at invalid rows and merging points closer than kMinPixelStep.
template <class ToPx>
std::string path_data(const TraceData& t, std::size_t first, std::size_t last, ToPx&& to_px) {
  std::string d;
  bool pen_down = false;
  P2 previous{};
  for (std::size_t i = first; i <= last && i < t.valid.size(); ++i) {
    if (!t.valid[i]) {
      pen_down = false;
      continue;
    }
    const P2 p = to_px(i);
    const bool is_last = i == last || i + 1 == t.valid.size();
    if (pen_down && !is_last && std::fabs(p.x - previous.x) < kMinPixelStep && std::fabs(p.y - previous.y) < kMinPixelStep) {
      continue;
    }
    d += (d.empty() ? "M" : pen_down ? " L" : " M") + num(p.x) + " " + num(p.y);
    pen_down = true;
    previous = p;
  }
  return d.empty() ? "M0 0" : d;
}

/// Row ranges [first, last] covering each airborne stretch together with the
/// ticks that leave and reach the ground.
std::vector<std::pair<std::size_t, std::size_t>> airborne_stretches(const TraceData& t) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  const std::size_t n = t.airborne.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (!t.airborne[i]) continue;
    std::size_t j = i;
    while (j + 1 < n && t.airborne[j + 1]) ++j;
    out.emplace_back(i > 0 ? i - 1 : i, j + 1 < n ? j + 1 : j);
    i = j;
  }
  return out;
}

/// Rows marked with a tick mark: every `interval` ticks.
std::int64_t tick_interval(std::int64_t ticks) {
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(nice_step(static_cast<double>(ticks) / 12.0)));
}

// ---------------------------------------------------------------------------
// SVG pieces

struct Svg {
  std::string out;
  std::string id_prefix;
  std::string id(const std::string& name) const { return id_prefix + "-" + name; }
};

std::string points_attr(const std::vector<P2>& points) {
  std::string text;
  for (const P2& p : points) text += (text.empty() ? "" : " ") + num(p.x) + "," + num(p.y);
  return text;
}

/// Light for low surfaces, dark for high ones.
std::string height_colour(double top, double lo, double hi) {
  const double u = hi - lo > 1e-9 ? std::clamp((top - lo) / (hi - lo), 0.0, 1.0) : 0.5;
  const double low[3] = {238, 233, 222}, high[3] = {128, 110, 88};
  char text[8];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", static_cast<unsigned>(std::lround(low[0] + u * (high[0] - low[0]))),
                static_cast<unsigned>(std::lround(low[1] + u * (high[1] - low[1]))),
                static_cast<unsigned>(std::lround(low[2] + u * (high[2] - low[2]))));
  return text;
}

std::vector<P2> to_pixels(const Panel& panel, const std::vector<P2>& outline) {
  std::vector<P2> px;
  for (const P2& p : outline) px.push_back(panel.to_px(p.x, p.y));
  return px;
}

P2 centre_of(const std::vector<Part>& parts) {
  Box box;
  for (const Part& part : parts) {
    for (const P2& p : part.outline) box.add(p.x, p.y);
  }
  return box.empty() ? P2{} : P2{(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2};
}

void draw_grid(Svg& svg, const Panel& panel, const std::string& x_label, const std::string& y_label) {
  const double step_x = nice_step(panel.world.width() / (panel.width / 70));
  const double step_y = nice_step(panel.world.height() / (panel.height / 45));
  std::string grid, labels;
  const std::string label_style = attr("font-size", "11") + attr("fill", kMutedText);
  for (double v = std::ceil(panel.world.x0 / step_x) * step_x; v <= panel.world.x1 + 1e-9; v += step_x) {
    const double x = panel.to_px(v, panel.world.y0).x;
    grid += "M" + num(x) + " " + num(panel.top) + " V" + num(panel.top + panel.height) + " ";
    labels += text_element(x, panel.top + panel.height + 15, num(v, decimals_for(step_x)),
                           label_style + attr("text-anchor", "middle"));
  }
  for (double v = std::ceil(panel.world.y0 / step_y) * step_y; v <= panel.world.y1 + 1e-9; v += step_y) {
    const double y = panel.to_px(panel.world.x0, v).y;
    grid += "M" + num(panel.left) + " " + num(y) + " H" + num(panel.left + panel.width) + " ";
    labels += text_element(panel.left - 6, y + 4, num(v, decimals_for(step_y)), label_style + attr("text-anchor", "end"));
  }
  svg.out += "<path class=\"grid\"" + attr("d", grid) + attr("stroke", kGridColour) + " stroke-width=\"1\" fill=\"none\"/>\n";
  svg.out += "<g class=\"axis-labels\">\n" + labels;
  svg.out += text_element(panel.left + panel.width / 2, panel.top + panel.height + 34, x_label,
                          attr("font-size", "12") + attr("text-anchor", "middle") + attr("fill", kTextColour));
  const double ly = panel.top + panel.height / 2, lx = panel.left - 48;
  svg.out += text_element(lx, ly, y_label,
                          attr("font-size", "12") + attr("text-anchor", "middle") + attr("fill", kTextColour) +
                              attr("transform", "rotate(-90 " + num(lx) + " " + num(ly) + ")"));
  svg.out += "</g>\n";
}

void draw_frame(Svg& svg, const Panel& panel) {
  svg.out += "<rect class=\"frame\"" + attr("x", num(panel.left)) + attr("y", num(panel.top)) +
             attr("width", num(panel.width)) + attr("height", num(panel.height)) +
             " fill=\"none\" stroke=\"#444\" stroke-width=\"1\"/>\n";
}

void open_clip(Svg& svg, const Panel& panel, const std::string& name) {
  svg.out += "<clipPath" + attr("id", svg.id(name)) + "><rect" + attr("x", num(panel.left)) + attr("y", num(panel.top)) +
             attr("width", num(panel.width)) + attr("height", num(panel.height)) + "/></clipPath>\n";
  svg.out += "<g" + attr("clip-path", "url(#" + svg.id(name) + ")") + ">\n";
}

void draw_body(Svg& svg, const Panel& panel, const BodyDrawing& body, double lo, double hi) {
  svg.out += "<g class=\"body\"" + attr("data-body", body.name) + ">\n";
  svg.out += "<title>" + xml_escape_text(body.name + (body.moving ? " (moving: dashed at tick 0, solid at the end)" : "")) +
             "</title>\n";
  if (body.moving) {
    for (const Part& part : body.start) {
      svg.out += "<polygon class=\"pose-start\"" + attr("points", points_attr(to_pixels(panel, part.outline))) +
                 " fill=\"none\"" + attr("stroke", kBodyStroke) + " stroke-width=\"1\" stroke-dasharray=\"4 3\"/>\n";
    }
  }
  for (const Part& part : body.end) {
    svg.out += std::string("<polygon class=\"") + (body.moving ? "pose-end" : "part") + "\"" +
               attr("points", points_attr(to_pixels(panel, part.outline))) +
               attr("fill", height_colour(part.top, lo, hi)) + " fill-opacity=\"0.8\"" + attr("stroke", kBodyStroke) +
               " stroke-width=\"0.7\" stroke-linejoin=\"round\"/>\n";
  }
  if (body.moving) {
    const P2 a = panel.to_px(centre_of(body.start).x, centre_of(body.start).y);
    const P2 b = panel.to_px(centre_of(body.end).x, centre_of(body.end).y);
    if (std::hypot(b.x - a.x, b.y - a.y) > 4) {
      svg.out += "<line class=\"motion\"" + attr("x1", num(a.x)) + attr("y1", num(a.y)) + attr("x2", num(b.x)) +
                 attr("y2", num(b.y)) + attr("stroke", kBodyStroke) + " stroke-width=\"1.2\"" +
                 attr("marker-end", "url(#" + svg.id("arrow") + ")") + "/>\n";
    }
  }
  svg.out += "</g>\n";
}

void draw_body_label(Svg& svg, const Panel& panel, const BodyDrawing& body) {
  Box px;
  for (const Part& part : body.end) {
    for (const P2& p : to_pixels(panel, part.outline)) px.add(p.x, p.y);
  }
  const bool covers_view = px.x0 <= panel.left && px.x1 >= panel.left + panel.width && px.y0 <= panel.top &&
                           px.y1 >= panel.top + panel.height;
  if (px.empty() || covers_view || px.width() < 36) return;
  // Inside the body's upper-left corner, where the path seldom runs.
  const double x = std::clamp(px.x0, panel.left, panel.left + panel.width - 40) + 4;
  const double y = std::clamp(px.y0, panel.top, panel.top + panel.height - 16) + 13;
  svg.out += text_element(x, y, clip_text(body.name, 24),
                          attr("class", "body-label") + attr("font-size", "10") + attr("text-anchor", "start") +
                              attr("fill", "#4e4334") + attr("stroke", "#fff") + " stroke-width=\"2.5\"" +
                              attr("paint-order", "stroke"));
}

/// Upward triangle for a step up, downward for a step down; `title` shows on hover.
std::string step_marker(const P2& p, bool up, const char* trace_colour, const std::string& title = "") {
  const double s = 5;
  const std::vector<P2> tri = up ? std::vector<P2>{{p.x, p.y - s}, {p.x - s, p.y + s * 0.7}, {p.x + s, p.y + s * 0.7}}
                                 : std::vector<P2>{{p.x, p.y + s}, {p.x - s, p.y - s * 0.7}, {p.x + s, p.y - s * 0.7}};
  return std::string("<polygon class=\"") + (up ? "step-up" : "step-down") + "\"" + attr("points", points_attr(tri)) +
         attr("fill", up ? kStepUpColour : kStepDownColour) + attr("stroke", trace_colour) + " stroke-width=\"0.6\"" +
         (title.empty() ? "/>\n" : "><title>" + xml_escape_text(title) + "</title></polygon>\n");
}

/// The trajectory in one view: one <path class="trajectory"> per trace, its
/// airborne stretches dashed, tick marks, step events and start/end.
template <class ToPx>
void draw_trace(Svg& svg, const TraceData& t, std::size_t index, std::int64_t interval, ToPx&& to_px) {
  if (t.valid.empty()) return;
  const char* colour = kTraceColour[std::min<std::size_t>(index, 1)];
  const bool reference = index > 0;
  const std::size_t last = t.valid.size() - 1;
  svg.out += "<g class=\"trace\"" + attr("data-trace", std::to_string(index)) + ">\n";
  svg.out += "<path class=\"trajectory\"" + attr("data-trace", std::to_string(index)) +
             attr("d", path_data(t, 0, last, to_px)) + " fill=\"none\"" + attr("stroke", colour) +
             (reference ? " stroke-width=\"5\" stroke-opacity=\"0.45\"" : " stroke-width=\"2\"") +
             " stroke-linejoin=\"round\" stroke-linecap=\"round\"/>\n";
  // Airborne: white dashes across the line cut it into dashes.
  for (const auto& [first, end] : airborne_stretches(t)) {
    svg.out += "<path class=\"airborne\"" + attr("d", path_data(t, first, end, to_px)) +
               " fill=\"none\" stroke=\"#fff\"" + (reference ? " stroke-width=\"2\"" : " stroke-width=\"3\"") +
               " stroke-dasharray=\"5 4\"/>\n";
  }
  if (!reference) {
    std::vector<P2> labelled;
    for (std::size_t i = 0; i <= last; ++i) {
      if (!t.valid[i] || std::fmod(t.tick[i], static_cast<double>(interval)) != 0.0) continue;
      const P2 p = to_px(i);
      svg.out += "<circle class=\"tick-mark\"" + attr("cx", num(p.x)) + attr("cy", num(p.y)) +
                 " r=\"2.6\" fill=\"#fff\"" + attr("stroke", colour) + " stroke-width=\"1.2\"/>\n";
      const bool crowded = std::any_of(labelled.begin(), labelled.end(),
                                       [&](const P2& q) { return std::hypot(q.x - p.x, q.y - p.y) < 26; });
      if (crowded) continue;
      labelled.push_back(p);
      svg.out += text_element(p.x + 5, p.y - 5, num(t.tick[i], 0),
                              attr("class", "tick-label") + attr("font-size", "9") + attr("fill", "#37474f") +
                                  attr("stroke", "#fff") + " stroke-width=\"2\"" + attr("paint-order", "stroke"));
    }
  }
  // One marker per step, where it starts; its title says how far and when.
  for (const TraceData::Step& step : t.steps) {
    const std::string ticks = step.first == step.last ? "tick " + num(t.tick[step.first], 0)
                                                      : "ticks " + num(t.tick[step.first], 0) + "-" +
                                                            num(t.tick[step.last], 0);
    svg.out += step_marker(to_px(step.first), step.total > 0, colour,
                           std::string(step.total > 0 ? "step up " : "step down ") + short_number(std::fabs(step.total)) +
                               " m, " + ticks);
  }
  if (!reference && t.valid[0]) {
    const P2 s = to_px(0);
    svg.out += "<circle class=\"start\"" + attr("cx", num(s.x)) + attr("cy", num(s.y)) + " r=\"4.5\"" +
               attr("fill", colour) + " stroke=\"#fff\" stroke-width=\"1.2\"/>\n";
  }
  if (!reference && t.valid[last]) {
    const P2 e = to_px(last);
    svg.out += "<rect class=\"end\"" + attr("x", num(e.x - 4)) + attr("y", num(e.y - 4)) +
               " width=\"8\" height=\"8\"" + attr("fill", colour) + " stroke=\"#fff\" stroke-width=\"1.2\"/>\n";
  }
  svg.out += "</g>\n";
}

/// A ring at each side's position at the divergent row, joined by a line.
template <class ToPx>
void draw_divergence(Svg& svg, const std::vector<TraceData>& traces, const Divergence& d, ToPx&& to_px) {
  std::vector<P2> at;
  for (std::size_t k = 0; k < traces.size() && k < 2; ++k) {
    if (d.row < traces[k].valid.size() && traces[k].valid[d.row]) at.push_back(to_px(k, d.row));
  }
  if (at.empty()) return;
  svg.out += "<g class=\"divergence\">\n<title>" + xml_escape_text("first divergence at tick " + short_number(d.tick) +
                                                             ", column " + d.column) + "</title>\n";
  if (at.size() == 2) {
    svg.out += "<line" + attr("x1", num(at[0].x)) + attr("y1", num(at[0].y)) + attr("x2", num(at[1].x)) +
               attr("y2", num(at[1].y)) + attr("stroke", kDivergenceColour) + " stroke-width=\"1.5\"/>\n";
  }
  for (const P2& p : at) {
    svg.out += "<circle" + attr("cx", num(p.x)) + attr("cy", num(p.y)) + " r=\"8\" fill=\"none\"" +
               attr("stroke", kDivergenceColour) + " stroke-width=\"2\"/>\n";
  }
  svg.out += "</g>\n";
}

// ---------------------------------------------------------------------------
// The two views

struct Layout {
  Panel top;
  Panel side;
  double height = 0;
};

void draw_top_view(Svg& svg, const Panel& panel, const Frame& f, const std::vector<BodyDrawing>& bodies,
                   const std::vector<TraceData>& traces, const std::optional<Divergence>& divergence,
                   std::int64_t interval, double lo, double hi) {
  svg.out += "<g class=\"top-view\">\n";
  svg.out += text_element(panel.left, panel.top - 10, "Top view (seen from above)",
                          attr("font-size", "14") + attr("font-weight", "bold") + attr("fill", kTextColour));
  svg.out += "<rect" + attr("x", num(panel.left)) + attr("y", num(panel.top)) + attr("width", num(panel.width)) +
             attr("height", num(panel.height)) + " fill=\"#fbfbf8\"/>\n";
  draw_grid(svg, panel, (f.right_name.empty() ? "right" : f.right_name) + " (m)",
            (f.down_name.empty() ? "down" : f.down_name) + " (m)");
  open_clip(svg, panel, "top-clip");
  for (const BodyDrawing& body : bodies) draw_body(svg, panel, body, lo, hi);
  for (const BodyDrawing& body : bodies) draw_body_label(svg, panel, body);
  for (std::size_t k = traces.size(); k-- > 0;) {
    draw_trace(svg, traces[k], k, interval,
               [&](std::size_t i) { return panel.to_px(traces[k].plane[i].x, traces[k].plane[i].y); });
  }
  if (divergence) {
    draw_divergence(svg, traces, *divergence,
                    [&](std::size_t k, std::size_t i) { return panel.to_px(traces[k].plane[i].x, traces[k].plane[i].y); });
  }
  svg.out += "</g>\n";
  draw_frame(svg, panel);
  svg.out += "</g>\n";
}

/// The height of the first thing below each sampled row's feet, found with a
/// ray in the world posed for that row's tick. NaN where nothing is below.
std::vector<std::pair<std::size_t, double>> ground_profile(const Frame& f, World& world, const TraceData& t,
                                                           const Trajectory& trajectory) {
  std::vector<std::pair<std::size_t, double>> profile;
  const std::size_t n = t.valid.size();
  const std::size_t stride = std::max<std::size_t>(1, (n + kMaxProfileRays - 1) / kMaxProfileRays);
  const int x = trajectory.column_index("x"), y = trajectory.column_index("y"), z = trajectory.column_index("z");
  std::vector<std::size_t> rows;
  for (std::size_t i = 0; i < n; i += stride) rows.push_back(i);
  if (n > 0 && rows.back() != n - 1) rows.push_back(n - 1);
  for (const std::size_t i : rows) {
    if (!t.valid[i]) continue;
    const std::vector<double>& row = trajectory.rows[i];
    const btVector3 feet(cell(row, x, 0), cell(row, y, 0), cell(row, z, 0));
    world.set_time(static_cast<std::int64_t>(t.tick[i]));
    const btVector3 from = feet + f.up * kProfileRayLift, to = feet - f.up * kProfileRayDepth;
    btCollisionWorld::ClosestRayResultCallback hit(from, to);
    world.collision_world()->rayTest(from, to, hit);
    profile.emplace_back(i, hit.hasHit() ? hit.m_hitPointWorld.dot(f.up) : NAN);
  }
  return profile;
}

void draw_side_view(Svg& svg, const Panel& panel, const Frame& f, const std::vector<TraceData>& traces,
                    const std::vector<std::pair<std::size_t, double>>& profile,
                    const std::vector<std::vector<double>>& side_x, bool against_time,
                    const std::optional<Divergence>& divergence, std::int64_t interval) {
  svg.out += "<g class=\"side-view\">\n";
  svg.out += text_element(panel.left, panel.top - 10,
                          against_time ? "Side view: height against time (the run barely moves horizontally)"
                                       : "Side view: height against distance travelled",
                          attr("font-size", "14") + attr("font-weight", "bold") + attr("fill", kTextColour));
  svg.out += "<rect" + attr("x", num(panel.left)) + attr("y", num(panel.top)) + attr("width", num(panel.width)) +
             attr("height", num(panel.height)) + " fill=\"#fbfbf8\"/>\n";
  draw_grid(svg, panel, against_time ? "time (s)" : "distance travelled (m)",
            "height" + (f.up_name.empty() ? std::string() : " " + f.up_name) + " (m)");
  open_clip(svg, panel, "side-clip");
  // Ground under the feet of the judged run, filled down to the panel's bottom.
  std::string ground;
  bool open = false;
  P2 first{}, previous{};
  const double bottom = panel.top + panel.height + 2;
  auto close = [&] {
    if (open) ground += " L" + num(previous.x) + " " + num(bottom) + " L" + num(first.x) + " " + num(bottom) + " Z ";
    open = false;
  };
  for (const auto& [row, h] : profile) {
    if (!std::isfinite(h)) {
      close();
      continue;
    }
    const P2 p = panel.to_px(side_x[0][row], h);
    if (!open) {
      ground += "M" + num(p.x) + " " + num(bottom) + " L" + num(p.x) + " " + num(p.y);
      first = p;
      open = true;
    } else {
      ground += " L" + num(p.x) + " " + num(p.y);
    }
    previous = p;
  }
  close();
  if (!ground.empty()) {
    svg.out += "<path class=\"ground\"" + attr("d", ground) + attr("fill", kGroundColour) + attr("stroke", kBodyStroke) +
               " stroke-width=\"0.8\"/>\n";
  }
  for (std::size_t k = traces.size(); k-- > 0;) {
    draw_trace(svg, traces[k], k, interval,
               [&](std::size_t i) { return panel.to_px(side_x[k][i], traces[k].height[i]); });
  }
  if (divergence) {
    const std::size_t row = divergence->row;
    if (row < side_x[0].size()) {
      const double x = panel.to_px(side_x[0][row], 0).x;
      svg.out += "<line class=\"divergence-line\"" + attr("x1", num(x)) + attr("y1", num(panel.top)) +
                 attr("x2", num(x)) + attr("y2", num(panel.top + panel.height)) + attr("stroke", kDivergenceColour) +
                 " stroke-width=\"1\" stroke-dasharray=\"5 3\"/>\n";
    }
    draw_divergence(svg, traces, *divergence,
                    [&](std::size_t k, std::size_t i) { return panel.to_px(side_x[k][i], traces[k].height[i]); });
  }
  svg.out += "</g>\n";
  draw_frame(svg, panel);
  svg.out += "</g>\n";
}

// ---------------------------------------------------------------------------
// Legend

struct LegendWriter {
  Svg& svg;
  double x = 0, y = 0;
  void entry(const std::string& symbol, const std::string& text) {
    svg.out += "<g" + attr("transform", "translate(" + num(x) + " " + num(y) + ")") + ">" + symbol;
    svg.out += text_element(34, 4, text, attr("font-size", "12") + attr("fill", kTextColour)) + "</g>\n";
    y += 21;
  }
  void note(const std::string& text, const char* colour = kMutedText) {
    svg.out += text_element(x, y + 4, text, attr("font-size", "11") + attr("fill", colour));
    y += 17;
  }
};

void draw_legend(Svg& svg, double x, double y, const Scenario& scenario, const std::vector<TraceData>& traces,
                 const std::optional<Divergence>& divergence, std::int64_t interval, double lo, double hi,
                 bool any_moving) {
  LegendWriter w{svg, x, y};
  svg.out += "<g class=\"legend\">\n";
  svg.out += text_element(x, y - 10, "Legend", attr("font-size", "14") + attr("font-weight", "bold") +
                                                   attr("fill", kTextColour));
  w.y += 8;
  for (std::size_t k = 0; k < traces.size(); ++k) {
    const std::string line = "<line x1=\"0\" y1=\"0\" x2=\"26\" y2=\"0\"" + attr("stroke", kTraceColour[std::min<std::size_t>(k, 1)]) +
                             (k == 0 ? " stroke-width=\"2\"" : " stroke-width=\"5\" stroke-opacity=\"0.45\"") + "/>";
    w.entry(line, clip_text(traces[k].label, 60));
  }
  w.entry("<line x1=\"0\" y1=\"0\" x2=\"26\" y2=\"0\"" + attr("stroke", kTraceColour[0]) +
              " stroke-width=\"2\"/><line x1=\"0\" y1=\"0\" x2=\"26\" y2=\"0\" stroke=\"#fff\" stroke-width=\"3\" "
              "stroke-dasharray=\"5 4\"/>",
          "airborne (not grounded)");
  w.entry(step_marker({13, 0}, true, kTraceColour[0]), "step up (where step_dy > 0 starts)");
  w.entry(step_marker({13, 0}, false, kTraceColour[0]), "step down (where step_dy < 0 starts)");
  w.entry("<circle cx=\"13\" cy=\"0\" r=\"2.6\" fill=\"#fff\"" + attr("stroke", kTraceColour[0]) +
              " stroke-width=\"1.2\"/>",
          "every " + std::to_string(interval) + " ticks (labelled with the tick)");
  w.entry("<circle cx=\"6\" cy=\"0\" r=\"4.5\"" + attr("fill", kTraceColour[0]) + "/><rect x=\"16\" y=\"-4\" width=\"8\" height=\"8\"" +
              attr("fill", kTraceColour[0]) + "/>",
          "start, end");
  if (any_moving) {
    w.entry("<rect x=\"2\" y=\"-6\" width=\"22\" height=\"12\" fill=\"none\"" + attr("stroke", kBodyStroke) +
                " stroke-dasharray=\"4 3\"/>",
            "moving body at tick 0 (solid: at the end)");
  }
  if (divergence) {
    w.entry("<circle cx=\"13\" cy=\"0\" r=\"7\" fill=\"none\"" + attr("stroke", kDivergenceColour) +
                " stroke-width=\"2\"/>",
            "first divergence");
  }
  // Height scale of the level's surfaces.
  const std::string gradient = svg.id("height-scale");
  svg.out += "<linearGradient" + attr("id", gradient) + " x1=\"0\" y1=\"0\" x2=\"1\" y2=\"0\"><stop offset=\"0\"" +
             attr("stop-color", height_colour(lo, lo, hi)) + "/><stop offset=\"1\"" +
             attr("stop-color", height_colour(hi, lo, hi)) + "/></linearGradient>\n";
  svg.out += "<rect" + attr("x", num(w.x)) + attr("y", num(w.y - 6)) + " width=\"150\" height=\"12\"" +
             attr("fill", "url(#" + gradient + ")") + attr("stroke", kBodyStroke) + " stroke-width=\"0.6\"/>\n";
  svg.out += text_element(w.x + 158, w.y + 4, "surface height " + short_number(lo) + " to " + short_number(hi) + " m",
                          attr("font-size", "12") + attr("fill", kTextColour));
  w.y += 30;
  const TraceData& run = traces.front();
  w.note(std::to_string(scenario.ticks) + " ticks at " + std::to_string(scenario.tick_rate) + " Hz, " +
         std::to_string(scenario.world.size()) + " bodies");
  w.note(run.label + ": " + std::to_string(run.steps_up()) + " steps up, " +
         std::to_string(run.steps.size() - run.steps_up()) +
         " down, airborne on " + std::to_string(run.airborne_rows) + " of " + std::to_string(run.valid.size()) + " rows");
  if (!run.distance.empty()) w.note("horizontal distance travelled: " + short_number(run.distance.back()) + " m");
  if (divergence) {
    w.y += 6;
    w.note("first divergence at tick " + short_number(divergence->tick) + ", column " + divergence->column + ":",
           kDivergenceColour);
    w.note("expected " + clip_text(divergence->expected.empty() ? "(no row)" : divergence->expected, 28) + ", got " +
               clip_text(divergence->actual.empty() ? "(no row)" : divergence->actual, 28),
           kDivergenceColour);
  }
  svg.out += "</g>\n";
}

// ---------------------------------------------------------------------------

Layout make_layout(const Box& top_world, const Box& side_world) {
  Layout layout;
  const double scale = std::min(kTopViewMax / top_world.width(), kTopViewMax / top_world.height());
  layout.top = Panel{kMarginLeft, kTopViewY, top_world.width() * scale, top_world.height() * scale, top_world, false};
  const double side_top = std::max(kTopViewY + layout.top.height, kTopViewY + 330) + kGapBelowTopView;
  layout.side = Panel{kMarginLeft, side_top, kSideWidth, kSideHeight, side_world, true};
  layout.height = side_top + kSideHeight + 50;
  return layout;
}

}  // namespace


std::vector<std::string> missing_plot_columns(const Trajectory& trajectory) {
  std::vector<std::string> missing;
  for (const char* column : {"x", "y", "z"}) {
    if (trajectory.column_index(column) < 0) missing.push_back(column);
  }
  return missing;
}

std::string plot_svg(const Scenario& scenario, const std::vector<PlotTrace>& traces,
                     const std::optional<Divergence>& divergence, const PlotOptions& options) {
  if (traces.empty() || traces.front().trajectory == nullptr) throw std::invalid_argument("plot_svg: no trajectory");
  for (const PlotTrace& trace : traces) {
    if (trace.trajectory == nullptr || !missing_plot_columns(*trace.trajectory).empty()) {
      throw std::invalid_argument("plot_svg: trajectory '" + trace.label + "' lacks x, y or z");
    }
  }
  const Frame frame = make_frame(scenario.up);
  World world(scenario);
  const std::vector<BodyDrawing> bodies = level_drawings(frame, scenario, world);
  std::vector<TraceData> data;
  for (const PlotTrace& trace : traces) data.push_back(trace_data(frame, trace, scenario.tick_rate));
  const std::vector<std::pair<std::size_t, double>> profile =
      ground_profile(frame, world, data.front(), *traces.front().trajectory);

  // Side view: against distance travelled, or time when the run stays put.
  const bool against_time = data.front().distance.empty() || data.front().distance.back() < kMinSideDistance;
  std::vector<std::vector<double>> side_x;
  Box side_world;
  for (const TraceData& t : data) {
    side_x.push_back(against_time ? t.time : t.distance);
    for (std::size_t i = 0; i < t.valid.size(); ++i) {
      if (t.valid[i]) side_world.add(side_x.back()[i], t.height[i]);
    }
  }
  for (const auto& [row, h] : profile) {
    if (std::isfinite(h) && h > side_world.y0 - 1.0) side_world.add(side_x[0][row], h);
  }
  side_world = padded(side_world, 0.08, 0.05, 0.0);
  if (side_world.height() < 1.0) {
    const double grow = (1.0 - side_world.height()) / 2;
    side_world.y0 -= grow;
    side_world.y1 += grow;
  }

  const Layout layout = make_layout(top_view_box(data), side_world);
  double lo = kInf, hi = -kInf;
  bool any_moving = false;
  for (const BodyDrawing& body : bodies) {
    any_moving = any_moving || body.moving;
    for (const Part& part : body.end) {
      lo = std::min(lo, part.top);
      hi = std::max(hi, part.top);
    }
  }
  if (lo > hi) lo = hi = 0.0;
  const std::int64_t interval = tick_interval(scenario.ticks);

  Svg svg;
  svg.id_prefix = options.id_prefix;
  const std::string title = options.title.empty() ? scenario.name : options.title;
  svg.out += "<svg xmlns=\"http://www.w3.org/2000/svg\"" + attr("width", num(kWidth)) + attr("height", num(layout.height)) +
             attr("viewBox", "0 0 " + num(kWidth) + " " + num(layout.height)) + attr("font-family", kFont) +
             attr("role", "img") + attr("aria-labelledby", svg.id("title")) + ">\n";
  svg.out += "<title" + attr("id", svg.id("title")) + ">" + xml_escape_text("stepslide: " + title) + "</title>\n";
  svg.out += "<defs><marker" + attr("id", svg.id("arrow")) +
             " viewBox=\"0 0 8 8\" refX=\"7\" refY=\"4\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\">"
             "<path d=\"M0 0 L8 4 L0 8 Z\"" + attr("fill", kBodyStroke) + "/></marker></defs>\n";
  svg.out += "<rect class=\"background\" x=\"0\" y=\"0\"" + attr("width", num(kWidth)) + attr("height", num(layout.height)) +
             " fill=\"#fff\"/>\n";
  svg.out += text_element(kMarginLeft, 30, clip_text(title, 90),
                          attr("font-size", "18") + attr("font-weight", "bold") + attr("fill", kTextColour));
  if (!scenario.description.empty()) {
    svg.out += text_element(kMarginLeft, 52, clip_text(scenario.description, 140),
                            attr("font-size", "12") + attr("fill", kMutedText));
  }
  draw_top_view(svg, layout.top, frame, bodies, data, divergence, interval, lo, hi);
  draw_legend(svg, std::max(kLegendX, layout.top.left + layout.top.width + 40), kTopViewY + 10, scenario, data,
              divergence, interval, lo, hi, any_moving);
  draw_side_view(svg, layout.side, frame, data, profile, side_x, against_time, divergence, interval);
  svg.out += "</svg>\n";
  return svg.out;
}

}  // namespace stepslide
