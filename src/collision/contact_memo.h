// The contact memo: a tick's overlap queries remembered by their exact
// inputs, so a query the tick repeats (the same object at the same pose
// with the same threshold) is answered from the first without asking Bullet
// again. The collision adapter owns one.
#pragma once

#include <btBulletCollisionCommon.h>

#include <array>
#include <vector>

namespace stepslide {

struct Contact;

/// Only valid while the world stands still: the controller opens it at the
/// start of its update (the world has moved by then) and closes it at the
/// end; closed, it remembers nothing and finds nothing. Within the update
/// only the character's own objects move, and the queries ignore them, so
/// a query's answer depends on nothing but its object, the object's shape
/// and pose, and its threshold: the key, compared exactly.
class ContactMemo {
 public:
  /// How many queries are remembered: the oldest is replaced. (The
  /// depenetration's three passes share their common first query without
  /// it: a pass of 8 iterations would push it out.)
  static constexpr int kEntries = 16;

  ContactMemo();
  ~ContactMemo();

  /// Remembers the queries of `object` only (null: none). The adapter
  /// passes the character's own object: the depenetration's passes and the
  /// end-of-move checks repeat its queries, while the ground probe's never
  /// repeat within a tick, and remembering them would only cost.
  void open(const btCollisionObject* object);
  void close();
  /// While open, remembers the next query of `object` as well (once), and
  /// finds it until closed: one query asked ahead of its use.
  void remember_next(const btCollisionObject* object);
  bool is_open() const { return remembered_ != nullptr; }

  /// True, with `out` set to the remembered answer, when the memo is open
  /// for this object and holds this query.
  bool find(const btCollisionObject* object, double max_distance, std::vector<Contact>& out) const;
  /// Remembers `found` as the answer to this query (when open for this object).
  void store(const btCollisionObject* object, double max_distance, const std::vector<Contact>& found);

 private:
  struct Entry {
    const btCollisionObject* object = nullptr;
    const btCollisionShape* shape = nullptr;
    btTransform pose;
    double max_distance = 0.0;
    std::vector<Contact> contacts;
  };
  const Entry* lookup(const btCollisionObject* object, double max_distance) const;

  const btCollisionObject* remembered_ = nullptr;  ///< null: closed
  const btCollisionObject* also_ = nullptr;       ///< remember_next's object, until closed
  bool also_pending_ = false;                     ///< its next query not stored yet
  int used_ = 0;  ///< entries holding a query this tick
  int next_ = 0;  ///< the entry replaced next
  std::array<Entry, kEntries> entries_;
};

}  // namespace stepslide
