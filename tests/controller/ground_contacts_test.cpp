// The ground from the contacts where the shape stands: the face
// normals the adapter reads from the shapes, the probe that needs no sweep
// on a face, and the sweep it still makes where contacts do not suffice.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "controller/rig.h"

namespace stepslide::test {
namespace {

/// The probe's contacts with the character's feet at `feet`.
std::vector<Contact> probe_contacts(Rig& rig, const btVector3& feet) {
  const CharacterContext& ctx = rig.ctx();
  ctx.probe_object->setWorldTransform(ctx.transform_at(feet));
  std::vector<Contact> out;
  ctx.queries->contacts(ctx.probe_object, 0.0, out);
  return out;
}

BodyDef two_triangles(double slope_deg) {
  // A 20 m square tilted about X by slope_deg, as a mesh of two triangles.
  BodyDef b;
  b.shape.type = ShapeType::Mesh;
  const double h = 10 * std::tan(slope_deg * kPi / 180.0);
  b.shape.vertices = {{-10, -h, 10}, {10, -h, 10}, {10, h, -10}, {-10, h, -10}};
  b.shape.triangles = {{{0, 1, 2}}, {{0, 2, 3}}};
  return b;
}

TEST(ContactFaceNormal, IsTheBoxAxisOnAFaceAndZeroAtAnEdge) {
  btQuaternion tilt(btVector3(0, 0, 1), 0.2);
  BodyDef tilted = box({0, -0.5, 0}, {3, 0.5, 3});
  tilted.rotation_deg = {0, 0, 0.2 * 180 / kPi};
  Rig rig({tilted});
  const std::vector<Contact> face = probe_contacts(rig, btVector3(0, -0.01, 0));
  ASSERT_EQ(face.size(), 1u);
  EXPECT_LT((face[0].face_normal - quatRotate(tilt, btVector3(0, 1, 0))).length(), 1e-12);

  Rig ledge({box({0, -0.5, 0.5}, {2, 0.5, 0.5})});  // top face z in [0, 1]
  // The rounded bottom beside the ledge, below its top: it touches the edge.
  const std::vector<Contact> edge = probe_contacts(ledge, btVector3(0, -0.02, -0.15));
  ASSERT_EQ(edge.size(), 1u);
  EXPECT_GT(std::fabs(edge[0].normal.z()), 0.1);
  EXPECT_TRUE(edge[0].face_normal.isZero());
}

TEST(ContactFaceNormal, IsTheTriangleNormalOnAMesh) {
  Rig rig({two_triangles(20)});
  // Feet 5 mm lower than touching the plane y = -z tan(20°) (the probe reaches 20 mm further).
  const double slope = 20 * kPi / 180;
  const double touching = 0.3 / std::cos(slope) - 0.3;
  const std::vector<Contact> contacts = probe_contacts(rig, btVector3(3, -4 * std::tan(slope) + touching - 0.005, 4));
  ASSERT_FALSE(contacts.empty());
  const btVector3 expected(0, std::cos(20 * kPi / 180), std::sin(20 * kPi / 180));
  for (const Contact& c : contacts) EXPECT_LT((c.face_normal - expected).length(), 1e-12);
}

TEST(ProbeGround, StandingOnAFaceNeedsNoSweepAndMatchesThePlane) {
  // On random slopes (boxes and meshes, up to 40 degrees) with the feet up to
  // 15 mm above the surface, the distance is the plane's, without a sweep.
  std::mt19937_64 random(13);
  for (int i = 0; i < 200; ++i) {
    const double slope = std::uniform_real_distribution<double>(0, 40)(random);
    const double above = std::uniform_real_distribution<double>(0, 0.015)(random);
    BodyDef ground = box({0, -0.5, 0}, {20, 0.5, 20});
    ground.rotation_deg = {slope, 0, 0};
    Rig rig({i % 2 == 0 ? ground : two_triangles(slope)});
    // The plane through p with normal n: a capsule's bottom sphere (radius r,
    // centre c) touches it when n·(c - p) = r, which for feet straight above
    // the origin is at feet height (r + n·p)/n_y - r. The mesh's plane passes
    // through the origin, the box's top through its centre + 0.5 n.
    const btVector3 n(0, std::cos(slope * kPi / 180), std::sin(slope * kPi / 180));
    const double n_y = n.y();
    const btVector3 p = i % 2 == 0 ? btVector3(0, -0.5, 0) + 0.5 * n : btVector3(0, 0, 0);
    const double r = 0.3;
    const double touching = (r + n.dot(p)) / n_y - r;
    rig.ctx().queries->reset_counts();
    const GroundInfo g = probe_ground(rig.ctx(), btVector3(0, touching + above, 0), 0.1);
    ASSERT_TRUE(g.found && g.walkable) << "slope " << slope;
    EXPECT_EQ(rig.ctx().queries->counts().sweeps, 0) << "slope " << slope;
    EXPECT_NEAR(g.distance, above, 1e-6) << "slope " << slope << (i % 2 == 0 ? " box" : " mesh");
    EXPECT_NEAR(g.normal.y(), n_y, 1e-9);
  }
}

TEST(ProbeGround, OnAnEdgeItStillSweeps) {
  // The rounded bottom over a ledge's edge: the contact is on the edge, whose
  // distance only a sweep finds.
  Rig rig({box({0, -0.5, 0.5}, {2, 0.5, 0.5})});
  rig.ctx().queries->reset_counts();
  const GroundInfo g = probe_ground(rig.ctx(), btVector3(0, 0.1, -0.15), 0.5);
  ASSERT_TRUE(g.found);
  EXPECT_EQ(rig.ctx().queries->counts().sweeps, 1);
}

TEST(Update, WalkingOnFlatGroundIsOneSweepAndNoOverlapQueryPerTick) {
  Rig rig({floor_at(0)});
  rig.place(btVector3(0, 0, 0));
  CharacterInput input;
  input.move_forward = 1.0;
  for (int tick = 0; tick < 30; ++tick) {
    const TickReport report = rig.controller->update(input, kDt60);
    EXPECT_EQ(report.sweeps, 1) << "tick " << tick;  // the move; the ground probe sweeps no more
    EXPECT_EQ(rig.ctx().queries->counts().reused_contacts, tick == 0 ? 0 : 1) << "tick " << tick;
    EXPECT_TRUE(rig.controller->state().grounded);
    EXPECT_NEAR(rig.controller->state().position.y(), 0.0, 1e-9);
  }
}

}  // namespace
}  // namespace stepslide::test

namespace stepslide::test {
namespace {

TEST(ContactPoint, LiesOnTheBoxSurfaceNotItsCore) {
  // Bullet's box is its core grown by the margin (1 mm in scenario worlds);
  // the exact contact must give the point on the outer surface, where the
  // face-normal and perch rays start from (it was 1 mm inside: a bug).
  Rig rig({floor_at(0)});
  const std::vector<Contact> contacts = probe_contacts(rig, btVector3(0.3, 0.005, -0.2));
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_NEAR(contacts[0].point.y(), 0.0, 1e-9);
  EXPECT_NEAR(contacts[0].point.x(), 0.3, 1e-9);
  EXPECT_NEAR(contacts[0].point.z(), -0.2, 1e-9);
}

}  // namespace
}  // namespace stepslide::test
