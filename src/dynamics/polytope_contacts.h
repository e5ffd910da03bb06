// Contact manifolds between a box and a box or a triangle, exactly in this
// build: separating axes (the faces of both, the cross products of their
// edges) find the axis of least overlap (or largest gap); on a face axis the
// other solid's most opposed face is clipped to the reference face's sides
// (Sutherland–Hodgman), up to four points kept; on an edge pair, the
// closest points of the two edges. Every point keeps a key built from the
// features that made it, so the next step finds it again (warm starting).
#pragma once

#include <LinearMath/btTransform.h>
#include <LinearMath/btVector3.h>

#include <cstdint>

namespace stepslide::dynamics {

/// A convex polytope as the contacts need it: corners, faces (outward unit
/// normals and their corners in order around the face) and edge directions.
/// A box has 8, 6 and 3; a triangle 3, 2 (both sides) and 3.
struct Polytope {
  int vertex_count = 0;
  btVector3 vertices[8];
  int face_count = 0;
  btVector3 normals[6];
  int face_size[6] = {0, 0, 0, 0, 0, 0};
  int faces[6][4] = {};
  int edge_count = 0;
  btVector3 edges[3];  ///< unit directions
  /// Each edge direction's segments: for a box the four edges along it are
  /// found from the support; for a triangle edge i runs vertex i -> i+1.
  bool triangle = false;
  btVector3 axes[3];  ///< a box's unit axes (its edges), world
  btVector3 half{0, 0, 0};
  btVector3 centre{0, 0, 0};
};

Polytope box_polytope(const btTransform& pose, const btVector3& half_extents);
Polytope triangle_polytope(const btVector3& p0, const btVector3& p1, const btVector3& p2);

/// What polytope_contacts found: up to four points of `a` against `b` with
/// one normal from b toward a, each with its separation along it.
struct PolytopeContacts {
  btVector3 normal{0, 1, 0};
  int count = 0;
  btVector3 points[4];  ///< world, on a's surface (a's corner or a clipped point of a's face), moved half way to b
  double separation[4] = {0, 0, 0, 0};
  std::uint64_t feature[4] = {0, 0, 0, 0};
};

/// The contacts of `a` against `b` where they are no farther apart than
/// `cutoff` (m); none beyond it. Where two axes' separations are within
/// kFaceTolerance, a face axis wins over an edge pair, and b's face over
/// a's (a world surface's own normal for a body resting on it).
PolytopeContacts polytope_contacts(const Polytope& a, const Polytope& b, double cutoff);

/// How much more separation (m) an axis needs than a face's to be taken
/// instead of it.
constexpr double kFaceTolerance = 1e-5;

}  // namespace stepslide::dynamics
