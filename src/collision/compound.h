// Walking a compound's children, for every pair function that answers a
// compound child by child (contacts, sweeps and rays): one walker, one limit.
#pragma once

#include <BulletCollision/BroadphaseCollision/btDbvt.h>
#include <btBulletCollisionCommon.h>

#include <array>
#include <cstdint>
#include <vector>

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

/// The poses a static compound's queries compose again and again: its
/// inverse (`pose.inverse()`) and each child's world pose (`pose *
/// child transform`, as walk_children composes it), each computed once by
/// the same arithmetic, so a query that reads them gets the same bits.
struct CompoundPoses {
  btTransform inverse;
  const btTransform* children = nullptr;  ///< one per child, in index order
};

/// CompoundPoses of the static compounds the character's queries meet (a
/// level's stairs), kept while the object, its shape, the shape's revision
/// (Bullet counts every child added or removed), its child count and its
/// world transform (to the bit) stay the same: a few objects at once, the
/// oldest dropped. A child moved in place (updateChildTransform, which
/// Bullet does not count) is not seen: a game that does that calls
/// forget() (CollisionQueries::forget_clearance), as for a mesh edited in
/// place (TriangleCache). A moving (kinematic or dynamic) object changes
/// pose every tick: not kept (its queries compose the poses they visit).
class ChildPoses {
 public:
  static constexpr int kObjects = 4;

  /// The poses of `object`'s compound shape at its world transform, or
  /// null when it is not a static compound of at most kMaxCompoundChildren.
  /// Within a tick (begin_tick .. end_tick: the world stands still) an
  /// object checked once that tick is not checked again.
  const CompoundPoses* of(const btCollisionObject* object) {
    if (tick_ != 0) {
      for (const Entry& e : entries_) {
        if (e.object == object && e.checked == tick_) return &e.poses;
      }
    }
    return checked_of(object);
  }
  /// The world stands still from here to end_tick.
  void begin_tick() { tick_ = ++ticks_; }
  /// The world may move from here on.
  void end_tick() { tick_ = 0; }
  /// Drops every object kept.
  void forget();

 private:
  const CompoundPoses* checked_of(const btCollisionObject* object);

  struct Entry {
    std::uint64_t checked = 0;  ///< the tick it was last checked in (0: not within one)
    const btCollisionObject* object = nullptr;
    const btCollisionShape* shape = nullptr;
    int revision = 0;
    btTransform pose;
    CompoundPoses poses;
    std::vector<btTransform> children;
  };
  std::array<Entry, kObjects> entries_;
  int next_ = 0;
  std::uint64_t ticks_ = 0;  ///< ticks begun
  std::uint64_t tick_ = 0;   ///< the tick under way, 0 between ticks
};

/// Hands each child of `compound` (at `pose`), in index order, to
/// `visit(child_shape, child_pose, index)`, skipping a child whose leaf in
/// the compound's tree (when it has one) `may_touch(leaf_low, leaf_high)`
/// refuses, without composing its pose. The child poses come from
/// `composed` (ChildPoses, the same bits) when given. Stops at the first
/// visit that returns false and returns false (the caller takes back what
/// it added); false at once beyond kMaxCompoundChildren.
template <typename MayTouch, typename Visit>
bool walk_children(const btCompoundShape& compound, const btTransform& pose, MayTouch&& may_touch, Visit&& visit,
                   const CompoundPoses* composed = nullptr) {
  const int n = compound.getNumChildShapes();
  if (n > kMaxCompoundChildren) return false;
  // (Bullet offers the child list only to a non-const compound; we read it.)
  const btCompoundShapeChild* children = const_cast<btCompoundShape&>(compound).getChildList();
  for (int i = 0; i < n; ++i) {
    const btDbvtNode* node = children[i].m_node;
    if (node != nullptr && !may_touch(node->volume.Mins(), node->volume.Maxs())) continue;
    if (composed != nullptr) {
      if (!visit(children[i].m_childShape, composed->children[i], i)) return false;
    } else if (!visit(children[i].m_childShape, pose * children[i].m_transform, i)) {
      return false;
    }
  }
  return true;
}

}  // namespace stepslide::detail
