// Private to the collision adapter: a box-shaped character's contacts with
// the world's boxes and compounds of boxes, answered exactly. Not installed.
#pragma once

#include <btBulletCollisionCommon.h>

#include <vector>

#include "stepslide/collision.h"

namespace stepslide::detail {

/// Whether the character and `other`, both boxes, are certainly farther
/// apart than `max_distance`: the separation of the rounded boxes along any
/// of their six face axes is a lower bound of their distance. Such a pair
/// has no contact, and costs the six axes instead of the exact distance.
bool box_box_beyond(const btCollisionObject* character, const btCollisionObject* other, double max_distance);

/// When `character` is a box and `other` a box or a compound of at most kMaxCompoundChildren
/// boxes (a ramp, a level's stairs), adds the contact with each box to
/// `out` and returns true, or returns false with nothing added where only
/// Bullet answers (another shape, a margin inverting a core, or cores
/// touching within 1e-9 m, neither overlapping nor apart). A compound's
/// children whose tree bounds miss the character's grown by `max_distance`
/// are skipped, as Bullet's compound algorithm skips them. Cores overlapping: their exact
/// penetration (box_box_overlap, box_box.h), as before for any
/// `max_distance`. Cores apart: their exact distance (box_box_distance,
/// box_distance.h) when it is at most `max_distance`, at the middle of
/// where they face each other (box_box_patch_middle). Bullet's GJK would
/// also report pairs out to the manifold's breaking threshold beyond
/// `max_distance`; like every exact pair of the adapter, this reports none.
bool box_box_contact(const btCollisionObject* character, const btCollisionObject* other, double max_distance,
                     std::vector<Contact>* out);

inline bool box_box_contacts(const btCollisionObject* character, const btCollisionObject* other,
                             double max_distance, std::vector<Contact>* out) {
  // Asked for every pair of every query: the common capsule leaves at once.
  if (character->getCollisionShape()->getShapeType() != BOX_SHAPE_PROXYTYPE) return false;
  return box_box_contact(character, other, max_distance, out);
}

}  // namespace stepslide::detail
