// The contact memo (contact_memo.h) through the collision adapter: a query
// the tick repeats is answered from the first, and only within a tick; the
// query asked ahead, at rest among static bodies only, is carried to later
// ticks, and asked again whenever what it met may have changed.
#include <gtest/gtest.h>

#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "collision/contact_memo.h"
#include "stepslide/collision.h"
#include "stepslide/contact_filter.h"

namespace stepslide::test {
namespace {

/// A bare Bullet world: a floor box, a kinematic box, a capsule to query.
struct Scene {
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher{&configuration};
  btDbvtBroadphase broadphase;
  btCollisionWorld world{&dispatcher, &broadphase, &configuration};
  btBoxShape floor_shape{btVector3(10, 0.5, 10)};
  btBoxShape crate_shape{btVector3(0.5, 0.5, 0.5)};
  btCollisionObject floor;
  btCollisionObject crate;
  btCapsuleShape capsule{0.3, 1.2};
  btSphereShape ball{0.3};
  btCollisionObject character;
  CollisionQueries queries{&world, &character};

  Scene() {
    character.setCollisionShape(&capsule);
    floor.setCollisionShape(&floor_shape);
    floor.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, -0.5, 0)));
    world.addCollisionObject(&floor);
    crate.setCollisionShape(&crate_shape);
    crate.setCollisionFlags(crate.getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
    move_crate(btVector3(6, 0.5, 0));
    world.addCollisionObject(&crate);
  }
  ~Scene() {
    world.removeCollisionObject(&crate);
    world.removeCollisionObject(&floor);
  }
  void move_crate(const btVector3& center) {
    crate.setWorldTransform(btTransform(btQuaternion::getIdentity(), center));
    if (crate.getBroadphaseHandle() != nullptr) world.updateSingleAabb(&crate);
  }
  std::vector<Contact> contacts_at(const btVector3& center, double max_distance = 0.0) {
    character.setWorldTransform(btTransform(btQuaternion::getIdentity(), center));
    std::vector<Contact> out;
    queries.contacts(&character, max_distance, out);
    return out;
  }
  int repeated() const { return queries.counts().repeated_contacts; }
};

void expect_same(const std::vector<Contact>& a, const std::vector<Contact>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].distance, b[i].distance);
    EXPECT_EQ(a[i].normal, b[i].normal);
    EXPECT_EQ(a[i].point, b[i].point);
    EXPECT_EQ(a[i].object, b[i].object);
    EXPECT_EQ(a[i].face_normal, b[i].face_normal);
  }
}

const btVector3 kSunk(0, 0.85, 0);  // the capsule 5 cm into the floor

TEST(ContactMemo, ARepeatedQueryInATickIsAnsweredFromTheFirst) {
  Scene s;
  s.queries.begin_tick();
  const std::vector<Contact> first = s.contacts_at(kSunk);
  ASSERT_FALSE(first.empty());
  s.contacts_at(btVector3(0, 0.8, 0));  // another pose in between
  const std::vector<Contact> again = s.contacts_at(kSunk);
  EXPECT_EQ(s.repeated(), 1);
  expect_same(first, again);
  s.queries.end_tick();
}

TEST(ContactMemo, AnyDifferenceInTheQueryAsksAgain) {
  Scene s;
  s.queries.begin_tick();
  s.contacts_at(kSunk);
  s.contacts_at(kSunk + btVector3(0, 1e-15, 0));  // a rounding apart
  s.contacts_at(kSunk, 0.01);                     // another threshold
  s.character.setCollisionShape(&s.ball);         // another shape
  s.contacts_at(kSunk);
  EXPECT_EQ(s.repeated(), 0);
  s.queries.end_tick();
}

TEST(ContactMemo, NothingIsRememberedOutsideATickNorFromOneTickToTheNext) {
  Scene s;
  const btVector3 beside(4.3, 0.88, 0);  // in the floor, clear of the crate until it moves
  s.contacts_at(beside);
  s.contacts_at(beside);
  EXPECT_EQ(s.repeated(), 0);  // never opened
  s.queries.begin_tick();
  EXPECT_TRUE(s.contacts_at(beside).size() == 1);  // the floor only
  s.queries.end_tick();
  s.move_crate(btVector3(4.6, 0.5, 0));  // the world moves between ticks
  s.queries.begin_tick();
  const std::vector<Contact> now = s.contacts_at(beside);
  EXPECT_EQ(s.repeated(), 0);
  EXPECT_EQ(now.size(), 2u);  // the crate too
  s.queries.end_tick();
  s.contacts_at(beside);
  EXPECT_EQ(s.repeated(), 0);  // closed again
}

TEST(ContactMemo, ForgettingTheClearanceClosesIt) {
  Scene s;
  s.queries.begin_tick();
  s.contacts_at(kSunk);
  s.queries.forget_clearance();  // a game moved a static body
  s.contacts_at(kSunk);
  EXPECT_EQ(s.repeated(), 0);
}

TEST(ContactMemo, OnlyTheCharactersOwnObjectIsRemembered) {
  Scene s;
  btCollisionObject probe;  // another object (the ground probe's, say)
  btCapsuleShape grown{0.32, 1.2};
  probe.setCollisionShape(&grown);
  probe.setWorldTransform(btTransform(btQuaternion::getIdentity(), kSunk));
  s.queries.begin_tick();
  std::vector<Contact> out;
  s.queries.contacts(&probe, 0.0, out);
  s.queries.contacts(&probe, 0.0, out);
  EXPECT_EQ(s.repeated(), 0);
  EXPECT_FALSE(out.empty());
  s.queries.end_tick();
}

TEST(ContactMemo, TheOldestOfMoreThanItHoldsIsAskedAgain) {
  Scene s;
  s.queries.begin_tick();
  for (int i = 0; i <= ContactMemo::kEntries; ++i) s.contacts_at(kSunk + btVector3(0.01 * i, 0, 0));
  s.contacts_at(kSunk + btVector3(0.01 * ContactMemo::kEntries, 0, 0));  // the newest: remembered
  EXPECT_EQ(s.repeated(), 1);
  s.contacts_at(kSunk);  // the oldest: replaced
  EXPECT_EQ(s.repeated(), 1);
  s.queries.end_tick();
}

// The ray memo beside it: the same ray cast twice in a row within a tick is
// answered from the first (the ground check reads one face several times).
TEST(RayMemo, TheSameRayTwiceInATickIsAnsweredFromTheFirst) {
  Scene s;
  const btVector3 from(6, 2, 0);
  const btVector3 to(6, -1, 0);  // down onto the crate
  s.queries.begin_tick();
  const RayHit first = s.queries.ray(from, to);
  const RayHit again = s.queries.ray(from, to);
  EXPECT_EQ(s.queries.counts().repeated_rays, 1);
  ASSERT_TRUE(first.hit);
  EXPECT_EQ(first.object, &s.crate);
  EXPECT_EQ(again.hit, first.hit);
  EXPECT_EQ(again.fraction, first.fraction);
  EXPECT_EQ(again.normal, first.normal);
  EXPECT_EQ(again.point, first.point);
  EXPECT_EQ(again.object, first.object);
  s.queries.ray(from, to + btVector3(0, 1e-15, 0));  // a rounding apart: asked again
  s.queries.ray(from, to);                            // no longer the ray before
  EXPECT_EQ(s.queries.counts().repeated_rays, 1);
  s.queries.end_tick();
}

TEST(RayMemo, NothingIsRememberedOutsideATickNorAcrossTicks) {
  Scene s;
  const btVector3 from(4.3, 2, 0);
  const btVector3 to(4.3, -1, 0);
  s.queries.ray(from, to);
  s.queries.ray(from, to);
  EXPECT_EQ(s.queries.counts().repeated_rays, 0);  // never opened
  s.queries.begin_tick();
  EXPECT_EQ(s.queries.ray(from, to).object, &s.floor);
  s.queries.end_tick();
  s.move_crate(btVector3(4.3, 0.5, 0));  // the world moves between ticks
  s.queries.begin_tick();
  EXPECT_EQ(s.queries.ray(from, to).object, &s.crate);
  EXPECT_EQ(s.queries.counts().repeated_rays, 0);
  s.queries.forget_clearance();  // a game moved a static body
  s.queries.ray(from, to);
  EXPECT_EQ(s.queries.counts().repeated_rays, 0);
  s.queries.end_tick();
}

TEST(ContactMemo, TheNextQueryOfAnotherObjectIsRememberedOnceWhenAsked) {
  Scene s;
  btCapsuleShape probe_shape{0.32, 1.2};
  btCollisionObject probe;
  probe.setCollisionShape(&probe_shape);
  const auto probe_at = [&](const btVector3& center) {
    probe.setWorldTransform(btTransform(btQuaternion::getIdentity(), center));
    std::vector<Contact> out;
    s.queries.contacts(&probe, 0.0, out);
    return out;
  };
  s.queries.begin_tick();
  probe_at(kSunk);
  probe_at(kSunk);
  EXPECT_EQ(s.repeated(), 0);  // not asked: the probe's queries are not remembered
  s.queries.remember_next_query(&probe);
  const std::vector<Contact> first = probe_at(btVector3(0, 0.86, 0));
  probe_at(btVector3(0, 0.87, 0));  // the next one only: this one is not kept
  const std::vector<Contact> again = probe_at(btVector3(0, 0.86, 0));
  EXPECT_EQ(s.repeated(), 1);
  expect_same(first, again);
  probe_at(btVector3(0, 0.87, 0));
  EXPECT_EQ(s.repeated(), 1);
  s.queries.end_tick();
  s.queries.begin_tick();
  probe_at(btVector3(0, 0.86, 0));  // a new tick remembers nothing
  EXPECT_EQ(s.repeated(), 0);
  s.queries.end_tick();
}

/// The bound the end-of-move check reads from the ground probe's query
/// (move.cpp): a capsule grown by a ball of radius `inflation` and raised by
/// `raise` < inflation overlaps each body at least inflation - raise more
/// deeply than the capsule itself does, and one it does not overlap the
/// capsule does not overlap either.
TEST(ContactMemo, AProbeGrownByABallAndRaisedBoundsTheShapesOverlaps) {
  Scene s;
  constexpr double kInflation = 0.02;
  constexpr double kRaise = 0.002;
  btCapsuleShape probe_shape{0.3 + kInflation, 1.2};
  btCollisionObject probe;
  probe.setCollisionShape(&probe_shape);
  s.move_crate(btVector3(0.6, 0.5, 0.2));
  int overlapping = 0;
  for (int i = 0; i < 400; ++i) {
    // Around the crate's top edges and the floor: x, z across the crate's
    // side, the feet from 5 cm into the floor to 5 cm above the crate.
    const double x = 0.6 - 1.1 + 2.2 * ((i * 37) % 400) / 400.0;
    const double z = 0.2 - 1.1 + 2.2 * ((i * 91) % 400) / 400.0;
    const double feet = -0.05 + 1.1 * ((i * 53) % 400) / 400.0;
    const btVector3 center(x, feet + 0.9, z);
    const std::vector<Contact> real = s.contacts_at(center);
    probe.setWorldTransform(btTransform(btQuaternion::getIdentity(), center + btVector3(0, kRaise, 0)));
    std::vector<Contact> grown;
    s.queries.contacts(&probe, 0.0, grown);
    for (const Contact& c : real) {
      if (c.distance >= 0.0) continue;
      ++overlapping;
      double probe_depth = -1.0;
      for (const Contact& p : grown) {
        if (p.object == c.object) probe_depth = std::max(probe_depth, -p.distance);
      }
      ASSERT_GE(probe_depth, -c.distance + kInflation - kRaise - 1e-12) << i;
    }
  }
  EXPECT_GT(overlapping, 20);
}


/// The query asked ahead (remember_next_query, as the end-of-move check
/// asks the ground probe's) of a probe object, one tick each.
struct Ahead {
  Scene& s;
  btCapsuleShape shape{0.32, 1.2};
  btCollisionObject probe;
  explicit Ahead(Scene& scene) : s(scene) { probe.setCollisionShape(&shape); }
  /// One tick asking the query ahead at `center` (and again, as the ground
  /// check does): its answer.
  std::vector<Contact> tick(const btVector3& center) {
    s.queries.begin_tick();
    probe.setWorldTransform(btTransform(btQuaternion::getIdentity(), center));
    s.queries.remember_next_query(&probe);
    std::vector<Contact> out;
    s.queries.contacts(&probe, 0.0, out);
    std::vector<Contact> again;
    s.queries.contacts(&probe, 0.0, again);
    expect_same(out, again);
    s.queries.end_tick();
    return out;
  }
  int carried() const { return s.queries.counts().carried_contacts; }
  /// The same query asked of a fresh adapter: the answer a carried one must give.
  std::vector<Contact> fresh(const btVector3& center) {
    CollisionQueries other(&s.world, &s.character);
    probe.setWorldTransform(btTransform(btQuaternion::getIdentity(), center));
    std::vector<Contact> out;
    other.contacts(&probe, 0.0, out);
    return out;
  }
};

// Counts reset at begin_tick: each tick's own.
TEST(CarriedContacts, AtRestAmongStaticBodiesTheQueryAskedAheadIsCarriedToTheNextTick) {
  Scene s;
  Ahead a(s);
  a.tick(kSunk);  // the first: nowhere near the last (none)
  EXPECT_EQ(a.carried(), 0);
  a.tick(kSunk);  // at rest: asked, and kept with what it met (the floor)
  EXPECT_EQ(a.carried(), 0);
  const std::vector<Contact> third = a.tick(kSunk);
  EXPECT_EQ(a.carried(), 1);
  ASSERT_FALSE(third.empty());
  expect_same(third, a.fresh(kSunk));
  a.tick(kSunk);
  EXPECT_EQ(a.carried(), 1);
}

TEST(CarriedContacts, OnlyTheSamePoseBitForBitIsCarried) {
  Scene s;
  Ahead a(s);
  a.tick(kSunk);
  a.tick(kSunk);
  const btVector3 apart = kSunk + btVector3(0, 1e-15, 0);  // at rest, a rounding apart
  a.tick(apart);
  EXPECT_EQ(a.carried(), 0);
  a.tick(kSunk);  // both kept now
  EXPECT_EQ(a.carried(), 1);
  a.tick(apart);
  EXPECT_EQ(a.carried(), 1);
  expect_same(a.tick(apart), a.fresh(apart));
}

TEST(CarriedContacts, NearAMovingBodyItIsAskedEveryTick) {
  Scene s;
  Ahead a(s);
  const btVector3 beside(0.3, 0.88, 0);
  s.move_crate(btVector3(0.9, 0.5, 0));  // its box within the probe's
  for (int tick = 0; tick < 4; ++tick) {
    s.move_crate(btVector3(0.9 - 0.02 * tick, 0.5, 0));  // closing in, until it touches
    const std::vector<Contact> now = a.tick(beside);
    EXPECT_EQ(a.carried(), 0) << tick;
    expect_same(now, a.fresh(beside));
  }
  s.move_crate(btVector3(6, 0.5, 0));  // gone again: carried after a pause
  int carried = 0;
  for (int tick = 0; tick < ContactMemo::kPauseAfterMoving + 3; ++tick) {
    expect_same(a.tick(beside), a.fresh(beside));
    carried += a.carried();
  }
  EXPECT_GT(carried, 0);
}

TEST(CarriedContacts, AStaticBodyAddedWhereItWouldBeMetIsMet) {
  Scene s;
  Ahead a(s);
  a.tick(kSunk);
  a.tick(kSunk);
  a.tick(kSunk);
  ASSERT_EQ(a.carried(), 1);
  const std::size_t before = a.tick(kSunk).size();
  btBoxShape post_shape(btVector3(0.1, 1, 0.1));
  btCollisionObject post;  // static, overlapping the probe
  post.setCollisionShape(&post_shape);
  post.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0.35, 1, 0)));
  s.world.addCollisionObject(&post);
  const std::vector<Contact> now = a.tick(kSunk);
  EXPECT_EQ(a.carried(), 0);
  EXPECT_EQ(now.size(), before + 1);
  expect_same(now, a.fresh(kSunk));
  s.world.removeCollisionObject(&post);
  const std::vector<Contact> gone = a.tick(kSunk);
  EXPECT_EQ(a.carried(), 0);
  EXPECT_EQ(gone.size(), before);
}

TEST(CarriedContacts, AStaticBodyMovedIsMetOnceTheGameSaysSo) {
  Scene s;
  Ahead a(s);
  a.tick(kSunk);
  a.tick(kSunk);
  a.tick(kSunk);
  ASSERT_EQ(a.carried(), 1);
  s.floor.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, -0.45, 0)));
  s.world.updateSingleAabb(&s.floor);
  s.queries.forget_clearance();  // as a game must when it moves a static body
  const std::vector<Contact> now = a.tick(kSunk);
  EXPECT_EQ(a.carried(), 0);
  expect_same(now, a.fresh(kSunk));
}

TEST(CarriedContacts, AQueryShapeChangedInPlaceIsAskedAgain) {
  Scene s;
  Ahead a(s);
  a.tick(kSunk);
  a.tick(kSunk);
  a.tick(kSunk);
  ASSERT_EQ(a.carried(), 1);
  a.shape.setLocalScaling(btVector3(1.2, 1, 1.2));  // the same shape object, wider
  const std::vector<Contact> now = a.tick(kSunk);
  EXPECT_EQ(a.carried(), 0);
  expect_same(now, a.fresh(kSunk));
}

struct HideNothing : ContactFilter {
  bool collides_with(const btCollisionObject&) const override { return true; }
  bool validate(const ContactCandidate&) const override { return true; }
};

TEST(CarriedContacts, NothingIsCarriedWhileAFilterDecides) {
  Scene s;
  Ahead a(s);
  HideNothing filter;
  s.queries.set_filter(&filter);
  for (int tick = 0; tick < 4; ++tick) {
    a.tick(kSunk);
    EXPECT_EQ(a.carried(), 0);
  }
  s.queries.set_filter(nullptr);
}

TEST(CarriedContacts, OnlyTheQueryAskedAheadIsCarried) {
  Scene s;
  for (int tick = 0; tick < 4; ++tick) {
    s.queries.begin_tick();
    s.contacts_at(kSunk);  // the character's own: remembered within the tick only
    s.queries.end_tick();
    EXPECT_EQ(s.queries.counts().carried_contacts, 0);
  }
}

// The ground check's first query (carry_next_query): carried while the
// point given stays put, and never remembered within the tick otherwise.
TEST(CarriedContacts, TheGroundChecksQueryIsCarriedWhileThePointStaysPut) {
  Scene s;
  btCapsuleShape shape{0.32, 1.2};
  btCollisionObject probe;
  probe.setCollisionShape(&shape);
  probe.setWorldTransform(btTransform(btQuaternion::getIdentity(), kSunk));
  const auto tick = [&](const btVector3& point) {
    s.queries.begin_tick();
    s.queries.carry_next_query(&probe, point);
    std::vector<Contact> out;
    s.queries.contacts(&probe, 0.0, out);
    s.queries.contacts(&probe, 0.0, out);  // not remembered unless carried
    const QueryCounts counts = s.queries.counts();
    s.queries.end_tick();
    return counts;
  };
  EXPECT_EQ(tick(btVector3(1, 0, 0)).repeated_contacts, 0);
  EXPECT_EQ(tick(btVector3(2, 0, 0)).repeated_contacts, 0);  // moved: not carried, not kept
  EXPECT_EQ(tick(btVector3(2, 0, 0)).carried_contacts, 0);   // at rest: asked and kept
  const QueryCounts carried = tick(btVector3(2, 0, 0));
  EXPECT_EQ(carried.carried_contacts, 1);
  EXPECT_EQ(carried.repeated_contacts, 1);  // the second of the tick, from the carried one
}

}  // namespace
}  // namespace stepslide::test
