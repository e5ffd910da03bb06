// Where two separated boxes face each other (box_box_patch_middle,
// box_distance.h): the middle of the patch where a face lies over a
// face or an edge along one, the closest point where that is unique, and a
// point that moves with the boxes rather than jumping between corners.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "geometry/box_distance.h"
#include "support/random_geometry.h"

namespace stepslide::test {
namespace {

constexpr double kRadius = 0.04;

btTransform at(const btVector3& origin, const btQuaternion& turn = btQuaternion::getIdentity()) {
  return btTransform(turn, origin);
}

/// Box `a` (half extents `ha`) above the floor slab `b` (10 x 1 x 10 m, top
/// at y = 0.5), both rounded by kRadius, and their patch middle.
btVector3 middle_over_slab(const btTransform& a, const btVector3& ha, const btTransform& b = at({0, 0, 0})) {
  const btVector3 hb(5, 0.5, 5);
  const ExactContact d = box_box_distance(a, ha, kRadius, b, hb, kRadius);
  EXPECT_TRUE(d.answered);
  return box_box_patch_middle(a, ha, b, hb, kRadius, d);
}

void expect_near(const btVector3& got, const btVector3& want, double tolerance) {
  EXPECT_NEAR(got.x(), want.x(), tolerance);
  EXPECT_NEAR(got.y(), want.y(), tolerance);
  EXPECT_NEAR(got.z(), want.z(), tolerance);
}

TEST(BoxPatchMiddle, AFaceWhollyOverAFaceGivesItsCentreOnTheSurface) {
  const btVector3 ha(0.3, 0.9, 0.2);
  // Bottom face 0.01 m above the slab's core, off its centre.
  expect_near(middle_over_slab(at({1.5, 0.5 + 0.9 + 0.01, -2.0}), ha), btVector3(1.5, 0.5 + kRadius, -2.0), 1e-12);
  // Turned about the vertical: still the face's centre.
  const btQuaternion yaw(btVector3(0, 1, 0), 0.7);
  expect_near(middle_over_slab(at({-1, 1.45, 3}, yaw), ha), btVector3(-1, 0.5 + kRadius, 3), 1e-12);
}

TEST(BoxPatchMiddle, AFaceHalfOverTheEdgeGivesTheMiddleOfWhatOverlaps) {
  // The box spans x in [4.8, 5.4]; the slab ends at x = 5.
  const btVector3 ha(0.3, 0.9, 0.2);
  expect_near(middle_over_slab(at({5.1, 1.45, 0.0}), ha), btVector3(4.9, 0.5 + kRadius, 0.0), 1e-12);
  // Over a corner of the slab: the overlapping quarter's middle.
  expect_near(middle_over_slab(at({5.1, 1.45, 5.1}), ha), btVector3(4.9, 0.5 + kRadius, 4.95), 1e-12);
}

TEST(BoxPatchMiddle, AnEdgeAlongAFaceGivesTheEdgesMiddle) {
  // Rolled 45 degrees about x: its lowest feature is an edge along x.
  const btVector3 ha(0.3, 0.2, 0.2);
  const btQuaternion roll(btVector3(1, 0, 0), M_PI / 4);
  const double drop = 0.2 * std::sqrt(2.0);
  expect_near(middle_over_slab(at({0.7, 0.5 + drop + 0.02, 1.0}, roll), ha), btVector3(0.7, 0.5 + kRadius, 1.0),
              1e-12);
}

TEST(BoxPatchMiddle, AUniqueClosestPointIsTheDistancesOwn) {
  // Tipped over a corner: one vertex is nearest.
  const btVector3 ha(0.3, 0.2, 0.2);
  const btQuaternion tip = btQuaternion(btVector3(1, 0, 0), 0.4) * btQuaternion(btVector3(0, 0, 1), 0.3);
  const btTransform a = at({0.2, 1.2, -0.4}, tip);
  const btVector3 hb(5, 0.5, 5);
  const ExactContact d = box_box_distance(a, ha, kRadius, at({0, 0, 0}), hb, kRadius);
  ASSERT_TRUE(d.answered);
  const btVector3 middle = box_box_patch_middle(a, ha, at({0, 0, 0}), hb, kRadius, d);
  EXPECT_EQ(middle, d.point);
}

/// On random face-over-face pairs (one box resting flat above another,
/// turned about the shared vertical), the middle lies on b's rounded
/// surface under a and over b, and tilting a by 1e-11 rad (a rotation's
/// rounding) moves it by about that, where the first-found corner
/// (box_box_distance's point) jumps to whichever corner the tilt lowered.
TEST(BoxPatchMiddle, RestingPairsGiveAClosestPointThatMovesWithTheBoxes) {
  RandomGeometry random(9090);
  int corner_jumps = 0;
  int resting = 0;
  for (int i = 0; i < 2000; ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    const btVector3 ha = random.vector(0.05, 1.0);
    const btVector3 hb = random.vector(0.05, 2.0);
    const double yaw_b = random.uniform(-3.0, 3.0);
    const double yaw_a = random.uniform(-3.0, 3.0);
    const btTransform b = at(random.point(1.0), btQuaternion(btVector3(0, 1, 0), yaw_b));
    const double across_x = random.uniform(-1, 1);
    const double across_z = random.uniform(-1, 1);
    const btVector3 across = btVector3(across_x, 0, across_z) * (hb.x() + hb.z());
    const double gap = random.uniform(1e-6, 0.05);
    const btVector3 above = b.getOrigin() + across + btVector3(0, hb.y() + ha.y() + gap, 0);
    const btQuaternion turn_a(btVector3(0, 1, 0), yaw_a);
    const double tilt_x = random.uniform(-1, 1);
    const double tilt_z = random.uniform(-1, 1);
    const btVector3 tilt_axis = btVector3(tilt_x, 0, tilt_z).normalized();
    const btQuaternion tilted = btQuaternion(tilt_axis, 1e-11) * turn_a;
    const ExactContact d = box_box_distance(at(above, turn_a), ha, kRadius, b, hb, kRadius);
    const ExactContact moved = box_box_distance(at(above, tilted), ha, kRadius, b, hb, kRadius);
    if (!d.answered || !moved.answered) continue;
    if (std::fabs(d.normal.y()) < 1.0 - 1e-9) continue;  // a side nearer than the top: not resting
    ++resting;
    const btVector3 middle = box_box_patch_middle(at(above, turn_a), ha, b, hb, kRadius, d);
    const btVector3 middle_moved = box_box_patch_middle(at(above, tilted), ha, b, hb, kRadius, moved);
    EXPECT_NEAR(middle.y(), b.getOrigin().y() + hb.y() + kRadius, 1e-9);
    // Under a's bottom face: within its footprint, grown by rounding.
    const btVector3 local = at(above, turn_a).invXform(middle);
    EXPECT_LE(std::fabs(local.x()), ha.x() + 1e-9);
    EXPECT_LE(std::fabs(local.z()), ha.z() + 1e-9);
    // And over b's top face.
    const btVector3 on_b = b.invXform(middle);
    EXPECT_LE(std::fabs(on_b.x()), hb.x() + 1e-9);
    EXPECT_LE(std::fabs(on_b.z()), hb.z() + 1e-9);
    EXPECT_LE((middle_moved - middle).length(), 1e-9);
    if ((moved.point - d.point).length() > 1e-3) ++corner_jumps;
  }
  EXPECT_GT(resting, 1000);
  EXPECT_GT(corner_jumps, 200);  // measured 854: the reason for the middle
  RecordProperty("corner_jumps", corner_jumps);
}

}  // namespace
}  // namespace stepslide::test
