// The sweep's pair functions, run by the entries of the dispatch table
// (dispatch.h): one broadphase candidate of CollisionQueries::sweep answered
// without Bullet's convex cast where a pair function has the answer,
// reported to the result callback as Bullet's objectQuerySingle reports it.
#include <BulletCollision/BroadphaseCollision/btDbvt.h>

#include <algorithm>
#include <cstring>
#include <tuple>

#include "collision/box_sweep_pairs.h"
#include "collision/compound.h"
#include "collision/convex_sweep_pairs.h"
#include "collision/dispatch.h"
#include "collision/query_bounds.h"
#include "collision/sweep_pairs.h"
#include "collision/triangle_pairs.h"
#include "geometry/box_sweeps.h"
#include "geometry/capsule_capsule.h"
#include "geometry/shapes.h"

namespace stepslide::detail {

namespace {

/// Whether two bases are equal to the bit (the sign of a zero included).
bool same_basis_bits(const btMatrix3x3& a, const btMatrix3x3& b) {
  for (int r = 0; r < 3; ++r) {
    if (std::memcmp(&a[r][0], &b[r][0], 3 * sizeof(btScalar)) != 0) return false;
  }
  return true;
}

/// One child's hit, kept until every child is answered (plain, so the
/// array of them costs nothing to set up).
struct ChildHit {
  double fraction;
  btVector3 normal;
  btVector3 point;
  int child;
};

/// Every child of `compound` (at `pose`) whose bounds meet the bounds of
/// `shape` swept from `from` to `to` in the compound's frame, as Bullet's
/// cast culls them with the compound's tree (a child the tree culls is not
/// hit, even within Bullet's stop distance of it), handed to
/// `child_sweep(child, child_pose, index, hits, count)`, which adds its hit
/// and returns false when it has no exact answer (then nothing is).
/// The poses of the children come from `composed` when given (ChildPoses:
/// the same bits as composing them here).
template <typename ChildSweep>
bool sweep_children(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                    const btCompoundShape* compound, const btTransform& pose, const CompoundPoses* composed,
                    ChildHit* hits, int* count, ChildSweep&& child_sweep) {
  if (compound->getNumChildShapes() > kMaxCompoundChildren) return false;
  if (compound->getNumChildShapes() == 0) return true;
  btVector3 low;
  btVector3 high;
  btVector3 to_low;
  btVector3 to_high;
  const btTransform inverse = composed != nullptr ? composed->inverse : pose.inverse();
  // inverse * from and inverse * to, as btTransform's product computes them;
  // a sweep that does not turn has one basis for both.
  const btMatrix3x3 from_basis = inverse.getBasis() * from.getBasis();
  const btMatrix3x3 to_basis =
      same_basis_bits(from.getBasis(), to.getBasis()) ? from_basis : inverse.getBasis() * to.getBasis();
  shape->getAabb(btTransform(from_basis, inverse(from.getOrigin())), low, high);
  shape->getAabb(btTransform(to_basis, inverse(to.getOrigin())), to_low, to_high);
  low.setMin(to_low);
  high.setMax(to_high);
  // The tree's leaf for each child holds the bounds Bullet tests.
  return walk_children(
      *compound, pose,
      [&](const btVector3& leaf_low, const btVector3& leaf_high) {
        return TestAabbAgainstAabb2(low, high, leaf_low, leaf_high);
      },
      [&](const btCollisionShape* child, const btTransform& at, int i) { return child_sweep(child, at, i, hits, count); },
      composed);
}

/// The moving capsule against the boxes of one object: a box, or the box
/// children of a compound.
struct CapsuleAgainstBoxes {
  const btConvexShape* shape;
  const btTransform& from;
  const btTransform& to;
  btVector3 a;
  btVector3 b;
  double radius = 0.0;
  btVector3 motion;

  /// Adds the hit of one box (the compound's child `child`, or -1) to
  /// `hits`; false when it has no exact answer.
  bool box(const btBoxShape* box, const btTransform& pose, int child, ChildHit* hits, int* count) const {
    const btVector3& core = box->getHalfExtentsWithoutMargin();
    if (!has_core(core)) return false;
    const ExactSweep sweep = capsule_box_sweep(a, b, radius, motion, pose, core, box->getMargin());
    if (!sweep.answered) return false;
    if (sweep.hit) hits[(*count)++] = ChildHit{sweep.fraction, sweep.normal, sweep.point, child};
    return true;
  }

  /// Every child box the swept bounds meet (sweep_children).
  bool compound(const btCompoundShape* compound, const btTransform& pose, const CompoundPoses* composed,
                ChildHit* hits, int* count) const {
    return sweep_children(shape, from, to, compound, pose, composed, hits, count,
                          [&](const btCollisionShape* child, const btTransform& at, int i, ChildHit* h, int* c) {
                            return child->getShapeType() == BOX_SHAPE_PROXYTYPE &&
                                   box(static_cast<const btBoxShape*>(child), at, i, h, c);
                          });
  }
};

/// Earliest first; at one fraction the normal that opposes the motion most,
/// then the normal and point themselves: an order that does not depend on
/// the order the children were visited in.
bool earlier(const ChildHit& x, const ChildHit& y, const btVector3& motion) {
  const ChildHit& p = x;
  const ChildHit& q = y;
  return std::make_tuple(p.fraction, p.normal.dot(motion), p.normal.x(), p.normal.y(), p.normal.z(), p.point.x(),
                         p.point.y(), p.point.z()) < std::make_tuple(q.fraction, q.normal.dot(motion), q.normal.x(),
                                                                     q.normal.y(), q.normal.z(), q.point.x(),
                                                                     q.point.y(), q.point.z());
}

/// Reports the hits as Bullet's cast would (a compound's child index in the
/// shape info, as its LocalInfoAdder sets it), earliest first, each only
/// while it is earlier than the callback's closest: the callback then keeps
/// the earliest hit it accepts, whatever order the children came in.
void report(const btCollisionObject* object, bool compound, ChildHit* hits, int count, const btVector3& motion,
            btCollisionWorld::ConvexResultCallback* result) {
  std::sort(hits, hits + count, [&](const ChildHit& x, const ChildHit& y) { return earlier(x, y, motion); });
  for (int i = 0; i < count; ++i) {
    ChildHit& hit = hits[i];
    if (!(hit.fraction < result->m_closestHitFraction)) return;
    btCollisionWorld::LocalShapeInfo info;
    info.m_shapePart = -1;
    info.m_triangleIndex = hit.child;
    btCollisionWorld::LocalConvexResult local(object, compound ? &info : nullptr, hit.normal, hit.point,
                                              hit.fraction);
    result->addSingleResult(local, true);
  }
}

/// The kept poses of a static compound's children, when there is a cache.
const CompoundPoses* poses_of(const btCollisionObject* object, TriangleCache* triangles) {
  return triangles != nullptr ? triangles->child_poses().of(object) : nullptr;
}

/// The capsule or sphere against a box or a compound of boxes.
bool capsule_sweep(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                   const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result,
                   TriangleCache* triangles) {
  CapsuleAgainstBoxes pair{shape, from, to, {}, {}, 0.0, to.getOrigin() - from.getOrigin()};
  if (!capsule_segment(shape, from, &pair.a, &pair.b, &pair.radius)) return false;
  const btCollisionShape* target = object->getCollisionShape();
  const btTransform& pose = object->getWorldTransform();
  ChildHit hits[kMaxCompoundChildren];
  int count = 0;
  switch (target->getShapeType()) {
    case BOX_SHAPE_PROXYTYPE:
      if (!pair.box(static_cast<const btBoxShape*>(target), pose, -1, hits, &count)) return false;
      break;
    case COMPOUND_SHAPE_PROXYTYPE:
      if (!pair.compound(static_cast<const btCompoundShape*>(target), pose, poses_of(object, triangles), hits,
                         &count)) {
        return false;
      }
      break;
    default:
      return false;
  }
  report(object, target->getShapeType() == COMPOUND_SHAPE_PROXYTYPE, hits, count, pair.motion, result);
  return true;
}

/// Adds `sweep`'s hit on child `child` to `hits`; false when not answered.
bool add_child_hit(const ExactSweep& sweep, int child, ChildHit* hits, int* count) {
  if (!sweep.answered) return false;
  if (sweep.hit) hits[(*count)++] = ChildHit{sweep.fraction, sweep.normal, sweep.point, child};
  return true;
}

/// A box with a core: a child box_box_sweep answers.
bool is_cored_box(const btCollisionShape* shape) {
  return shape->getShapeType() == BOX_SHAPE_PROXYTYPE &&
         has_core(static_cast<const btBoxShape*>(shape)->getHalfExtentsWithoutMargin());
}

bool is_cored_upright_cylinder(const btCollisionShape* shape) {
  return shape->getShapeType() == CYLINDER_SHAPE_PROXYTYPE &&
         static_cast<const btCylinderShape*>(shape)->getUpAxis() == 1 &&
         has_core(static_cast<const btCylinderShape*>(shape)->getHalfExtentsWithoutMargin());
}

/// `shape` swept from `from` to `to` against the children of the compound
/// `object` the swept bounds meet, each by `child_sweep(child, child_pose)`
/// (an ExactSweep), reported as Bullet's compound cast reports them. False,
/// reporting nothing, where the sweep turns or a child has no answer.
template <typename ChildSweep>
bool sweep_compound(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                    const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result,
                    TriangleCache* triangles, ChildSweep&& child_sweep) {
  if (!(from.getBasis() == to.getBasis())) return false;  // the sweep turns: Bullet's cast
  const auto* compound = static_cast<const btCompoundShape*>(object->getCollisionShape());
  ChildHit hits[kMaxCompoundChildren];
  int count = 0;
  const bool answered = sweep_children(
      shape, from, to, compound, object->getWorldTransform(), poses_of(object, triangles), hits, &count,
      [&](const btCollisionShape* child, const btTransform& at, int i, ChildHit* h, int* c) {
        return add_child_hit(child_sweep(child, at), i, h, c);
      });
  if (!answered) return false;
  report(object, true, hits, count, to.getOrigin() - from.getOrigin(), result);
  return true;
}

/// A box character (unscaled, with a core) against the box children of a
/// compound (a ramp, a level's stairs): box_box_sweep on each.
bool box_compound_sweep(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                        const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result,
                        TriangleCache* triangles) {
  const auto* compound = static_cast<const btCompoundShape*>(object->getCollisionShape());
  if (!is_cored_box(shape) || !all_children(*compound, is_cored_box)) return false;
  const auto* box = static_cast<const btBoxShape*>(shape);
  const btVector3 motion = to.getOrigin() - from.getOrigin();
  return sweep_compound(shape, from, to, object, result, triangles, [&](const btCollisionShape* child, const btTransform& at) {
    const auto* other = static_cast<const btBoxShape*>(child);
    return box_box_sweep(from, box->getHalfExtentsWithoutMargin(), box->getMargin(), motion, at,
                         other->getHalfExtentsWithoutMargin(), other->getMargin());
  });
}

/// A cylinder character (upright, with a core) against the box and upright
/// cylinder children of a compound: convex_sweep on each.
bool cylinder_compound_sweep(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                             const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result,
                             TriangleCache* triangles) {
  const auto* compound = static_cast<const btCompoundShape*>(object->getCollisionShape());
  const auto answered_child = [](const btCollisionShape* child) {
    return is_cored_box(child) || is_cored_upright_cylinder(child);
  };
  if (!is_cored_upright_cylinder(shape) || !all_children(*compound, answered_child)) return false;
  const ConvexSolid mover = ConvexSolid::of(shape, from);
  const btVector3 motion = to.getOrigin() - from.getOrigin();
  return sweep_compound(shape, from, to, object, result, triangles, [&](const btCollisionShape* child, const btTransform& at) {
    const ConvexSolid body = ConvexSolid::of(static_cast<const btConvexShape*>(child), at);
    return convex_sweep(mover, body, motion, from.getOrigin() - at.getOrigin());
  });
}

/// A capsule or sphere against a capsule or sphere body: the exact
/// segment-to-segment sweep (capsule_capsule_sweep). False, reporting
/// nothing, for other shapes, a turning sweep or where it has no answer.
bool capsule_round_sweep(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                         const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result) {
  if (!(from.getBasis() == to.getBasis())) return false;
  btVector3 a0, a1, b0, b1;
  double ra = 0.0, rb = 0.0;
  if (!capsule_segment(shape, from, &a0, &a1, &ra)) return false;
  if (!capsule_segment(object->getCollisionShape(), object->getWorldTransform(), &b0, &b1, &rb)) return false;
  const ExactSweep s = capsule_capsule_sweep(a0, a1, ra, to.getOrigin() - from.getOrigin(), b0, b1, rb);
  if (!s.answered) return false;
  report_sweep(s, object, result);
  return true;
}

}  // namespace

bool sweep_pair(SweepPair pair, const btConvexShape* shape, const btTransform& from, const btTransform& to,
                const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result,
                TriangleCache* triangles) {
  switch (pair) {
    case SweepPair::CapsuleBoxes: return capsule_sweep(shape, from, to, object, result, triangles);
    case SweepPair::CapsuleTriangles: return triangle_sweep_pair(shape, from, to, object, result, triangles);
    case SweepPair::BoxBox: return box_box_sweep_pair(shape, from, to, object, result);
    case SweepPair::BoxCompound: return box_compound_sweep(shape, from, to, object, result, triangles);
    case SweepPair::BoxTriangles: return box_triangle_sweep_pair(shape, from, to, object, result, triangles);
    case SweepPair::CylinderCompound: return cylinder_compound_sweep(shape, from, to, object, result, triangles);
    case SweepPair::CylinderTriangles: return cylinder_triangle_sweep_pair(shape, from, to, object, result, triangles);
    case SweepPair::CapsuleRound:
      return capsule_round_sweep(shape, from, to, object, result) || convex_sweep_pair(shape, from, to, object, result);
    // Round bodies and convex hulls: convex_sweep on exact support functions.
    // Where a cylinder's rim meets a box's or hull's edge its normal is exact,
    // convex_distance finishing on the crease (tied_minimum).
    case SweepPair::Convex:
    case SweepPair::ConvexRemembered: return convex_sweep_pair(shape, from, to, object, result);
  }
  return false;
}

bool exact_sweep_pair(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                      const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result,
                      TriangleCache* triangles) {
  const SweepPair pair = pair_cell(mover_kind(shape), object->getCollisionShape()).sweep;
  return sweep_pair(pair, shape, from, to, object, result, triangles);
}

}  // namespace stepslide::detail
