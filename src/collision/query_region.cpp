// The broadphase region the adapter's queries share (query_region.h).
#include "collision/query_region.h"

#include "collision/query_bounds.h"

namespace stepslide {

namespace {

struct Gather : btDbvt::ICollide {
  explicit Gather(std::vector<const btDbvtNode*>* out) : out_(out) {}
  void Process(const btDbvtNode* leaf) override { out_->push_back(leaf); }
  std::vector<const btDbvtNode*>* out_;
};

/// collideTV's walk of one tree: a node whose box overlaps `volume` is a
/// leaf processed or an inner node whose second child is walked first.
void walk_aabb(const btDbvtNode* node, const btDbvtVolume& volume, btBroadphaseAabbCallback& callback) {
  if (!Intersect(node->volume, volume)) return;
  if (node->isinternal()) {
    walk_aabb(node->childs[1], volume, callback);
    walk_aabb(node->childs[0], volume, callback);
    return;
  }
  callback.process(static_cast<btBroadphaseProxy*>(node->data));
}

/// The ray as rayTestInternal reads it for one tree: its start, inverse
/// direction, signs and length, and the shape's bounds it is grown by.
struct RayWalk {
  btVector3 from;
  btVector3 inverse;
  unsigned int signs[3];
  btScalar lambda_max;
  btVector3 low;
  btVector3 high;
  btBroadphaseRayCallback* callback;

  void walk(const btDbvtNode* node) const {
    btVector3 bounds[2];
    bounds[0] = node->volume.Mins() - high;
    bounds[1] = node->volume.Maxs() - low;
    btScalar tmin = 1.0;
    const btScalar lambda_min = 0.0;
    if (!btRayAabb2(from, inverse, signs, bounds, tmin, lambda_min, lambda_max)) return;
    if (node->isinternal()) {
      walk(node->childs[1]);
      walk(node->childs[0]);
      return;
    }
    callback->process(static_cast<btBroadphaseProxy*>(node->data));
  }
};

bool inside(const btVector3& low, const btVector3& high, const btVector3& outer_low, const btVector3& outer_high) {
  return outer_low.x() <= low.x() && outer_low.y() <= low.y() && outer_low.z() <= low.z() &&
         high.x() <= outer_high.x() && high.y() <= outer_high.y() && high.z() <= outer_high.z();
}

}  // namespace

bool QueryRegion::Token::operator==(const Token& o) const {
  return roots[0] == o.roots[0] && roots[1] == o.roots[1] && leaves[0] == o.leaves[0] &&
         leaves[1] == o.leaves[1] && opath[0] == o.opath[0] && opath[1] == o.opath[1] &&
         updates_call == o.updates_call && updates_done == o.updates_done && pid == o.pid && gid == o.gid &&
         stage == o.stage;
}

QueryRegion::Token QueryRegion::token_of(const btDbvtBroadphase& broadphase) {
  Token token;
  for (int i = 0; i < 2; ++i) {
    token.roots[i] = broadphase.m_sets[i].m_root;
    token.leaves[i] = broadphase.m_sets[i].m_leaves;
    token.opath[i] = broadphase.m_sets[i].m_opath;
  }
  token.updates_call = broadphase.m_updates_call;
  token.updates_done = broadphase.m_updates_done;
  token.pid = broadphase.m_pid;
  token.gid = broadphase.m_gid;
  token.stage = broadphase.m_stageCurrent;
  return token;
}

void QueryRegion::remember(btBroadphaseInterface* broadphase) {
  checked_ = broadphase;
  dbvt_ = dynamic_cast<btDbvtBroadphase*>(broadphase);
}

const std::vector<const btDbvtNode*>& QueryRegion::leaves_for(btDbvtBroadphase* dbvt, const btVector3& low,
                                                              const btVector3& high) {
  const Token token = token_of(*dbvt);
  if (valid_ && dbvt == broadphase_ && token == token_ && inside(low, high, low_, high_)) {
    ++reuses_;
    return leaves_;
  }
  const btVector3 grow(kGrowth, kGrowth, kGrowth);
  low_ = low - grow;
  high_ = high + grow;
  leaves_.clear();
  Gather gather(&leaves_);
  const btDbvtVolume volume = btDbvtVolume::FromMM(low_, high_);
  // The order Bullet's aabbTest and rayTest visit: the dynamic set, then the fixed one.
  for (int i = 0; i < 2; ++i) dbvt->m_sets[i].collideTV(dbvt->m_sets[i].m_root, volume, gather);
  valid_ = true;
  broadphase_ = dbvt;
  token_ = token;
  ++gathers_;
  return leaves_;
}

void QueryRegion::region_aabb_test(btDbvtBroadphase* dbvt, const btVector3& low, const btVector3& high,
                                   btBroadphaseAabbCallback& callback) {
  const std::vector<const btDbvtNode*>& leaves = leaves_for(dbvt, low, high);
  // Bullet's test at each node of collideTV: the closed boxes overlap.
  const btDbvtVolume volume = btDbvtVolume::FromMM(low, high);
  for (const btDbvtNode* leaf : leaves) {
    if (Intersect(leaf->volume, volume)) callback.process(static_cast<btBroadphaseProxy*>(leaf->data));
  }
}

void QueryRegion::walk_aabb_test(const btDbvtBroadphase* dbvt, const btVector3& low, const btVector3& high,
                                 btBroadphaseAabbCallback& callback) {
  const btDbvtVolume volume = btDbvtVolume::FromMM(low, high);
  for (int i = 0; i < 2; ++i) {
    if (dbvt->m_sets[i].m_root != nullptr) walk_aabb(dbvt->m_sets[i].m_root, volume, callback);
  }
}

void QueryRegion::walk_ray_test(const btDbvtBroadphase* dbvt, const btVector3& from, btBroadphaseRayCallback& callback,
                                const btVector3& low, const btVector3& high) {
  for (int i = 0; i < 2; ++i) {
    if (dbvt->m_sets[i].m_root == nullptr) continue;
    // Read for each tree, as btDbvtBroadphase::rayTest passes them.
    const RayWalk ray{from,
                      callback.m_rayDirectionInverse,
                      {callback.m_signs[0], callback.m_signs[1], callback.m_signs[2]},
                      callback.m_lambda_max,
                      low,
                      high,
                      &callback};
    ray.walk(dbvt->m_sets[i].m_root);
  }
}

void QueryRegion::region_ray_test(btDbvtBroadphase* dbvt, const btVector3& from, const btVector3& to,
                                  btBroadphaseRayCallback& callback, const btVector3& low, const btVector3& high) {
  // The swept box every leaf the ray's slab test passes lies within (its
  // rounding far inside the slack).
  btVector3 swept_low = from;
  btVector3 swept_high = from;
  swept_low.setMin(to);
  swept_high.setMax(to);
  const btVector3 slack(detail::kBoundsSlack, detail::kBoundsSlack, detail::kBoundsSlack);
  const std::vector<const btDbvtNode*>& leaves = leaves_for(dbvt, swept_low + low - slack, swept_high + high + slack);
  // Bullet's test at each node of rayTestInternal, with the ray's inverse
  // direction, signs and length read once as btDbvtBroadphase::rayTest does.
  const btVector3 inverse = callback.m_rayDirectionInverse;
  unsigned int signs[3] = {callback.m_signs[0], callback.m_signs[1], callback.m_signs[2]};
  const btScalar lambda_max = callback.m_lambda_max;
  btVector3 bounds[2];
  for (const btDbvtNode* leaf : leaves) {
    bounds[0] = leaf->volume.Mins() - high;
    bounds[1] = leaf->volume.Maxs() - low;
    btScalar tmin = 1.0;
    const btScalar lambda_min = 0.0;
    if (btRayAabb2(from, inverse, signs, bounds, tmin, lambda_min, lambda_max))
      callback.process(static_cast<btBroadphaseProxy*>(leaf->data));
  }
}

}  // namespace stepslide
