// Builds a Bullet collision world from a scenario's bodies and moves its
// kinematic bodies. Generators (stairs, ramps) expand into static boxes.
#pragma once

#include <btBulletCollisionCommon.h>

#include <memory>
#include <string>
#include <vector>

#include "scenario/scenario.h"

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
  const std::vector<WorldBody>& bodies() const { return bodies_; }
  /// Name of the body owning `object`, or "" when unknown.
  std::string body_name(const btCollisionObject* object) const;

  /// Poses every kinematic body for time `tick / tick_rate` and refreshes the
  /// broadphase. Call with tick k+1 before stepping the character from row k.
  void set_time(std::int64_t tick);

  /// Pose of body definition `def_index` at `tick` (static bodies: their placement).
  btTransform body_pose(std::size_t def_index, std::int64_t tick) const;

 private:
  /// Builds body `def_index`'s collision object and adds it to the world.
  void add_body(std::size_t def_index);
  /// The collision shape for `s`. Anything it refers to (meshes, heights,
  /// generator parts) is kept in this World. `offset`: where the shape's
  /// origin sits within the body frame, when not at the body's origin.
  std::unique_ptr<btCollisionShape> make_shape(const ShapeDef& s, btTransform& offset);

  const Scenario& scenario_;
  std::unique_ptr<btDefaultCollisionConfiguration> config_;
  std::unique_ptr<btCollisionDispatcher> dispatcher_;
  std::unique_ptr<btBroadphaseInterface> broadphase_;
  btDbvtBroadphase* dbvt_ = nullptr;  ///< broadphase_, whose trees World::World builds
  std::unique_ptr<btCollisionWorld> world_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btStridingMeshInterface>> meshes_;
  std::vector<std::unique_ptr<std::vector<double>>> heightfield_data_;
  std::vector<std::unique_ptr<btCollisionObject>> objects_;
  std::vector<WorldBody> bodies_;
  std::vector<std::size_t> moving_;  ///< indices into bodies_ of the kinematic bodies, in order
};

}  // namespace stepslide
