// The contact memo: a tick's overlap queries remembered by their exact
// inputs, so a query the tick repeats (the same object at the same pose
// with the same threshold) is answered from the first without asking Bullet
// again. And a few queries carried from tick to tick: the query asked
// ahead (the ground probe's where the move ended), when it met static bodies
// only, is kept, and the same query in a later tick is answered from it once
// the adapter has seen the same static bodies still there (a character
// pressed into a corner, or standing, asks it tick after tick). The
// collision adapter owns one.
#pragma once

#include <btBulletCollisionCommon.h>

#include <array>
#include <vector>

#include "collision/cast_memo.h"

namespace stepslide {

struct Contact;

/// Only valid while the world stands still: the controller opens it at the
/// start of its update (the world has moved by then) and closes it at the
/// end; closed, it remembers nothing and finds nothing. Within the update
/// only the character's own objects move, and the queries ignore them, so
/// a query's answer depends on nothing but its object, the object's shape
/// and pose, and its threshold: the key, compared exactly. The carried
/// queries alone outlive the tick, on the terms Met states.
class ContactMemo {
 public:
  /// How many queries are remembered: the oldest is replaced. (The
  /// depenetration's three passes share their common first query without
  /// it: a pass of 8 iterations would push it out.)
  static constexpr int kEntries = 16;

  /// Where a query is asked from tick to tick, to tell whether it is worth
  /// carrying: when the last one was within kAtRest of this one (a
  /// character at rest, or pressed still into a corner, asks it again, at
  /// times a rounding apart; a walking one never does, and recording what
  /// it meets would only cost). After a query that met a moving body (one
  /// riding a spinning disc at rest), the next kPauseAfterMoving are not:
  /// the body is likely still there.
  static constexpr double kAtRest = 1e-6;
  static constexpr int kPauseAfterMoving = 8;
  struct Rest {
    btVector3 last{0, 0, 0};
    int paused = 0;
    /// Whether at rest at `point`; remembers it for the next.
    bool at(const btVector3& point) {
      const bool near = (point - last).length2() <= kAtRest * kAtRest;
      last = point;
      if (paused > 0) {
        --paused;
        return false;
      }
      return near;
    }
  };

  ContactMemo();
  ~ContactMemo();

  /// Remembers the queries of `object` only (null: none). The adapter
  /// passes the character's own object: the depenetration's passes and the
  /// end-of-move checks repeat its queries, while the ground probe's never
  /// repeat within a tick, and remembering them would only cost.
  void open(const btCollisionObject* object);
  /// Closes the tick; the carried queries stay (for a later tick's carried()).
  void close();
  /// Closes, and drops the carried queries too: a static body may have changed.
  void forget();
  /// While open, remembers the next query of `object` as well (once), and
  /// finds it until closed: one query asked ahead of its use. With `store`
  /// false, the next query is only carried (when at rest), not remembered
  /// otherwise: the ground check's own first query, which the tick does not
  /// ask again. With `rest` (may be null), the query may be carried too
  /// when `rest` says it is at rest at `point`.
  void remember_next(const btCollisionObject* object, bool store = true, Rest* rest = nullptr,
                     const btVector3& point = btVector3(0, 0, 0));
  bool is_open() const { return remembered_ != nullptr; }

  /// True, with `out` set to the remembered answer, when the memo is open
  /// for this object and holds this query.
  bool find(const btCollisionObject* object, double max_distance, std::vector<Contact>& out) const;
  /// Remembers `found` as the answer to this query (when open for this object).
  void store(const btCollisionObject* object, double max_distance, const std::vector<Contact>& found);
  /// As store(), after record(): into the carried slot it gave, when what
  /// the query met may be carried (static bodies only, no more than
  /// kMaxMet, a query shape the key can describe).
  void store_recorded(const btCollisionObject* object, double max_distance, const std::vector<Contact>& found);

  /// A body a query met (a broadphase candidate, in walk order).
  struct Candidate {
    const btCollisionObject* body = nullptr;
    const btCollisionShape* shape = nullptr;
  };
  /// A query meeting more bodies than this is not carried.
  static constexpr int kMaxMet = 4;
  /// What a carried query met: its answer holds while a query at the same
  /// pose meets the same bodies, each static and of the same shape, in a
  /// world of as many objects. Static bodies neither move nor change in
  /// place: the clearance certificate and the triangle cache assume it too,
  /// until forget() (CollisionQueries::forget_clearance, which a game calls
  /// when it moves one).
  struct Met {
    int object_count = 0;  ///< objects in the world then
    int bodies = 0;        ///< may exceed kMaxMet: then not carried
    bool static_only = true;
    std::array<Candidate, kMaxMet> body;
    void add(const btCollisionObject* other, bool moving) {
      if (bodies < kMaxMet) body[bodies] = {other, other->getCollisionShape()};
      ++bodies;
      static_only = static_only && !moving;
    }
  };

  /// How many queries are carried: the last ones recorded (at rest, a pose
  /// may alternate between two a rounding apart).
  static constexpr int kCarried = 2;
  /// Whether a query of `object` now may be carried: the next one after
  /// remember_next. Recording what every query meets would cost more than
  /// the repeats it would find.
  bool carries(const btCollisionObject* object) const {
    return also_carry_ != nullptr && object == also_ && also_pending_ && remembered_ != nullptr;
  }
  /// The carried query that is this one (the same object, shape by its
  /// contents, pose bit for bit, threshold): its slot, or -1.
  int carried(const btCollisionObject* object, double max_distance) const;
  const Met& met_of(int slot) const { return carried_[slot].met; }
  const std::vector<Contact>& contacts_of(int slot) const { return carried_[slot].query.contacts; }
  /// The carried slot's answer holds now (checked by the caller): found for
  /// the rest of the tick too.
  void reuse(int slot);
  /// The query is asked: where to record what it meets (the slot of the
  /// same query, or the next one replaced), stored there by store_recorded().
  Met* record(int slot);

 private:
  struct Entry {
    const btCollisionObject* object = nullptr;
    const btCollisionShape* shape = nullptr;
    btTransform pose;
    double max_distance = 0.0;
    std::vector<Contact> contacts;
  };
  const Entry* lookup(const btCollisionObject* object, double max_distance) const;
  const Entry* carried_this_tick(const btCollisionObject* object, double max_distance) const;
  struct CarriedEntry {
    Entry query;  ///< object null: none
    Met met;
    CastMemo::ShapeKey shape;  ///< the query object's shape, by its contents
    bool this_tick = false;    ///< stored or reused this tick: find() finds it
  };

  const btCollisionObject* remembered_ = nullptr;  ///< null: closed
  const btCollisionObject* also_ = nullptr;       ///< remember_next's object, until closed
  bool also_pending_ = false;                     ///< its next query not stored yet
  bool also_store_ = true;                        ///< remember_next's `store`
  Rest* also_carry_ = nullptr;                    ///< remember_next's `rest`, when at rest: may be carried
  int used_ = 0;  ///< entries holding a query this tick
  int next_ = 0;  ///< the entry replaced next
  std::array<Entry, kEntries> entries_;
  std::array<CarriedEntry, kCarried> carried_;
  int carried_next_ = 0;  ///< the carried slot replaced next
  int recording_ = -1;    ///< the slot record() gave, until stored
  bool carried_this_tick_ = false;  ///< some carried entry is this_tick
};

}  // namespace stepslide
