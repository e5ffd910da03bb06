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

}  // namespace
}  // namespace stepslide
