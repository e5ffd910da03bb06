// The scenario's one-way rule (src/scenario/run/scenario_filter.h): which
// contacts with a one-way box block, from the feet where the tick started.

#include <gtest/gtest.h>

#include <btBulletCollisionCommon.h>

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

}  // namespace
}  // namespace stepslide
