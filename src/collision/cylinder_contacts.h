// Private to the collision adapter: the contacts of every pair with a
// cylinder in it, and of every character with sphere, capsule and hull
// bodies, answered exactly from support functions (gjk.h)
// instead of Bullet's narrowphase. Not installed.
#pragma once

#include <btBulletCollisionCommon.h>

#include <vector>

#include "collision/triangle_cache.h"
#include "geometry/shapes.h"
#include "stepslide/collision.h"

namespace stepslide::detail {

/// When `character` or `other` is a cylinder (or `other` a compound with
/// one among its children, or a mesh or heightfield under a cylinder
/// character), or `other` a sphere, capsule or convex hull (round_or_hull:
/// Bullet's GJK stops at a relative error on round bodies as on a
/// cylinder's rim), adds to `out` the pair's contacts closer than
/// `max_distance`, as Bullet's contactPairTest reports them (one per convex
/// pair: per compound child, per triangle), and returns true; else adds
/// nothing and returns false (another exact pair function or Bullet answers).
///
/// Each contact is the exact signed distance of the two solids (cores grown
/// by their margins) along its normal, never shallower than the truth and
/// within kConvexDistanceTolerance of it, where Bullet's EPA can put a
/// cylinder character far too shallow into a lying cylinder.
/// Its point is on the body's extent along the normal, below the middle of
/// the character's lowest feature along it (a rim point, the middle of a
/// side's line or a cap, a box's corner, edge or face, a capsule's end or
/// axis) where the body is there, else where the two touch.
bool cylinder_pair_contacts(const btCollisionObject* character, const btCollisionObject* other, double max_distance,
                            std::vector<Contact>* out, TriangleCache* triangles = nullptr);

/// cylinder_pair_contacts for a compound with a cylinder child (asked only
/// before Bullet answers a pair: the capsule's exact compounds of boxes
/// never scan their children for one).
bool compound_cylinder_contacts(const btCollisionObject* character, const btCollisionObject* other,
                                double max_distance, std::vector<Contact>* out, TriangleCache* triangles = nullptr);

}  // namespace stepslide::detail
