// The collision adapter's exact answers for a capsule or sphere against a
// triangle mesh (btBvhTriangleMeshShape) or a heightfield
// (btHeightfieldTerrainShape): only the triangles whose bounds meet the
// query's are visited (the shape's own tree or grid walk), each culled by its
// plane before the exact pair function (capsule_triangle.h). Private to the
// adapter's files.
#pragma once

#include <BulletCollision/CollisionShapes/btTriangleCallback.h>
#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <vector>

#include "collision/triangle_cache.h"
#include "geometry/sweep.h"
#include "stepslide/collision.h"

namespace stepslide::detail {

/// Whether `shape` is a mesh or a heightfield these functions answer.
bool is_triangle_shape(const btCollisionShape* shape);

/// How far beyond a query's box a triangle is still handed to an exact pair
/// (m): the box bounds everything the query can reach, and a triangle
/// farther than this outside it is certainly out of reach whatever the
/// rounding of the exact pair (errors of ~1e-12 m at 1 km); it would report
/// nothing, so it is skipped before any arithmetic.
constexpr double kCullSlack = 1e-6;

/// Whether the bounds of triangle `v` meet the box [low, high]: the walks
/// hand out triangles beyond a query's box too.
inline bool triangle_meets_bounds(const btVector3* v, const btVector3& low, const btVector3& high) {
  for (int axis = 0; axis < 3; ++axis) {
    const double a = v[0][axis], b = v[1][axis], c = v[2][axis];
    if (std::max({a, b, c}) < low[axis] || std::min({a, b, c}) > high[axis]) return false;
  }
  return true;
}

/// `shape->processAllTriangles(callback, low, high)`, answered from
/// `triangles` (may be null) where it answers for the shape (the same triangles
/// in the same order, with the same vertices, part and index).
void process_triangles(const btConcaveShape* shape, btTriangleCallback* callback, const btVector3& low,
                       const btVector3& high, TriangleCache* triangles);

/// Appends to `out` one contact per triangle of `object` (a mesh or
/// heightfield) closer than `max_distance` to the capsule a→b of `radius`,
/// as Bullet's contactPairTest reports them (one per triangle), and returns
/// true (a triangle the capsule's axis touches or crosses answered by
/// capsule_triangle_penetration); or appends nothing and returns false when
/// the axis touches a triangle with no area (Bullet answers).
bool triangle_contacts(const btVector3& a, const btVector3& b, double radius, const btCollisionObject* object,
                       double max_distance, std::vector<Contact>* out, TriangleCache* triangles = nullptr);

/// The sweep of `shape` (a capsule or sphere) from `from` to `to` against
/// `object` (a mesh or heightfield), each triangle's first touch reported to
/// `result` as Bullet's objectQuerySingle would (world normal and point,
/// only those closer than the callback's closest fraction), in order of
/// fraction, then how squarely the motion pushes into it, normal and point,
/// so the visiting order does not matter. A triangle's advancement stops
/// once past a hit already found that opposes the motion by more than 1e-5
/// (its later hit could not be reported): for a callback that keeps the
/// closest hit it takes, taking every hit that opposes the motion by more
/// than that (Bullet's closest-hit callbacks; the controller's, which skips
/// only those grazing within 1e-6), the same reports as every triangle's
/// full answer; a callback collecting every hit would miss later ones.
/// A triangle the shape's axis starts on or through is a hit at 0 along its
/// exact least push when the motion goes against it (Bullet's rule), else
/// no hit. Returns false, reporting nothing, for other shapes or objects, or
/// when the shape starts with its axis touching a triangle with no area
/// (Bullet answers).
bool triangle_sweep_pair(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                         const btCollisionObject* object, btCollisionWorld::ConvexResultCallback* result, TriangleCache* triangles = nullptr);

/// True when the closest points a sweep remembered in `slot` (of another
/// capsule and the same triangle, in the same frame) prove that the capsule
/// a→b of `radius`, standing (`motion` zero) or anywhere along `motion`,
/// stays farther than `distance` from the triangle, by at least 1 nm (far
/// beyond rounding): a contact query's `beyond`, a sweep's miss (`distance`
/// its 1 mm stop), known without the closest points. A triangle's distance
/// is 1-Lipschitz in where the capsule is, so it is at least the slot's
/// less how far the swept segment strays from the slot's; false when that
/// does not prove it, or the slot holds nothing.
bool remembered_farther(const CachedTriangle::Closest& slot, const btVector3& a, const btVector3& b, double radius,
                        const btVector3& motion, double distance);

/// One triangle's first touch by a sweep, in the mesh's or heightfield's own
/// frame (the capsule's, box's and cylinder's triangle sweeps collect these).
struct TriangleHit {
  double fraction;
  double opposing;   ///< -normal · motion direction: how squarely the motion pushes into it
  btVector3 normal;  ///< shape frame
  btVector3 point;   ///< shape frame (report_triangle_hits moves it out by its offset)
  int part;
  int index;
};

/// Sorts `hits` earliest first; among hits at the same fraction (several
/// triangles within Bullet's stop distance at once, mostly at the start) the
/// one the motion pushes into most squarely, whose plane the slide then
/// clips first; then by normal and point, so the order the shape visits them
/// in does not matter (Bullet keeps whichever its tree walk met first). Then
/// reports each closer than the callback's closest fraction to `result` as
/// Bullet's objectQuerySingle would: world normal, and the point moved
/// `surface_offset` out along the normal (onto a rounded surface).
void report_triangle_hits(std::vector<TriangleHit>* hits, const btCollisionObject* object, double surface_offset,
                          btCollisionWorld::ConvexResultCallback* result);

/// Bullet's own cast of `shape` from `from` to `to` (both in the mesh's
/// frame) against the one triangle `v` grown by `margin`, as
/// objectQuerySingle casts each triangle of a mesh or heightfield: for a
/// triangle the exact sweeps have no answer for (rounding put the cores
/// together mid-advance). Always answered; the hit in the mesh's frame.
ExactSweep bullet_triangle_sweep(const btConvexShape* shape, const btTransform& from, const btTransform& to,
                                 const btVector3* v, double margin);

/// The triangle callback of a box's or cylinder's sweep: each triangle whose
/// bounds meet [low, high] (the walks hand out triangles beyond a query's
/// box too) is swept by `sweep(vertices)`, an ExactSweep in the shape's
/// frame (answered: where the exact sweep has none, bullet_triangle_sweep);
/// its hit is kept while earlier than `before` (the callback's closest
/// fraction).
template <typename Sweep>
struct TriangleSweeps final : btTriangleCallback {
  TriangleSweeps(const btVector3& low, const btVector3& high, const btVector3& motion, double before, Sweep sweep)
      : low_(low), high_(high), direction_(motion.normalized()), before_(before), sweep_(sweep) {}

  void processTriangle(btVector3* vertices, int part, int index) override {
    if (!triangle_meets_bounds(vertices, low_, high_)) return;
    const ExactSweep s = sweep_(vertices);
    if (s.hit && s.fraction < before_) {
      hits.push_back({s.fraction, -s.normal.dot(direction_), s.normal, s.point, part, index});
    }
  }

  std::vector<TriangleHit> hits;

 private:
  btVector3 low_;
  btVector3 high_;
  btVector3 direction_;
  double before_;
  Sweep sweep_;
};

}  // namespace stepslide::detail
