// best_separating_plane (separating_plane.h) against a brute-force search
// over directions, for cylinder characters against cylinders and boxes in
// any orientation, and the adapter's contacts that use it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "stepslide/collision.h"
#include "stepslide/separating_plane.h"

#include "support/random_geometry.h"

namespace stepslide::test {
namespace {

/// A cylinder (axis along its pose's y) or a box, as Bullet's GJK sees it:
/// its core grown by a sphere of its margin. Written out here, not taken
/// from Bullet's support functions, so the tests check those too.
struct Solid {
  btTransform pose;
  btVector3 half;  // full half extents, margin included (a cylinder: radius, half height, radius)
  double margin;
  bool cylinder;

  double support(const btVector3& u) const {
    const btVector3 l = pose.getBasis().transpose() * u;
    const btVector3 core = half - btVector3(margin, margin, margin);
    const double extent = cylinder ? core.x() * std::sqrt(l.x() * l.x() + l.z() * l.z()) + core.y() * std::fabs(l.y())
                                   : core.dot(l.absolute());
    return pose.getOrigin().dot(u) + extent + margin;
  }
};

/// How far apart the character and the body are along unit `u` (from the
/// body toward the character). The signed distance of two convex solids is
/// the largest of these over all directions.
double separation(const Solid& character, const Solid& body, const btVector3& u) {
  return -character.support(-u) - body.support(u);
}

/// Brute force: a dense set of directions, the best few then refined by
/// random perturbations that shrink when they stop helping.
double brute_force_distance(const Solid& character, const Solid& body, RandomGeometry& random) {
  constexpr int kDirections = 4000;
  constexpr std::size_t kRefined = 12;
  const double golden = M_PI * (3.0 - std::sqrt(5.0));
  std::vector<std::pair<double, btVector3>> sampled;
  for (int i = 0; i < kDirections; ++i) {
    const double y = 1.0 - 2.0 * (i + 0.5) / kDirections;
    const double r = std::sqrt(1.0 - y * y);
    const btVector3 u(std::cos(golden * i) * r, y, std::sin(golden * i) * r);
    sampled.emplace_back(separation(character, body, u), u);
  }
  std::partial_sort(sampled.begin(), sampled.begin() + kRefined, sampled.end(),
                    [](const auto& a, const auto& b) { return a.first > b.first; });
  double best = -1e30;
  for (std::size_t c = 0; c < kRefined; ++c) {
    auto [value, u] = sampled[c];
    for (double step = 0.05; step > 1e-10; step *= 0.7) {
      for (int k = 0; k < 30; ++k) {
        const btVector3 v = (u + random.point(step)).normalized();
        const double s = separation(character, body, v);
        if (s > value) {
          value = s;
          u = v;
        }
      }
    }
    best = std::max(best, value);
  }
  return best;
}

std::unique_ptr<btConvexShape> make_shape(const Solid& s) {
  std::unique_ptr<btConvexShape> shape;
  if (s.cylinder) {
    shape = std::make_unique<btCylinderShape>(s.half);
  } else {
    shape = std::make_unique<btBoxShape>(s.half);
  }
  shape->setMargin(s.margin);
  return shape;
}

/// An upright cylinder character near the origin and a cylinder or box body
/// in any orientation, close enough to overlap or nearly touch.
struct Case {
  Solid character;
  Solid body;
};

Case random_case(RandomGeometry& random, bool cylinder_body) {
  const double r = random.uniform(0.2, 0.5);
  Case c;
  c.character = {btTransform(btQuaternion::getIdentity(), random.point(0.3)),
                 btVector3(r, random.uniform(0.25, 1.0), r), 0.001, true};
  const double body_r = random.uniform(0.1, 2.5);
  const btVector3 half = cylinder_body ? btVector3(body_r, random.uniform(0.05, 2.0), body_r) : random.vector(0.05, 2.0);
  c.body = {btTransform(random.rotation(), random.point(1.2)), half, 0.001, true};
  c.body.cylinder = cylinder_body;
  return c;
}

/// Our plane's distance is a true separation along its normal (so never
/// more than the signed distance), and within `kTight` of the brute force's
/// best, whatever direction the search starts from.
void check_pairs(bool cylinder_body) {
  constexpr double kTight = 1e-8;  // measured: 2.0e-12 (cylinders), 3.3e-16 (boxes)
  RandomGeometry random(20261123);
  double worst_below = 0.0;
  int overlapping = 0;
  for (int i = 0; i < 1500; ++i) {
    const Case c = random_case(random, cylinder_body);
    const auto a = make_shape(c.character);
    const auto b = make_shape(c.body);
    btVector3 start = random.point(1.0);
    if (start.length2() < 1e-6) start = btVector3(0, 1, 0);
    const SeparatingPlane plane = best_separating_plane(a.get(), c.character.pose, b.get(), c.body.pose,
                                                        start.normalized(), BT_INFINITY);
    ASSERT_NEAR(plane.normal.length(), 1.0, 1e-12) << "case " << i;
    ASSERT_NEAR(plane.distance, separation(c.character, c.body, plane.normal), 1e-12) << "case " << i;
    const double reference = brute_force_distance(c.character, c.body, random);
    ASSERT_GE(plane.distance, reference - kTight) << "case " << i;
    worst_below = std::max(worst_below, reference - plane.distance);
    if (reference < 0.0) ++overlapping;
  }
  EXPECT_GT(overlapping, 500);  // the draw covers overlaps, not only gaps
  ::testing::Test::RecordProperty("worst_below_brute_force", std::to_string(worst_below));
  std::printf("worst below brute force %.3g over %d overlapping\n", worst_below, overlapping);
}

TEST(SeparatingPlane, CylinderAgainstCylinderIsTightAndNeverTooDeep) { check_pairs(true); }

TEST(SeparatingPlane, CylinderAgainstBoxIsTightAndNeverTooDeep) { check_pairs(false); }

/// The adapter's contacts of a cylinder character with a cylinder body in
/// any orientation: each a true separation along its normal, and within
/// 1e-8 m of the brute force's, where Bullet's EPA alone reported depths up
/// to 0.37 m too shallow (issue #15). Checked on 20 000 draws once; 400 here.
TEST(SeparatingPlane, AdapterContactsOfCylinderPairsAreNeverTooShallow) {
  RandomGeometry random(15);
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher(&configuration);
  btDbvtBroadphase broadphase;
  btCollisionWorld world(&dispatcher, &broadphase, &configuration);
  int compared = 0;
  for (int i = 0; i < 400; ++i) {
    const Case c = random_case(random, true);
    const auto a = make_shape(c.character);
    const auto b = make_shape(c.body);
    btCollisionObject character;
    character.setCollisionShape(a.get());
    character.setWorldTransform(c.character.pose);
    btCollisionObject body;
    body.setCollisionShape(b.get());
    body.setWorldTransform(c.body.pose);
    world.addCollisionObject(&body);
    world.updateAabbs();
    CollisionQueries queries(&world, nullptr);
    std::vector<Contact> contacts;
    queries.contacts(&character, 0.0, contacts);
    world.removeCollisionObject(&body);
    const double reference = brute_force_distance(c.character, c.body, random);
    // Bullet finds every overlap (none missed in 20 000 draws); only what
    // it reports can be verified.
    if (reference < -1e-6) {
      EXPECT_FALSE(contacts.empty()) << "case " << i;
    }
    if (contacts.empty()) continue;
    ++compared;
    for (const Contact& contact : contacts) {
      EXPECT_NEAR(contact.distance, separation(c.character, c.body, contact.normal), 1e-12) << "case " << i;
      EXPECT_GE(contact.distance, reference - 1e-8) << "case " << i;
    }
  }
  EXPECT_GT(compared, 200);
}

}  // namespace
}  // namespace stepslide::test

namespace stepslide::test {
namespace {

/// The search's cost on random cylinder/cylinder and cylinder/box pairs from
/// random starts (the worst case: Bullet's normal is usually close): a pair
/// separated along the start by GJK to a 1e-12 m gap, an overlapping one by
/// coarse pattern searches from five starts, finished from distinct ends. Bounds on the mean and the worst, so the cost cannot
/// silently come back (before the separated shortcut, a separated pair cost
/// five searches, some 10 000 evaluations).
TEST(SeparatingPlane, EvaluationsPerSearchAreBounded) {
  RandomGeometry random(97);
  long separated_total = 0;
  long overlapping_total = 0;
  int separated = 0;
  int overlapping = 0;
  int worst_separated = 0;
  int worst = 0;
  for (int i = 0; i < 1000; ++i) {
    Case c = random_case(random, i % 2 == 0);
    const auto a = make_shape(c.character);
    const auto b = make_shape(c.body);
    btVector3 start = random.point(1.0);
    if (start.length2() < 1e-6) start = btVector3(0, 1, 0);
    start.normalize();
    // Every other pair moved apart along the start, as a probe's gap is.
    if (i % 4 >= 2) c.body.pose.getOrigin() -= start * (4.0 + random.uniform(0.0, 0.05));
    const bool apart = separation(c.character, c.body, start) > 0.0;
    const SeparatingPlane plane = best_separating_plane(a.get(), c.character.pose, b.get(), c.body.pose, start,
                                                        BT_INFINITY);
    worst = std::max(worst, plane.evaluations);
    if (apart) {
      separated_total += plane.evaluations;
      worst_separated = std::max(worst_separated, plane.evaluations);
      ++separated;
    } else {
      overlapping_total += plane.evaluations;
      ++overlapping;
    }
  }
  std::printf("evaluations: separated %d pairs mean %.0f worst %d; from overlapping starts %d pairs mean %.0f; worst %d\n",
              separated, double(separated_total) / std::max(separated, 1), worst_separated, overlapping,
              double(overlapping_total) / std::max(overlapping, 1), worst);
  ASSERT_GT(separated, 100);
  ASSERT_GT(overlapping, 100);
  // Measured: separated mean 17, worst 39 (GJK; 2 083 and 3 112 with the
  // pattern search); overlapping mean 3 368, worst 8 039 (10 011 and 12 441
  // when all five starts were finished).
  EXPECT_LE(double(separated_total) / separated, 30.0);
  EXPECT_LE(worst_separated, 100);
  EXPECT_LE(double(overlapping_total) / overlapping, 4000.0);
  EXPECT_LE(worst, 10000);
}

}  // namespace
}  // namespace stepslide::test
