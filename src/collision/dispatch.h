// Which pair function answers a query, by the moving shape (the character's
// shape, or a ray) and the body's shape: one table for the three queries.
// Each query file runs the entries of its cell in order, and each pair
// function may still decline (it returns false: a scaled shape, an inverted
// core, a compound with a child it does not answer, rounding it cannot
// decide); the last entry of every cell is Bullet's own query, which always
// answers. To answer a new pair exactly, write its pair function and put it
// in the cells it covers, before Bullet.
#pragma once

#include <btBulletCollisionCommon.h>

namespace stepslide::detail {

/// The moving shape, by its Bullet shape type. Capsule covers the capsule
/// and the sphere (a capsule of no length).
enum class MoverKind : unsigned char { Capsule, Box, Cylinder, Other };
constexpr int kMoverKinds = 4;

/// The body's shape. Triangles are meshes (btBvhTriangleMeshShape) and
/// heightfields; Concave is every other concave shape; RoundOrHull the
/// sphere, capsule and convex hull.
enum class BodyKind : unsigned char { Box, Compound, Triangles, Concave, Cylinder, RoundOrHull, Other };
constexpr int kBodyKinds = 7;

inline MoverKind mover_kind(const btCollisionShape* shape) {
  switch (shape->getShapeType()) {
    case CAPSULE_SHAPE_PROXYTYPE:
    case SPHERE_SHAPE_PROXYTYPE: return MoverKind::Capsule;
    case BOX_SHAPE_PROXYTYPE: return MoverKind::Box;
    case CYLINDER_SHAPE_PROXYTYPE: return MoverKind::Cylinder;
    default: return MoverKind::Other;
  }
}

inline BodyKind body_kind(const btCollisionShape* shape) {
  switch (shape->getShapeType()) {
    case BOX_SHAPE_PROXYTYPE: return BodyKind::Box;
    case COMPOUND_SHAPE_PROXYTYPE: return BodyKind::Compound;
    case TRIANGLE_MESH_SHAPE_PROXYTYPE:
    case TERRAIN_SHAPE_PROXYTYPE: return BodyKind::Triangles;
    case CYLINDER_SHAPE_PROXYTYPE: return BodyKind::Cylinder;
    case SPHERE_SHAPE_PROXYTYPE:
    case CAPSULE_SHAPE_PROXYTYPE:
    case CONVEX_HULL_SHAPE_PROXYTYPE: return BodyKind::RoundOrHull;
    default: return shape->isConcave() ? BodyKind::Concave : BodyKind::Other;
  }
}

/// The contact pair functions (contacts.cpp runs them).
enum class ContactPair : unsigned char {
  CapsuleExact,      ///< capsule or sphere against boxes, compounds of boxes, triangles, capsules and spheres (capsule_box, triangle_contacts, capsule_capsule)
  BoxBoxes,          ///< box against boxes and compounds of boxes (box_box_contacts.h)
  BoxTriangles,      ///< box against triangles (box_triangle_contacts.h)
  Convex,            ///< exact distance of convex solids (cylinder_contacts.h)
  CompoundCylinder,  ///< a compound with a cylinder child (cylinder_contacts.h)
  Bullet,            ///< Bullet's contactPairTest
};
/// The sweep pair functions (sweep_pairs.cpp runs them; Bullet's cast,
/// through the cast memo for an unmoving convex body, when one declines).
enum class SweepPair : unsigned char {
  CapsuleBoxes,       ///< capsule or sphere against a box or a compound of boxes (capsule_box_sweep)
  CapsuleTriangles,   ///< capsule or sphere against triangles (triangle_pairs.h)
  CapsuleRound,       ///< capsule or sphere against a capsule or sphere (capsule_capsule_sweep); Convex for the rest
  BoxBox,             ///< box against a box (box_sweep_pairs.h)
  BoxCompound,        ///< box against a compound of boxes
  BoxTriangles,       ///< box against triangles (box_sweep_pairs.h)
  CylinderCompound,   ///< upright cylinder against a compound of boxes and upright cylinders
  CylinderTriangles,  ///< upright cylinder against triangles (convex_sweep_pairs.h)
  Convex,             ///< convex solids, conservative advancement (convex_sweep_pairs.h)
  ConvexRemembered,   ///< the same between two curved solids: remembered for an unmoving body (CastMemo)
};
/// The ray pair functions (rays.cpp runs them; Bullet's rayTestSingle when
/// one declines, as for Bullet).
enum class RayPair : unsigned char {
  Box,            ///< ray_box, from outside
  Cylinder,       ///< ray_cylinder, an upright cylinder from outside
  Capsule,        ///< ray_capsule, a capsule or sphere from outside (Bullet for a hull)
  CompoundBoxes,  ///< ray_box on each child of a compound of boxes
  CachedMesh,     ///< a mesh's triangles from the TriangleCache
  Bullet,
};

/// At most this many contact pair functions are tried for one pair.
constexpr int kContactPairsPerCell = 3;

struct PairCell {
  /// Tried in order until one answers (Bullet always does; entries after
  /// it are never reached).
  ContactPair contacts[kContactPairsPerCell];
  SweepPair sweep;
};

namespace table {
using C = ContactPair;
using S = SweepPair;
constexpr PairCell cell(C a, S s) { return PairCell{{a, C::Bullet, C::Bullet}, s}; }
constexpr PairCell cell(C a, C b, S s) { return PairCell{{a, b, C::Bullet}, s}; }
constexpr PairCell cell(C a, C b, C c, S s) { return PairCell{{a, b, c}, s}; }
}  // namespace table

/// The table, by MoverKind then BodyKind (in the enums' order: Box,
/// Compound, Triangles, Concave, Cylinder, RoundOrHull, Other).
inline constexpr PairCell kPairs[kMoverKinds][kBodyKinds] = {
    // A capsule or sphere.
    {table::cell(ContactPair::CapsuleExact, SweepPair::CapsuleBoxes),
     table::cell(ContactPair::CapsuleExact, ContactPair::CompoundCylinder, SweepPair::CapsuleBoxes),
     table::cell(ContactPair::CapsuleExact, SweepPair::CapsuleTriangles),
     table::cell(ContactPair::Bullet, SweepPair::CapsuleTriangles),
     table::cell(ContactPair::Convex, SweepPair::Convex),
     table::cell(ContactPair::CapsuleExact, ContactPair::Convex, SweepPair::CapsuleRound),
     table::cell(ContactPair::Bullet, SweepPair::CapsuleTriangles)},
    // A box.
    {table::cell(ContactPair::BoxBoxes, SweepPair::BoxBox),
     table::cell(ContactPair::BoxBoxes, ContactPair::CompoundCylinder, SweepPair::BoxCompound),
     table::cell(ContactPair::BoxTriangles, SweepPair::BoxTriangles),
     table::cell(ContactPair::BoxTriangles, SweepPair::BoxTriangles),
     table::cell(ContactPair::Convex, SweepPair::Convex),
     table::cell(ContactPair::Convex, SweepPair::Convex),
     table::cell(ContactPair::Bullet, SweepPair::BoxTriangles)},
    // A cylinder.
    {table::cell(ContactPair::Convex, SweepPair::Convex),
     table::cell(ContactPair::Convex, ContactPair::CompoundCylinder, SweepPair::CylinderCompound),
     table::cell(ContactPair::Convex, SweepPair::CylinderTriangles),
     table::cell(ContactPair::Convex, SweepPair::CylinderTriangles),
     table::cell(ContactPair::Convex, SweepPair::ConvexRemembered),
     table::cell(ContactPair::Convex, SweepPair::Convex),
     table::cell(ContactPair::Convex, SweepPair::CylinderTriangles)},
    // Any other convex shape (a hull, a cone, a scaled shape): its sweeps
    // as a capsule's (their pair functions decline what they do not cover).
    {table::cell(ContactPair::Bullet, SweepPair::CapsuleBoxes),
     table::cell(ContactPair::CompoundCylinder, SweepPair::CapsuleBoxes),
     table::cell(ContactPair::Bullet, SweepPair::CapsuleTriangles),
     table::cell(ContactPair::Bullet, SweepPair::CapsuleTriangles),
     table::cell(ContactPair::Convex, SweepPair::Convex),
     table::cell(ContactPair::Convex, SweepPair::Convex),
     table::cell(ContactPair::Bullet, SweepPair::CapsuleTriangles)},
};

/// The ray's row, by BodyKind.
inline constexpr RayPair kRayPairs[kBodyKinds] = {RayPair::Box,      RayPair::CompoundBoxes, RayPair::CachedMesh,
                                                   RayPair::Bullet,   RayPair::Cylinder,      RayPair::Capsule,
                                                   RayPair::Bullet};

inline const PairCell& pair_cell(MoverKind mover, const btCollisionShape* body) {
  return kPairs[static_cast<int>(mover)][static_cast<int>(body_kind(body))];
}

}  // namespace stepslide::detail
