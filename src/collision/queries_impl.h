// What CollisionQueries keeps between queries, behind its one pointer: the
// clearance certificate, the shared broadphase region, the contact memo of
// a tick, the cast memo and the tick's last ray. Made once with the queries;
// a query reaches it through CollisionQueries::impl_ and allocates nothing.
#pragma once

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <btBulletCollisionCommon.h>

#include "collision/cast_memo.h"
#include "collision/clearance.h"
#include "collision/contact_memo.h"
#include "collision/query_region.h"
#include "stepslide/collision.h"

namespace stepslide {

struct CollisionQueries::Impl {
  ClearanceCertificate certificate;
  QueryRegion region;
  /// The broadphase may_hit last walked, and it as a btDbvtBroadphase (or null).
  const btBroadphaseInterface* walked = nullptr;
  btDbvtBroadphase* walked_dbvt = nullptr;
  ContactMemo memo;
  /// Where the query being asked records what it meets, when the memo may
  /// carry it (ContactMemo::record); else null.
  ContactMemo::Met* recording = nullptr;
  /// Where the queries asked ahead (remember_next_query) and the ground
  /// check's first (carry_next_query) were asked last: at rest, they are
  /// carried.
  ContactMemo::Rest ahead_rest;
  ContactMemo::Rest ground_rest;
  /// Bullet's casts of convex pairs against static bodies, by everything
  /// they read (CastMemo): valid across ticks, whatever the world does.
  CastMemo cast_memo;
  /// The tick's last ray and its answer (valid only while the memo is open:
  /// the world stands still and rays ignore the character's own object).
  struct LastRay {
    bool valid = false;
    btVector3 from;
    btVector3 to;
    RayHit hit;
  } last_ray;
};

}  // namespace stepslide
