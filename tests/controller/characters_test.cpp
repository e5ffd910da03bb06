// Characters meeting characters (CharacterController::add_to_world,
// CharacterBody): they block each other with their skins kept, stand on
// each other, and push each other through the Pushable rule; the push is
// taken as a velocity change across up on the pushed one's next update.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "controller/rig.h"
#include "stepslide/pushable.h"

namespace stepslide::test {
namespace {

/// A floor at y 0 and two capsule controllers in the same world, both added to it.
struct Pair {
  Scenario scenario;
  std::unique_ptr<World> world;
  std::unique_ptr<CharacterController> a, b;

  Pair(ControllerSettings sa, ControllerSettings sb, const btVector3& feet_a, const btVector3& feet_b) {
    scenario.ticks = 1;
    scenario.world = {floor_at(0)};
    world = std::make_unique<World>(scenario);
    a = make(sa);
    b = make(sb);
    a->reset(feet_a, btVector3(0, 0, 0));
    b->reset(feet_b, btVector3(0, 0, 0));
    a->add_to_world();
    b->add_to_world();
  }
  std::unique_ptr<CharacterController> make(const ControllerSettings& settings) {
    return std::make_unique<CharacterController>(world->collision_world(), CharacterShapeDesc{}, settings,
                                                 btVector3(0, 1, 0), btVector3(0, -9.81, 0));
  }
  double gap() const {
    return (b->state().position - a->state().position).length() - 2 * 0.3;  // between the capsules' surfaces
  }
};

CharacterInput wish(double x) {
  CharacterInput input;
  input.use_wish_velocity = true;
  input.wish_velocity = btVector3(x, 0, 0);
  return input;
}

struct PushLog : ControllerObserver {
  void on_push(const PushEvent& e) override { pushes.push_back(e); }
  std::vector<PushEvent> pushes;
};

TEST(Characters, ABodyIsPushableAndAPlainUserObjectIsNot) {
  Pair pair({}, {}, btVector3(0, 0, 0), btVector3(3, 0, 0));
  EXPECT_TRUE(Pushable::of(&pair.b->body()));
  EXPECT_EQ(Pushable::of(&pair.b->body()).object(), &pair.b->body());
  struct Plain : btCollisionObject {
    Plain() { m_internalType = CO_USER_TYPE; }
  } plain;
  EXPECT_FALSE(Pushable::of(&plain));
}

TEST(Characters, APushChangesOnlyTheVelocityAcrossUpOverTheMass) {
  ControllerSettings heavy;
  heavy.mass = 80;
  Pair pair({}, heavy, btVector3(0, 0, 0), btVector3(3, 0, 0));
  CharacterBody& body = const_cast<CharacterBody&>(pair.b->body());
  EXPECT_DOUBLE_EQ(body.inverse_mass_along(btVector3(), btVector3(1, 0, 0)), 1.0 / 80);
  EXPECT_DOUBLE_EQ(body.inverse_mass_along(btVector3(), btVector3(0, -1, 0)), 0.0);
  body.apply_impulse(btVector3(40, -100, 0), btVector3());
  EXPECT_EQ(body.pending_push(), btVector3(0.5, 0, 0));
  EXPECT_EQ(body.velocity_at(btVector3()), btVector3(0.5, 0, 0));
  // The next update takes it, and it is gone after.
  pair.b->update(CharacterInput{}, kDt60);
  EXPECT_EQ(body.pending_push(), btVector3(0, 0, 0));
  EXPECT_GT(pair.b->state().position.x(), 3.0);
}

TEST(Characters, TheyBlockEachOtherWithTheSkinKept) {
  ControllerSettings stubborn;
  stubborn.max_push_strength = 0;
  Pair pair(stubborn, stubborn, btVector3(0, 0, 0), btVector3(2, 0, 0));
  for (int tick = 0; tick < 90; ++tick) {
    pair.a->update(wish(2), kDt60);
    pair.b->update(wish(-2), kDt60);
    ASSERT_GE(pair.gap(), pair.a->settings().skin_width * 0.99) << tick;
  }
  EXPECT_LT(pair.gap(), 3 * pair.a->settings().skin_width);  // they met
  EXPECT_EQ(pair.a->body().pending_push(), btVector3(0, 0, 0));
}

TEST(Characters, APushIsReportedWithTheOtherCharactersBody) {
  Pair pair({}, {}, btVector3(0, 0, 0), btVector3(0.7, 0, 0));
  PushLog log;
  pair.a->set_observer(&log);
  for (int tick = 0; tick < 10; ++tick) {
    pair.a->update(wish(2), kDt60);
    pair.b->update(CharacterInput{}, kDt60);
  }
  ASSERT_FALSE(log.pushes.empty());
  EXPECT_EQ(log.pushes.front().kind, PushEvent::Kind::Push);
  EXPECT_EQ(log.pushes.front().body, &pair.b->body());
  EXPECT_GT(log.pushes.front().impulse.x(), 0.0);
  EXPECT_GT(pair.b->state().position.x(), 0.7);  // shoved along
}

TEST(Characters, OneStandsOnAnotherAndRidesIt) {
  Pair pair({}, {}, btVector3(0, 0, 0), btVector3(0, 2.2, 0));
  for (int tick = 0; tick < 60; ++tick) {
    pair.a->update(CharacterInput{}, kDt60);
    pair.b->update(CharacterInput{}, kDt60);
  }
  ASSERT_TRUE(pair.b->state().grounded);
  EXPECT_EQ(pair.b->state().ground_object, &pair.a->body());
  EXPECT_NEAR(pair.b->state().position.y(), 1.8, 0.03);
  for (int tick = 0; tick < 60; ++tick) {
    pair.a->update(wish(1), kDt60);
    pair.b->update(CharacterInput{}, kDt60);
  }
  EXPECT_TRUE(pair.b->state().grounded);
  EXPECT_NEAR(pair.b->state().position.x(), pair.a->state().position.x(), 0.02);
}

TEST(Characters, TheSnapshotCarriesThePendingPush) {
  Pair pair({}, {}, btVector3(0, 0, 0), btVector3(3, 0, 0));
  const_cast<CharacterBody&>(pair.b->body()).apply_impulse(btVector3(70, 0, 0), btVector3());
  const ControllerSnapshot saved = pair.b->save_state();
  EXPECT_EQ(saved.pushed, btVector3(1, 0, 0));
  pair.b->update(CharacterInput{}, kDt60);
  ControllerSnapshot other = saved;
  other.pushed = btVector3(0, 0, 0);
  EXPECT_FALSE(same_snapshot(saved, other));
  pair.b->restore_state(saved);
  EXPECT_EQ(pair.b->body().pending_push(), btVector3(1, 0, 0));
  EXPECT_TRUE(same_snapshot(pair.b->save_state(), saved));
}

TEST(Characters, RemovedFromTheWorldTheyNoLongerMeet) {
  ControllerSettings stubborn;
  stubborn.max_push_strength = 0;
  Pair pair(stubborn, stubborn, btVector3(0, 0, 0), btVector3(1, 0, 0));
  pair.b->remove_from_world();
  EXPECT_FALSE(pair.b->in_world());
  for (int tick = 0; tick < 60; ++tick) pair.a->update(wish(2), kDt60);
  EXPECT_GT(pair.a->state().position.x(), 1.5);  // walked through where b stands
}

}  // namespace
}  // namespace stepslide::test
