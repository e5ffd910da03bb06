// The contact filter (stepslide/contact_filter.h) through the collision
// adapter: a body the filter refuses is seen by no query, a contact or hit
// it does not validate is dropped, on boxes and on a triangle mesh.
#include <gtest/gtest.h>

#include <btBulletCollisionCommon.h>

#include <memory>
#include <vector>

#include "stepslide/collision.h"
#include "stepslide/contact_filter.h"

namespace stepslide::test {
namespace {

struct Scene {
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher{&configuration};
  btDbvtBroadphase broadphase;
  btCollisionWorld world{&dispatcher, &broadphase, &configuration};
  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<std::unique_ptr<btCollisionObject>> bodies;
  btTriangleMesh mesh_data;
  btCapsuleShape capsule{0.3, 1.2};
  btCollisionObject character;
  CollisionQueries queries{&world, &character};

  Scene() { character.setCollisionShape(&capsule); }
  ~Scene() {
    for (auto& b : bodies) world.removeCollisionObject(b.get());
  }
  btCollisionObject* add(std::unique_ptr<btCollisionShape> shape, const btVector3& at) {
    shapes.push_back(std::move(shape));
    bodies.push_back(std::make_unique<btCollisionObject>());
    btCollisionObject* body = bodies.back().get();
    body->setCollisionShape(shapes.back().get());
    body->setWorldTransform(btTransform(btQuaternion::getIdentity(), at));
    world.addCollisionObject(body);
    world.updateSingleAabb(body);
    return body;
  }
  btCollisionObject* add_box(const btVector3& center, const btVector3& half) {
    auto box = std::make_unique<btBoxShape>(half);
    box->setMargin(0.001);
    return add(std::move(box), center);
  }
  /// A horizontal square of two triangles, 4 m across, at height `y`.
  btCollisionObject* add_mesh_slab(double y) {
    const btVector3 a(-2, 0, -2), b(2, 0, -2), c(2, 0, 2), d(-2, 0, 2);
    mesh_data.addTriangle(a, c, b);
    mesh_data.addTriangle(a, d, c);
    return add(std::make_unique<btBvhTriangleMeshShape>(&mesh_data, true), btVector3(0, y, 0));
  }
  std::vector<Contact> contacts_at(const btVector3& center) {
    character.setWorldTransform(btTransform(btQuaternion::getIdentity(), center));
    std::vector<Contact> out;
    queries.contacts(&character, 0.0, out);
    return out;
  }
  SweepHit sweep(const btVector3& from, const btVector3& to) {
    return queries.sweep(&capsule, btTransform(btQuaternion::getIdentity(), from), to);
  }
};

/// Refuses one body; validates only contacts whose normal points up (a
/// one-way platform's rule, seen from the query's side).
struct Filter : ContactFilter {
  const btCollisionObject* hidden = nullptr;
  bool only_from_above = false;
  mutable int bodies_asked = 0;
  bool collides_with(const btCollisionObject& body) const override {
    ++bodies_asked;
    return &body != hidden;
  }
  bool validate(const ContactCandidate& c) const override { return !only_from_above || c.normal.y() > 0.5; }
};

constexpr double kHalf = 0.9;  // capsule centre above its bottom

TEST(ContactFilter, ARefusedBodyIsSeenByNoQuery) {
  Scene s;
  s.add_box(btVector3(0, -0.5, 0), btVector3(10, 0.5, 10));
  btCollisionObject* wall = s.add_box(btVector3(0, 1, -2), btVector3(2, 1, 0.2));
  Filter filter;
  filter.hidden = wall;
  // Without the filter the wall blocks.
  EXPECT_EQ(s.sweep(btVector3(0, 1, 0), btVector3(0, 1, -4)).object, wall);
  EXPECT_EQ(s.queries.ray(btVector3(0, 1, 0), btVector3(0, 1, -4)).object, wall);
  s.queries.set_filter(&filter);
  EXPECT_FALSE(s.sweep(btVector3(0, 1, 0), btVector3(0, 1, -4)).hit);
  EXPECT_FALSE(s.queries.ray(btVector3(0, 1, 0), btVector3(0, 1, -4)).hit);
  for (const Contact& c : s.contacts_at(btVector3(0, 1, -1.9))) EXPECT_NE(c.object, wall);
  EXPECT_GT(filter.bodies_asked, 0);
  // The floor still blocks.
  EXPECT_TRUE(s.sweep(btVector3(0, 2, 0), btVector3(0, 0, 0)).hit);
  s.queries.set_filter(nullptr);
  EXPECT_EQ(s.sweep(btVector3(0, 1, 0), btVector3(0, 1, -4)).object, wall);
}

void expect_one_way(Scene& s, const btCollisionObject* platform, double top) {
  Filter filter;
  filter.only_from_above = true;
  s.queries.set_filter(&filter);
  // From below: no hit, no push down.
  EXPECT_FALSE(s.sweep(btVector3(0, top - 2.5, 0), btVector3(0, top + 2, 0)).hit);
  EXPECT_FALSE(s.queries.ray(btVector3(0, top - 1, 0), btVector3(0, top + 1, 0)).hit);
  // The head 5 cm above its top, coming from below.
  EXPECT_TRUE(s.contacts_at(btVector3(0, top - kHalf + 0.05, 0)).empty());
  // From above: it lands, and the ray finds it.
  const SweepHit land = s.sweep(btVector3(0, top + 2, 0), btVector3(0, top - 1, 0));
  EXPECT_EQ(land.object, platform);
  EXPECT_NEAR(land.normal.y(), 1.0, 1e-9);
  EXPECT_EQ(s.queries.ray(btVector3(0, top + 1, 0), btVector3(0, top - 1, 0)).object, platform);
  const std::vector<Contact> standing = s.contacts_at(btVector3(0, top + kHalf - 0.01, 0));
  ASSERT_FALSE(standing.empty());
  EXPECT_EQ(standing.front().object, platform);
  s.queries.set_filter(nullptr);
}

TEST(ContactFilter, AOneWayBoxBlocksOnlyFromAbove) {
  Scene s;
  const btCollisionObject* platform = s.add_box(btVector3(0, 2, 0), btVector3(2, 0.1, 2));
  EXPECT_FALSE(s.contacts_at(btVector3(0, 2.1 - kHalf + 0.05, 0)).empty());  // unfiltered
  expect_one_way(s, platform, 2.1);
  // Unfiltered, it blocks from below too.
  EXPECT_EQ(s.sweep(btVector3(0, -0.4, 0), btVector3(0, 4.1, 0)).object, platform);
}

TEST(ContactFilter, AOneWayMeshBlocksOnlyFromAbove) {
  Scene s;
  const btCollisionObject* platform = s.add_mesh_slab(2.0);
  expect_one_way(s, platform, 2.0);
}

TEST(ContactFilter, NoClearanceIsCertifiedWhileAFilterIsSet) {
  Scene s;
  s.add_box(btVector3(0, -0.5, 0), btVector3(10, 0.5, 10));
  Filter filter;
  s.queries.set_filter(&filter);
  const btTransform pose(btQuaternion::getIdentity(), btVector3(0, kHalf + 0.5, 0));
  s.character.setWorldTransform(pose);
  s.queries.certify_clear(&s.character, pose, 0.1);
  std::vector<Contact> out;
  s.queries.contacts(&s.character, 0.0, out);
  EXPECT_EQ(s.queries.counts().reused_contacts, 0);
}

}  // namespace
}  // namespace stepslide::test
