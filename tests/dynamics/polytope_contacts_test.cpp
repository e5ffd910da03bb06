// Box-box and box-triangle manifolds (dynamics/polytope_contacts.h).
#include "dynamics/polytope_contacts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace stepslide::dynamics {
namespace {

btTransform at(double x, double y, double z) { return btTransform(btQuaternion::getIdentity(), btVector3(x, y, z)); }

TEST(PolytopeContacts, ABoxOnABoxTouchesAtTheFourCornersOfTheSmallerFace) {
  // A 0.6 m cube resting on a wide slab: its bottom face's four corners.
  const Polytope crate = box_polytope(at(0.5, 0.3, 0), btVector3(0.3, 0.3, 0.3));
  const Polytope slab = box_polytope(at(0, -0.5, 0), btVector3(5, 0.5, 5));
  const PolytopeContacts c = polytope_contacts(crate, slab, 0.02);
  ASSERT_EQ(c.count, 4);
  EXPECT_EQ(c.normal, btVector3(0, 1, 0));  // the slab's face, from it toward the crate
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(c.separation[i], 0.0);
    EXPECT_EQ(c.points[i].y(), 0.0);
    EXPECT_NEAR(std::fabs(c.points[i].x() - 0.5), 0.3, 1e-15);
    EXPECT_EQ(std::fabs(c.points[i].z()), 0.3);
  }
}

TEST(PolytopeContacts, AGapWithinTheCutoffIsASpeculativeContactBeyondItNone) {
  const Polytope slab = box_polytope(at(0, -0.5, 0), btVector3(5, 0.5, 5));
  const PolytopeContacts near = polytope_contacts(box_polytope(at(0, 0.31, 0), btVector3(0.3, 0.3, 0.3)), slab, 0.02);
  ASSERT_EQ(near.count, 4);
  EXPECT_NEAR(near.separation[0], 0.01, 1e-15);
  const PolytopeContacts far = polytope_contacts(box_polytope(at(0, 0.33, 0), btVector3(0.3, 0.3, 0.3)), slab, 0.02);
  EXPECT_EQ(far.count, 0);
}

TEST(PolytopeContacts, ATiltedBoxTouchesWithItsLowEdge) {
  // Turned 10 degrees about z and sunk 1 mm: the edge along z at the bottom touches.
  const btQuaternion tilt(btVector3(0, 0, 1), 10.0 * M_PI / 180.0);
  const btVector3 h(0.3, 0.3, 0.3);
  const btMatrix3x3 basis(tilt);
  const double low = std::fabs(basis[1][0]) * h.x() + std::fabs(basis[1][1]) * h.y();
  const Polytope crate = box_polytope(btTransform(tilt, btVector3(0, low - 0.001, 0)), h);
  const Polytope slab = box_polytope(at(0, -0.5, 0), btVector3(5, 0.5, 5));
  const PolytopeContacts c = polytope_contacts(crate, slab, 0.0);
  ASSERT_EQ(c.count, 2);
  EXPECT_EQ(c.normal, btVector3(0, 1, 0));
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(c.separation[i], -0.001, 1e-12);
  EXPECT_NEAR(std::fabs(c.points[0].z() - c.points[1].z()), 0.6, 1e-12);
}

TEST(PolytopeContacts, ABoxOnATriangleTouchesWhereItsFaceOverlapsTheTriangle) {
  // A large triangle in the plane y = 0 under a 0.6 m cube: the cube's four corners.
  const Polytope floor = triangle_polytope(btVector3(-5, 0, -5), btVector3(-5, 0, 5), btVector3(5, 0, 0));
  const PolytopeContacts c = polytope_contacts(box_polytope(at(0, 0.3, 0), btVector3(0.3, 0.3, 0.3)), floor, 0.02);
  ASSERT_EQ(c.count, 4);
  EXPECT_EQ(c.normal, btVector3(0, 1, 0));
  // Half over the triangle's slanted edge: clipped to the part over it.
  const Polytope corner = triangle_polytope(btVector3(-5, 0, -1), btVector3(-5, 0, 1), btVector3(0, 0, 0));
  const PolytopeContacts clipped =
      polytope_contacts(box_polytope(at(0, 0.3, 0), btVector3(0.3, 0.3, 0.3)), corner, 0.02);
  ASSERT_GE(clipped.count, 3);
  for (int i = 0; i < clipped.count; ++i) EXPECT_LE(clipped.points[i].x(), 1e-15);
}

TEST(PolytopeContacts, CrossedEdgesTouchAtOnePoint) {
  // Two cubes turned 45 degrees, one about z, one about x, edge on edge.
  const double r = std::sqrt(2.0) * 0.5;
  const Polytope lower = box_polytope(btTransform(btQuaternion(btVector3(0, 0, 1), M_PI / 4), btVector3(0, -r, 0)),
                                      btVector3(0.5, 0.5, 0.5));
  const Polytope upper = box_polytope(btTransform(btQuaternion(btVector3(1, 0, 0), M_PI / 4), btVector3(0, r - 0.01, 0)),
                                      btVector3(0.5, 0.5, 0.5));
  const PolytopeContacts c = polytope_contacts(upper, lower, 0.02);
  ASSERT_EQ(c.count, 1);
  EXPECT_NEAR(c.normal.y(), 1.0, 1e-12);
  EXPECT_NEAR(c.separation[0], -0.01, 1e-12);
  // Half way between the two edges' closest points, (0, 0, 0) and (0, -0.01, 0).
  EXPECT_NEAR((c.points[0] - btVector3(0, -0.005, 0)).length(), 0.0, 1e-12);
}

TEST(PolytopeContacts, AFaceOnAFaceKeepsAtMostFourPoints) {
  // A cube turned 45 degrees about y on another: the clipped face has eight corners.
  const Polytope lower = box_polytope(at(0, -0.5, 0), btVector3(0.5, 0.5, 0.5));
  const Polytope upper = box_polytope(btTransform(btQuaternion(btVector3(0, 1, 0), M_PI / 4), btVector3(0, 0.5, 0)),
                                      btVector3(0.5, 0.5, 0.5));
  const PolytopeContacts c = polytope_contacts(upper, lower, 0.02);
  EXPECT_EQ(c.count, 4);
  for (int i = 0; i < c.count; ++i) EXPECT_NEAR(c.points[i].y(), 0.0, 1e-15);
}

}  // namespace
}  // namespace stepslide::dynamics
