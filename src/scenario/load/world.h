// Builds a Bullet collision world from a scenario's bodies and moves its
// kinematic bodies. Generators (stairs, ramps) expand into static boxes.
#pragma once

#include <btBulletCollisionCommon.h>
#include <btBulletDynamicsCommon.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "scenario/scenario.h"
#include "stepslide/broadphase_state.h"

namespace stepslide::dynamics {
class RigidBodies;
}

namespace stepslide {

/// One collision object in the world, with the definition it came from.
struct WorldBody {
  std::string name;           ///< the body's name, or "world[i]" when it has none
  std::size_t def_index = 0;  ///< index into Scenario::world
  btCollisionObject* object = nullptr;
  btTransform local_offset = btTransform::getIdentity();  ///< the shape origin within the body frame
};

class World {
 public:
  explicit World(const Scenario& scenario);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  btCollisionWorld* collision_world() { return world_.get(); }
  /// The broadphase trees' shape and bounds now, every leaf's (static ones
  /// too): what a rewind compares after its replay (save_moving keeps them
  /// only when something moves).
  BroadphaseTreeState broadphase_trees() const;
  const std::vector<WorldBody>& bodies() const { return bodies_; }
  /// Name of the body owning `object`, or "" when unknown; "character b"
  /// for the body of character b (add_character).
  std::string body_name(const btCollisionObject* object) const;
  /// A character's body (CharacterController::add_to_world) now in this
  /// world: named for body_name, and saved and restored with the moving
  /// bodies (save_moving, restore_moving), after them in the order added.
  void add_character(const btCollisionObject* object, std::string name);

  /// Poses every kinematic body for time `tick / tick_rate` and refreshes the
  /// broadphase. Call with tick k+1 before stepping the character from row k.
  void set_time(std::int64_t tick);
  /// What the moving bodies are between two ticks, for a rollback: their
  /// poses, interpolation transforms, and the broadphase: its bounds (the
  /// tree's leaves are grown by a margin and the motion predicted when a
  /// body moves, so the bounds depend on the path taken: queries that ask
  /// the tree whether anything is near see those grown bounds) and the
  /// tree's shape (a moved leaf is taken out and inserted again, which
  /// reorders the walk: a sweep or ray takes the first of two equally close
  /// hits in walk order; stepslide/broadphase_state.h).
  struct MovingState {
    std::vector<btTransform> pose, interpolation;
    std::vector<btVector3> aabb_min, aabb_max;
    std::vector<btDbvtAabbMm> leaf;
    BroadphaseTreeState tree;  ///< empty without moving bodies or characters (the tree does not change)
  };
  MovingState save_moving() const;
  /// Puts them back as save_moving() found them: the poses, and the
  /// broadphase trees' shape and bounds (where a tree no longer holds the
  /// same leaves, each moved leaf re-inserted with its saved bounds instead;
  /// set_time's count of bodies posed is left alone).
  void restore_moving(const MovingState& saved);

  /// Bodies posed by set_time so far: one per moving body per call, none for
  /// static ones, so a tick's world update costs the same among 10 or 100 000
  /// static bodies (tests/scenario/load/world_cost_test.cpp).
  std::int64_t bodies_posed() const { return bodies_posed_; }

  /// Pose of body definition `def_index` at `tick` (static bodies: their
  /// placement; dynamic bodies: where the physics has them now, whatever `tick`).
  btTransform body_pose(std::size_t def_index, std::int64_t tick) const;

  /// Advances the world to tick `tick` (from `tick - 1`): poses the kinematic
  /// bodies (set_time), then steps the dynamic ones once by 1 / tick_rate
  /// (dynamics/rigid_bodies.h).
  /// Without dynamic bodies it is set_time alone.
  void step(std::int64_t tick);

  /// Indices into bodies() of the dynamic bodies, in file order (their columns' order).
  const std::vector<std::size_t>& dynamic_bodies() const { return dynamic_; }
  /// The rigid body of dynamic body `i` of dynamic_bodies().
  const btRigidBody& dynamic_body(std::size_t i) const { return *rigid_[i]; }

 private:
  /// Builds body `def_index`'s collision object and adds it to the world.
  void add_body(std::size_t def_index);
  /// Builds dynamic body `def_index` as a btRigidBody and adds it to the world.
  void add_dynamic_body(std::size_t def_index, btCollisionShape* shape, const btTransform& offset);
  /// The collision shape for `s`, owned by this World with anything it refers
  /// to (meshes, heights, generator parts). Primitives of the same type and
  /// size share one shape. `offset`: where the shape's origin sits within the
  /// body frame, when not at the body's origin.
  btCollisionShape* shape_for(const ShapeDef& s, btTransform& offset);
  std::unique_ptr<btCollisionShape> make_shape(const ShapeDef& s, btTransform& offset);

  /// A primitive's type and size (box: half extents; sphere, capsule,
  /// cylinder: radius and height), which decide its whole shape.
  struct PrimitiveKey {
    ShapeType type;
    double a, b, c;
    bool operator==(const PrimitiveKey& o) const { return type == o.type && a == o.a && b == o.b && c == o.c; }
  };
  struct PrimitiveHash {
    std::size_t operator()(const PrimitiveKey& k) const;
  };

  const Scenario& scenario_;
  std::unique_ptr<btDefaultCollisionConfiguration> config_;
  std::unique_ptr<btCollisionDispatcher> dispatcher_;
  std::unique_ptr<btBroadphaseInterface> broadphase_;
  btDbvtBroadphase* dbvt_ = nullptr;  ///< broadphase_, whose trees World::World builds
  std::unique_ptr<btCollisionWorld> world_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btStridingMeshInterface>> meshes_;
  std::vector<std::unique_ptr<std::vector<double>>> heightfield_data_;
  /// One per body definition, in one allocation: a world of 100 000 bodies
  /// made 100 000 allocations here.
  std::unique_ptr<btCollisionObject[]> objects_;
  /// The shape made for each primitive type and size. Not reserved for every
  /// body: it holds one entry per distinct size, which stays small (and in
  /// cache) for levels that repeat a few sizes.
  std::unordered_map<PrimitiveKey, btCollisionShape*, PrimitiveHash> primitives_;
  std::vector<WorldBody> bodies_;
  std::vector<std::size_t> moving_;  ///< indices into bodies_ of the kinematic bodies, in order
  /// The dynamic bodies' step (dynamics/rigid_bodies.h), when the scenario has one.
  std::unique_ptr<dynamics::RigidBodies> dynamics_;
  std::vector<std::unique_ptr<btRigidBody>> rigid_;  ///< one per dynamic body, in file order
  std::vector<std::size_t> dynamic_;                 ///< indices into bodies_ of rigid_'s bodies
  std::int64_t bodies_posed_ = 0;
  struct CharacterObject {
    btCollisionObject* object;
    std::string name;
  };
  std::vector<CharacterObject> characters_;  ///< add_character's, in order
  /// The kinematic bodies' objects, then the characters'.
  std::vector<btCollisionObject*> moving_objects() const;
};

}  // namespace stepslide
