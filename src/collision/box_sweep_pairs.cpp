// A box character's exact sweeps against meshes and heightfields (see
// box_sweep_pairs.h). Computed in the shape's own frame, where the shape
// hands out its triangles, and turned back into world terms.
#include "collision/box_sweep_pairs.h"

#include "collision/query_bounds.h"
#include "collision/triangle_pairs.h"
#include "geometry/box_sweeps.h"
#include "geometry/shapes.h"

namespace stepslide::detail {

namespace {

/// How near the cast stops to a triangle it hits (kCastStopDistance), and
/// a little more: the bounds gather every triangle it may stop near.
constexpr double kSweepReach = 0.001 + 1e-6;

}  // namespace

bool box_triangle_sweep_pair(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                             const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result, TriangleCache* triangles) {
  if (shape->getShapeType() != BOX_SHAPE_PROXYTYPE || !is_triangle_shape(object->getCollisionShape())) return false;
  const auto* box = static_cast<const btBoxShape*>(shape);
  const btVector3 core = box->getHalfExtentsWithoutMargin();
  if (!has_core(core)) return false;
  if (!(from.getBasis() == to.getBasis())) return false;  // the sweep turns: Bullet's cast
  const auto* world_shape = static_cast<const btConcaveShape*>(object->getCollisionShape());
  const btTransform& pose = object->getWorldTransform();
  const btTransform start = pose.inverseTimes(from);
  const btVector3 motion = pose.getBasis().transpose() * (to.getOrigin() - from.getOrigin());
  // The box's bounds in the shape's frame at both ends, grown by the
  // triangles' margin and the reach: every triangle the cast may stop near.
  btVector3 low;
  btVector3 high;
  btVector3 end_low;
  btVector3 end_high;
  const double grow = box->getMargin() + world_shape->getMargin() + kSweepReach;
  const btVector3 extent = core + btVector3(grow, grow, grow);
  btTransformAabb(extent, 0.0, start, low, high);
  btTransform end = start;
  end.setOrigin(start.getOrigin() + motion);
  btTransformAabb(extent, 0.0, end, end_low, end_high);
  low.setMin(end_low);
  high.setMax(end_high);
  const btVector3 slack(kCullSlack, kCullSlack, kCullSlack);
  const double margin = world_shape->getMargin();
  TriangleSweeps gather(low - slack, high + slack, motion, result->m_closestHitFraction,
                        [&](const btVector3* vertices) {
                          const ExactSweep s =
                              box_triangle_sweep(start, core, box->getMargin(), motion, vertices, margin);
                          return s.answered ? s : bullet_triangle_sweep(shape, start, end, vertices, margin);
                        });
  process_triangles(world_shape, &gather, low, high, triangles);
  report_triangle_hits(&gather.hits, object, 0.0, result);
  return true;
}

bool box_box_sweep_pair(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                        const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result) {
  if (shape->getShapeType() != BOX_SHAPE_PROXYTYPE) return false;
  if (object->getCollisionShape()->getShapeType() != BOX_SHAPE_PROXYTYPE) return false;
  const auto* box = static_cast<const btBoxShape*>(shape);
  const auto* other = static_cast<const btBoxShape*>(object->getCollisionShape());
  const btVector3 core = box->getHalfExtentsWithoutMargin();
  const btVector3 other_core = other->getHalfExtentsWithoutMargin();
  if (!has_core(core) || !has_core(other_core)) return false;
  if (!(from.getBasis() == to.getBasis())) return false;  // the sweep turns: Bullet's cast
  const ExactSweep s = box_box_sweep(from, core, box->getMargin(), to.getOrigin() - from.getOrigin(),
                                     object->getWorldTransform(), other_core, other->getMargin());
  if (!s.answered) return false;
  report_sweep(s, object, result);
  return true;
}

}  // namespace stepslide::detail
