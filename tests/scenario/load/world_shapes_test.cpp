// Primitive bodies of one type and size share one collision shape (a
// level of 100 000 identical crates needs one box shape, not 100 000), and
// every body is still found where it stands.
#include <gtest/gtest.h>

#include "scenario/load/world.h"
#include "stepslide/collision.h"
#include "support/test_bodies.h"

namespace stepslide {
namespace {

BodyDef sphere(Vec3 centre, double radius) {
  BodyDef b;
  b.shape.type = ShapeType::Sphere;
  b.shape.radius = radius;
  b.position = centre;
  return b;
}

BodyDef round_body(ShapeType type, Vec3 centre, double radius, double height) {
  BodyDef b = sphere(centre, radius);
  b.shape.type = type;
  b.shape.height = height;
  return b;
}

TEST(WorldShapes, PrimitivesOfOneTypeAndSizeShareAShape) {
  Scenario s;
  s.world = {
      test::box({0, 0, 0}, {0.5, 0.5, 0.5}),                       // 0
      test::box({3, 0, 0}, {0.5, 0.5, 0.5}),                       // 1: as 0
      test::box({6, 0, 0}, {0.5, 0.5, 0.75}),                      // 2: another size
      sphere({9, 0, 0}, 0.5),                                      // 3: another type
      sphere({12, 0, 0}, 0.5),                                     // 4: as 3
      round_body(ShapeType::Capsule, {15, 0, 0}, 0.5, 2.0),        // 5
      round_body(ShapeType::Cylinder, {18, 0, 0}, 0.5, 2.0),       // 6: same sizes as 5, another type
      round_body(ShapeType::Capsule, {21, 0, 0}, 0.5, 2.0),        // 7: as 5
      test::stairs(3, 0.2, 0.3, 1.0, {24, 0, 0}),                  // 8: generators are never shared
      test::stairs(3, 0.2, 0.3, 1.0, {27, 0, 0}),                  // 9
  };
  World world(s);
  auto shape = [&world](std::size_t i) { return world.bodies()[i].object->getCollisionShape(); };
  EXPECT_EQ(shape(0), shape(1));
  EXPECT_NE(shape(0), shape(2));
  EXPECT_NE(shape(0), shape(3));
  EXPECT_EQ(shape(3), shape(4));
  EXPECT_NE(shape(5), shape(6));
  EXPECT_EQ(shape(5), shape(7));
  EXPECT_NE(shape(8), shape(9));

  // Each body is hit at its own place, with its own top.
  CollisionQueries queries(world.collision_world(), nullptr);
  const double tops[] = {0.5, 0.5, 0.5, 0.5, 0.5, 1.0, 1.0, 1.0};
  for (std::size_t i = 0; i < 8; ++i) {
    const double x = 3.0 * static_cast<double>(i);
    const RayHit hit = queries.ray(btVector3(x, 5, 0), btVector3(x, -5, 0));
    ASSERT_TRUE(hit.hit) << i;
    EXPECT_EQ(world.body_name(hit.object), "world[" + std::to_string(i) + "]");
    EXPECT_NEAR(hit.point.y(), tops[i], 2e-3) << i;
  }
}

}  // namespace
}  // namespace stepslide
