// Support functions of the convex solids convex_distance works on
// (gjk.h): Bullet's solids, written out for the common shapes
// (no virtual call, no margin bookkeeping per evaluation).
#include "geometry/gjk.h"

#include <algorithm>
#include <cmath>

#include "base/portable_math.h"

namespace stepslide::detail {

ConvexSolid ConvexSolid::of(const btConvexShape* shape, const btTransform& pose) {
  ConvexSolid s;
  s.pose_ = pose;
  s.unturned_ = pose.getBasis() == btMatrix3x3::getIdentity();
  s.margin_ = shape->getMargin();
  s.shape_ = shape;
  s.kind_ = Kind::Bullet;
  if (shape->getLocalScaling() != btVector3(1, 1, 1)) return s;
  switch (shape->getShapeType()) {
    case BOX_SHAPE_PROXYTYPE:
      // Bullet's box is its implicit dimensions (half extents less the
      // margin) grown by the margin.
      s.kind_ = Kind::Box;
      s.size_ = static_cast<const btBoxShape*>(shape)->getImplicitShapeDimensions();
      break;
    case CYLINDER_SHAPE_PROXYTYPE:
      if (static_cast<const btCylinderShape*>(shape)->getUpAxis() != 1) break;
      s.kind_ = Kind::Cylinder;
      s.size_ = static_cast<const btCylinderShape*>(shape)->getImplicitShapeDimensions();
      break;
    case CAPSULE_SHAPE_PROXYTYPE: {
      const auto* capsule = static_cast<const btCapsuleShape*>(shape);
      // The core is the axis only when the margin is the radius (Bullet's default).
      if (capsule->getUpAxis() != 1 || capsule->getMargin() != capsule->getRadius()) break;
      s.kind_ = Kind::Segment;
      s.size_ = btVector3(0, capsule->getHalfHeight(), 0);
      break;
    }
    case SPHERE_SHAPE_PROXYTYPE:
      s.kind_ = Kind::Point;  // its margin is its radius
      break;
    case CONVEX_HULL_SHAPE_PROXYTYPE: {
      // Still Bullet's kind for every question but the support point.
      const auto* hull = static_cast<const btConvexHullShape*>(shape);
      s.hull_points_ = hull->getUnscaledPoints();
      s.hull_count_ = hull->getNumPoints();
      break;
    }
    default: break;
  }
  return s;
}

ConvexSolid ConvexSolid::triangle(const btVector3& p0, const btVector3& p1, const btVector3& p2, double margin) {
  ConvexSolid s;
  s.kind_ = Kind::Triangle;
  s.pose_.setIdentity();
  s.corners_[0] = p0;
  s.corners_[1] = p1;
  s.corners_[2] = p2;
  s.margin_ = margin;
  return s;
}

bool ConvexSolid::support_turns(const btVector3& u, const btVector3& t1, const btVector3& t2, btVector3* turn1,
                                btVector3* turn2) const {
  turn1->setZero();
  turn2->setZero();
  // A triangle's corners and Bullet's shapes: no smooth region is known.
  if (kind_ == Kind::Triangle || kind_ == Kind::Bullet) return false;
  if (kind_ != Kind::Cylinder) return true;  // a box's corner, an end of the axis, the point: it stays put
  const btMatrix3x3& basis = pose_.getBasis();
  const auto local = [&](const btVector3& v) {
    return unturned_ ? v : btVector3(basis.tdotx(v), basis.tdoty(v), basis.tdotz(v));
  };
  const btVector3 l = local(u);
  const double across = std::sqrt(l.x() * l.x() + l.z() * l.z());
  if (!(across > 1e-12)) return false;  // along the axis: a cap's edge, no derivative
  // The rim point r·(l_x, l_z)/|(l_x, l_z)| turns with the part of l across
  // the axis: by r/|(l_x, l_z)| times the part of the turn across that too.
  const double x = l.x() / across;
  const double z = l.z() / across;
  const double scale = size_.x() / across;
  const auto turn = [&](const btVector3& t) {
    const btVector3 m = local(t);
    const double along = m.x() * x + m.z() * z;
    const btVector3 moved((m.x() - along * x) * scale, 0.0, (m.z() - along * z) * scale);
    return unturned_ ? moved : basis * moved;
  };
  *turn1 = turn(t1);
  *turn2 = turn(t2);
  return true;
}

bool ConvexSolid::polytope() const {
  if (kind_ == Kind::Cylinder) return false;
  return kind_ != Kind::Bullet || shape_->isPolyhedral();
}

double ConvexSolid::smooth_within(const btVector3& u) const {
  if (kind_ == Kind::Point) return M_PI;
  if (kind_ == Kind::Triangle || kind_ == Kind::Bullet) return 0.0;
  const btMatrix3x3& basis = pose_.getBasis();
  const btVector3 l(basis.tdotx(u), basis.tdoty(u), basis.tdotz(u));
  const double y = std::fabs(l.y());
  switch (kind_) {
    case Kind::Segment: return portable::asin(std::min(1.0, y));  // the ends swap at l.y = 0
    case Kind::Box:  // the corners swap where a component changes sign
      return portable::asin(std::min(1.0, std::min(y, std::min(std::fabs(l.x()), std::fabs(l.z())))));
    case Kind::Cylinder:  // the caps swap at l.y = 0; the rim point spins about the axis
      return std::min(portable::asin(std::min(1.0, y)), portable::acos(std::min(1.0, y)));
    default: return 0.0;
  }
}

bool ConvexSolid::holds(const btVector3& p, double slack) const {
  const double grow = margin_ + slack;
  if (kind_ == Kind::Triangle) {
    const btVector3 e0 = corners_[1] - corners_[0];
    const btVector3 e1 = corners_[2] - corners_[0];
    const btVector3 normal = e0.cross(e1);
    const double area2 = normal.length2();
    if (!(area2 > 0.0)) return false;
    const btVector3 q = p - corners_[0];
    if (std::fabs(q.dot(normal)) > grow * std::sqrt(area2)) return false;
    // Inside each edge's line, or within `grow` of it.
    for (int i = 0; i < 3; ++i) {
      const btVector3& from = corners_[i];
      const btVector3 edge = corners_[(i + 1) % 3] - from;
      const double side = edge.cross(p - from).dot(normal);
      if (side < -grow * edge.length() * std::sqrt(area2)) return false;
    }
    return true;
  }
  const btVector3 l = pose_.invXform(p);
  switch (kind_) {
    case Kind::Point: return l.length() <= grow;
    case Kind::Segment: {
      const double y = std::max(-size_.y(), std::min(size_.y(), l.y()));
      return (l - btVector3(0, y, 0)).length() <= grow;
    }
    case Kind::Box:
      return std::fabs(l.x()) <= size_.x() + grow && std::fabs(l.y()) <= size_.y() + grow &&
             std::fabs(l.z()) <= size_.z() + grow;
    case Kind::Cylinder:
      return std::sqrt(l.x() * l.x() + l.z() * l.z()) <= size_.x() + grow && std::fabs(l.y()) <= size_.y() + grow;
    default: return false;
  }
}

}  // namespace stepslide::detail
