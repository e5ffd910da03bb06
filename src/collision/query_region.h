// Temporal coherence for the collision adapter's broadphase walks: the
// leaves of Bullet's broadphase tree around the character, gathered once in
// a region grown around the first query, and walked by every later query
// inside that region while the tree stays the same.
#pragma once

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <btBulletCollisionCommon.h>

#include <vector>

#include "collision/triangle_cache.h"

namespace stepslide {

/// Answers a query's broadphase walk from the leaves gathered for a region,
/// visiting exactly the leaves Bullet's own walk would, in the same order:
/// both walks visit the tree depth first, second child first, and a leaf's
/// test (box overlap, or the ray's slab test) passes for its ancestors too,
/// so filtering the region's leaves, kept in walk order, by the query's own
/// test reproduces the walk. The region is valid while the tree is
/// unchanged (the broadphase's update, parse, generation and optimisation
/// counters, both trees' roots and leaf counts) and the query's bounds lie
/// inside it; otherwise the region is gathered again around the query. Only
/// for a btDbvtBroadphase holding at least kMinLeaves leaves; any other
/// broadphase is walked as before.
///
/// It also holds the triangles of meshes around the character
/// (TriangleCache, triangles()): the queries hand it to the pair functions
/// they call (triangle_pairs.cpp, cylinder_contacts.cpp, rays.cpp), which
/// take their triangles from it instead of the mesh's tree.
class QueryRegion {
 public:
  /// How far the region reaches beyond the query that gathers it.
  static constexpr double kGrowth = 1.0;
  /// Below this many leaves in both trees, Bullet's walk is as cheap as
  /// filtering a region (a flat walk among a few bodies, a one-mesh level)
  /// and the region is not used.
  static constexpr int kMinLeaves = 256;

  /// As `broadphase->aabbTest(low, high, callback)`.
  void aabb_test(btBroadphaseInterface* broadphase, const btVector3& low, const btVector3& high,
                 btBroadphaseAabbCallback& callback) {
    if (btDbvtBroadphase* dbvt = worth_a_region(broadphase)) {
      region_aabb_test(dbvt, low, high, callback);
    } else if (dbvt_ != nullptr) {
      walk_aabb_test(dbvt_, low, high, callback);
    } else {
      broadphase->aabbTest(low, high, callback);
    }
  }
  /// As `broadphase->rayTest(from, to, callback, low, high)`.
  void ray_test(btBroadphaseInterface* broadphase, const btVector3& from, const btVector3& to,
                btBroadphaseRayCallback& callback, const btVector3& low = btVector3(0, 0, 0),
                const btVector3& high = btVector3(0, 0, 0)) {
    if (btDbvtBroadphase* dbvt = worth_a_region(broadphase)) {
      region_ray_test(dbvt, from, to, callback, low, high);
    } else if (dbvt_ != nullptr) {
      walk_ray_test(dbvt_, from, callback, low, high);
    } else {
      broadphase->rayTest(from, to, callback, low, high);
    }
  }
  /// As `broadphase->aabbTest(low, high, callback)` without a region,
  /// whatever the tree's size (the clearance certificate's walks, which
  /// look at a few bodies once or twice a tick): walked here when it is a
  /// btDbvtBroadphase (walk_aabb_test), else by Bullet.
  void aabb_test_walked(btBroadphaseInterface* broadphase, const btVector3& low, const btVector3& high,
                        btBroadphaseAabbCallback& callback) {
    if (broadphase != checked_) remember(broadphase);
    if (dbvt_ != nullptr) {
      walk_aabb_test(dbvt_, low, high, callback);
    } else {
      broadphase->aabbTest(low, high, callback);
    }
  }
  /// Drops the region and the triangles (the next query gathers again).
  void forget() {
    valid_ = false;
    triangles_.forget();
  }

  /// Regions gathered and queries answered from one, since construction.
  int gathers() const { return gathers_; }
  int reuses() const { return reuses_; }
  /// The meshes' triangles around the character.
  const TriangleCache& triangles() const { return triangles_; }
  /// The triangles the queries' pair functions read (passed to them).
  TriangleCache& triangles() { return triangles_; }

 private:
  struct Token {
    const btDbvtNode* roots[2] = {nullptr, nullptr};
    int leaves[2] = {0, 0};
    unsigned opath[2] = {0, 0};
    unsigned updates_call = 0;
    unsigned updates_done = 0;
    int pid = 0;
    int gid = 0;
    int stage = 0;
    bool operator==(const Token& o) const;
  };
  static Token token_of(const btDbvtBroadphase& broadphase);
  /// `broadphase` as a btDbvtBroadphase worth a region, or null: Bullet walks it.
  btDbvtBroadphase* worth_a_region(btBroadphaseInterface* broadphase) {
    if (broadphase != checked_) remember(broadphase);
    if (dbvt_ == nullptr || dbvt_->m_sets[0].m_leaves + dbvt_->m_sets[1].m_leaves < kMinLeaves) return nullptr;
    return dbvt_;
  }
  void remember(btBroadphaseInterface* broadphase);
  void region_aabb_test(btDbvtBroadphase* dbvt, const btVector3& low, const btVector3& high,
                        btBroadphaseAabbCallback& callback);
  void region_ray_test(btDbvtBroadphase* dbvt, const btVector3& from, const btVector3& to,
                       btBroadphaseRayCallback& callback, const btVector3& low, const btVector3& high);
  /// Bullet's aabbTest and rayTest on a btDbvtBroadphase too small for a
  /// region, walked here: the same nodes tested the same way in the same
  /// order (each tree depth first, second child first: the order of
  /// collideTV's and rayTestInternal's stacks), without the walk stack
  /// Bullet sets up for every call and tree.
  static void walk_aabb_test(const btDbvtBroadphase* dbvt, const btVector3& low, const btVector3& high,
                             btBroadphaseAabbCallback& callback);
  static void walk_ray_test(const btDbvtBroadphase* dbvt, const btVector3& from, btBroadphaseRayCallback& callback,
                            const btVector3& low, const btVector3& high);
  /// The leaves to filter for a query whose bounds are low..high.
  const std::vector<const btDbvtNode*>& leaves_for(btDbvtBroadphase* broadphase, const btVector3& low,
                                                   const btVector3& high);

  // The last broadphase asked about and what it is (a dynamic_cast across
  // Bullet's shared library compares type names: too dear per query).
  const btBroadphaseInterface* checked_ = nullptr;
  btDbvtBroadphase* dbvt_ = nullptr;

  bool valid_ = false;
  const btDbvtBroadphase* broadphase_ = nullptr;
  Token token_;
  btVector3 low_{0, 0, 0};
  btVector3 high_{0, 0, 0};
  std::vector<const btDbvtNode*> leaves_;
  int gathers_ = 0;
  int reuses_ = 0;
  TriangleCache triangles_;
};

}  // namespace stepslide
