// Sweeps of a cylinder character against boxes and cylinders
// (convex_sweeps.h): Bullet's conservative advancement on convex_distance,
// whose GJK runs on the exact support functions (its last steps Newton's
// between curved surfaces), starts each step from the last step's normal and
// stops once a step is proved to overshoot the motion.
#include "convex_sweeps.h"

#include "cast_advance.h"
#include "query_shapes.h"

namespace stepslide::detail {

namespace {

/// Nearer than this the cores touch (their difference is rounding): Bullet's
/// penetration solver answers, as it does for box pairs (exact_sweeps.cpp).
constexpr double kCoreTouching = 1e-9;

/// Whether `shape` (a box or cylinder) has a core that is a solid.
bool has_core(const btCollisionShape* shape) {
  return detail::has_core(static_cast<const btConvexInternalShape*>(shape)->getImplicitShapeDimensions());
}

}  // namespace

ExactSweep convex_sweep(const ConvexSolid& mover, const ConvexSolid& body, const btVector3& motion,
                        const btVector3& guess) {
  const double margins = mover.margin() + body.margin();
  btVector3 direction = guess;
  return advance(motion, [&](double lambda, double cutoff) {
    const ConvexDistance d = lambda == 0.0 ? convex_distance(mover, body, direction, cutoff)
                                           : convex_distance(mover.moved(motion * lambda), body, direction, cutoff);
    Probe probe;
    if (d.distance > cutoff) {
      probe.beyond = true;
      return probe;
    }
    // The next step starts where this one ended: a few GJK steps there.
    direction = d.normal;
    probe.separated = d.distance + margins > kCoreTouching;
    probe.known = probe.separated;
    probe.distance = d.distance;
    probe.normal = d.normal;
    probe.point = d.on_b;
    return probe;
  });
}

bool convex_sweep_pair(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                       const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result) {
  if (shape->getShapeType() != CYLINDER_SHAPE_PROXYTYPE || !has_core(shape)) return false;
  if (static_cast<const btCylinderShape*>(shape)->getUpAxis() != 1) return false;
  const btCollisionShape* target = object->getCollisionShape();
  const bool box = target->getShapeType() == BOX_SHAPE_PROXYTYPE;
  const bool cylinder = target->getShapeType() == CYLINDER_SHAPE_PROXYTYPE &&
                        static_cast<const btCylinderShape*>(target)->getUpAxis() == 1;
  if (!(box || cylinder) || !has_core(target)) return false;
  if (!(from.getBasis() == to.getBasis())) return false;  // the sweep turns: Bullet's cast
  const btTransform& pose = object->getWorldTransform();
  const ConvexSolid mover = ConvexSolid::of(shape, from);
  const ConvexSolid body = ConvexSolid::of(static_cast<const btConvexShape*>(target), pose);
  const ExactSweep s = convex_sweep(mover, body, to.getOrigin() - from.getOrigin(), from.getOrigin() - pose.getOrigin());
  if (!s.answered) return false;
  report_sweep(s, object, result);
  return true;
}

}  // namespace stepslide::detail
