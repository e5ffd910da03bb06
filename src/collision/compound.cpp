// The child poses kept for static compounds (compound.h).
#include "collision/compound.h"

#include "collision/same_bits.h"

namespace stepslide::detail {

const CompoundPoses* ChildPoses::checked_of(const btCollisionObject* object) {
  const btCollisionShape* shape = object->getCollisionShape();
  if (shape->getShapeType() != COMPOUND_SHAPE_PROXYTYPE) return nullptr;
  if (!object->isStaticObject() || object->isKinematicObject()) return nullptr;
  const auto* compound = static_cast<const btCompoundShape*>(shape);
  const int n = compound->getNumChildShapes();
  if (n > kMaxCompoundChildren) return nullptr;
  const btTransform& pose = object->getWorldTransform();
  const int revision = compound->getUpdateRevision();
  for (Entry& e : entries_) {
    if (e.object == object && e.shape == shape && e.revision == revision &&
        e.children.size() == static_cast<std::size_t>(n) && same_bits(e.pose, pose)) {
      e.checked = tick_;
      return &e.poses;
    }
  }
  Entry& e = entries_[static_cast<std::size_t>(next_)];
  next_ = (next_ + 1) % kObjects;
  e.checked = tick_;
  e.object = object;
  e.shape = shape;
  e.revision = revision;
  e.pose = pose;
  e.children.clear();
  const btCompoundShapeChild* children = const_cast<btCompoundShape*>(compound)->getChildList();
  for (int i = 0; i < n; ++i) e.children.push_back(pose * children[i].m_transform);
  e.poses.inverse = pose.inverse();
  e.poses.children = e.children.data();
  return &e.poses;
}

void ChildPoses::forget() {
  for (Entry& e : entries_) e.object = nullptr;
  tick_ = 0;
}

}  // namespace stepslide::detail
