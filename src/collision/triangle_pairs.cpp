// Exact capsule/sphere queries against meshes and heightfields (see
// triangle_pairs.h). Everything is computed in the shape's own frame, where
// the shape hands out its triangles, and turned back into world terms.
#include "collision/triangle_pairs.h"

#include <BulletCollision/CollisionShapes/btTriangleCallback.h>
#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <tuple>

#include "collision/triangle_cache.h"
#include "geometry/capsule_triangle.h"
#include "geometry/shapes.h"

namespace stepslide::detail {

namespace {

/// How near the cast stops to a triangle it hits (capsule_triangle_sweep).
constexpr double kSweepReach = 0.001;
/// remembered_farther proves a distance only by this much more (m): far
/// beyond the rounding of the closest points it reads and of the ones it
/// stands in for.
constexpr double kRememberedMargin = 1e-9;
/// How squarely (-normal · motion direction) a hit must oppose the motion
/// for every later one to be of no use (SweepInShape::until_): ten times the
/// controller's grazing cosine (1e-6), far beyond the rounding of turning
/// the normal into the world's frame.
constexpr double kSurelyOpposing = 1e-5;
/// A sweep whose first squarely opposing hit comes before this fraction of
/// its motion skips the triangles beyond the box it can still reach
/// (SweepInShape::reach_box).
constexpr double kCullBelow = 0.25;


/// Bounds of the points, grown by `grow` on every side.
void bounds(const btVector3* points, int count, double grow, btVector3* low, btVector3* high) {
  *low = *high = points[0];
  for (int i = 1; i < count; ++i) {
    low->setMin(points[i]);
    high->setMax(points[i]);
  }
  const btVector3 g(grow, grow, grow);
  *low -= g;
  *high += g;
}

/// The shape's triangles whose bounds meet low..high, to `gather` (a
/// btTriangleCallback and a TriangleVisitor): from `cache` (may be null)
/// where it answers for the shape (the same triangles in the same order,
/// with their planes and remembered closest points, but only those within
/// kCullSlack of the box), else from the shape's own walk.
template <class Gather>
void each_triangle(const btConcaveShape* shape, Gather* gather, const btVector3& low, const btVector3& high,
                   TriangleCache* cache) {
  const btVector3 slack(kCullSlack, kCullSlack, kCullSlack);
  if (cache == nullptr || !cache->visit_triangles(shape, low, high, low - slack, high + slack, gather))
    shape->processAllTriangles(gather, low, high);
}

bool same_bits(const btVector3& x, const btVector3& y) {
  return std::memcmp(x.m_floats, y.m_floats, 3 * sizeof(btScalar)) == 0;
}

/// A cached triangle's unbounded closest points to the capsule a→b of
/// `radius` (a sweep's start contact): its slot's when the slot holds this
/// very capsule's (the same bits: the answer is a function of its inputs),
/// else computed and kept. Contact queries do not keep theirs: most are
/// culled by the plane before any closest points, and keeping the rest
/// cost more than it saved.
class Remembered final : public StartContact {
 public:
  Remembered(const btVector3& a, const btVector3& b, double radius, const Triangle& tri, const TrianglePlane& plane,
             CachedTriangle* cached)
      : a_(a), b_(b), radius_(radius), tri_(tri), plane_(plane), cached_(cached) {}

  const ExactContact& get() override {
    CachedTriangle::Closest& slot = cached_->closest;
    if (slot.valid && same_bits(slot.a, a_) && same_bits(slot.b, b_) &&
        std::memcmp(&slot.radius, &radius_, sizeof(double)) == 0) {
      contact_ = slot.contact;
      return contact_;
    }
    contact_ = capsule_triangle(a_, b_, radius_, tri_, plane_, std::numeric_limits<double>::infinity());
    slot.valid = true;
    slot.a = a_;
    slot.b = b_;
    slot.radius = radius_;
    slot.contact = contact_;
    return contact_;
  }

 private:
  const btVector3& a_;
  const btVector3& b_;
  double radius_;
  const Triangle& tri_;
  const TrianglePlane& plane_;
  CachedTriangle* cached_;
  ExactContact contact_;
};

}  // namespace

namespace {

/// remembered_farther for a segment that does not move (a contact query's),
/// inline: the contact queries ask it of every triangle they visit.
inline bool remembered_farther_still(const CachedTriangle::Closest& slot, const btVector3& a, const btVector3& b,
                                     double radius, double distance) {
  if (!slot.valid || !slot.contact.answered) return false;
  const double margin = slot.contact.distance + slot.radius - radius - distance - kRememberedMargin;
  if (!(margin > 0.0)) return false;
  return std::max(a.distance2(slot.a), b.distance2(slot.b)) < margin * margin;
}

}  // namespace

bool remembered_farther(const CachedTriangle::Closest& slot, const btVector3& a, const btVector3& b, double radius,
                        const btVector3& motion, double distance) {
  // A contact query's segment does not move: its corners are its ends (a
  // + 0 is a, but for the sign of a zero, which no distance sees).
  if (motion.x() == 0.0 && motion.y() == 0.0 && motion.z() == 0.0) {
    return remembered_farther_still(slot, a, b, radius, distance);
  }
  if (!slot.valid || !slot.contact.answered) return false;
  // The slot's segment is slot.contact.distance + slot.radius from the triangle, and
  // a point is no nearer the triangle than that less its distance from the
  // segment. Over the swept segment (a parallelogram) the distance from the
  // slot's segment is convex, so greatest at a corner, each no farther from
  // it than from the slot's end on its side.
  const double margin = slot.contact.distance + slot.radius - radius - distance - kRememberedMargin;
  if (!(margin > 0.0)) return false;
  const btVector3 a_end = a + motion;
  const btVector3 b_end = b + motion;
  const double strays = std::max(std::max(a.distance2(slot.a), b.distance2(slot.b)),
                                 std::max(a_end.distance2(slot.a), b_end.distance2(slot.b)));
  return strays < margin * margin;
}

namespace {

/// Each triangle's contact, in the shape's frame.
struct ContactsInShape final : btTriangleCallback, TriangleVisitor {
  ContactsInShape(const btVector3& a, const btVector3& b, double radius, double max_distance)
      : a_(a), b_(b), radius_(radius), max_distance_(max_distance) {}

  void processTriangle(btVector3* vertices, int, int) override {
    if (touching) return;
    const Triangle tri{{vertices[0], vertices[1], vertices[2]}};
    const ExactContact c = capsule_triangle(a_, b_, radius_, tri, max_distance_);
    if (c.answered) {
      take(c);
    } else {
      take_deep(capsule_triangle_penetration(a_, b_, radius_, tri));
    }
  }

  void visit(CachedTriangle& t) override {
    if (touching) return;
    // Beyond max_distance by the closest points a sweep remembered: what
    // capsule_triangle would find (a third of the triangles past its plane
    // cull on the oa_dm3 walks), without its closest points.
    if (remembered_farther_still(t.closest, a_, b_, radius_, max_distance_)) return;
    const Triangle tri{{t.vertices[0], t.vertices[1], t.vertices[2]}};
    const TrianglePlane plane{t.plane_n, t.plane_unit, t.plane_flat};
    const ExactContact c = capsule_triangle(a_, b_, radius_, tri, plane, max_distance_);
    if (c.answered) {
      take(c);
    } else {
      take_deep(capsule_triangle_penetration(a_, b_, radius_, tri, plane));
    }
  }

  void take(const ExactContact& c) {
    if (!c.beyond) found.push_back(c);
  }

  /// Where the segment touches or crosses the triangle, its exact
  /// penetration (capsule_triangle_penetration); a triangle with no area
  /// leaves the whole shape to Bullet.
  void take_deep(const ExactContact& deep) {
    if (!deep.answered) {
      touching = true;
      return;
    }
    if (deep.distance <= max_distance_) found.push_back(deep);
  }

  btVector3 a_;
  btVector3 b_;
  double radius_;
  double max_distance_;
  bool touching = false;
  std::vector<ExactContact> found;
};

/// Each triangle's first touch, in the shape's frame, where it can still be
/// the one reported first (see `until_`).
struct SweepInShape final : btTriangleCallback, TriangleVisitor {
  SweepInShape(const btVector3& a, const btVector3& b, double radius, const btVector3& motion, double before)
      : a_(a), b_(b), radius_(radius), motion_(motion), direction_(motion.normalized()), before_(before),
        until_(before) {}

  void processTriangle(btVector3* vertices, int part, int index) override {
    if (touching) return;
    take(capsule_triangle_sweep(a_, b_, radius_, motion_, Triangle{{vertices[0], vertices[1], vertices[2]}}, until_),
         part, index);
  }

  void visit(CachedTriangle& t) override {
    if (touching) return;
    // Beyond the box the capsule sweeps through up to `until_`: no hit it
    // could report (capsule_triangle_sweep stops within kSweepReach of a
    // triangle, and at no fraction past until_), and no start it could fail
    // to answer (that is a triangle the capsule already crosses). Once a hit
    // squarely opposes the motion near its start (a ground probe from where
    // the feet touch), the rest of the swept box is skipped at the cost of a
    // box test.
    if (shrunk_ && !t.meets(reach_low_, reach_high_)) return;
    // Never within the cast's 1 mm over the motion it can still report (up
    // to until_ once a hit came early), by the closest points an earlier
    // query remembered: capsule_triangle_sweep's miss.
    if (remembered_farther(t.closest, a_, b_, radius_, shrunk_ ? motion_ * until_ : motion_, kSweepReach)) return;
    const Triangle tri{{t.vertices[0], t.vertices[1], t.vertices[2]}};
    const TrianglePlane plane{t.plane_n, t.plane_unit, t.plane_flat};
    Remembered start(a_, b_, radius_, tri, plane, &t);
    take(capsule_triangle_sweep(a_, b_, radius_, motion_, tri, plane, start, until_), t.part, t.index);
  }

  void take(const ExactSweep& s, int part, int index) {
    if (!s.answered) {
      touching = true;
      return;
    }
    if (!s.hit || !(s.fraction < before_)) return;
    const double opposing = -s.normal.dot(direction_);
    hits.push_back({s.fraction, opposing, s.normal, s.point, part, index});
    if (opposing > kSurelyOpposing && s.fraction < until_) {
      until_ = s.fraction;
      // The box is worth its cost where the hit leaves most of the motion
      // unreachable (a probe stopped near its start); the exact sweeps
      // answer the rest.
      if (until_ < kCullBelow) {
        shrunk_ = true;
        reach_box();
      }
    }
  }

  /// The capsule's bounds over the motion up to until_, grown by twice
  /// kSweepReach (a hit is reported within kSweepReach; the rest is slack
  /// for rounding).
  void reach_box() {
    const btVector3 reached = motion_ * std::max(0.0, std::min(until_, 1.0));
    const btVector3 ends[4] = {a_, b_, a_ + reached, b_ + reached};
    bounds(ends, 4, radius_ + 2 * kSweepReach, &reach_low_, &reach_high_);
  }

  btVector3 a_;
  btVector3 b_;
  double radius_;
  btVector3 motion_;
  btVector3 direction_;
  double before_;
  /// No hit after this can be reported: report_triangle_hits hands the
  /// callback the hits in order of fraction, and the controller's callback
  /// (ClosestOpposingSweep), like Bullet's closest-hit ones, takes the
  /// first that opposes the motion and then only earlier ones. A hit
  /// opposing it by more than kSurelyOpposing is taken whatever the frame's
  /// rounding (the callback skips those grazing within 1e-6), so a later
  /// triangle's sweep stops once past it (a tie still counts: the order
  /// among equal fractions decides).
  double until_;
  /// Whether until_ is below where the sweep started looking: only then
  /// does the reach box cull more than the query's own box already did.
  bool shrunk_ = false;
  btVector3 reach_low_;
  btVector3 reach_high_;
  bool touching = false;
  std::vector<TriangleHit> hits;
};

}  // namespace

void process_triangles(const btConcaveShape* shape, btTriangleCallback* callback, const btVector3& low,
                       const btVector3& high, TriangleCache* cache) {
  if (cache == nullptr || !cache->process_all_triangles(shape, callback, low, high))
    shape->processAllTriangles(callback, low, high);
}

bool is_triangle_shape(const btCollisionShape* shape) {
  return shape->getShapeType() == TRIANGLE_MESH_SHAPE_PROXYTYPE || shape->getShapeType() == TERRAIN_SHAPE_PROXYTYPE;
}

bool triangle_contacts(const btVector3& a, const btVector3& b, double radius, const btCollisionObject* object,
                       double max_distance, std::vector<Contact>* out, TriangleCache* triangles) {
  if (!is_triangle_shape(object->getCollisionShape())) return false;
  const auto* shape = static_cast<const btConcaveShape*>(object->getCollisionShape());
  const btTransform& pose = object->getWorldTransform();
  // A triangle grown by the shape's margin is the capsule grown by it.
  const double margin = shape->getMargin();
  const btVector3 ends[2] = {pose.invXform(a), pose.invXform(b)};
  ContactsInShape gather(ends[0], ends[1], radius + margin, max_distance);
  btVector3 low;
  btVector3 high;
  bounds(ends, 2, radius + margin + std::max(max_distance, 0.0), &low, &high);
  each_triangle(shape, &gather, low, high, triangles);
  if (gather.touching) return false;
  const btMatrix3x3& basis = pose.getBasis();
  for (const ExactContact& t : gather.found) {
    Contact c;
    c.normal = basis * t.normal;
    c.distance = t.distance;
    c.point = pose * (t.point + t.normal * margin);
    c.object = object;
    c.face_normal = basis * t.face_normal;
    out->push_back(c);
  }
  return true;
}

bool triangle_sweep_pair(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                         const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result, TriangleCache* triangles) {
  if (!is_triangle_shape(object->getCollisionShape())) return false;  // cast only once it is one
  const auto* world_shape = static_cast<const btConcaveShape*>(object->getCollisionShape());
  btVector3 a;
  btVector3 b;
  double radius = 0.0;
  if (!capsule_segment(shape, from, &a, &b, &radius)) return false;
  if (!(from.getBasis() == to.getBasis())) return false;  // the sweep turns: Bullet's cast
  const btTransform& pose = object->getWorldTransform();
  const double margin = world_shape->getMargin();
  const btVector3 motion = pose.getBasis().transpose() * (to.getOrigin() - from.getOrigin());
  const btVector3 ends[4] = {pose.invXform(a), pose.invXform(b), pose.invXform(a) + motion,
                             pose.invXform(b) + motion};
  SweepInShape gather(ends[0], ends[1], radius + margin, motion, result->m_closestHitFraction);
  btVector3 low;
  btVector3 high;
  // Every triangle the cast may stop within 1 mm of (Bullet's cast, and so
  // capsule_triangle_sweep, reports those too): the set visited is then all
  // of them whatever the tree's quantised bounds add.
  bounds(ends, 4, radius + margin + kSweepReach, &low, &high);
  each_triangle(world_shape, &gather, low, high, triangles);
  if (gather.touching) return false;
  report_triangle_hits(&gather.hits, object, margin, result);
  return true;
}

void report_triangle_hits(std::vector<TriangleHit>* hits, const btCollisionObject* object, double surface_offset,
                          btCollisionWorld::ConvexResultCallback* result) {
  const auto order = [](const TriangleHit& x, const TriangleHit& y) {
    return std::make_tuple(x.fraction, -x.opposing, x.normal.x(), x.normal.y(), x.normal.z(), x.point.x(),
                           x.point.y(), x.point.z()) < std::make_tuple(y.fraction, -y.opposing, y.normal.x(),
                                                                       y.normal.y(), y.normal.z(), y.point.x(),
                                                                       y.point.y(), y.point.z());
  };
  std::sort(hits->begin(), hits->end(), order);
  const btTransform& pose = object->getWorldTransform();
  for (const TriangleHit& h : *hits) {
    if (!(h.fraction < result->m_closestHitFraction)) break;
    btCollisionWorld::LocalShapeInfo info;
    info.m_shapePart = h.part;
    info.m_triangleIndex = h.index;
    btCollisionWorld::LocalConvexResult hit(object, &info, pose.getBasis() * h.normal,
                                            pose * (h.point + h.normal * surface_offset), h.fraction);
    result->addSingleResult(hit, true);
  }
}

namespace {

/// Bullet's per-triangle cast, its hit kept instead of reported.
struct OneTriangleCast final : btTriangleConvexcastCallback {
  OneTriangleCast(const btConvexShape* shape, const btTransform& from, const btTransform& to, double margin)
      : btTriangleConvexcastCallback(shape, from, to, btTransform::getIdentity(), margin) {}

  btScalar reportHit(const btVector3& normal, const btVector3& point, btScalar fraction, int, int) override {
    sweep.hit = true;
    sweep.fraction = fraction;
    sweep.normal = normal;
    sweep.point = point;
    return fraction;
  }

  ExactSweep sweep;
};

}  // namespace

ExactSweep bullet_triangle_sweep(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                                 const btVector3* v, double margin) {
  OneTriangleCast cast(shape, from, to, margin);
  cast.m_allowedPenetration = 0.0;  // objectQuerySingle's, as the sweeps ask it
  btVector3 corners[3] = {v[0], v[1], v[2]};
  cast.processTriangle(corners, 0, 0);
  cast.sweep.answered = true;
  return cast.sweep;
}

}  // namespace stepslide::detail
