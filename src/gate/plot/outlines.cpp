#include "gate/plot/outlines.h"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>

#include <algorithm>
#include <cmath>

#include "scenario/load/convert.h"
#include "stepslide/math.h"

namespace stepslide::plot {

namespace {

/// Finer detail than this is drawn as an outline only.
constexpr std::size_t kMaxMeshTriangles = 2000;
constexpr std::size_t kMaxHeightfieldCells = 2500;
/// A cut mesh's triangle whose normal is closer to up than this (either
/// side: a mesh's winding means nothing to the controller) is a floor or a
/// ceiling seen from above; a steeper one is a wall.
constexpr double kFloorFacing = 0.2;
constexpr int kRampBands = 8;
/// Samples around round shapes.
constexpr int kRoundSegments = 24;

double cross(const P2& o, const P2& a, const P2& b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

/// The part covering `world_points`: their hull in the plane, their highest point.
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

/// The corners of a shape's bounding box, in its local frame.
std::vector<btVector3> aabb_corners(const btCollisionShape* shape) {
  btVector3 lo, hi;
  shape->getAabb(btTransform::getIdentity(), lo, hi);
  std::vector<btVector3> corners;
  for (int i = 0; i < 8; ++i) corners.emplace_back(i & 1 ? hi.x() : lo.x(), i & 2 ? hi.y() : lo.y(), i & 4 ? hi.z() : lo.z());
  return corners;
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
  if (!convex_points(shape, local)) local = aabb_corners(shape);
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

/// Whether `outline` reaches into `view` (always, for an empty view).
bool reaches(const Box& view, const std::vector<P2>& outline) {
  if (view.empty()) return true;
  Box box;
  for (const P2& p : outline) box.add(p.x, p.y);
  return box.x0 <= view.x1 && view.x0 <= box.x1 && box.y0 <= view.y1 && view.y0 <= box.y1;
}

/// Where triangle `t` crosses the height `height` along up, when it does.
/// A corner exactly at the height counts as above it.
bool slice(const Frame& f, const btVector3 (&t)[3], double height, Segment& out) {
  P2 ends[2];
  int n = 0;
  for (int i = 0; i < 3 && n < 2; ++i) {
    const btVector3& p = t[i];
    const btVector3& q = t[(i + 1) % 3];
    const double hp = p.dot(f.up) - height, hq = q.dot(f.up) - height;
    if ((hp < 0) == (hq < 0)) continue;
    ends[n++] = plane_of(f, p + (q - p) * (hp / (hp - hq)));
  }
  if (n < 2) return false;
  out = {ends[0], ends[1]};
  return true;
}

/// A mesh cut open at the run: floors (and ceilings) up to the head of the
/// nearest sample as parts, those above as overhead parts before them, and
/// walls as segments at the nearest sample's waist.
void add_cut_mesh_parts(const Frame& f, const ShapeDef& s, const btTransform& pose, const CutSamples& cut,
                        const Box& view, std::vector<Part>& parts, std::vector<Segment>& walls) {
  std::vector<Part> overhead;
  for (const auto& t : s.triangles) {
    const btVector3 corners[3] = {pose * to_bt(s.vertices[static_cast<std::size_t>(t[0])]),
                                  pose * to_bt(s.vertices[static_cast<std::size_t>(t[1])]),
                                  pose * to_bt(s.vertices[static_cast<std::size_t>(t[2])])};
    const btVector3 normal = (corners[1] - corners[0]).cross(corners[2] - corners[0]);
    const double area = normal.length();
    if (!(area > 1e-12)) continue;  // degenerate: no surface, no wall
    const btVector3 centre = (corners[0] + corners[1] + corners[2]) / 3;
    const std::size_t near = cut.nearest(plane_of(f, centre));
    if (std::fabs(normal.dot(f.up)) > kFloorFacing * area) {
      Part part = part_from_points(f, {corners[0], corners[1], corners[2]});
      if (!reaches(view, part.outline)) continue;
      // Shaded by its middle: a long sloping triangle reads at its mean height.
      part.top = centre.dot(f.up);
      part.overhead = part.top > cut.feet[near] + cut.head;
      (part.overhead ? overhead : parts).push_back(std::move(part));
    } else {
      Segment wall;
      if (slice(f, corners, cut.feet[near] + cut.waist, wall) && reaches(view, {wall.a, wall.b})) {
        walls.push_back(wall);
      }
    }
  }
  const auto lowest_first = [](const Part& a, const Part& b) { return a.top < b.top; };
  std::stable_sort(overhead.begin(), overhead.end(), lowest_first);
  std::stable_sort(parts.begin(), parts.end(), lowest_first);
  parts.insert(parts.begin(), overhead.begin(), overhead.end());
}

/// A heightfield (docs/format.md §1.1: row = local Z, column = local X, centred on its
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

/// `body` posed at `tick`, lowest part first. Meshes and heightfields are
/// drawn from their definition: they are not convex, so their Bullet shapes
/// would give no more than a bounding box. A mesh is cut at `cut` unless
/// it is empty; its walls then go to `walls` when given.
std::vector<Part> body_parts(const Frame& f, const Scenario& scenario, const World& world, const WorldBody& body,
                             std::int64_t tick, const CutSamples& cut, const Box& view,
                             std::vector<Segment>* walls) {
  const BodyDef& def = scenario.world[body.def_index];
  const btTransform pose = world.body_pose(body.def_index, tick);
  std::vector<Part> parts;
  if (def.shape.type == ShapeType::Mesh && !cut.empty()) {
    std::vector<Segment> ignored;
    add_cut_mesh_parts(f, def.shape, pose, cut, view, parts, walls != nullptr ? *walls : ignored);
    return parts;  // in the order drawn: overhead, then floors, each lowest first
  }
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

}  // namespace

std::vector<Part> shape_parts(const Frame& f, const btCollisionShape* shape, const btTransform& pose) {
  std::vector<Part> parts;
  add_shape_parts(f, shape, pose, false, parts);
  return parts;
}

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

std::size_t CutSamples::nearest(const P2& p) const {
  std::size_t best = 0;
  double best_distance = kInf;
  for (std::size_t i = 0; i < plane.size(); ++i) {
    const double dx = plane[i].x - p.x, dy = plane[i].y - p.y;
    const double distance = dx * dx + dy * dy;
    if (distance < best_distance) {
      best_distance = distance;
      best = i;
    }
  }
  return best;
}

CutSamples cut_samples(const std::vector<TraceData>& traces, const ShapeDef& character, std::size_t max_samples) {
  CutSamples cut;
  switch (character.type) {
    case ShapeType::Sphere: cut.head = 2 * character.radius; break;
    case ShapeType::Box: cut.head = 2 * character.half_extents[1]; break;
    default: cut.head = character.height; break;  // capsule, cylinder
  }
  cut.waist = cut.head / 2;
  std::size_t rows = 0;
  for (const TraceData& t : traces) rows += t.valid.size();
  const std::size_t stride = std::max<std::size_t>(1, (rows + max_samples - 1) / std::max<std::size_t>(1, max_samples));
  std::size_t row = 0;
  for (const TraceData& t : traces) {
    for (std::size_t i = 0; i < t.valid.size(); ++i, ++row) {
      if (row % stride != 0 || !t.valid[i]) continue;
      cut.plane.push_back(t.plane[i]);
      cut.feet.push_back(t.height[i]);
    }
  }
  return cut;
}

std::vector<BodyDrawing> level_drawings(const Frame& f, const Scenario& scenario, const World& world,
                                        const CutSamples& cut, const Box& view) {
  std::vector<BodyDrawing> drawings;
  for (const WorldBody& body : world.bodies()) {
    const BodyDef& def = scenario.world[body.def_index];
    BodyDrawing d;
    d.name = body.name;
    d.moving = def.motion.type != MotionType::None;
    d.cut = def.shape.type == ShapeType::Mesh && !cut.empty();
    d.start = body_parts(f, scenario, world, body, 0, cut, view, d.moving ? nullptr : &d.walls);
    d.end = d.moving ? body_parts(f, scenario, world, body, scenario.ticks, cut, view, &d.walls) : d.start;
    if (d.cut) {
      std::vector<btVector3> all;
      const btTransform pose = world.body_pose(body.def_index, d.moving ? scenario.ticks : 0);
      for (const Vec3& v : def.shape.vertices) all.push_back(pose * to_bt(v));
      d.extent = part_from_points(f, all).outline;
    }
    for (const Part& p : d.end) d.top = std::max(d.top, p.top);
    drawings.push_back(std::move(d));
  }
  // Higher bodies are drawn later, as seen from above.
  std::stable_sort(drawings.begin(), drawings.end(),
                   [](const BodyDrawing& a, const BodyDrawing& b) { return a.top < b.top; });
  return drawings;
}

}  // namespace stepslide::plot
