// The scenario's one-way rule (src/scenario/run/scenario_filter.h): which
// contacts with a one-way box block, from the feet where the tick started.

#include <gtest/gtest.h>

#include <btBulletCollisionCommon.h>

#include <cmath>

#include "base/portable_math.h"
#include "scenario/run/scenario_filter.h"

namespace stepslide {
namespace {

/// One static one-way box, 2 m across and 0.16 m thick, its top at y = 0.9.
struct OneWayBox {
  Scenario scenario;
  btBoxShape shape{btVector3(1.0, 0.08, 1.0)};
  btCollisionObject body;

  OneWayBox() {
    BodyDef def;
    def.shape.half_extents = {1.0, 0.08, 1.0};
    def.position = {0.0, 0.82, 0.0};
    def.one_way = true;
    scenario.world.push_back(def);
    body.setCollisionShape(&shape);
    body.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0.0, 0.82, 0.0)));
    body.setInterpolationWorldTransform(body.getWorldTransform());
    body.setUserIndex(0);
  }
  ContactCandidate contact(const btVector3& normal, const btVector3& point) const {
    return {ContactCandidate::Query::Contact, &body, normal, point};
  }
};

constexpr double kTop = 0.9;

TEST(OneWayFilter, FromAboveItBlocksTheTopAndNotTheUnderside) {
  OneWayBox box;
  ScenarioFilter filter(box.scenario);
  filter.begin_tick(btVector3(0, kTop + 0.005, 0), false);
  EXPECT_TRUE(filter.validate(box.contact(btVector3(0, 1, 0), btVector3(0, kTop, 0))));
  filter.begin_tick(btVector3(0, kTop - 0.5, 0), false);
  EXPECT_FALSE(filter.validate(box.contact(btVector3(0, -1, 0), btVector3(0, kTop - 0.16, 0))));
  EXPECT_FALSE(filter.validate(box.contact(btVector3(0, 1, 0), btVector3(0, kTop, 0))));
}

TEST(OneWayFilter, FeetThatStartedOnTheTopAreBlockedWhateverTheContactNormal) {
  // A moving body's push-out can press the character deep into the platform
  // in one pass; there the shortest way out of the thin box is sideways, and
  // that contact must block as a floor's would, or the character ends the
  // tick inside (or through) a platform it stood on.
  OneWayBox box;
  ScenarioFilter filter(box.scenario);
  filter.begin_tick(btVector3(0.95, kTop, 0), false);
  EXPECT_TRUE(filter.validate(box.contact(btVector3(1, 0, 0), btVector3(1.0, kTop - 0.03, 0))));
  EXPECT_TRUE(filter.validate(box.contact(btVector3(0, -1, 0), btVector3(0.9, kTop - 0.16, 0))));
  // Held `drop` still lets it through.
  filter.begin_tick(btVector3(0.95, kTop, 0), true);
  EXPECT_FALSE(filter.validate(box.contact(btVector3(1, 0, 0), btVector3(1.0, kTop - 0.03, 0))));
}

TEST(OneWayFilter, FeetInsideThePlatformAreNotBlockedSideways) {
  // Jumping up through it: the feet start the tick below its top.
  OneWayBox box;
  ScenarioFilter filter(box.scenario);
  filter.begin_tick(btVector3(0.95, kTop - 0.05, 0), false);
  EXPECT_FALSE(filter.validate(box.contact(btVector3(1, 0, 0), btVector3(1.0, kTop - 0.06, 0))));
}

TEST(OneWayFilter, ANormalAcrossABodyTurnedLevelHasNoPartAlongItsUp) {
  // A one-way body turned 90 degrees about X (and yawed) blocks from a level
  // direction; a contact straight up on its side is across that direction,
  // however rounding leaves a part near 1e-16 along it, and must not block
  // (it lifted a character walking into the side 0.44 m in one tick).
  OneWayBox box;
  const portable::Quat q = portable::quaternion_from_degrees(90.0, -169.0, 0.0);  // as the loader turns it
  const btQuaternion turn(q.x, q.y, q.z, q.w);
  box.body.setWorldTransform(btTransform(turn, btVector3(0.0, 0.82, 0.0)));
  box.body.setInterpolationWorldTransform(box.body.getWorldTransform());
  ScenarioFilter filter(box.scenario);
  filter.begin_tick(btVector3(0.0, 0.1, -0.03), false);  // beside it, below its top along its +Y
  const btVector3 up = box.body.getWorldTransform().getBasis().getColumn(1);
  ASSERT_LT(std::fabs(up.y()), 1e-12);
  ASSERT_GT(up.y(), 0.0) << "rounding leaves a part along the normal";
  EXPECT_FALSE(filter.validate(box.contact(btVector3(0, 1, 0), btVector3(0.0, 0.9, 0.0))));
  EXPECT_FALSE(filter.validate(box.contact(btVector3(0, -1, 0), btVector3(0.0, 0.74, 0.0))));
}

/// A static one-way wedge whose body stands upright (its +Y is the world's
/// up) and whose top face rises along -Z at 17.5 degrees, as a `ramp` or a
/// heightfield's slope does: the face's normal is not the body's up.
struct OneWayWedge {
  Scenario scenario;
  btConvexHullShape shape;
  btCollisionObject body;
  double rise = std::tan(17.5 * 3.14159265358979323846 / 180.0);

  OneWayWedge() {
    BodyDef def;
    def.one_way = true;
    scenario.world.push_back(def);
    for (double x : {-1.0, 1.0}) {
      shape.addPoint(btVector3(x, 0.0, 0.0), false);
      shape.addPoint(btVector3(x, 0.0, -2.0), false);
      shape.addPoint(btVector3(x, 2.0 * rise, -2.0), false);
    }
    shape.recalcLocalAabb();
    body.setCollisionShape(&shape);
    body.setWorldTransform(btTransform::getIdentity());
    body.setInterpolationWorldTransform(body.getWorldTransform());
    body.setUserIndex(0);
  }
  /// The point of the top face above z (z from 0 down to -2).
  btVector3 surface(double z) const { return btVector3(0.0, -z * rise, z); }
  btVector3 normal() const { return btVector3(0.0, 1.0, rise).normalized(); }
  ContactCandidate contact(const btVector3& n, const btVector3& point) const {
    return {ContactCandidate::Query::Sweep, &body, n, point};
  }
};

TEST(OneWayFilter, WalkingUpASlopeItBlocksPointsAboveWhereTheFeetStarted) {
  // Walking up a one-way ramp, the slide and the ground probe meet the face
  // ahead of the feet and higher than they started the tick (6 cm here, a
  // tick at 6 m/s); the feet started on the face's side, so it blocks. Taken
  // by height alone it did not, and the character walking up the ramp was
  // airborne, slid up the face in the air and rose above its flight's apex.
  OneWayWedge wedge;
  ScenarioFilter filter(wedge.scenario);
  filter.begin_tick(wedge.surface(-0.5) + btVector3(0, 0.002, 0), false);
  const btVector3 ahead = wedge.surface(-0.7);
  ASSERT_GT(ahead.y() - wedge.surface(-0.5).y(), 0.05);
  EXPECT_TRUE(filter.validate(wedge.contact(wedge.normal(), ahead)));
}

TEST(OneWayFilter, FeetBehindASlopeAreNotBlockedByItsFaceBelowThem) {
  // Rising up through a one-way ramp, the feet 10 cm inside it, under its
  // face: a point of the face downhill is lower than the feet but the feet
  // are behind the face, which does not block (it would pop the character
  // out onto the ramp).
  OneWayWedge wedge;
  ScenarioFilter filter(wedge.scenario);
  filter.begin_tick(wedge.surface(-0.5) - btVector3(0, 0.1, 0), false);
  const btVector3 below = wedge.surface(0.0);
  ASSERT_LT(below.y(), wedge.surface(-0.5).y() - 0.1);
  EXPECT_FALSE(filter.validate(wedge.contact(wedge.normal(), below)));
}

TEST(OneWayFilter, ARoundedBottomRollingOverTheEdgeIsBlockedByTheCorner) {
  // A capsule walking off the platform's edge rolls over it: its feet sink
  // below the top (here 2.7 cm, more than the tolerance) while its rounded
  // bottom touches the corner with a tilted normal. The feet are on the
  // contact's side, so the corner holds, as a floor's would.
  OneWayBox box;
  ScenarioFilter filter(box.scenario);
  const btVector3 normal(0.5, std::sqrt(0.75), 0.0);
  const btVector3 corner(1.0, kTop, 0.0);
  const btVector3 feet = corner + normal * 0.2 - btVector3(0, 0.2, 0);
  ASSERT_LT(feet.y(), kTop - 0.02);
  filter.begin_tick(feet, false);
  EXPECT_TRUE(filter.validate(box.contact(normal, corner)));
}

/// OneWayBox turned 30 degrees about X: its +Y is (0, cos 30, sin 30).
/// An upright cylinder character (radius 0.465, 0.674 tall) whose feet are
/// on that top's plane: its rim hangs 0.2325 m below the feet along +Y.
struct TiltedBoxAndCylinder {
  OneWayBox box;
  CharacterShapeDesc cylinder;
  btVector3 up;
  TiltedBoxAndCylinder() {
    box.body.setWorldTransform(btTransform(btQuaternion(btVector3(1, 0, 0), SIMD_PI / 6), btVector3(0.0, 0.82, 0.0)));
    box.body.setInterpolationWorldTransform(box.body.getWorldTransform());
    cylinder.kind = CharacterShapeDesc::Kind::Cylinder;
    cylinder.radius = 0.465;
    cylinder.height = 0.674;
    up = box.body.getWorldTransform().getBasis().getColumn(1);
  }
  /// The point of the top face's plane above or below the world's (0, 0, z).
  btVector3 on_top(double z) const {
    const btTransform& pose = box.body.getWorldTransform();
    const btVector3 local = pose.invXform(btVector3(0.0, 0.0, z));
    return pose * btVector3(local.x(), 0.08, local.z());
  }
  /// Begins a tick with the feet at `feet`, the cylinder upright there.
  void begin(ScenarioFilter& filter, const btVector3& feet) const {
    filter.begin_tick(feet, false, cylinder, btTransform(btQuaternion::getIdentity(), feet + btVector3(0, 0.337, 0)));
  }
};

TEST(OneWayFilter, AWideShapeHalfInsideATiltedBodyIsNotAboveItsTop) {
  // Fresh world 8663648: the feet of a wide cylinder started a tick less
  // than 1 cm below a tilted one-way box's top while its rim hung 0.2 m
  // inside the box; every contact blocked, and the push out lifted it 0.18 m.
  TiltedBoxAndCylinder t;
  ScenarioFilter filter(t.box.scenario);
  const btVector3 feet = t.on_top(-0.3) - t.up * 0.002;  // 2 mm below the top along +Y
  t.begin(filter, feet);
  const btVector3 point = t.on_top(-0.3 + 0.465);
  EXPECT_FALSE(filter.validate(t.box.contact(t.up, point)));
  EXPECT_FALSE(filter.validate(t.box.contact(btVector3(0, 0, 1), point - t.up * 0.1)));
  // Without the shape the feet decide, as before: above the top less 1 cm.
  filter.begin_tick(feet, false);
  EXPECT_TRUE(filter.validate(t.box.contact(t.up, point)));
}

TEST(OneWayFilter, AWideShapeStandingOnATiltedBodyIsBlocked) {
  // The rim rests on the tilted top (the lowest point along +Y on it): the
  // body blocks like a floor, and so does a level body under the feet.
  TiltedBoxAndCylinder t;
  ScenarioFilter filter(t.box.scenario);
  const btVector3 rim_on_top = t.on_top(0.2);
  t.begin(filter, rim_on_top + btVector3(0, 0, 0.465));  // the rim's lowest point is at -Z
  EXPECT_TRUE(filter.validate(t.box.contact(t.up, rim_on_top)));

  OneWayBox level;
  ScenarioFilter flat(level.scenario);
  t.begin(flat, btVector3(0, kTop + 0.005, 0));
  EXPECT_TRUE(flat.validate(level.contact(btVector3(0, 1, 0), btVector3(0, kTop, 0))));
  t.begin(flat, btVector3(0, kTop - 0.5, 0));
  EXPECT_FALSE(flat.validate(level.contact(btVector3(0, 1, 0), btVector3(0, kTop, 0))));
}

}  // namespace
}  // namespace stepslide
