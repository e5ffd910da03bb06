// The broadphase tree's shape saved and put back (stepslide/broadphase_state.h).
#include "stepslide/broadphase_state.h"

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace stepslide {

namespace {

using Tree = BroadphaseTreeState::Tree;
using Node = BroadphaseTreeState::Node;

/// The nodes of `tree` in walk order: a node, then its first child's
/// subtree, then its second's.
void save_tree(const btDbvt& tree, Tree* out) {
  out->opath = tree.m_opath;
  out->nodes.reserve(static_cast<std::size_t>(2 * tree.m_leaves));
  std::vector<const btDbvtNode*> stack;
  if (tree.m_root != nullptr) stack.push_back(tree.m_root);
  while (!stack.empty()) {
    const btDbvtNode* node = stack.back();
    stack.pop_back();
    Node saved;
    saved.low = node->volume.Mins();
    saved.high = node->volume.Maxs();
    if (node->isleaf()) {
      saved.proxy = static_cast<btBroadphaseProxy*>(node->data);
    } else {
      stack.push_back(node->childs[1]);
      stack.push_back(node->childs[0]);
    }
    out->nodes.push_back(saved);
  }
}

/// The proxies of the leaves and the inner nodes of `tree` now.
void nodes_of(const btDbvt& tree, std::vector<btBroadphaseProxy*>* proxies, std::vector<btDbvtNode*>* inner) {
  std::vector<btDbvtNode*> stack;
  if (tree.m_root != nullptr) stack.push_back(tree.m_root);
  while (!stack.empty()) {
    btDbvtNode* node = stack.back();
    stack.pop_back();
    if (node->isleaf()) {
      proxies->push_back(static_cast<btBroadphaseProxy*>(node->data));
    } else {
      inner->push_back(node);
      stack.push_back(node->childs[1]);
      stack.push_back(node->childs[0]);
    }
  }
}

/// Whether `tree` holds exactly the leaves `saved` does (as a set: the
/// pointers are sorted only to compare them).
bool same_leaves(std::vector<btBroadphaseProxy*> now, const Tree& saved) {
  std::vector<btBroadphaseProxy*> then;
  for (const Node& node : saved.nodes) {
    if (node.proxy != nullptr) then.push_back(node.proxy);
  }
  if (now.size() != then.size()) return false;
  std::sort(now.begin(), now.end());
  std::sort(then.begin(), then.end());
  return now == then;
}

/// Links `inner` (the tree's own inner nodes) and the proxies' leaves into
/// the shape `saved` describes.
void rebuild(btDbvt& tree, const Tree& saved, const std::vector<btDbvtNode*>& inner) {
  std::size_t next_inner = 0;
  // Slots waiting for a child: (parent, which child), the next node fills the top one.
  std::vector<std::pair<btDbvtNode*, int>> open;
  tree.m_root = nullptr;
  for (const Node& entry : saved.nodes) {
    btDbvtNode* node = entry.proxy != nullptr ? static_cast<btDbvtProxy*>(entry.proxy)->leaf : inner[next_inner++];
    node->volume = btDbvtVolume::FromMM(entry.low, entry.high);
    if (open.empty()) {
      tree.m_root = node;
      node->parent = nullptr;
    } else {
      const auto [parent, child] = open.back();
      open.pop_back();
      parent->childs[child] = node;
      node->parent = parent;
    }
    if (entry.proxy == nullptr) {
      open.emplace_back(node, 1);
      open.emplace_back(node, 0);
    }
  }
  tree.m_opath = saved.opath;
}

/// Whether `a` and `b` hold the same bits.
bool same_bits(const btVector3& a, const btVector3& b) { return std::memcmp(&a, &b, sizeof(btScalar) * 3) == 0; }

/// Where trees `a` and `b` (set `set`) first differ, or "".
std::string tree_difference(const Tree& a, const Tree& b, int set) {
  const std::string which = set == 0 ? "moving tree" : "fixed tree";
  if (a.nodes.size() != b.nodes.size()) {
    return which + ": " + std::to_string(a.nodes.size()) + " nodes, then " + std::to_string(b.nodes.size());
  }
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    const Node& x = a.nodes[i];
    const Node& y = b.nodes[i];
    if (x.proxy != y.proxy) return which + ": node " + std::to_string(i) + " holds another leaf";
    if (!same_bits(x.low, y.low) || !same_bits(x.high, y.high)) {
      return which + ": node " + std::to_string(i) + " has other bounds";
    }
  }
  if (a.opath != b.opath) return which + ": the incremental optimisation resumes elsewhere";
  return "";
}

}  // namespace

std::string broadphase_trees_difference(const BroadphaseTreeState& a, const BroadphaseTreeState& b) {
  for (int set = 0; set < 2; ++set) {
    std::string difference = tree_difference(a.trees[set], b.trees[set], set);
    if (!difference.empty()) return difference;
  }
  if (a.proxies.size() != b.proxies.size()) return "another number of proxies";
  for (std::size_t i = 0; i < a.proxies.size(); ++i) {
    const BroadphaseTreeState::ProxyBounds& x = a.proxies[i];
    const BroadphaseTreeState::ProxyBounds& y = b.proxies[i];
    if (x.proxy != y.proxy || !same_bits(x.low, y.low) || !same_bits(x.high, y.high)) {
      return "proxy " + std::to_string(i) + " has other bounds";
    }
  }
  return "";
}

BroadphaseTreeState save_broadphase_trees(const btDbvtBroadphase& broadphase) {
  BroadphaseTreeState state;
  for (int set = 0; set < 2; ++set) save_tree(broadphase.m_sets[set], &state.trees[set]);
  for (const Tree& tree : state.trees) {
    for (const Node& node : tree.nodes) {
      if (node.proxy != nullptr) state.proxies.push_back({node.proxy, node.proxy->m_aabbMin, node.proxy->m_aabbMax});
    }
  }
  return state;
}

bool restore_broadphase_trees(btDbvtBroadphase& broadphase, const BroadphaseTreeState& state) {
  std::vector<btBroadphaseProxy*> proxies[2];
  std::vector<btDbvtNode*> inner[2];
  for (int set = 0; set < 2; ++set) {
    nodes_of(broadphase.m_sets[set], &proxies[set], &inner[set]);
    if (!same_leaves(proxies[set], state.trees[set])) return false;
  }
  for (int set = 0; set < 2; ++set) rebuild(broadphase.m_sets[set], state.trees[set], inner[set]);
  for (const BroadphaseTreeState::ProxyBounds& saved : state.proxies) {
    saved.proxy->m_aabbMin = saved.low;
    saved.proxy->m_aabbMax = saved.high;
  }
  return true;
}

}  // namespace stepslide
