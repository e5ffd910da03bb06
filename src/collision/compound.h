// Walking a compound's children, for every pair function that answers a
// compound child by child (contacts, sweeps and rays): one walker, one limit.
#pragma once

#include <BulletCollision/BroadphaseCollision/btDbvt.h>
#include <btBulletCollisionCommon.h>

namespace stepslide::detail {

/// Compounds with more children than this are Bullet's to answer, its tree
/// over the children paying off there (a level's stairs are a few dozen
/// boxes): the walkers below decline them.
constexpr int kMaxCompoundChildren = 64;

/// Whether every child shape of `compound` passes `accepts`; false beyond
/// kMaxCompoundChildren. Asked before any child is answered, so a compound
/// with one child no pair function covers costs nothing.
template <typename Accepts>
bool all_children(const btCompoundShape& compound, Accepts&& accepts) {
  const int n = compound.getNumChildShapes();
  if (n > kMaxCompoundChildren) return false;
  for (int i = 0; i < n; ++i) {
    if (!accepts(compound.getChildShape(i))) return false;
  }
  return true;
}

/// Whether some child shape of `compound` passes `accepts`; false beyond
/// kMaxCompoundChildren.
template <typename Accepts>
bool any_child(const btCompoundShape& compound, Accepts&& accepts) {
  const int n = compound.getNumChildShapes();
  if (n > kMaxCompoundChildren) return false;
  for (int i = 0; i < n; ++i) {
    if (accepts(compound.getChildShape(i))) return true;
  }
  return false;
}

/// Hands each child of `compound` (at `pose`), in index order, to
/// `visit(child_shape, child_pose, index)`, skipping a child whose leaf in
/// the compound's tree (when it has one) `may_touch(leaf_low, leaf_high)`
/// refuses, without composing its pose. Stops at the first visit that
/// returns false and returns false (the caller takes back what it added);
/// false at once beyond kMaxCompoundChildren.
template <typename MayTouch, typename Visit>
bool walk_children(const btCompoundShape& compound, const btTransform& pose, MayTouch&& may_touch, Visit&& visit) {
  const int n = compound.getNumChildShapes();
  if (n > kMaxCompoundChildren) return false;
  // (Bullet offers the child list only to a non-const compound; we read it.)
  const btCompoundShapeChild* children = const_cast<btCompoundShape&>(compound).getChildList();
  for (int i = 0; i < n; ++i) {
    const btDbvtNode* node = children[i].m_node;
    if (node != nullptr && !may_touch(node->volume.Mins(), node->volume.Maxs())) continue;
    if (!visit(children[i].m_childShape, pose * children[i].m_transform, i)) return false;
  }
  return true;
}

}  // namespace stepslide::detail
