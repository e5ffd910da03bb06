// The exact signed distance of two convex solids from their support
// functions (GJK when apart, EPA when their cores overlap: epa.cpp; Newton's
// finishes: newton.cpp), for the pairs Bullet's narrowphase gets wrong or
// answers slowly (cylinders).
#pragma once

#include <cmath>
#include <limits>

#include "geometry/bullet_shapes.h"
#include "geometry/contact.h"

namespace stepslide::detail {

/// A convex solid as Bullet's GJK sees it: a core, given by its support
/// function, grown by a sphere of `margin`. Boxes, upright cylinders,
/// capsules, spheres and triangles in closed form; any other convex shape
/// through Bullet's own support function (scaling included).
class ConvexSolid {
 public:
  /// `shape` at `pose`.
  static ConvexSolid of(const btConvexShape* shape, const btTransform& pose);
  /// The triangle p0 p1 p2 (world) grown by `margin`.
  static ConvexSolid triangle(const btVector3& p0, const btVector3& p1, const btVector3& p2, double margin);
  /// The same solid moved by `shift` (no turn): a sweep's later step.
  ConvexSolid moved(const btVector3& shift) const;

  /// The core's farthest point along `u` (world; any length, not zero).
  btVector3 support(const btVector3& u) const;
  /// The solid's largest extent along unit `u`: the core's plus the margin.
  double extent(const btVector3& u) const { return support(u).dot(u) + margin_; }
  double margin() const { return margin_; }
  /// The derivative of support() at unit `u` along `t1` and `t2`: how far
  /// the core's farthest point moves as u turns toward each (a cylinder's
  /// rim point: the rim's radius over the sine of u's angle to the axis,
  /// across it; a corner: not at all). False for triangles and for shapes
  /// answered by Bullet's support function.
  bool support_turns(const btVector3& u, const btVector3& t1, const btVector3& t2, btVector3* turn1,
                     btVector3* turn2) const;
  /// Whether the core is a polytope: its farthest point jumps from corner
  /// to corner and stays put between (a point, a segment, a box, a
  /// triangle, a Bullet polyhedron). A cylinder's rim is curved: not one.
  bool polytope() const;
  /// The angle (radians) from unit `u` to the nearest direction where
  /// support() is not smooth (it jumps between corners, or from a rim onto
  /// a cap's edge); 0 where that is not known.
  double smooth_within(const btVector3& u) const;
  /// Whether `p` lies in the solid, give or take `slack`, counting a box or
  /// cylinder's rounded edges as sharp (so up to the margin outside them);
  /// false for shapes answered by Bullet's support function.
  bool holds(const btVector3& p, double slack) const;

 private:
  enum class Kind { Point, Segment, Box, Cylinder, Triangle, Bullet };
  Kind kind_ = Kind::Point;
  btTransform pose_;
  btVector3 size_{0, 0, 0};  ///< Segment: (0, half height, 0); Box: half extents; Cylinder: (radius, half height, radius)
  btVector3 corners_[3];     ///< Triangle
  const btConvexShape* shape_ = nullptr;  ///< Bullet
  /// Bullet, a convex hull at unit scale: its points, whose support this
  /// file finds itself (hull_support) rather than Bullet's compiled one.
  const btVector3* hull_points_ = nullptr;
  int hull_count_ = 0;
  double margin_ = 0.0;
  bool unturned_ = false;  ///< the pose's basis is the identity
};

/// The point of `points` farthest along `u`, the first of equals: what
/// Bullet's btConvexHullShape answers at unit scale, computed in this
/// build (whose flags forbid fused multiply-adds) and not in Bullet's
/// library, whose arm64 build contracts the dot products and so may pick
/// the other of two points that are nearly tied.
inline btVector3 hull_support(const btVector3* points, int count, const btVector3& u) {
  double best = -std::numeric_limits<double>::infinity();
  int index = 0;
  for (int i = 0; i < count; ++i) {
    const double d = points[i].dot(u);
    if (d > best) {
      best = d;
      index = i;
    }
  }
  return count > 0 ? points[index] : btVector3(0, 0, 0);
}

// Inline, forced: two per GJK, EPA or Newton step, most of a step's
// arithmetic.
[[gnu::always_inline]] inline btVector3 ConvexSolid::support(const btVector3& u) const {
  if (kind_ == Kind::Triangle) {
    const double d0 = corners_[0].dot(u);
    const double d1 = corners_[1].dot(u);
    const double d2 = corners_[2].dot(u);
    if (d0 >= d1 && d0 >= d2) return corners_[0];
    return d1 >= d2 ? corners_[1] : corners_[2];
  }
  const btMatrix3x3& basis = pose_.getBasis();
  // The transpose's product, without forming it; for an unturned solid (a
  // character standing upright) it and the product below only copy
  // (x·1 + y·0 + z·0 is x exactly, but for the sign of a zero, which adding
  // the origin makes the same): skipped.
  const btVector3 l = unturned_ ? u : btVector3(basis.tdotx(u), basis.tdoty(u), basis.tdotz(u));
  btVector3 local(0, 0, 0);
  switch (kind_) {
    case Kind::Point: return pose_.getOrigin();
    case Kind::Segment: local.setY(l.y() >= 0.0 ? size_.y() : -size_.y()); break;
    case Kind::Box:
      local.setValue(l.x() >= 0.0 ? size_.x() : -size_.x(), l.y() >= 0.0 ? size_.y() : -size_.y(),
                     l.z() >= 0.0 ? size_.z() : -size_.z());
      break;
    case Kind::Cylinder: {
      // As Bullet's CylinderLocalSupportY: the rim point toward u, a cap's
      // edge point when u is along the axis.
      const double across = std::sqrt(l.x() * l.x() + l.z() * l.z());
      const double y = l.y() >= 0.0 ? size_.y() : -size_.y();
      if (across > 0.0) {
        const double scale = size_.x() / across;
        local.setValue(l.x() * scale, y, l.z() * scale);
      } else {
        local.setValue(size_.x(), y, 0.0);
      }
      break;
    }
    default: local = hull_points_ ? hull_support(hull_points_, hull_count_, l) : shape_->localGetSupportingVertexWithoutMargin(l); break;
  }
  return (unturned_ ? local : basis * local) + pose_.getOrigin();
}

inline ConvexSolid ConvexSolid::moved(const btVector3& shift) const {
  ConvexSolid s = *this;
  s.pose_.setOrigin(pose_.getOrigin() + shift);
  if (kind_ == Kind::Triangle) {
    for (btVector3& corner : s.corners_) corner += shift;
  }
  return s;
}

/// What convex_distance found beside its answer (an ExactContact): the
/// witness on `a`, and how it got there, for the tests that bound it.
struct ConvexDetail {
  /// On `a`'s surface, the answer's `point` on `b`'s: the closest points
  /// (apart) or the deepest points of the overlap; where the touching
  /// features are flat, one point of them.
  btVector3 on_a{0, 0, 0};
  /// False when the iteration budget ran out first (never seen in the
  /// tests), or GJK stopped past the cutoff: `distance` is still a
  /// separation, possibly too deep.
  bool converged = true;
  /// The answer is Newton's minimum of the support function (EPA's basin
  /// found, the surfaces smooth there; or, apart, on the crease a
  /// polytope's tied corners make against a curved solid): exact to
  /// rounding, and as smooth a function of the poses as the true distance.
  bool smooth_minimum = false;
  int evaluations = 0;  ///< support-function pairs evaluated: the cost the tests bound
};

/// The gap between the lower and upper bounds at which GJK and EPA stop
/// (m): the answer is within it of the true signed distance. EPA's stopping
/// point moves with the input by up to the tolerance, so a looser one lets a
/// character pinned between curved bodies move visibly under a tiny shift of
/// its spawn; EPA's smooth minima are handed to Newton's method (exact, so
/// moving with the input as the true depth does).
constexpr double kConvexDistanceTolerance = 1e-10;

/// How far apart two convex solids are and which way, always answered
/// (ExactContact, geometry/contact.h). `distance` is the separation of the
/// two along `normal` (the smallest extent of `a` minus the largest of
/// `b`), negative when they overlap: moving `a` by -distance·normal clears
/// it. Because it is a separation along a direction, `distance` is never
/// more than the true signed distance (never shallower than the true
/// penetration); GJK (apart) and EPA (cores overlapping) run on the exact
/// support functions until it is within kConvexDistanceTolerance of it.
/// Where the cores overlap between two smooth curved surfaces (a cylinder's
/// rim on a lying cylinder), EPA hands over to Newton's method once it has
/// found the deepest direction's basin: the answer is then exact to
/// rounding. Apart, GJK does too, between two curved surfaces and on the
/// crease where a cylinder's rim meets a polytope's edge (tied_minimum).
///
/// `guess` is a first direction from `b` toward `a` (any length, not zero;
/// the line between their centres serves). Once the solids are provably
/// farther apart than `cutoff`, GJK stops there (`beyond`): `distance` is
/// then a separation above `cutoff` but not the largest, for callers that
/// drop such pairs (a contact query's threshold). `detail`, when given,
/// receives the witness on `a` and how the answer was reached.
ExactContact convex_distance(const ConvexSolid& a, const ConvexSolid& b, const btVector3& guess,
                             double cutoff = BT_INFINITY, ConvexDetail* detail = nullptr);

}  // namespace stepslide::detail
