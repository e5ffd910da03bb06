#include "dynamics/motion.h"

namespace stepslide::dynamics {

btVector3 box_inertia(double mass, const btVector3& h) {
  const double third = mass / 3.0;
  const double xx = h.x() * h.x(), yy = h.y() * h.y(), zz = h.z() * h.z();
  return btVector3(third * (yy + zz), third * (xx + zz), third * (xx + yy));
}

btVector3 sphere_inertia(double mass, double radius) {
  const double moment = 0.4 * mass * (radius * radius);
  return btVector3(moment, moment, moment);
}

btVector3 inverse_moments(const btVector3& m) {
  return btVector3(m.x() != 0.0 ? 1.0 / m.x() : 0.0, m.y() != 0.0 ? 1.0 / m.y() : 0.0,
                   m.z() != 0.0 ? 1.0 / m.z() : 0.0);
}

btMatrix3x3 world_inverse_inertia(const btMatrix3x3& basis, const btVector3& inverse_local) {
  return basis.scaled(inverse_local) * basis.transpose();
}

void integrate_velocity(btVector3& linear, btVector3& angular, const btVector3& gravity, double dt,
                        double linear_damping, double angular_damping) {
  linear += gravity * dt;
  if (linear_damping > 0.0) linear *= 1.0 / (1.0 + dt * linear_damping);
  if (angular_damping > 0.0) angular *= 1.0 / (1.0 + dt * angular_damping);
}

btQuaternion integrate_orientation(const btQuaternion& q, const btVector3& w, double dt) {
  const double h = 0.5 * dt;
  // (ω, 0)·q, each component written out: the product's order is fixed here.
  const double x = w.x() * q.w() + w.y() * q.z() - w.z() * q.y();
  const double y = w.y() * q.w() + w.z() * q.x() - w.x() * q.z();
  const double z = w.z() * q.w() + w.x() * q.y() - w.y() * q.x();
  const double s = -(w.x() * q.x() + w.y() * q.y() + w.z() * q.z());
  btQuaternion turned(q.x() + h * x, q.y() + h * y, q.z() + h * z, q.w() + h * s);
  return turned.normalize();
}

}  // namespace stepslide::dynamics
