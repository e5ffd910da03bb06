#include "dynamics/rigid_bodies.h"

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>

#include <algorithm>
#include <cmath>

#include "dynamics/motion.h"
#include "dynamics/polytope_contacts.h"
#include "geometry/gjk.h"

namespace stepslide::dynamics {

namespace {



btVector3 half_extents(const btCollisionShape& shape) {
  return static_cast<const btBoxShape&>(shape).getHalfExtentsWithMargin();
}

bool is_box(const btCollisionShape& shape) {
  return shape.getShapeType() == BOX_SHAPE_PROXYTYPE && shape.getLocalScaling() == btVector3(1, 1, 1);
}

/// The broadphase's answer: the proxies' objects, in its order.
struct Gather : public btBroadphaseAabbCallback {
  std::vector<const btCollisionObject*> found;
  bool process(const btBroadphaseProxy* proxy) override {
    found.push_back(static_cast<const btCollisionObject*>(proxy->m_clientObject));
    return true;
  }
};

/// A concave shape's triangles within a box of its own frame.
struct Triangle {
  int part = 0, index = 0;
  btVector3 corners[3];
};

struct GatherTriangles : public btTriangleCallback {
  std::vector<Triangle> found;
  void processTriangle(btVector3* t, int part, int index) override {
    found.push_back(Triangle{part, index, {t[0], t[1], t[2]}});
  }
};

/// One pair's contacts as a manifold of `a` (body index) against `b`.
struct PairContacts {
  int count = 0;
  btVector3 normal{0, 1, 0};
  btVector3 points[4];
  double separation[4] = {0, 0, 0, 0};
  std::uint64_t feature[4] = {0, 0, 0, 0};
};

PairContacts from_polytopes(const PolytopeContacts& c) {
  PairContacts out;
  out.count = c.count;
  out.normal = c.normal;
  for (int i = 0; i < c.count; ++i) {
    out.points[i] = c.points[i];
    out.separation[i] = c.separation[i];
    out.feature[i] = c.feature[i];
  }
  return out;
}

/// Any convex pair by the geometry's exact GJK and EPA: one point, half way
/// between the two witnesses.
PairContacts from_distance(const detail::ConvexSolid& a, const detail::ConvexSolid& b, const btVector3& guess,
                           double cutoff) {
  PairContacts out;
  detail::ConvexDetail witness;
  const btVector3 direction = guess.fuzzyZero() ? btVector3(0, 1, 0) : guess;
  const ExactContact c = detail::convex_distance(a, b, direction, cutoff, &witness);
  if (!c.answered || c.beyond || !(c.distance <= cutoff)) return out;
  out.count = 1;
  out.normal = c.normal;
  out.points[0] = (witness.on_a + c.point) * 0.5;
  out.separation[0] = c.distance;
  return out;
}

/// Dynamic `a` (shape at `pose`) against convex `b` at `other`.
PairContacts convex_pair(const btCollisionShape& a, const btTransform& pose, const btCollisionShape& b,
                         const btTransform& other, double cutoff) {
  if (is_box(a) && is_box(b)) {
    return from_polytopes(
        polytope_contacts(box_polytope(pose, half_extents(a)), box_polytope(other, half_extents(b)), cutoff));
  }
  if (!a.isConvex() || !b.isConvex()) return PairContacts();
  return from_distance(detail::ConvexSolid::of(static_cast<const btConvexShape*>(&a), pose),
                       detail::ConvexSolid::of(static_cast<const btConvexShape*>(&b), other),
                       pose.getOrigin() - other.getOrigin(), cutoff);
}

/// Dynamic `a` against the world triangle p.
PairContacts triangle_pair(const btCollisionShape& a, const btTransform& pose, const btVector3 p[3], double cutoff) {
  if (is_box(a)) {
    return from_polytopes(polytope_contacts(box_polytope(pose, half_extents(a)), triangle_polytope(p[0], p[1], p[2]),
                                            cutoff));
  }
  if (!a.isConvex()) return PairContacts();
  return from_distance(detail::ConvexSolid::of(static_cast<const btConvexShape*>(&a), pose),
                       detail::ConvexSolid::triangle(p[0], p[1], p[2], 0.0),
                       pose.getOrigin() - (p[0] + p[1] + p[2]) / 3.0, cutoff);
}

}  // namespace

double bounding_radius(const btCollisionShape& shape) {
  switch (shape.getShapeType()) {
    case BOX_SHAPE_PROXYTYPE:
      return half_extents(shape).length();
    case SPHERE_SHAPE_PROXYTYPE:
      return static_cast<const btSphereShape&>(shape).getRadius();
    case CAPSULE_SHAPE_PROXYTYPE: {
      const auto& capsule = static_cast<const btCapsuleShape&>(shape);
      return capsule.getHalfHeight() + capsule.getRadius();
    }
    case CYLINDER_SHAPE_PROXYTYPE:
      return static_cast<const btCylinderShape&>(shape).getHalfExtentsWithMargin().length();
    case CONVEX_HULL_SHAPE_PROXYTYPE: {
      const auto& hull = static_cast<const btConvexHullShape&>(shape);
      double r = 0.0;
      for (int i = 0; i < hull.getNumPoints(); ++i) r = std::max(r, hull.getUnscaledPoints()[i].length());
      return r + hull.getMargin();
    }
    default: {
      // Not a shape the format makes dynamic; Bullet's bounds, doubled for safety.
      btVector3 lo, hi;
      shape.getAabb(btTransform::getIdentity(), lo, hi);
      return 2.0 * std::max(lo.length(), hi.length());
    }
  }
}

btVector3 local_inertia(const btCollisionShape& shape, double mass) {
  switch (shape.getShapeType()) {
    case BOX_SHAPE_PROXYTYPE:
      return box_inertia(mass, half_extents(shape));
    case SPHERE_SHAPE_PROXYTYPE:
      return sphere_inertia(mass, static_cast<const btSphereShape&>(shape).getRadius());
    case CAPSULE_SHAPE_PROXYTYPE:
    case CYLINDER_SHAPE_PROXYTYPE: {
      double radius = 0.0, half_height = 0.0;
      if (shape.getShapeType() == CAPSULE_SHAPE_PROXYTYPE) {
        const auto& capsule = static_cast<const btCapsuleShape&>(shape);
        radius = capsule.getRadius();
        half_height = capsule.getHalfHeight() + radius;
      } else {
        const btVector3 h = static_cast<const btCylinderShape&>(shape).getHalfExtentsWithMargin();
        radius = h.x();
        half_height = h.y();
      }
      const double across = mass * (3.0 * radius * radius + 4.0 * half_height * half_height) / 12.0;
      return btVector3(across, 0.5 * mass * (radius * radius), across);
    }
    case CONVEX_HULL_SHAPE_PROXYTYPE: {
      const auto& hull = static_cast<const btConvexHullShape&>(shape);
      btVector3 lo(0, 0, 0), hi(0, 0, 0);
      for (int i = 0; i < hull.getNumPoints(); ++i) {
        const btVector3& p = hull.getUnscaledPoints()[i];
        if (i == 0) lo = hi = p;
        lo.setMin(p);
        hi.setMax(p);
      }
      return box_inertia(mass, (hi - lo) * 0.5);
    }
    default:
      return box_inertia(mass, btVector3(bounding_radius(shape), bounding_radius(shape), bounding_radius(shape)));
  }
}

RigidBodies::RigidBodies(btCollisionWorld& world, const btVector3& gravity, StepSettings settings)
    : world_(world), gravity_(gravity), settings_(settings) {}

void RigidBodies::add(const btCollisionObject* object, std::size_t index, double linear_damping,
                      double angular_damping) {
  if (objects_.size() <= index) {
    objects_.resize(index + 1, nullptr);
    dynamic_of_.resize(index + 1, -1);
  }
  objects_[index] = object;
  const btRigidBody* rigid = btRigidBody::upcast(object);
  if (rigid == nullptr || !(rigid->getInvMass() > 0.0)) return;
  Body body;
  body.rigid = const_cast<btRigidBody*>(rigid);
  body.index = index;
  body.orientation = rigid->getWorldTransform().getRotation();
  body.linear_damping = linear_damping;
  body.angular_damping = angular_damping;
  body.radius = bounding_radius(*rigid->getCollisionShape());
  dynamic_of_[index] = static_cast<int>(bodies_.size());
  bodies_.push_back(body);
}

void RigidBodies::collide(std::size_t i, double max_reach, std::vector<Manifold>& out, std::vector<PairKey>& keys) {
  const Body& body = bodies_[i];
  const btCollisionShape& shape = *body.rigid->getCollisionShape();
  const btTransform& pose = body.rigid->getWorldTransform();
  const btVector3 centre = pose.getOrigin();
  const double query = body.radius + reach_[i] + max_reach + settings_.broadphase_slack;
  Gather gather;
  world_.getBroadphase()->aabbTest(centre - btVector3(query, query, query), centre + btVector3(query, query, query),
                                   gather);
  // The broadphase's answer as stable keys: world body indices, sorted.
  std::vector<std::size_t> near;
  for (const btCollisionObject* object : gather.found) {
    const int index = object->getUserIndex();
    if (index < 0 || static_cast<std::size_t>(index) >= objects_.size()) continue;
    const auto k = static_cast<std::size_t>(index);
    if (objects_[k] != object || k == body.index) continue;
    // A pair of dynamic bodies is collided once, from the first.
    if (dynamic_of_[k] >= 0 && static_cast<std::size_t>(dynamic_of_[k]) < i) continue;
    near.push_back(k);
  }
  std::sort(near.begin(), near.end());
  near.erase(std::unique(near.begin(), near.end()), near.end());

  for (const std::size_t k : near) {
    const btCollisionObject& other = *objects_[k];
    const int j = dynamic_of_[k];
    const double cutoff = reach_[i] + (j >= 0 ? reach_[static_cast<std::size_t>(j)] : 0.0);
    const double friction = body.rigid->getFriction() * other.getFriction();
    const double restitution = body.rigid->getRestitution() * other.getRestitution();
    const auto emit = [&](const PairContacts& c, std::size_t part) {
      if (c.count == 0) return;
      Manifold m;
      m.a = static_cast<int>(i);
      m.b = j;
      m.normal = c.normal;
      m.friction = friction;
      m.restitution = restitution;
      m.count = c.count;
      for (int p = 0; p < c.count; ++p) {
        m.points[p].point = c.points[p];
        m.points[p].separation = c.separation[p];
        m.points[p].feature = c.feature[p];
        m.points[p].local = pose.invXform(c.points[p]);
      }
      out.push_back(m);
      keys.emplace_back(i, k, part);
    };
    const btCollisionShape& other_shape = *other.getCollisionShape();
    const btTransform& other_pose = other.getWorldTransform();
    if (other_shape.isCompound()) {
      const auto& compound = static_cast<const btCompoundShape&>(other_shape);
      for (int c = 0; c < compound.getNumChildShapes(); ++c) {
        const btTransform child = other_pose * compound.getChildTransform(c);
        emit(convex_pair(shape, pose, *compound.getChildShape(c), child, cutoff), static_cast<std::size_t>(c));
      }
    } else if (other_shape.isConcave()) {
      // The triangles near the body, in the shape's frame, sorted by their
      // part and index (the shape's tree or grid decides only which come).
      const btVector3 local = other_pose.invXform(centre);
      const double reach = body.radius + cutoff + settings_.broadphase_slack;
      GatherTriangles triangles;
      static_cast<const btConcaveShape&>(other_shape)
          .processAllTriangles(&triangles, local - btVector3(reach, reach, reach), local + btVector3(reach, reach, reach));
      std::sort(triangles.found.begin(), triangles.found.end(), [](const Triangle& x, const Triangle& y) {
        return x.part != y.part ? x.part < y.part : x.index < y.index;
      });
      for (const Triangle& t : triangles.found) {
        const btVector3 p[3] = {other_pose(t.corners[0]), other_pose(t.corners[1]), other_pose(t.corners[2])};
        const std::size_t part = (static_cast<std::size_t>(static_cast<unsigned>(t.part)) << 32) |
                                 static_cast<std::size_t>(static_cast<unsigned>(t.index));
        emit(triangle_pair(shape, pose, p, cutoff), part);
      }
    } else {
      const btTransform& other_at = j >= 0 ? bodies_[static_cast<std::size_t>(j)].rigid->getWorldTransform() : other_pose;
      emit(convex_pair(shape, pose, other_shape, other_at, cutoff), 0);
    }
  }
}

namespace {

/// Islands: bodies joined by a manifold between two of them, as a forest
/// of parents (each island's root the lowest index reached first).
int root(std::vector<int>& parent, int i) {
  while (parent[static_cast<std::size_t>(i)] != i) {
    parent[static_cast<std::size_t>(i)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(i)])];
    i = parent[static_cast<std::size_t>(i)];
  }
  return i;
}

void join(std::vector<int>& parent, int a, int b) {
  a = root(parent, a);
  b = root(parent, b);
  if (a == b) return;
  if (a < b) {
    parent[static_cast<std::size_t>(b)] = a;
  } else {
    parent[static_cast<std::size_t>(a)] = b;
  }
}

bool moved_kinematic(const btCollisionObject& object) {
  return object.isKinematicObject() && !(object.getWorldTransform() == object.getInterpolationWorldTransform());
}

}  // namespace

void RigidBodies::step(double dt) {
  // 0. A body put to sleep and pushed since (the character's impulses wake
  //    it: btCollisionObject::activate) is awake again.
  for (Body& body : bodies_) {
    if (body.asleep && body.rigid->getActivationState() != ISLAND_SLEEPING) {
      body.asleep = false;
      body.still = 0.0;
    }
  }
  // 1. Velocities of the awake bodies, and what the solver needs of each.
  std::vector<SolverBody> solver(bodies_.size());
  reach_.assign(bodies_.size(), 0.0);
  double max_reach = 0.0;
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    const Body& body = bodies_[i];
    btVector3 linear = body.rigid->getLinearVelocity();
    btVector3 angular = body.rigid->getAngularVelocity();
    if (!body.asleep) integrate_velocity(linear, angular, gravity_, dt, body.linear_damping, body.angular_damping);
    SolverBody& s = solver[i];
    s.linear = linear;
    s.angular = angular;
    s.centre = body.rigid->getWorldTransform().getOrigin();
    s.inverse_mass = body.rigid->getInvMass();
    s.inverse_inertia =
        world_inverse_inertia(body.rigid->getWorldTransform().getBasis(), body.rigid->getInvInertiaDiagLocal());
    reach_[i] = settings_.speculative + linear.length() * dt;
    max_reach = std::max(max_reach, reach_[i]);
  }
  // 2. Contacts, warm started from the last step's points of the same pair.
  std::vector<Manifold> manifolds;
  std::vector<PairKey> keys;
  for (std::size_t i = 0; i < bodies_.size(); ++i) collide(i, max_reach, manifolds, keys);
  warm_start(manifolds, keys);
  // 3. Islands: a sleeping island wakes when one of its bodies is awake or
  //    touches a kinematic body that moved this tick.
  std::vector<int> parent(bodies_.size());
  for (std::size_t i = 0; i < parent.size(); ++i) parent[i] = static_cast<int>(i);
  for (const Manifold& m : manifolds) {
    if (m.b >= 0) join(parent, m.a, m.b);
  }
  std::vector<char> awake_island(bodies_.size(), 0);
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    if (!bodies_[i].asleep) awake_island[static_cast<std::size_t>(root(parent, static_cast<int>(i)))] = 1;
  }
  for (std::size_t m = 0; m < manifolds.size(); ++m) {
    if (manifolds[m].b < 0 && moved_kinematic(*objects_[std::get<1>(keys[m])])) {
      awake_island[static_cast<std::size_t>(root(parent, manifolds[m].a))] = 1;
    }
  }
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    Body& body = bodies_[i];
    if (!body.asleep || !awake_island[static_cast<std::size_t>(root(parent, static_cast<int>(i)))]) continue;
    body.asleep = false;
    body.still = 0.0;
    body.rigid->setActivationState(ACTIVE_TAG);
    integrate_velocity(solver[i].linear, solver[i].angular, gravity_, dt, body.linear_damping, body.angular_damping);
  }
  // 4. The solver, on the awake bodies' manifolds (a sleeping body's are
  //    kept, as warm started, for when it wakes).
  std::vector<Manifold> awake;
  std::vector<std::size_t> awake_index;
  for (std::size_t m = 0; m < manifolds.size(); ++m) {
    if (bodies_[static_cast<std::size_t>(manifolds[m].a)].asleep) continue;
    awake.push_back(manifolds[m]);
    awake_index.push_back(m);
  }
  // Each manifold's island and the mass of that island's moving bodies.
  std::vector<double> island_mass(bodies_.size(), 0.0);
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    const double inverse = bodies_[i].rigid->getInvMass();
    if (inverse > 0.0) island_mass[static_cast<std::size_t>(root(parent, static_cast<int>(i)))] += 1.0 / inverse;
  }
  for (Manifold& m : awake) {
    m.island = root(parent, m.a);
    m.island_mass = island_mass[static_cast<std::size_t>(m.island)];
  }
  SolverSettings solver_settings = settings_.solver;
  solver_settings.gravity_speed = gravity_.length() * dt;
  solve_contacts(solver, awake, dt, solver_settings);
  for (std::size_t k = 0; k < awake.size(); ++k) manifolds[awake_index[k]] = awake[k];
  cache_.clear();
  last_contacts_ = 0;
  for (std::size_t m = 0; m < manifolds.size(); ++m) {
    cache_[keys[m]].assign(manifolds[m].points, manifolds[m].points + manifolds[m].count);
    last_contacts_ += static_cast<std::size_t>(manifolds[m].count);
  }
  // 5. Positions and orientations of the awake bodies.
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    Body& body = bodies_[i];
    if (body.asleep) continue;
    const SolverBody& s = solver[i];
    body.orientation = integrate_orientation(body.orientation, s.angular, dt);
    body.rigid->setWorldTransform(btTransform(body.orientation, s.centre + s.linear * dt));
    body.rigid->setLinearVelocity(s.linear);
    body.rigid->setAngularVelocity(s.angular);
    const double linear = settings_.sleep_linear_speed, angular = settings_.sleep_angular_speed;
    const bool slow = s.linear.length2() < linear * linear && s.angular.length2() < angular * angular;
    body.still = slow ? body.still + dt : 0.0;
  }
  // 6. An island whose bodies have all been slow for sleep_time sleeps:
  //    its velocities are zeroed and it is neither solved nor moved until woken.
  std::vector<char> restless(bodies_.size(), 0);
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    if (bodies_[i].still < settings_.sleep_time) restless[static_cast<std::size_t>(root(parent, static_cast<int>(i)))] = 1;
  }
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    Body& body = bodies_[i];
    if (body.asleep || restless[static_cast<std::size_t>(root(parent, static_cast<int>(i)))]) continue;
    body.asleep = true;
    body.rigid->setLinearVelocity(btVector3(0, 0, 0));
    body.rigid->setAngularVelocity(btVector3(0, 0, 0));
    body.rigid->setActivationState(ISLAND_SLEEPING);
  }
}

void RigidBodies::warm_start(std::vector<Manifold>& manifolds, const std::vector<PairKey>& keys) const {
  for (std::size_t m = 0; m < manifolds.size(); ++m) {
    const auto cached = cache_.find(keys[m]);
    if (cached == cache_.end()) continue;
    for (int p = 0; p < manifolds[m].count; ++p) {
      ContactPoint& point = manifolds[m].points[p];
      // The nearest of the last step's points in the body's own frame, the
      // first of equals, if near enough: a point's features change where a
      // corner crosses a face's edge by a rounding, its place does not.
      const ContactPoint* nearest = nullptr;
      double best = settings_.warm_start_distance * settings_.warm_start_distance;
      for (const ContactPoint& old : cached->second) {
        const double d = (old.local - point.local).length2();
        if (d < best || (nearest == nullptr && d <= best)) {
          best = d;
          nearest = &old;
        }
      }
      if (nearest == nullptr) continue;
      point.normal_impulse = nearest->normal_impulse;
      point.tangent_impulse[0] = nearest->tangent_impulse[0];
      point.tangent_impulse[1] = nearest->tangent_impulse[1];
    }
  }
}

}  // namespace stepslide::dynamics
