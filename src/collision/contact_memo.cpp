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
  also_ = nullptr;
  also_pending_ = false;
  used_ = 0;
  next_ = 0;
}

void ContactMemo::close() {
  remembered_ = nullptr;
  also_ = nullptr;
  also_pending_ = false;
  used_ = 0;
}

void ContactMemo::remember_next(const btCollisionObject* object) {
  if (remembered_ == nullptr || object == nullptr || object == remembered_) return;
  also_ = object;
  also_pending_ = true;
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
  if (object == nullptr || (object != remembered_ && object != also_)) return false;
  const Entry* e = lookup(object, max_distance);
  if (e == nullptr) return false;
  out = e->contacts;
  return true;
}

void ContactMemo::store(const btCollisionObject* object, double max_distance, const std::vector<Contact>& found) {
  if (object == nullptr) return;
  if (object != remembered_) {
    if (object != also_ || !also_pending_) return;
    also_pending_ = false;
  }
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
