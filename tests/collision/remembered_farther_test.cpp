// remembered_farther (triangle_pairs.h): the closest points a sweep kept in
// a cached triangle's slot prove another capsule, standing or swept, farther
// than a distance from the triangle. It must never claim that of a capsule
// the exact queries find nearer (a wrong claim drops a contact or a hit), and
// it must claim it often enough to be worth asking.
#include <gtest/gtest.h>

#include "collision/triangle_fixtures.h"

namespace stepslide::test {
namespace {

using namespace triangles;  // NOLINT: the fixtures of these tests

CachedTriangle::Closest slot_of(const btVector3& a, const btVector3& b, double radius, const Triangle& t) {
  const ExactContact c = capsule_triangle(a, b, radius, t, std::numeric_limits<double>::infinity());
  CachedTriangle::Closest slot;
  slot.valid = true;
  slot.a = a;
  slot.b = b;
  slot.radius = radius;
  slot.contact = c;
  return slot;
}

/// The least distance from the capsule, moved along `motion`, to the
/// triangle: the exact closest points at many fractions of the motion (the
/// distance is convex along it, so sampling finely bounds it from above; the
/// claims checked are 1 mm clear of it, and the sweep is checked too).
double least_distance(const btVector3& a, const btVector3& b, double radius, const btVector3& motion,
                      const Triangle& t) {
  double least = std::numeric_limits<double>::infinity();
  for (int k = 0; k <= 64; ++k) {
    const btVector3 at = motion * (k / 64.0);
    least = std::min(least, capsule_gap(a + at, b + at, radius, {t}));
  }
  return least;
}

TEST(RememberedFarther, NeverClaimsACapsuleTheExactQueriesFindNearer) {
  Random random;
  int claimed = 0;
  int claimed_sweeps = 0;
  for (int i = 0; i < 20000; ++i) {
    const Triangle t = random_triangle(random);
    // The slot: some capsule near the triangle.
    const double slot_radius = random.uniform(0.05, 0.6);
    const double slot_half = i % 4 == 0 ? 0.0 : random.uniform(0.0, 0.9);
    const btTransform slot_pose = near_pose(random, t, slot_radius, slot_half);
    const btVector3 slot_axis = slot_pose.getBasis().getColumn(1) * slot_half;
    const CachedTriangle::Closest slot =
        slot_of(slot_pose.getOrigin() - slot_axis, slot_pose.getOrigin() + slot_axis, slot_radius, t);
    // The query: that capsule moved, sometimes turned, sometimes grown by a
    // skin or shrunk, standing or swept.
    const double radius = i % 3 == 0 ? slot_radius : slot_radius + random.uniform(-0.04, 0.04);
    const btVector3 shift = random.point(i % 2 == 0 ? 0.05 : 0.5);
    btVector3 a = slot.a + shift;
    btVector3 b = slot.b + shift;
    if (i % 5 == 1) {
      const btVector3 tilt = random.point(0.1);
      a -= tilt;
      b += tilt;
    }
    if (i % 7 == 2) std::swap(a, b);  // ends named the other way round
    const btVector3 motion = i % 3 == 1 ? btVector3(0, 0, 0) : random.point(i % 2 == 0 ? 0.1 : 0.7);
    const double distance = i % 2 == 0 ? 0.001 : random.uniform(-0.01, 0.1);
    if (!detail::remembered_farther(slot, a, b, radius, motion, distance)) continue;
    ++claimed;
    ASSERT_GT(least_distance(a, b, radius, motion, t), distance) << "case " << i;
    if (motion.isZero()) {
      EXPECT_TRUE(capsule_triangle(a, b, radius, t, distance).beyond) << "case " << i;
    } else if (distance == 0.001) {
      ++claimed_sweeps;
      EXPECT_TRUE(is_miss(capsule_triangle_sweep(a, b, radius, motion, t))) << "case " << i;
    }
  }
  EXPECT_GT(claimed, 1500) << claimed_sweeps;
  EXPECT_GT(claimed_sweeps, 1000) << claimed;
}

TEST(RememberedFarther, ProvesWhatTheSlotsDistanceLessTheStrayAllows) {
  // A flat triangle on y = 0; the slot's sphere 1 m above it (0.5 m clear).
  const Triangle t{{btVector3(-1, 0, -1), btVector3(0, 0, 1), btVector3(1, 0, -1)}};
  const CachedTriangle::Closest slot = slot_of(btVector3(0, 1, 0), btVector3(0, 1, 0), 0.5, t);
  ASSERT_DOUBLE_EQ(slot.contact.distance, 0.5);
  const btVector3 p(0, 1, 0);
  // Standing where the slot's was: farther than 0.49, not than 0.5.
  EXPECT_TRUE(detail::remembered_farther(slot, p, p, 0.5, btVector3(0, 0, 0), 0.49));
  EXPECT_FALSE(detail::remembered_farther(slot, p, p, 0.5, btVector3(0, 0, 0), 0.5));
  // A smaller sphere is farther by the difference.
  EXPECT_TRUE(detail::remembered_farther(slot, p, p, 0.3, btVector3(0, 0, 0), 0.69));
  // Swept 0.3 m down (0.2 m clear at the end): proves 0.19, not 0.21.
  EXPECT_TRUE(detail::remembered_farther(slot, p, p, 0.5, btVector3(0, -0.3, 0), 0.19));
  EXPECT_FALSE(detail::remembered_farther(slot, p, p, 0.5, btVector3(0, -0.3, 0), 0.21));
  // Sideways 0.3 m the bound is the same (it knows no direction).
  EXPECT_FALSE(detail::remembered_farther(slot, p, p, 0.5, btVector3(0.3, 0, 0), 0.21));
  // A slot that holds nothing, or a touching capsule's, proves nothing.
  CachedTriangle::Closest empty;
  EXPECT_FALSE(detail::remembered_farther(empty, p, p, 0.5, btVector3(0, 0, 0), -1.0));
  const CachedTriangle::Closest touching = slot_of(btVector3(0, -1, 0), btVector3(0, 1, 0), 0.5, t);
  ASSERT_FALSE(touching.contact.answered);
  EXPECT_FALSE(detail::remembered_farther(touching, p, p, 0.5, btVector3(0, 0, 0), -1.0));
}

}  // namespace
}  // namespace stepslide::test
