// The dynamic bodies of a scenario's world and their step: a small pipeline
// of this build's own (Box2D v3 and Jolt have the same stages), with Bullet
// kept only as the container of the bodies (btRigidBody: the controller's
// Pushable reads and pushes them) and as the broadphase that names what is
// near a body. Per step, in this fixed order:
//
//   1. velocities: gravity and damping (motion.h), world inverse inertia
//      from the local one and the orientation;
//   2. contacts: for each dynamic body in file order, what the broadphase
//      finds within reach, sorted by body index (and by child or triangle
//      index within a compound, mesh or heightfield), each pair's contact
//      points from this build's exact code (polytope_contacts.h for boxes
//      against boxes and triangles; the geometry's GJK/EPA, one point, for
//      every other pair), warm started from the previous step's points;
//   3. the sequential-impulse solver (contact_solver.h);
//   4. positions from velocities, orientations by a quaternion update; the
//      bodies' poses and velocities written back to their btRigidBody.
//
// Why the broadphase cannot change a result: a pair is collided only
// within `cutoff` of each other (the speculative reach of its bodies), and
// the broadphase is asked with a box larger than that reach by a slack far
// above the last-bit differences in the boxes Bullet keeps (its compiled
// code, which differs between CPUs). So every pair that can give a contact
// is found on every CPU, the others give none wherever they are found, and
// the order of the answer is replaced by a sort on stable keys.
#pragma once

#include <btBulletCollisionCommon.h>
#include <btBulletDynamicsCommon.h>

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "dynamics/contact_solver.h"

namespace stepslide::dynamics {

struct StepSettings {
  /// How far apart (m) two bodies at rest still get a contact (a
  /// speculative one, which lets them close the gap and no more); a moving
  /// body's reach grows by the distance it moves in a step.
  double speculative = 0.02;
  /// How near (m, in the body's frame) a point must be to one of the last
  /// step's for its impulses to warm start it.
  double warm_start_distance = 0.01;
  /// What the broadphase is asked for beyond the reach (m).
  double broadphase_slack = 0.05;
  /// A body slower than both speeds (m/s, rad/s) for sleep_time seconds,
  /// with every body it touches, falls asleep: it stays where it is,
  /// velocities zero, until something wakes it (an impulse from the
  /// character, a body that is awake touching it, a kinematic body that
  /// moves while touching it).
  double sleep_linear_speed = 0.05;
  double sleep_angular_speed = 0.05;
  double sleep_time = 0.5;
  SolverSettings solver;
};

class RigidBodies {
 public:
  /// `world`: where the bodies and everything they collide with are;
  /// `gravity`: m/s².
  RigidBodies(btCollisionWorld& world, const btVector3& gravity, StepSettings settings = StepSettings());

  /// Registers the world's body `index` (the stable key pairs are sorted
  /// by): a static or kinematic collision object the dynamic bodies collide
  /// with (at rest, of infinite mass, where it is posed), or, when it is
  /// a btRigidBody with a mass, a dynamic body. Register in index order.
  /// Objects not registered (characters) are not collided with.
  void add(const btCollisionObject* object, std::size_t index, double linear_damping = 0.0,
           double angular_damping = 0.0);

  /// One step of `dt` seconds.
  void step(double dt);

  /// Contact points in the last step (for tests and the benchmark).
  std::size_t contact_count() const { return last_contacts_; }

 private:
  struct Body {
    btRigidBody* rigid = nullptr;
    std::size_t index = 0;  ///< the world's body index
    btQuaternion orientation;
    double linear_damping = 0.0, angular_damping = 0.0;
    double radius = 0.0;  ///< of a sphere around the shape's origin that holds it
    bool asleep = false;
    double still = 0.0;  ///< seconds slower than the sleep speeds
  };
  using PairKey = std::tuple<std::size_t, std::size_t, std::size_t>;
  /// Each point's impulses from the nearest point of the same pair in the
  /// last step, within warm_start_distance in body a's frame.
  void warm_start(std::vector<Manifold>& manifolds, const std::vector<PairKey>& keys) const;
  /// The contacts of body `i` against everything near it, appended.
  void collide(std::size_t i, double max_reach, std::vector<Manifold>& out, std::vector<PairKey>& keys);

  btCollisionWorld& world_;
  btVector3 gravity_;
  StepSettings settings_;
  std::vector<Body> bodies_;
  std::vector<double> reach_;                     ///< per body, this step
  std::vector<const btCollisionObject*> objects_;  ///< by the world's body index (null: not registered)
  std::vector<int> dynamic_of_;                     ///< by the world's body index: into bodies_, or -1
  /// The last step's points per pair (body, other's index, part), for warm starting.
  std::map<PairKey, std::vector<ContactPoint>> cache_;
  std::size_t last_contacts_ = 0;
};

/// A sphere around the origin of `shape` that holds it (m).
double bounding_radius(const btCollisionShape& shape);

/// The principal moments of inertia of `shape` with `mass`: a box's and a
/// sphere's exactly, a cylinder's and a capsule's as a solid cylinder of
/// their whole height, any other's as the box of its bounds.
btVector3 local_inertia(const btCollisionShape& shape, double mass);

}  // namespace stepslide::dynamics
