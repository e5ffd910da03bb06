// The contact memo (contact_memo.h).
#include "collision/contact_memo.h"

#include "collision/same_bits.h"
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
  also_carry_ = nullptr;
  recording_ = -1;
  if (carried_this_tick_) {
    for (CarriedEntry& c : carried_) c.this_tick = false;
    carried_this_tick_ = false;
  }
}

void ContactMemo::forget() {
  close();
  for (CarriedEntry& c : carried_) c.query.object = nullptr;
}

int ContactMemo::carried(const btCollisionObject* object, double max_distance) const {
  const btTransform& pose = object->getWorldTransform();
  for (int i = 0; i < kCarried; ++i) {
    const CarriedEntry& c = carried_[i];
    if (c.query.object == object && same_bits(c.query.pose, pose) && same_bits(c.query.max_distance, max_distance) &&
        c.shape.describes(object->getCollisionShape()))
      return i;
  }
  return -1;
}

void ContactMemo::reuse(int slot) {
  carried_[slot].this_tick = true;
  carried_this_tick_ = true;
  also_pending_ = false;
}

ContactMemo::Met* ContactMemo::record(int slot) {
  if (slot < 0) {
    slot = carried_next_;
    carried_next_ = (carried_next_ + 1) % kCarried;
  }
  CarriedEntry& c = carried_[slot];
  c.query.object = nullptr;  // nothing here until stored
  c.this_tick = false;
  c.met.bodies = 0;
  c.met.static_only = true;
  recording_ = slot;
  return &c.met;
}

void ContactMemo::remember_next(const btCollisionObject* object, bool store, Rest* rest, const btVector3& point) {
  if (remembered_ == nullptr || object == nullptr || object == remembered_) return;
  also_ = object;
  also_pending_ = true;
  also_store_ = store;
  also_carry_ = rest != nullptr && rest->at(point) ? rest : nullptr;
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
  if (e == nullptr && carried_this_tick_ && object == also_) e = carried_this_tick(object, max_distance);
  if (e == nullptr) return false;
  out = e->contacts;
  return true;
}

const ContactMemo::Entry* ContactMemo::carried_this_tick(const btCollisionObject* object, double max_distance) const {
  const btTransform& pose = object->getWorldTransform();
  for (const CarriedEntry& c : carried_) {
    const Entry& q = c.query;
    if (c.this_tick && q.object == object && q.max_distance == max_distance &&
        q.shape == object->getCollisionShape() && same_bits(q.pose, pose))
      return &q;
  }
  return nullptr;
}

void ContactMemo::store(const btCollisionObject* object, double max_distance, const std::vector<Contact>& found) {
  if (object == nullptr) return;
  if (object != remembered_) {
    if (object != also_ || !also_pending_) return;
    also_pending_ = false;
    if (!also_store_) return;
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

void ContactMemo::store_recorded(const btCollisionObject* object, double max_distance,
                                 const std::vector<Contact>& found) {
  const int slot = recording_;
  recording_ = -1;
  if (slot >= 0 && object == also_ && also_pending_) {
    CarriedEntry& c = carried_[slot];
    if (c.met.static_only && c.met.bodies <= kMaxMet && CastMemo::ShapeKey::of(object->getCollisionShape(), &c.shape)) {
      also_pending_ = false;
      Entry& q = c.query;
      q.object = object;
      q.shape = object->getCollisionShape();
      q.pose = object->getWorldTransform();
      q.max_distance = max_distance;
      q.contacts = found;
      c.this_tick = true;
      carried_this_tick_ = true;
      return;
    }
    if (!c.met.static_only) also_carry_->paused = kPauseAfterMoving;
  }
  store(object, max_distance, found);
}

}  // namespace stepslide
