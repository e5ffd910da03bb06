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

#include "controller/internal.h"

namespace stepslide::test {
namespace {

TEST(DropOntoEdge, LeavesTheBallTouchingTheLine) {
  // The line along x through the origin; a ball of radius r centred at
  // (0, v, h) sees it along -normal, |(v, h)| - r away. Dropped by t, the
  // centre (0, v - t, h) is exactly r from the line.
  std::mt19937_64 random(31);
  const btVector3 up(0, 1, 0);
  for (int i = 0; i < 1000; ++i) {
    const double r = std::uniform_real_distribution<double>(0.05, 0.6)(random);
    const double h = std::uniform_real_distribution<double>(0.0, 0.999)(random) * r;
    const double v = std::uniform_real_distribution<double>(0.0, 0.1)(random) + std::sqrt(r * r - h * h);
    const btVector3 centre(0, v, h);
    const double reach = centre.length();
    const btVector3 normal = centre / reach;
    const double t = detail::drop_onto_edge(normal, reach - r, r, up);
    ASSERT_TRUE(std::isfinite(t)) << "case " << i;
    EXPECT_GE(t, -1e-12);
    EXPECT_NEAR(btVector3(0, v - t, h).length(), r, 1e-12) << "case " << i;
    // The first-order drop (the gap closed at the normal's rise) is never longer.
    EXPECT_GE(t + 1e-12, (reach - r) / normal.y()) << "case " << i;
  }
}

TEST(DropOntoEdge, IsInfiniteBesideTheLineOrAboveIt) {
  const btVector3 up(0, 1, 0);
  // Horizontal offset 0.4 from the line, radius 0.3: it passes beside.
  EXPECT_TRUE(std::isinf(detail::drop_onto_edge(btVector3(0, 0.6, 0.8), 0.2, 0.3, up)));
  // The line above the centre.
  EXPECT_TRUE(std::isinf(detail::drop_onto_edge(btVector3(0, -0.6, 0.8), 0.1, 0.3, up)));
}

TEST(BoxEdge, NamesTheFacesOfAnEdgeContactAndNothingOnAFace) {
  Rig ledge({box({0, -0.5, 0.5}, {2, 0.5, 0.5})});  // top face z in [0, 1]
  const std::vector<Contact> edge = probe_contacts(ledge, btVector3(0, -0.02, -0.15));
  ASSERT_EQ(edge.size(), 1u);
  BoxEdge found;
  ASSERT_TRUE(ledge.ctx().queries->box_edge(edge[0], &found));
  const bool top_first = found.faces[0].y() > 0.5;
  EXPECT_EQ(found.faces[top_first ? 0 : 1], btVector3(0, 1, 0));
  EXPECT_EQ(found.faces[top_first ? 1 : 0], btVector3(0, 0, -1));
  const std::vector<Contact> face = probe_contacts(ledge, btVector3(0, 0.005, 0.5));
  ASSERT_EQ(face.size(), 1u);
  EXPECT_FALSE(ledge.ctx().queries->box_edge(face[0], &found));
}

TEST(ProbeGround, JustAboveAStepsEdgeItDropsOntoItWithoutASweep) {
  // The rounded bottom a few millimetres above a ledge's edge, its centre
  // beyond it (on the riser's side): the probe puts the feet where the
  // capsule touches the edge, with no sweep, on a box and on a box child of
  // a compound (a stairs shape).
  for (const bool stairs : {false, true}) {
    BodyDef body = box({0, -0.5, 0.5}, {2, 0.5, 0.5});
    if (stairs) {
      body = BodyDef{};
      body.shape.type = ShapeType::Stairs;
      body.shape.steps = 2;
      body.shape.rise = 0.2;
      body.shape.run = 0.3;
      body.shape.width = 2;
      body.position = {0, -0.2, 0};
    }
    Rig rig({body});
    // The box's riser faces -z, the stairs' +z.
    const double side = stairs ? 1.0 : -1.0;
    for (const double beyond : {0.02, 0.08, 0.15}) {
      for (const double above : {0.001, 0.004, 0.01}) {
        // Touching the edge's rounding first: found with a fine bisection on
        // the contacts' own distance, then raised.
        const auto gap_at = [&](double y) {
          rig.ctx().object->setWorldTransform(rig.ctx().transform_at(btVector3(0, y, side * beyond)));
          std::vector<Contact> out;
          rig.ctx().queries->contacts(rig.ctx().object, 0.5, out);
          double least = 1.0;
          for (const Contact& c : out) least = std::min(least, c.distance);
          return least;
        };
        double low = -0.3;
        double high = 0.3;
        for (int k = 0; k < 80; ++k) (gap_at(0.5 * (low + high)) > 0 ? high : low) = 0.5 * (low + high);
        rig.ctx().queries->reset_counts();
        const GroundInfo g = probe_ground(rig.ctx(), btVector3(0, high + above, side * beyond), 0.1);
        ASSERT_TRUE(g.found && g.walkable) << stairs << " " << beyond << " " << above;
        EXPECT_EQ(rig.ctx().queries->counts().sweeps, 0) << stairs << " " << beyond << " " << above;
        EXPECT_NEAR(g.distance, above, 1e-9) << stairs << " " << beyond << " " << above;
        EXPECT_NEAR(gap_at(high + above - g.distance), 0.0, 1e-9);
        EXPECT_EQ(g.normal, btVector3(0, 1, 0));
      }
    }
  }
}

TEST(ProbeGround, PerchedOnAMeshEdgeTheSnapComesToRest) {
  // A mesh ledge (top face y = 0 for z in [0, 1], riser z = 0 facing -z)
  // with the rounded bottom over its edge, the centre on the riser's side:
  // the only support is the edge, steep by its contact normal, found by the
  // perch ray. The probe starts kGroundClearance above the feet, where the
  // sweep may stop at once (within Bullet's margin); the snap must then
  // still reach the edge the contacts' planes allow, not stop short by the
  // edge's gap, which lifted the feet above where the last tick put them and
  // left a character standing on a chair's seat bobbing forever.
  BodyDef ledge;
  ledge.shape.type = ShapeType::Mesh;
  ledge.shape.vertices = {{-2, 0, 0}, {2, 0, 0}, {2, 0, 1}, {-2, 0, 1}, {-2, -1, 0}, {2, -1, 0}};
  ledge.shape.triangles = {{{0, 2, 1}}, {{0, 3, 2}}, {{0, 1, 5}}, {{0, 5, 4}}};
  Rig rig({ledge});
  for (const double beyond : {0.2, 0.25, 0.28}) {
    // Touching the edge: a ball of radius 0.3 centred beyond it horizontally.
    const double touching = std::sqrt(0.3 * 0.3 - beyond * beyond) - 0.3;
    for (const double above : {0.0, 0.0005, 0.001, 0.003}) {
      const GroundInfo g = probe_ground(rig.ctx(), btVector3(0, touching + above, -beyond), 0.1);
      ASSERT_TRUE(g.found && g.walkable) << beyond << " " << above;
      EXPECT_EQ(g.normal, btVector3(0, 1, 0));
      // Never into the edge, and within the second-order error of the
      // first-order drop onto it (the gap closed at the normal's rise).
      EXPECT_LE(g.distance, above + 1e-9) << beyond << " " << above;
      EXPECT_NEAR(g.distance, above, 1e-4) << beyond << " " << above;
    }
  }
}
}  // namespace
}  // namespace stepslide::test

namespace stepslide::test {
namespace {

TEST(ProbeGround, NeverSnapsPastTheProbesReach) {
  // Fresh world 9033085 (overlap): a sphere's ground probe stopped
  // on a plank leaning almost upright (a contact rising 4%, which bounds
  // nothing); around it the only contact under the ball was the edge of a
  // thin upright board level with the ball's middle (rising 6%), with a
  // flat top the perch ray found. Its plane bound, gap / rise, let the feet
  // snap 0.74 m down: 9 cm into the floor, which the probe never touched.
  // The snap goes no lower than the probe's reach below where it stopped.
  Scenario scenario;
  scenario.ticks = 1;
  scenario.world.push_back(box({0, -0.5, 0}, {17, 0.5, 19.5}));
  BodyDef board = box({-2.002, 0.364, -2.118}, {0.05, 0.364, 0.516});
  board.rotation_deg = {0, -101.4, 0};
  scenario.world.push_back(board);
  BodyDef plank = box({-2.044889347292716, 0.7166369417485287, -1.9044567974591529}, {1.303, 0.073, 0.429});
  plank.rotation_deg = {111.90213285080539, -58.007102965269056, -108.82812857903733};
  scenario.world.push_back(plank);
  World world(scenario);
  CharacterShapeDesc sphere;
  sphere.kind = CharacterShapeDesc::Kind::Sphere;
  sphere.radius = 0.284;
  ControllerSettings settings;
  settings.skin_width = 0.037;
  settings.step_down_height = 0.544;
  CharacterController controller(world.collision_world(), sphere, settings, btVector3(0, 1, 0),
                                 btVector3(0, -9.81, 0));
  const btVector3 feet(-1.3650805979633553, 0.6451748425977388, -1.6658386255495186);
  controller.reset(feet, btVector3(0, 0, 0));
  const GroundInfo g = probe_ground(controller.context(), feet, 0.618);
  ASSERT_TRUE(g.found);
  EXPECT_GE(feet.y() - g.distance, -1e-9) << "below the floor's top";
  EXPECT_LE(g.distance, 0.62 * 0.2815 + controller.context().probe_inflation);
}

}  // namespace
}  // namespace stepslide::test
