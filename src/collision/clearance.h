// A clearance certificate: the proof, made by one query, that the
// character's shape at a pose overlaps nothing, kept so that a later overlap
// query at the same pose (or at a pose the body it rides carried it to) can
// be answered without asking Bullet again. The collision adapter owns one.
#pragma once

#include <btBulletCollisionCommon.h>

#include <vector>

#include "stepslide/collision.h"

namespace stepslide {

class QueryRegion;

class ClearanceCertificate {
 public:
  /// Records that `object` at `pose` overlaps no body of `world` (by more than
  /// the caller's tolerance), and is at least `static_clearance` from every
  /// static one. The moving (kinematic or dynamic) bodies whose bounding
  /// boxes overlap the object's are remembered with their poses.
  /// The broadphase is walked by `region` when given
  /// (QueryRegion::aabb_test_walked), else by Bullet: the same bodies.
  void certify(btCollisionWorld* world, const btCollisionObject* object, const btTransform& pose,
               double static_clearance, QueryRegion* region = nullptr);

  /// Whether `object` at its current pose is still proven clear: the world
  /// holds as many objects as when certified; the object moved by no more
  /// than its static clearance (without turning), or no static body's
  /// bounding box overlaps its own any more; and every moving body near
  /// it now was near it then and carried it along rigidly (the same pose
  /// relative to the body; for a shape symmetric about its local Y axis, a
  /// turn about that axis does not count). Static bodies are assumed still.
  bool holds(btCollisionWorld* world, const btCollisionObject* object, const btCollisionObject* self,
             double tolerance, QueryRegion* region = nullptr) const;

  void forget() { object_ = nullptr; }

  /// The certificate as a value (stepslide/collision.h), when it is about
  /// `object`; and back.
  ClearanceRecord save(const btCollisionObject* object) const;
  void restore(const ClearanceRecord& record, const btCollisionObject* object);

 private:
  struct Carrier {
    const btCollisionObject* body;
    btTransform pose;
  };
  const btCollisionObject* object_ = nullptr;
  btTransform pose_;
  double static_clearance_ = 0.0;
  int object_count_ = 0;
  std::vector<Carrier> moving_;
};

}  // namespace stepslide
