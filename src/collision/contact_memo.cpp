// The contact memo (contact_memo.h).
#include "collision/contact_memo.h"

#include "stepslide/collision.h"

namespace stepslide {

namespace {

/// Bit-for-bit the same pose: a pose a rounding apart may have other contacts.
bool same_pose(const btTransform& a, const btTransform& b) {
  return a.getOrigin() == b.getOrigin() && a.getBasis() == b.getBasis();
}

}  // namespace

ContactMemo::ContactMemo() = default;
ContactMemo::~ContactMemo() = default;

void ContactMemo::open(const btCollisionObject* object) {
  remembered_ = object;
  used_ = 0;
  next_ = 0;
}

void ContactMemo::close() {
  remembered_ = nullptr;
  used_ = 0;
}

const ContactMemo::Entry* ContactMemo::lookup(const btCollisionObject* object, double max_distance) const {
  const btTransform& pose = object->getWorldTransform();
  for (int i = 0; i < used_; ++i) {
    const Entry& e = entries_[i];
    // The origin first: within a tick the same object is asked at many
    // poses, and the origin tells most of them apart.
    if (e.pose.getOrigin() == pose.getOrigin() && e.object == object && e.max_distance == max_distance &&
        e.shape == object->getCollisionShape() && same_pose(e.pose, pose)) {
      return &e;
    }
  }
  return nullptr;
}

bool ContactMemo::find(const btCollisionObject* object, double max_distance, std::vector<Contact>& out) const {
  if (object != remembered_ || object == nullptr) return false;
  const Entry* e = lookup(object, max_distance);
  if (e == nullptr) return false;
  out = e->contacts;
  return true;
}

void ContactMemo::store(const btCollisionObject* object, double max_distance, const std::vector<Contact>& found) {
  if (object != remembered_ || object == nullptr) return;
  Entry& e = entries_[next_];
  next_ = (next_ + 1) % kEntries;
  if (used_ < kEntries) ++used_;
  e.object = object;
  e.shape = object->getCollisionShape();
  e.pose = object->getWorldTransform();
  e.max_distance = max_distance;
  e.contacts = found;
}

}  // namespace stepslide
