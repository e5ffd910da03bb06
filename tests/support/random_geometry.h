// Random points, rotations and numbers for the tests that compare our exact
// queries against Bullet's on many random cases. The components are drawn
// in a fixed order (last first, as the GCC builds drew them when they were
// constructor arguments), so a seed gives the same cases with every compiler.
// A test draws one number per statement or through these helpers: two draws
// in one call's arguments or one operator's operands come in an order C++
// leaves to the compiler (tools/check_draw_order.py finds them).
#pragma once

#include <btBulletCollisionCommon.h>

#include <cstdint>
#include <random>

namespace stepslide::test {

struct RandomGeometry {
  explicit RandomGeometry(std::uint64_t seed) : engine(seed) {}

  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(engine); }

  /// Three values in [lo, hi), drawn z, y, x.
  btVector3 vector(double lo, double hi) {
    const double z = uniform(lo, hi);
    const double y = uniform(lo, hi);
    const double x = uniform(lo, hi);
    return btVector3(x, y, z);
  }

  /// A point of the box [lo, hi), drawn z, y, x.
  btVector3 within(const btVector3& lo, const btVector3& hi) {
    const double z = uniform(lo.z(), hi.z());
    const double y = uniform(lo.y(), hi.y());
    const double x = uniform(lo.x(), hi.x());
    return btVector3(x, y, z);
  }

  btVector3 point(double r) { return vector(-r, r); }

  btQuaternion rotation() {
    const double w = uniform(-1, 1);
    const double z = uniform(-1, 1);
    const double y = uniform(-1, 1);
    const double x = uniform(-1, 1);
    const btQuaternion q(x, y, z, w);
    return q.length2() < 1e-6 ? btQuaternion::getIdentity() : q.normalized();
  }

  std::mt19937_64 engine;
};

}  // namespace stepslide::test
