// Private to the collision adapter: a box-shaped character's contacts with
// the world's boxes where their cores overlap, answered exactly. Not installed.
#pragma once

#include <btBulletCollisionCommon.h>

#include <vector>

#include "stepslide/collision.h"

namespace stepslide::detail {

/// When `character` and `other` are both boxes whose cores overlap, adds
/// their one contact to `out` (box_box_overlap, exact_box_box.h) as
/// Bullet's contactPairTest reports it (its EPA answers that case) and
/// returns true; else adds nothing and returns false (Bullet answers: GJK,
/// exact enough, where the cores are apart).
bool box_box_overlap_contact(const btCollisionObject* character, const btCollisionObject* other,
                             std::vector<Contact>* out);
/// Whether the character and `other`, both boxes, are certainly farther
/// apart than any contact Bullet's contactPairTest would report for a query
/// of `max_distance`: its GJK (btConvexConvexAlgorithm) reports a pair only
/// within the margins, the manifold's breaking threshold and the query's
/// threshold, and the separation of the rounded boxes along any of their
/// six face axes is a lower bound of their distance. Then the pair has no
/// contact, and costs the six axes instead of GJK.
bool box_box_beyond_reports(const btCollisionObject* character, const btCollisionObject* other,
                            double max_distance);

inline bool box_box_contacts(const btCollisionObject* character, const btCollisionObject* other,
                             double max_distance, std::vector<Contact>* out) {
  // Asked for every pair of every query: the common capsule leaves at once.
  if (character->getCollisionShape()->getShapeType() != BOX_SHAPE_PROXYTYPE) return false;
  if (box_box_beyond_reports(character, other, max_distance)) return true;
  return box_box_overlap_contact(character, other, out);
}

}  // namespace stepslide::detail
