// Exact closest points and sweep of two capsules (spheres are capsules of
// no length): the distance between their segments less both radii. Tested
// against Bullet's answers on random pairs
// (tests/geometry/capsule_capsule_test.cpp).
#pragma once

#include "geometry/bullet_shapes.h"
#include "geometry/contact.h"
#include "geometry/sweep.h"

namespace stepslide {

/// The capsule a0→a1 grown by `ra` (the moving or querying one, `a` of
/// ExactContact) against the capsule b0→b1 grown by `rb`: the closest points
/// of the two segments (closest_on_segments), the distance between them
/// less both radii (negative: overlapping), the normal from b's segment
/// toward a's, the point on b's surface along it. Where the segments are
/// parallel the closest points form a segment, and the one at a0's end of
/// a's segment is taken (a's lower end for an upright character). Not
/// answered where the segments touch or cross (the normal would be a
/// rounding): the caller asks another query.
ExactContact capsule_capsule(const btVector3& a0, const btVector3& a1, double ra, const btVector3& b0,
                             const btVector3& b1, double rb);

/// The first capsule moving by `motion` against the second, as Bullet's
/// cast runs it (conservative advancement to within kCastStopDistance,
/// cast_advance.h) on capsule_capsule's exact distances: the hit where the
/// two first come within a millimetre, the normal and point there. Not
/// answered where the segments touch at the start or at a step.
ExactSweep capsule_capsule_sweep(const btVector3& a0, const btVector3& a1, double ra, const btVector3& motion,
                                 const btVector3& b0, const btVector3& b1, double rb);

}  // namespace stepslide
