// ray_cylinder (geometry/ray_cylinder.h) against a brute-force march along
// the ray, on random rays and cylinders in any orientation.
#include <gtest/gtest.h>

#include <cmath>

#include "geometry/ray_cylinder.h"
#include "support/random_geometry.h"

namespace stepslide::test {
namespace {

using detail::ray_cylinder;

/// Whether local point `p` is inside the cylinder of radius r, half height h.
bool inside(const btVector3& p, double r, double h) {
  return p.x() * p.x() + p.z() * p.z() <= r * r && std::fabs(p.y()) <= h;
}

/// The first fraction along from→to inside the cylinder, by marching in
/// small steps and bisecting the first step that enters; 2 when none.
double brute_force_entry(const btVector3& p, const btVector3& d, double r, double h) {
  constexpr int kSteps = 20000;
  for (int i = 1; i <= kSteps; ++i) {
    double t1 = double(i) / kSteps;
    if (!inside(p + d * t1, r, h)) continue;
    double t0 = double(i - 1) / kSteps;
    for (int k = 0; k < 60; ++k) {
      const double mid = 0.5 * (t0 + t1);
      (inside(p + d * mid, r, h) ? t1 : t0) = mid;
    }
    return t1;
  }
  return 2.0;
}

TEST(RayCylinder, MatchesABruteForceMarchOnRandomRays) {
  RandomGeometry random(2026);
  int hits = 0;
  int compared = 0;
  int grazing = 0;
  for (int i = 0; i < 3000; ++i) {
    const double r = random.uniform(0.1, 1.5);
    const double h = random.uniform(0.05, 1.5);
    btCylinderShape cylinder(btVector3(r, h, r));
    cylinder.setMargin(0.001);
    const btVector3 origin = random.point(2.0);
    const btTransform pose(random.rotation(), origin);
    const btVector3 from = pose.getOrigin() + random.point(4.0);
    const btVector3 target = pose * (random.vector(-1.5, 1.5) * btVector3(r, h, r));
    const btVector3 to = from + (target - from) * random.uniform(0.5, 2.0);
    const ExactRay hit = ray_cylinder(from, to, cylinder, pose);
    if (!hit.answered) {
      EXPECT_TRUE(inside(pose.invXform(from), r, h)) << "case " << i << ": refused though outside";
      continue;
    }
    const btVector3 p = pose.invXform(from);
    const btVector3 d = pose.invXform(to) - p;
    // A ray whose answer flips when the cylinder grows or shrinks by 1e-6 m grazes it: skipped (counted).
    const double grown = brute_force_entry(p, d, r + 1e-6, h + 1e-6);
    const double shrunk = brute_force_entry(p, d, r - 1e-6, h - 1e-6);
    if ((grown <= 1.0) != (shrunk <= 1.0)) {
      ++grazing;
      continue;
    }
    ++compared;
    const double entry = brute_force_entry(p, d, r, h);
    ASSERT_EQ(hit.hit, entry <= 1.0) << "case " << i;
    if (!hit.hit) continue;
    ++hits;
    const double length = d.length();
    EXPECT_NEAR(hit.fraction * length, entry * length, 1e-9) << "case " << i;
    EXPECT_NEAR(hit.normal.length(), 1.0, 1e-12) << "case " << i;
    // The normal is the surface's where the ray enters, against the ray.
    const btVector3 at = p + d * hit.fraction;
    const btVector3 local = pose.getBasis().transpose() * hit.normal;
    EXPECT_LT(hit.normal.dot(to - from), 0.0) << "case " << i;
    if (std::fabs(std::fabs(at.y()) - h) < 1e-9) {
      EXPECT_NEAR(std::fabs(local.y()), 1.0, 1e-12) << "case " << i;  // a cap
    } else {
      EXPECT_NEAR(local.y(), 0.0, 1e-12) << "case " << i;  // the side: radial
      EXPECT_NEAR((btVector3(at.x(), 0, at.z()) / r - local).length(), 0.0, 1e-9) << "case " << i;
    }
  }
  EXPECT_GT(compared, 2500);
  EXPECT_GT(hits, 800);
  EXPECT_LT(grazing, 30);
}

TEST(RayCylinder, StartingInsideOrTiltedOrScaledIsLeftToBullet) {
  btCylinderShape cylinder(btVector3(1, 1, 1));
  EXPECT_FALSE(ray_cylinder(btVector3(0, 0.5, 0), btVector3(0, -5, 0), cylinder, btTransform::getIdentity()).answered);
  btCylinderShapeX lying(btVector3(1, 1, 1));
  EXPECT_FALSE(ray_cylinder(btVector3(0, 5, 0), btVector3(0, -5, 0), lying, btTransform::getIdentity()).answered);
}

TEST(RayCylinder, StraightDownOntoTheCapHitsItsPlane) {
  btCylinderShape cylinder(btVector3(1, 0.5, 1));
  cylinder.setMargin(0.04);
  const ExactRay hit =
      ray_cylinder(btVector3(0.3, 2, 0.2), btVector3(0.3, -2, 0.2), cylinder, btTransform::getIdentity());
  ASSERT_TRUE(hit.answered);
  ASSERT_TRUE(hit.hit);
  EXPECT_DOUBLE_EQ(hit.fraction, 1.5 / 4.0);  // the full half height, margin included
  EXPECT_EQ(hit.normal, btVector3(0, 1, 0));
}

}  // namespace
}  // namespace stepslide::test
