// The cast memo: Bullet's convex cast of one pair (objectQuerySingle of a
// convex shape against a convex body), or the adapter's exact sweep of it,
// remembered by everything it reads, so the same cast asked again (a
// character at rest asks the same sweeps of the same static bodies tick after
// tick) is answered by replaying what was reported, without its GJK. The
// collision adapter owns one.
#pragma once

#include <btBulletCollisionCommon.h>

#include <array>

namespace stepslide {

/// Bullet's cast of a convex pair is a pure function of the moving shape,
/// its start and end, the body's shape and pose, and the callback's closest
/// fraction so far (it reports a hit only when earlier); it keeps no state
/// between calls. The key is all of those, the shapes by their contents
/// (type, dimensions, margin, scaling, a hull's points), compared bit for
/// bit, so it holds across ticks and whatever the world does meanwhile: a
/// shape resized in place or a new one at a freed address is not mistaken
/// for the old. Replaying gives the callback the very report Bullet gave.
class CastMemo {
 public:
  /// How many casts are remembered: the oldest is replaced. (At rest beside
  /// a hull, a spinning disc and a heightfield a tick asks up to a dozen.)
  static constexpr int kEntries = 16;
  /// A hull with more points is not remembered (its key would be large).
  static constexpr int kMaxPoints = 32;

  /// An exact pair sweep of the adapter's, reporting as Bullet's cast
  /// does: true when it answered, false to leave the pair to Bullet.
  using ExactCast = bool (*)(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                             const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result);

  /// Bullet's objectQuerySingle(shape, from, to, object, ..., allowed
  /// penetration 0) reported to `result`, or `exact`'s answer where it
  /// gives one (a pure function of the same inputs): replayed when
  /// remembered, else asked and remembered when the pair is one the memo
  /// keeps (`shape` and the body's shape a box, sphere, capsule, cylinder or
  /// a hull of at most kMaxPoints points; the same rotation at both ends).
  /// A call site passes the same `exact` for the same kinds of shapes.
  void cast(const btConvexShape* shape, const btTransform& from, const btTransform& to, btCollisionObject* object,
            btCollisionWorld::ConvexResultCallback* result, ExactCast exact = nullptr);

  /// Casts answered from memory so far.
  int replayed() const { return replayed_; }

  /// What Bullet's cast reads of a convex shape, bit for bit.
  struct ShapeKey {
    int type = -1;
    int axis = 0;
    btVector3 dimensions{0, 0, 0};
    btVector3 scaling{1, 1, 1};
    double margin = 0.0;
    int points = 0;
    std::array<btVector3, kMaxPoints> point;

    /// False (key unset) for a shape the memo does not keep.
    static bool of(const btCollisionShape* shape, ShapeKey* key);
    /// Whether `shape` is the shape this key was made of.
    bool describes(const btCollisionShape* shape) const;
  };

 private:
  struct Entry {
    const btCollisionObject* object = nullptr;
    btTransform from;
    btTransform to;
    btTransform pose;
    double closest = 0.0;
    bool exact = false;  ///< an exact sweep's answer, whatever the closest fraction (then not part of the key)
    ShapeKey shape;
    ShapeKey body;
    bool reported = false;  ///< a hit was reported, Bullet's or the exact sweep's (then these three)
    btVector3 normal{0, 0, 0};
    btVector3 point{0, 0, 0};
    double fraction = 1.0;
  };
  struct Recorder;
  const Entry* lookup(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                      const btCollisionObject* object, double closest) const;
  void remember(Entry& slot, const btTransform& from, const btTransform& to, const btCollisionObject* object,
                double closest, bool exact, const Recorder& recorder);

  int used_ = 0;
  int next_ = 0;
  int replayed_ = 0;
  std::array<Entry, kEntries> entries_;
};

}  // namespace stepslide
