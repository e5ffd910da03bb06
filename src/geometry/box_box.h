// Exact overlap of two boxes by separating axes, used by the collision
// adapter for a box-shaped character against the world's boxes where their
// cores overlap: Bullet answers that pair with EPA (btGjkEpaPenetration-
// DepthSolver), the dearest query of a box character's tick (the ground
// probe, grown by 2 cm, overlaps the floor every tick). Tested against
// Bullet's contactPairTest on random pairs (tests/geometry/box_box_test.cpp).
#pragma once

#include "geometry/bullet_shapes.h"
#include "geometry/contact.h"

namespace stepslide {

/// Box `a` (core half extents `ha`, rounded by `ra`) against box `b` (`hb`,
/// `rb`): the 15 separating axes of two boxes (3 + 3 faces, 9 edge pairs)
/// give the exact penetration depth of the cores, which the radii deepen.
/// ExactContact (geometry/contact.h): `distance` of the rounded boxes (cores
/// grown by their radii), minus the penetration depth; `normal` from `b`
/// toward `a`, where a face of `b` and an axis of `a` or an edge pair tie
/// `b`'s face (the world surface's own normal); `point` on `b`'s rounded
/// surface, the middle of `a`'s deepest feature along -normal carried along
/// the normal onto it. Not answered where the cores are apart (the rounded
/// boxes may still touch or overlap by up to the summed radii): GJK answers
/// that exactly enough.
ExactContact box_box_overlap(const btTransform& a, const btVector3& ha, double ra, const btTransform& b,
                             const btVector3& hb, double rb);

}  // namespace stepslide
