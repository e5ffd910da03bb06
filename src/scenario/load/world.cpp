#include "scenario/load/world.h"

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <new>
#include <optional>
#include <vector>

#include "base/portable_math.h"
#include "dynamics/rigid_bodies.h"
#include "scenario/load/convert.h"
#include "stepslide/broadphase_state.h"
#include "stepslide/character.h"
#include "stepslide/math.h"

namespace stepslide {

namespace {

// Bullet rounds convex shapes by their collision margin. Boxes and cylinders
// keep their outer size (the margin is carved out of them), so a small margin
// only rounds their edges by that much; hulls grow by it. 1 mm (kBoxMargin,
// stepslide/character.h) keeps risers and step edges crisp while leaving GJK
// well conditioned.
constexpr double kHullMargin = 0.0001;

// Collision filters. Nothing in this world reads a pair of two world bodies:
// there is no dynamics, and queries (the controllers' sweeps, contact tests
// and rays, the plot's rays) go to the broadphase directly with a callback
// in DefaultFilter, which every world body accepts. So world bodies never
// pair with each other: without this, N static bodies piled in one place made
// N^2/2 pairs (3 000 boxes took 35 s and 455 MB to add; 15 000 overflowed
// Bullet's pair cache and crashed), and every kinematic body made and dropped
// pairs with whatever it passed. Static bodies are in StaticFilter, kinematic
// ones in KinematicFilter, and both accept every group but those two: the
// reference controller's ghost (CharacterFilter) still pairs with all of them.
constexpr int kStaticGroup = btBroadphaseProxy::StaticFilter;
constexpr int kKinematicGroup = btBroadphaseProxy::KinematicFilter;
constexpr int kWorldBodyMask = btBroadphaseProxy::AllFilter & ~(kStaticGroup | kKinematicGroup);

btQuaternion bt_quaternion(const portable::Quat& q) { return btQuaternion(q.x, q.y, q.z, q.w); }
portable::Quat to_portable(const btQuaternion& q) { return {q.x(), q.y(), q.z(), q.w()}; }

/// Rotation from docs/format.md §1.1 `rotation_deg`: about world X, then Y,
/// then Z, with sines and cosines that are the same bits on every CPU.
btQuaternion rotation_from_degrees(const Vec3& rotation_deg) {
  return bt_quaternion(portable::quaternion_from_degrees(rotation_deg[0], rotation_deg[1], rotation_deg[2]));
}

btTransform pose(const Vec3& position, const Vec3& rotation_deg) {
  return btTransform(rotation_from_degrees(rotation_deg), to_bt(position));
}

std::unique_ptr<btBoxShape> make_box(const btVector3& half_extents) {
  auto box = std::make_unique<btBoxShape>(half_extents);
  box->setMargin(box_margin(half_extents));
  return box;
}

// Stairs: step i is a solid box from the base up to rise·(i+1), spanning
// [i·run, (i+1)·run] along local -Z, `width` across X. The origin is the
// centre of the bottom edge of the first riser.
std::unique_ptr<btCompoundShape> make_stairs(const ShapeDef& def, std::vector<std::unique_ptr<btCollisionShape>>& keep) {
  auto compound = std::make_unique<btCompoundShape>(true, def.steps);
  for (int i = 0; i < def.steps; ++i) {
    const double top = def.rise * (i + 1);
    auto box = make_box(btVector3(0.5 * def.width, 0.5 * top, 0.5 * def.run));
    btTransform local(btQuaternion::getIdentity(), btVector3(0, 0.5 * top, -(i + 0.5) * def.run));
    compound->addChildShape(local, box.get());
    keep.push_back(std::move(box));
  }
  return compound;
}

// Ramp: a slab `thickness` thick whose top surface rises along local -Z at
// angle_deg; the origin is the centre of the bottom edge of the top surface.
std::unique_ptr<btCompoundShape> make_ramp(const ShapeDef& def, std::vector<std::unique_ptr<btCollisionShape>>& keep) {
  auto compound = std::make_unique<btCompoundShape>(false, 1);
  auto slab = make_box(btVector3(0.5 * def.width, 0.5 * def.thickness, 0.5 * def.length));
  const btQuaternion tilt(btVector3(1, 0, 0), def.angle_deg * kDegToRad);
  const btVector3 centre = quatRotate(tilt, btVector3(0, -0.5 * def.thickness, -0.5 * def.length));
  compound->addChildShape(btTransform(tilt, centre), slab.get());
  keep.push_back(std::move(slab));
  return compound;
}

std::unique_ptr<btCylinderShape> make_cylinder(const ShapeDef& s) {
  auto cylinder = std::make_unique<btCylinderShape>(btVector3(s.radius, 0.5 * s.height, s.radius));
  cylinder->setMargin(std::min(kBoxMargin, 0.5 * std::min(s.radius, 0.5 * s.height)));
  return cylinder;
}

std::unique_ptr<btConvexHullShape> make_hull(const ShapeDef& s) {
  auto hull = std::make_unique<btConvexHullShape>();
  for (const Vec3& p : s.points) hull->addPoint(to_bt(p), false);
  hull->recalcLocalAabb();
  hull->setMargin(kHullMargin);
  return hull;
}

/// The triangles go into a mesh kept in `keep`, which the shape refers to.
std::unique_ptr<btBvhTriangleMeshShape> make_mesh(const ShapeDef& s,
                                                  std::vector<std::unique_ptr<btStridingMeshInterface>>& keep) {
  auto mesh = std::make_unique<btTriangleMesh>(true, true);
  for (const auto& t : s.triangles) {
    mesh->addTriangle(to_bt(s.vertices[t[0]]), to_bt(s.vertices[t[1]]), to_bt(s.vertices[t[2]]), false);
  }
  auto shape = std::make_unique<btBvhTriangleMeshShape>(mesh.get(), true);
  keep.push_back(std::move(mesh));
  return shape;
}

/// The heights go into `keep`, which the shape refers to. Bullet centres the
/// terrain on the middle of its height range; the scenario's origin is the
/// grid centre at height 0, so `offset` lifts the shape back by that middle.
std::unique_ptr<btHeightfieldTerrainShape> make_heightfield(const ShapeDef& s,
                                                            std::vector<std::unique_ptr<std::vector<double>>>& keep,
                                                            btTransform& offset) {
  auto heights = std::make_unique<std::vector<double>>(s.heights);
  const auto [lo, hi] = std::minmax_element(heights->begin(), heights->end());
  const double min_h = std::min(*lo, 0.0), max_h = std::max(*hi, 0.0);
  auto terrain =
      std::make_unique<btHeightfieldTerrainShape>(s.columns, s.rows, heights->data(), min_h, max_h, 1, false);
  terrain->setLocalScaling(btVector3(s.cell_size, 1.0, s.cell_size));
  offset.setOrigin(btVector3(0, 0.5 * (min_h + max_h), 0));
  keep.push_back(std::move(heights));
  return terrain;
}

/// Worlds of up to this many bodies are built one body at a time (see World::World).
constexpr std::size_t kIncrementalBodies = 1024;
/// Leaves at or below this count are grouped by btDbvt's bottom-up pass, whose
/// cost grows with the cube of the count; above it the tree is split top-down.
constexpr int kBottomUpLeaves = 8;

/// A parent for two subtrees, allocated as btDbvt allocates its nodes, so the
/// tree may free it.
btDbvtNode* join(btDbvtNode* a, btDbvtNode* b) {
  auto* node = new (btAlignedAlloc(sizeof(btDbvtNode), 16)) btDbvtNode();
  Merge(a->volume, b->volume, node->volume);
  node->parent = nullptr;
  node->childs[0] = a;
  node->childs[1] = b;
  a->parent = node;
  b->parent = node;
  return node;
}

/// Any tree over `leaves` of depth log2(n): pairs, then pairs of pairs.
btDbvtNode* balanced_tree(std::vector<btDbvtNode*> level) {
  if (level.empty()) return nullptr;
  while (level.size() > 1) {
    std::vector<btDbvtNode*> next;
    next.reserve(level.size() / 2 + 1);
    for (std::size_t i = 0; i + 1 < level.size(); i += 2) next.push_back(join(level[i], level[i + 1]));
    if (level.size() % 2 == 1) next.push_back(level.back());
    level.swap(next);
  }
  level[0]->parent = nullptr;
  return level[0];
}

// btDbvtBroadphase's stage lists (its own helpers are private to Bullet).
void unlink(btDbvtProxy* item, btDbvtProxy*& list) {
  if (item->links[0]) {
    item->links[0]->links[1] = item->links[1];
  } else {
    list = item->links[1];
  }
  if (item->links[1]) item->links[1]->links[0] = item->links[0];
}

void link_first(btDbvtProxy* item, btDbvtProxy*& list) {
  item->links[0] = nullptr;
  item->links[1] = list;
  if (list) list->links[0] = item;
  list = item;
}

/// Sets the broadphase box of `object`, a body in the dynamic tree, to its
/// current pose without reinserting it: what btCollisionWorld::updateSingleAabb
/// computes, leaving the tree above it to be rebuilt.
void refit_leaf(btCollisionObject& object) {
  btVector3 lo, hi;
  object.getCollisionShape()->getAabb(object.getWorldTransform(), lo, hi);
  const btVector3 threshold(gContactBreakingThreshold, gContactBreakingThreshold, gContactBreakingThreshold);
  lo -= threshold;
  hi += threshold;
  auto* proxy = static_cast<btDbvtProxy*>(object.getBroadphaseHandle());
  proxy->m_aabbMin = lo;
  proxy->m_aabbMax = hi;
  proxy->leaf->volume = btDbvtVolume::FromMM(lo, hi);
}

}  // namespace

World::World(const Scenario& scenario) : scenario_(scenario) {
  // Bullet's default pools (4 096 manifolds and algorithms, megabytes zeroed
  // per world) are sized for a dynamics world;
  // here a query holds a few at a time and a pool that runs out falls back to
  // the heap, so the size changes where they live, never a result.
  btDefaultCollisionConstructionInfo pools;
  pools.m_defaultMaxPersistentManifoldPoolSize = 64;
  pools.m_defaultMaxCollisionAlgorithmPoolSize = 64;
  config_ = std::make_unique<btDefaultCollisionConfiguration>(pools);
  dispatcher_ = std::make_unique<btCollisionDispatcher>(config_.get());
  auto dbvt = std::make_unique<btDbvtBroadphase>();
  btDbvtBroadphase& broadphase = *dbvt;
  broadphase_ = std::move(dbvt);
  const bool dynamic = std::any_of(scenario.world.begin(), scenario.world.end(),
                                   [](const BodyDef& b) { return b.dynamic(); });
  world_ = std::make_unique<btCollisionWorld>(dispatcher_.get(), broadphase_.get(), config_.get());
  // The dynamic bodies step in this build's own pipeline (dynamics/rigid_bodies.h),
  // which asks the broadphase what is near each and collides, solves and
  // integrates itself.
  if (dynamic) dynamics_ = std::make_unique<dynamics::RigidBodies>(*world_, to_bt(scenario.gravity));
  // Only kinematic bodies move; their AABBs are refreshed one by one in set_time.
  world_->setForceUpdateAllAabbs(false);
  // World bodies never pair (kWorldBodyMask), so the broadphase does not look
  // for pairs when a body is added or moves: that search visits every body
  // overlapping it, N^2 in all for N bodies piled up. The reference
  // controller turns it back on for its ghost (scenario/run/reference_controller.cpp).
  broadphase.m_deferedcollide = true;

  // Added one by one, each body descends the broadphase's tree to the leaf
  // nearest it, which for bodies added in a row along a line, or all at one
  // place, is the last one added: the tree degenerates into a list and
  // building it costs N^2 (20 000 bodies in a row took 4 s, 200 000 would take
  // 7 minutes). Large worlds are therefore built in bulk: each body is added
  // to an empty tree, which takes no search, and the tree is built once,
  // top-down, from all the leaves: O(N log N) whatever the placement. Small
  // worlds keep the one-by-one build, which costs at most kIncrementalBodies^2
  // / 2 steps: the shape of the tree decides which of two equally near
  // surfaces a query meets first, and the goldens were recorded with it.
  //
  // In a bulk-built world the static bodies go to the broadphase's fixed
  // tree and the kinematic ones to its dynamic tree, each built top-down. The
  // dynamic tree degenerates the same way when bodies moving together are
  // put back one by one (the cost per body grows with their number), so
  // when more than kIncrementalBodies move, set_time refits their
  // leaves in place and rebuilds the dynamic tree instead.
  dbvt_ = &broadphase;
  const std::size_t count = scenario.world.size();
  objects_ = std::make_unique<btCollisionObject[]>(count);
  bodies_.reserve(count);
  shapes_.reserve(count);
  if (scenario.world.size() <= kIncrementalBodies) {
    for (std::size_t i = 0; i < scenario.world.size(); ++i) add_body(i);
    return;
  }
  btDbvt& dynamic_tree = broadphase.m_sets[btDbvtBroadphase::DYNAMIC_SET];
  btDbvt& fixed_tree = broadphase.m_sets[btDbvtBroadphase::FIXED_SET];
  std::vector<btDbvtNode*> fixed, moving;
  for (std::size_t i = 0; i < scenario.world.size(); ++i) {
    add_body(i);
    btDbvtNode* leaf = dynamic_tree.m_root;
    dynamic_tree.m_root = nullptr;
    if (scenario.world[i].motion.type != MotionType::None || scenario.world[i].dynamic()) {
      moving.push_back(leaf);
      continue;
    }
    // Moved to the fixed tree's list, as btDbvtBroadphase::collide would.
    auto* proxy = static_cast<btDbvtProxy*>(leaf->data);
    unlink(proxy, broadphase.m_stageRoots[proxy->stage]);
    link_first(proxy, broadphase.m_stageRoots[btDbvtBroadphase::STAGECOUNT]);
    proxy->stage = btDbvtBroadphase::STAGECOUNT;
    fixed.push_back(leaf);
  }
  dynamic_tree.m_leaves = static_cast<int>(moving.size());
  fixed_tree.m_leaves = static_cast<int>(fixed.size());
  dynamic_tree.m_root = balanced_tree(std::move(moving));
  dynamic_tree.optimizeTopDown(kBottomUpLeaves);
  fixed_tree.m_root = balanced_tree(std::move(fixed));
  fixed_tree.optimizeTopDown(kBottomUpLeaves);
}

std::unique_ptr<btCollisionShape> World::make_shape(const ShapeDef& s, btTransform& offset) {
  switch (s.type) {
    case ShapeType::Box:
      return make_box(to_bt(s.half_extents));
    case ShapeType::Sphere:
      return std::make_unique<btSphereShape>(s.radius);
    case ShapeType::Capsule:
      return std::make_unique<btCapsuleShape>(s.radius, s.height - 2 * s.radius);
    case ShapeType::Cylinder:
      return make_cylinder(s);
    case ShapeType::ConvexHull:
      return make_hull(s);
    case ShapeType::Mesh:
      return make_mesh(s, meshes_);
    case ShapeType::Heightfield:
      return make_heightfield(s, heightfield_data_, offset);
    case ShapeType::Stairs:
      return make_stairs(s, shapes_);
    case ShapeType::Ramp:
      return make_ramp(s, shapes_);
  }
  return nullptr;
}

std::size_t World::PrimitiveHash::operator()(const PrimitiveKey& k) const {
  // The bits of the sizes, mixed (the key compares the doubles themselves,
  // so -0.0 and 0.0 merely hash apart).
  std::uint64_t seed = static_cast<std::uint64_t>(k.type);
  for (const double v : {k.a, k.b, k.c}) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    seed = (seed ^ bits) * 0x9E3779B97F4A7C15ull;
    seed ^= seed >> 29;
  }
  return static_cast<std::size_t>(seed);
}

btCollisionShape* World::shape_for(const ShapeDef& s, btTransform& offset) {
  std::optional<PrimitiveKey> key;
  if (s.type == ShapeType::Box) key = PrimitiveKey{s.type, s.half_extents[0], s.half_extents[1], s.half_extents[2]};
  if (s.type == ShapeType::Sphere) key = PrimitiveKey{s.type, s.radius, 0.0, 0.0};
  if (s.type == ShapeType::Capsule || s.type == ShapeType::Cylinder) key = PrimitiveKey{s.type, s.radius, s.height, 0.0};
  if (key) {
    const auto known = primitives_.find(*key);
    if (known != primitives_.end()) return known->second;
  }
  shapes_.push_back(make_shape(s, offset));
  btCollisionShape* shape = shapes_.back().get();
  if (key) primitives_.emplace(*key, shape);
  return shape;
}

void World::add_body(std::size_t def_index) {
  const BodyDef& def = scenario_.world[def_index];
  btTransform offset = btTransform::getIdentity();  // shape origin within the body frame
  btCollisionShape* shape = shape_for(def.shape, offset);

  if (def.dynamic()) {
    add_dynamic_body(def_index, shape, offset);
    return;
  }
  btCollisionObject* object = &objects_[def_index];
  object->setCollisionShape(shape);
  object->setFriction(def.dynamics.friction);
  object->setRestitution(def.dynamics.restitution);
  // body_name() finds the body by this index.
  object->setUserIndex(static_cast<int>(def_index));
  const bool kinematic = def.motion.type != MotionType::None;
  if (kinematic) {
    object->setCollisionFlags(object->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
  } else {
    object->setCollisionFlags(object->getCollisionFlags() | btCollisionObject::CF_STATIC_OBJECT);
  }
  WorldBody body;
  body.name = def.name.empty() ? "world[" + std::to_string(def_index) + "]" : def.name;
  body.def_index = def_index;
  body.object = object;
  body.local_offset = offset;
  object->setWorldTransform(body_pose(def_index, 0) * offset);
  object->setInterpolationWorldTransform(object->getWorldTransform());
  world_->addCollisionObject(object, kinematic ? kKinematicGroup : kStaticGroup, kWorldBodyMask);
  if (kinematic) moving_.push_back(bodies_.size());
  bodies_.push_back(std::move(body));
  if (dynamics_) dynamics_->add(object, def_index);
}

void World::add_dynamic_body(std::size_t def_index, btCollisionShape* shape, const btTransform& offset) {
  const BodyDef& def = scenario_.world[def_index];
  // The moments of inertia in this build (Bullet's calculateLocalInertia is
  // its compiled code, contracted into fused multiply-adds on arm64).
  const btVector3 inertia = dynamics::local_inertia(*shape, def.dynamics.mass);
  btRigidBody::btRigidBodyConstructionInfo info(def.dynamics.mass, nullptr, shape, inertia);
  info.m_startWorldTransform = body_pose(def_index, 0) * offset;
  info.m_friction = def.dynamics.friction;
  info.m_restitution = def.dynamics.restitution;
  // Kept on the body for those who read it (a capture); the step damps by
  // its own rule (dynamics/motion.h).
  info.m_linearDamping = def.dynamics.linear_damping;
  info.m_angularDamping = def.dynamics.angular_damping;
  rigid_.push_back(std::make_unique<btRigidBody>(info));
  btRigidBody* body = rigid_.back().get();
  // Bodies start at rest unless the file gives them a velocity (a capture's).
  if (def.dynamics.velocity != Vec3{0, 0, 0}) body->setLinearVelocity(to_bt(def.dynamics.velocity));
  if (def.dynamics.angular_velocity != Vec3{0, 0, 0}) body->setAngularVelocity(to_bt(def.dynamics.angular_velocity));
  body->setUserIndex(static_cast<int>(def_index));
  // Dynamic bodies pair with everything (static, kinematic, each other).
  world_->addCollisionObject(body, btBroadphaseProxy::DefaultFilter, btBroadphaseProxy::AllFilter);
  WorldBody entry;
  entry.name = def.name;
  entry.def_index = def_index;
  entry.object = body;
  entry.local_offset = offset;
  dynamic_.push_back(bodies_.size());
  bodies_.push_back(std::move(entry));
  dynamics_->add(body, def_index, def.dynamics.linear_damping, def.dynamics.angular_damping);
}

World::~World() {
  for (const WorldBody& body : bodies_) {
    world_->removeCollisionObject(body.object);
  }
}

std::string World::body_name(const btCollisionObject* object) const {
  if (object == nullptr) return "";
  for (const CharacterObject& character : characters_) {
    if (character.object == object) return character.name.empty() ? "character" : "character " + character.name;
  }
  const int index = object->getUserIndex();
  if (index < 0 || static_cast<std::size_t>(index) >= bodies_.size()) return "";
  return bodies_[static_cast<std::size_t>(index)].name;
}

btTransform World::body_pose(std::size_t def_index, std::int64_t tick) const {
  const BodyDef& def = scenario_.world[def_index];
  if (def.dynamic() && def_index < bodies_.size()) {
    const WorldBody& body = bodies_[def_index];
    return body.object->getWorldTransform() * body.local_offset.inverse();
  }
  const btTransform rest = pose(def.position, def.rotation_deg);
  const double t = static_cast<double>(tick) / scenario_.tick_rate;
  switch (def.motion.type) {
    case MotionType::None:
      return rest;
    case MotionType::Linear:
      return btTransform(rest.getRotation(), rest.getOrigin() + to_bt(def.motion.velocity) * t);
    case MotionType::Spin: {
      // The loader bounds deg_per_s (ScenarioLimits::max_spin_deg_per_s), so
      // the angle stays finite: at most 1e12 deg after the longest scenario.
      // The half angle is reduced in degrees, exactly (portable_math.h).
      const Vec3& axis = def.motion.axis;
      const btQuaternion turn = bt_quaternion(portable::quaternion_about(axis[0], axis[1], axis[2], def.motion.deg_per_s * t));
      return btTransform(turn * rest.getRotation(), rest.getOrigin());
    }
    case MotionType::Keyframes: {
      // The body's own placement is an implicit key at tick 0 unless a key
      // says otherwise; past the last key the body holds it.
      // The first key at or after `tick`, found by bisection: a body may have
      // a million keys, and this runs for every tick.
      const auto& keys = def.motion.keys;
      const auto next = std::lower_bound(keys.begin(), keys.end(), tick,
                                         [](const MotionKey& key, std::int64_t at) { return key.tick < at; });
      if (next == keys.end()) {
        if (keys.empty()) return rest;
        return pose(keys.back().position, keys.back().rotation_deg);
      }
      const MotionKey previous =
          next == keys.begin() ? MotionKey{0, def.position, def.rotation_deg} : *std::prev(next);
      const MotionKey& key = *next;
      if (tick <= previous.tick) return pose(previous.position, previous.rotation_deg);
      const double u = static_cast<double>(tick - previous.tick) / static_cast<double>(key.tick - previous.tick);
      const btVector3 position = lerp(to_bt(previous.position), to_bt(key.position), u);
      const btQuaternion rotation = bt_quaternion(portable::slerp(to_portable(rotation_from_degrees(previous.rotation_deg)),
                                                          to_portable(rotation_from_degrees(key.rotation_deg)), u));
      return btTransform(rotation, position);
    }
  }
  return rest;
}

void World::set_time(std::int64_t tick) {
  // See World::World. Only while nothing needs pairs: the reference
  // controller's ghost learns of moved bodies through the usual update.
  const bool refit = moving_.size() > kIncrementalBodies && dbvt_->m_deferedcollide;
  for (const std::size_t index : moving_) {
    const WorldBody& body = bodies_[index];
    // The pose it moves from is kept as the interpolation transform, so a
    // query can tell where any point of the body was a tick ago.
    body.object->setInterpolationWorldTransform(body.object->getWorldTransform());
    body.object->setWorldTransform(body_pose(body.def_index, tick) * body.local_offset);
    if (refit) {
      refit_leaf(*body.object);
    } else {
      world_->updateSingleAabb(body.object);
    }
  }
  if (refit) dbvt_->m_sets[btDbvtBroadphase::DYNAMIC_SET].optimizeTopDown(kBottomUpLeaves);
  bodies_posed_ += static_cast<std::int64_t>(moving_.size());
}

void World::add_character(const btCollisionObject* object, std::string name) {
  characters_.push_back({const_cast<btCollisionObject*>(object), std::move(name)});
}

std::vector<btCollisionObject*> World::moving_objects() const {
  std::vector<btCollisionObject*> objects;
  objects.reserve(moving_.size() + characters_.size());
  for (const std::size_t index : moving_) objects.push_back(bodies_[index].object);
  for (const CharacterObject& character : characters_) objects.push_back(character.object);
  return objects;
}

BroadphaseTreeState World::broadphase_trees() const { return save_broadphase_trees(*dbvt_); }

World::MovingState World::save_moving() const {
  MovingState saved;
  for (const btCollisionObject* object : moving_objects()) {
    const auto* proxy = static_cast<const btDbvtProxy*>(object->getBroadphaseHandle());
    saved.pose.push_back(object->getWorldTransform());
    saved.interpolation.push_back(object->getInterpolationWorldTransform());
    saved.aabb_min.push_back(proxy->m_aabbMin);
    saved.aabb_max.push_back(proxy->m_aabbMax);
    saved.leaf.push_back(proxy->leaf->volume);
  }
  if (!saved.pose.empty()) saved.tree = save_broadphase_trees(*dbvt_);
  return saved;
}

void World::restore_moving(const MovingState& saved) {
  const std::vector<btCollisionObject*> objects = moving_objects();
  for (std::size_t i = 0; i < objects.size(); ++i) {
    btCollisionObject* object = objects[i];
    object->setWorldTransform(saved.pose[i]);
    object->setInterpolationWorldTransform(saved.interpolation[i]);
  }
  if (objects.empty() || restore_broadphase_trees(*dbvt_, saved.tree)) return;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    btCollisionObject* object = objects[i];
    auto* proxy = static_cast<btDbvtProxy*>(object->getBroadphaseHandle());
    proxy->m_aabbMin = saved.aabb_min[i];
    proxy->m_aabbMax = saved.aabb_max[i];
    const btDbvtAabbMm& leaf = saved.leaf[i];
    if (leaf.Mins() == proxy->leaf->volume.Mins() && leaf.Maxs() == proxy->leaf->volume.Maxs()) continue;
    btDbvtVolume volume = leaf;
    btDbvt& tree = dbvt_->m_sets[proxy->stage == btDbvtBroadphase::STAGECOUNT ? btDbvtBroadphase::FIXED_SET
                                                                               : btDbvtBroadphase::DYNAMIC_SET];
    tree.update(proxy->leaf, volume);
  }
}

void World::step(std::int64_t tick) {
  set_time(tick);
  if (dynamics_ == nullptr) return;
  // Each body's pose before the step becomes its interpolation transform
  // afterwards, as set_time keeps it for kinematic bodies: the controller
  // carries and depenetrates against a dynamic body by how it moved this tick.
  std::vector<btTransform> before;
  before.reserve(rigid_.size());
  for (const auto& body : rigid_) before.push_back(body->getWorldTransform());
  dynamics_->step(1.0 / scenario_.tick_rate);
  for (std::size_t i = 0; i < rigid_.size(); ++i) {
    rigid_[i]->setInterpolationWorldTransform(before[i]);
    // The box Bullet gave the broadphase before solving: the queries that
    // follow need the one around where the body is now.
    world_->updateSingleAabb(rigid_[i].get());
  }
}

}  // namespace stepslide
