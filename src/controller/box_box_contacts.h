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
inline bool box_box_contacts(const btCollisionObject* character, const btCollisionObject* other,
                             std::vector<Contact>* out) {
  // Asked for every pair of every query: the common capsule leaves at once.
  if (character->getCollisionShape()->getShapeType() != BOX_SHAPE_PROXYTYPE) return false;
  return box_box_overlap_contact(character, other, out);
}

}  // namespace stepslide::detail
