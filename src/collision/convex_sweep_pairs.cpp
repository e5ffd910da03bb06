// Sweeps on convex_distance: a cylinder character against boxes and
// triangles, and the round bodies and hulls sweep_pairs.cpp hands over
// (convex_sweep_pairs.h): Bullet's conservative advancement on convex_distance,
// whose GJK runs on the exact support functions (its last steps Newton's
// between curved surfaces), starts each step from the last step's normal and
// stops once a step is proved to overshoot the motion.
#include "collision/convex_sweep_pairs.h"

#include "collision/query_bounds.h"
#include "collision/triangle_pairs.h"
#include "geometry/cast_advance.h"
#include "geometry/shapes.h"

namespace stepslide::detail {

namespace {

/// Whether `shape` (a box or cylinder) has a core that is a solid.
bool has_core(const btCollisionShape* shape) {
  return detail::has_core(static_cast<const btConvexInternalShape*>(shape)->getImplicitShapeDimensions());
}

/// Whether `shape` is a cylinder character convex_sweep answers: upright,
/// with a core.
bool upright_cylinder(const btConvexShape* shape) {
  return shape->getShapeType() == CYLINDER_SHAPE_PROXYTYPE && has_core(shape) &&
         static_cast<const btCylinderShape*>(shape)->getUpAxis() == 1;
}

/// Whether convex_sweep answers `shape`: a solid whose support function
/// ConvexSolid writes out (a box or upright cylinder with a core, an
/// upright capsule whose margin is its radius, a sphere; unscaled), or a
/// convex hull, through Bullet's own support function (its vertices').
bool sweepable(const btConvexShape* shape) {
  if (shape->getShapeType() == CONVEX_HULL_SHAPE_PROXYTYPE) return true;
  if (shape->getLocalScaling() != btVector3(1, 1, 1)) return false;
  switch (shape->getShapeType()) {
    case BOX_SHAPE_PROXYTYPE: return has_core(shape);
    case CYLINDER_SHAPE_PROXYTYPE: return upright_cylinder(shape);
    case CAPSULE_SHAPE_PROXYTYPE: {
      const auto* capsule = static_cast<const btCapsuleShape*>(shape);
      return capsule->getUpAxis() == 1 && capsule->getMargin() == capsule->getRadius();
    }
    case SPHERE_SHAPE_PROXYTYPE: return true;
    default: return false;
  }
}

/// How near the cast stops to what it hits (kCastStopDistance), and a
/// little more: the swept bounds gather every triangle it may stop near.
constexpr double kSweepReach = 0.001 + 1e-6;

}  // namespace

bool convex_sweep_pair(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                       const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result) {
  const btCollisionShape* target = object->getCollisionShape();
  if (!sweepable(shape) || !target->isConvex() || !sweepable(static_cast<const btConvexShape*>(target))) {
    return false;
  }
  if (!(from.getBasis() == to.getBasis())) return false;  // the sweep turns: Bullet's cast
  const btTransform& pose = object->getWorldTransform();
  const ConvexSolid mover = ConvexSolid::of(shape, from);
  const ConvexSolid body = ConvexSolid::of(static_cast<const btConvexShape*>(target), pose);
  const ExactSweep s = convex_sweep(mover, body, to.getOrigin() - from.getOrigin(), from.getOrigin() - pose.getOrigin());
  if (!s.answered) return false;
  report_sweep(s, object, result);
  return true;
}

bool cylinder_triangle_sweep_pair(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                                  const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result, TriangleCache* triangles) {
  if (!upright_cylinder(shape) || !is_triangle_shape(object->getCollisionShape())) return false;
  if (!(from.getBasis() == to.getBasis())) return false;  // the sweep turns: Bullet's cast
  const auto* world_shape = static_cast<const btConcaveShape*>(object->getCollisionShape());
  const btTransform& pose = object->getWorldTransform();
  const btTransform start = pose.inverseTimes(from);
  const btVector3 motion = pose.getBasis().transpose() * (to.getOrigin() - from.getOrigin());
  // The cylinder's bounds in the shape's frame at both ends (its margin
  // included), grown by the triangles' margin and the reach.
  btVector3 low, high, end_low, end_high;
  shape->getAabb(start, low, high);
  btTransform end = start;
  end.setOrigin(start.getOrigin() + motion);
  shape->getAabb(end, end_low, end_high);
  low.setMin(end_low);
  high.setMax(end_high);
  const double grow = world_shape->getMargin() + kSweepReach;
  low -= btVector3(grow, grow, grow);
  high += btVector3(grow, grow, grow);
  const btVector3 slack(kCullSlack, kCullSlack, kCullSlack);
  const ConvexSolid mover = ConvexSolid::of(shape, start);
  const double margin = world_shape->getMargin();
  TriangleSweeps gather(low - slack, high + slack, motion, result->m_closestHitFraction,
                        [&](const btVector3* v) {
                          const ConvexSolid triangle = ConvexSolid::triangle(v[0], v[1], v[2], margin);
                          const ExactSweep s =
                              convex_sweep(mover, triangle, motion, start.getOrigin() - (v[0] + v[1] + v[2]) / 3.0);
                          return s.answered ? s : bullet_triangle_sweep(shape, start, end, v, margin);
                        });
  process_triangles(world_shape, &gather, low, high, triangles);
  report_triangle_hits(&gather.hits, object, 0.0, result);
  return true;
}

}  // namespace stepslide::detail
