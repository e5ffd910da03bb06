// The shape of Bullet's broadphase tree, as a value a game keeps beside a
// ControllerSnapshot for rollback. The controller's sweeps and rays take the
// first of two equally close hits in the order the broadphase walks its
// tree, and that order is the tree's shape, which the world's history
// decides: moving a body takes its leaf out and inserts it again, where the
// tree's bounds then lead. Poses put back leave the tree shaped by the pass
// that is being undone, so a replay can choose the other of two ties.
#pragma once

#include <LinearMath/btVector3.h>

#include <string>
#include <vector>

struct btDbvtBroadphase;
struct btBroadphaseProxy;

namespace stepslide {

/// Both trees of a btDbvtBroadphase (its moving and its fixed set), each
/// node in walk order (depth first, first child first) with its bounds;
/// leaves by their proxy. The proxies' own bounds are kept too.
struct BroadphaseTreeState {
  struct Node {
    btVector3 low;  ///< the node's bounds
    btVector3 high;
    /// The proxy of a leaf; null for an inner node (its two children follow).
    btBroadphaseProxy* proxy = nullptr;
  };
  struct Tree {
    std::vector<Node> nodes;
    unsigned opath = 0;  ///< where Bullet's incremental optimisation resumes
  };
  Tree trees[2];
  struct ProxyBounds {
    btBroadphaseProxy* proxy;
    btVector3 low;
    btVector3 high;
  };
  std::vector<ProxyBounds> proxies;
};

/// The trees of `broadphase` now.
BroadphaseTreeState save_broadphase_trees(const btDbvtBroadphase& broadphase);

/// Gives both trees back the shape and bounds they had when `state` was
/// saved, and each proxy its bounds, reusing the trees' own nodes (nothing is
/// allocated). Only when each tree holds the same proxies as then (bodies
/// moved, not added, removed or moved from one tree to the other); otherwise
/// changes nothing and returns false.
bool restore_broadphase_trees(btDbvtBroadphase& broadphase, const BroadphaseTreeState& state);

/// Where `a` and `b` first differ, to the bit (a tree's size, a node's
/// proxy or bounds, where the incremental optimisation resumes, a proxy's
/// bounds), as text; "" when they are the same. A rewind checks with it that
/// the replay left the trees as the first pass did: a tree shaped otherwise
/// is state the rewind did not put back, whose effect on a row may come many
/// ticks later (the order of two equally close hits).
std::string broadphase_trees_difference(const BroadphaseTreeState& a, const BroadphaseTreeState& b);

}  // namespace stepslide
