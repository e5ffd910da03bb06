// The level and the character as triangles, for `stepslide view`'s 3D scene.
// Convex bodies come from the Bullet world the runner builds (World), as the
// plot's outlines do, so what is drawn is what the character collided with;
// meshes and heightfields come from their definition (their Bullet shapes
// give no triangles back). Round shapes are tessellated with fixed counts,
// so the same scenario always gives the same triangles.
#pragma once

#include <LinearMath/btTransform.h>
#include <LinearMath/btVector3.h>

#include <array>
#include <cstdint>
#include <vector>

#include "scenario/load/world.h"
#include "scenario/scenario.h"

class btCollisionShape;

namespace stepslide::view {

/// Segments around round shapes (spheres, capsules, cylinders).
inline constexpr int kRoundSegments = 16;
/// Rings from a pole to the equator of a sphere or of a capsule's cap.
inline constexpr int kQuarterRings = 4;

/// Triangles sharing vertices. Winding is not meaningful: the page draws both sides.
struct TriMesh {
  std::vector<btVector3> vertices;
  std::vector<std::array<std::uint32_t, 3>> triangles;

  /// Adds `other`'s triangles, its vertices moved by `pose`.
  void append(const TriMesh& other, const btTransform& pose);
  /// The corners of the axis-aligned box around the vertices: {lo, hi}.
  std::array<btVector3, 2> bounds() const;
};

TriMesh box_mesh(const btVector3& half_extents);  ///< 8 vertices, 12 triangles
/// A solid of revolution about local Y: a UV sphere (2 * kQuarterRings bands).
TriMesh sphere_mesh(double radius);
/// Two half spheres `half_height` above and below the centre, joined by a tube.
TriMesh capsule_mesh(double radius, double half_height);
/// Flat caps at +-half_height.
TriMesh cylinder_mesh(double radius, double half_height);
/// The convex hull of `points` (its faces fanned into triangles).
TriMesh hull_mesh(const std::vector<btVector3>& points);
/// A scenario mesh as given.
TriMesh definition_mesh(const ShapeDef& mesh);
/// A heightfield grid (docs/format.md §1.1: row = local Z, column = local X,
/// centred on its position, heights along local Y), two triangles per cell,
/// split along the diagonal Bullet's btHeightfieldTerrainShape uses by default.
TriMesh heightfield_mesh(const ShapeDef& heightfield);

/// Any shape the world builds, in its own frame: compound children (stair
/// steps, a ramp's slab) each in place; boxes, spheres, capsules, cylinders
/// and hulls as above (along the shape's own up axis); anything else as its
/// bounding box.
TriMesh shape_mesh(const btCollisionShape& shape);

/// Body `body` of `world` (built from `scenario`) in the body's frame: place
/// it with World::body_pose(body.def_index, tick).
TriMesh body_mesh(const Scenario& scenario, const WorldBody& body);

/// The character's shape (capsule, sphere, cylinder or box) with its feet,
/// the lowest point, at the origin and its axis along `up`, as the
/// controller orients it.
TriMesh character_mesh(const ShapeDef& shape, const btVector3& up);

}  // namespace stepslide::view
