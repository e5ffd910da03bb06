// box_edge_faces (shapes.h): which contacts with a box lie on one edge, and
// the faces that meet there, on boxes turned every way.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "geometry/capsule_box.h"
#include "geometry/shapes.h"

namespace stepslide::test {
namespace {

TEST(BoxEdgeFaces, NamesTheTwoFacesOfAnEdgeOnATurnedBox) {
  // A ball's centre off one edge of a turned box (inside that edge's extent,
  // outside both faces): capsule_box's normal leans out of both faces, and
  // the faces named are the box's axes that face the centre.
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const btVector3 half(0.5, 0.3, 0.7);
  for (int i = 0; i < 500; ++i) {
    // One draw a statement: the order of draws within one is unspecified.
    btVector3 axis;
    btVector3 origin;
    for (int k = 0; k < 3; ++k) axis[k] = unit(random);
    for (int k = 0; k < 3; ++k) origin[k] = unit(random);
    const double angle = 3 * unit(random);
    const btTransform pose(btQuaternion(axis.normalized(), angle), origin);
    const int along = i % 3;  // the edge's axis
    const int a = (along + 1) % 3;
    const int b = (along + 2) % 3;
    btVector3 local(0, 0, 0);
    local[along] = 0.9 * half[along] * unit(random);
    const double sa = unit(random) > 0 ? 1.0 : -1.0;
    const double sb = unit(random) > 0 ? 1.0 : -1.0;
    local[a] = sa * (half[a] + 0.05 + 0.2 * std::fabs(unit(random)));
    local[b] = sb * (half[b] + 0.05 + 0.2 * std::fabs(unit(random)));
    const btVector3 centre = pose * local;
    const ExactContact c = capsule_box(centre, centre, 0.01, pose, half);
    ASSERT_TRUE(c.answered);
    btVector3 faces[2];
    ASSERT_TRUE(detail::box_edge_faces(pose.getBasis(), c.normal, faces)) << "case " << i;
    btVector3 want_a(0, 0, 0);
    btVector3 want_b(0, 0, 0);
    want_a[a] = sa;
    want_b[b] = sb;
    const btVector3 fa = pose.getBasis() * want_a;
    const btVector3 fb = pose.getBasis() * want_b;
    const bool ordered = (faces[0] - fa).length() < 1e-12;
    EXPECT_LT((faces[ordered ? 0 : 1] - fa).length(), 1e-12) << "case " << i;
    EXPECT_LT((faces[ordered ? 1 : 0] - fb).length(), 1e-12) << "case " << i;
  }
}

TEST(BoxEdgeFaces, NoneOnAFaceOrAtACorner) {
  const btTransform pose(btQuaternion(btVector3(0, 1, 0), 0.4), btVector3(1, 2, 3));
  const btVector3 half(0.5, 0.3, 0.7);
  btVector3 faces[2];
  const btVector3 over_face = pose * btVector3(0.1, 0.5, 0.2);
  const ExactContact face = capsule_box(over_face, over_face, 0.01, pose, half);
  ASSERT_TRUE(face.answered);
  EXPECT_FALSE(detail::box_edge_faces(pose.getBasis(), face.normal, faces));
  const btVector3 off_corner = pose * btVector3(0.7, 0.5, 0.9);
  const ExactContact corner = capsule_box(off_corner, off_corner, 0.01, pose, half);
  ASSERT_TRUE(corner.answered);
  EXPECT_FALSE(detail::box_edge_faces(pose.getBasis(), corner.normal, faces));
}

}  // namespace
}  // namespace stepslide::test
