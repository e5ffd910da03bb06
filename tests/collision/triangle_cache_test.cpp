// The triangle cache (triangle_cache.h) for meshes and heightfields: every
// query hands out exactly the triangles (vertices, part, index), in exactly
// the order, that Bullet's own tree or grid walk hands out, across reuse,
// regions outgrown, a body moved and a tree rebuilt or a field rescaled; and
// the adapter's contacts, sweeps (capsule and box) and rays answer bit for
// bit as without it.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <tuple>
#include <vector>

#include "collision/box_sweep_pairs.h"
#include "collision/triangle_cache.h"
#include "collision/triangle_pairs.h"
#include "stepslide/collision.h"
#include "support/random_geometry.h"

namespace stepslide::test {
namespace {

bool same_bits(const btVector3& a, const btVector3& b) {
  return std::memcmp(a.m_floats, b.m_floats, 3 * sizeof(btScalar)) == 0;
}

/// Every triangle handed to it, as handed.
struct Visits : btTriangleCallback {
  struct Visit {
    btVector3 v[3];
    int part;
    int index;
    bool operator==(const Visit& o) const {
      return part == o.part && index == o.index && same_bits(v[0], o.v[0]) && same_bits(v[1], o.v[1]) &&
             same_bits(v[2], o.v[2]);
    }
  };
  void processTriangle(btVector3* v, int part, int index) override { seen.push_back({{v[0], v[1], v[2]}, part, index}); }
  std::vector<Visit> seen;
};

/// A ray callback that records every triangle the ray's walk hands it.
struct RayVisits : btTriangleRaycastCallback {
  RayVisits(const btVector3& from, const btVector3& to) : btTriangleRaycastCallback(from, to) {}
  void processTriangle(btVector3* v, int part, int index) override { visits.processTriangle(v, part, index); }
  btScalar reportHit(const btVector3&, btScalar fraction, int, int) override { return fraction; }
  Visits visits;
};

/// A bumpy terrain of 2 * 30 * 30 triangles with a wall of small triangles
/// across it, in two parts (the second with short indices, float vertices).
struct Terrain {
  Terrain() {
    RandomGeometry random(31);
    auto height = [&](int i, int j) { return 0.4 * std::sin(0.7 * i) * std::cos(0.5 * j) + random.uniform(0, 0.05); };
    for (int i = 0; i < 30; ++i) {
      for (int j = 0; j < 30; ++j) {
        const btVector3 p00(i * 0.7, height(i, j), j * 0.7);
        const btVector3 p10((i + 1) * 0.7, height(i + 1, j), j * 0.7);
        const btVector3 p01(i * 0.7, height(i, j + 1), (j + 1) * 0.7);
        const btVector3 p11((i + 1) * 0.7, height(i + 1, j + 1), (j + 1) * 0.7);
        first.addTriangle(p00, p10, p11, false);
        first.addTriangle(p00, p11, p01, false);
      }
    }
    // The wall: a second part, short indices and float vertices.
    for (int i = 0; i <= 40; ++i) {
      for (int k = 0; k <= 4; ++k) {
        wall_vertices.push_back(static_cast<float>(2.0 + i * 0.45));
        wall_vertices.push_back(static_cast<float>(-0.5 + k * 0.5));
        wall_vertices.push_back(static_cast<float>(10.0 + 0.1 * std::sin(i)));
      }
    }
    for (int i = 0; i < 40; ++i) {
      for (int k = 0; k < 4; ++k) {
        const auto at = [](int a, int b) { return static_cast<unsigned short>(a * 5 + b); };
        for (unsigned short v : {at(i, k), at(i + 1, k), at(i + 1, k + 1), at(i, k), at(i + 1, k + 1), at(i, k + 1)})
          wall_indices.push_back(v);
      }
    }
    btIndexedMesh wall;
    wall.m_numTriangles = static_cast<int>(wall_indices.size() / 3);
    wall.m_triangleIndexBase = reinterpret_cast<const unsigned char*>(wall_indices.data());
    wall.m_triangleIndexStride = 3 * sizeof(unsigned short);
    wall.m_numVertices = static_cast<int>(wall_vertices.size() / 3);
    wall.m_vertexBase = reinterpret_cast<const unsigned char*>(wall_vertices.data());
    wall.m_vertexStride = 3 * sizeof(float);
    wall.m_vertexType = PHY_FLOAT;
    first.addIndexedMesh(wall, PHY_SHORT);
    shape = std::make_unique<btBvhTriangleMeshShape>(&first, true);
  }
  btTriangleMesh first{true, true};
  std::vector<float> wall_vertices;
  std::vector<unsigned short> wall_indices;
  std::unique_ptr<btBvhTriangleMeshShape> shape;
};

TEST(TriangleCache, HandsOutWhatBulletsWalkHandsOutInItsOrder) {
  Terrain terrain;
  ASSERT_EQ(terrain.first.getNumSubParts(), 2);
  TriangleCache cache;
  RandomGeometry random(5);
  btVector3 at(3, 0.5, 3);
  std::size_t handed = 0;
  std::size_t rays_handed = 0;
  for (int step = 0; step < 600; ++step) {
    // A wander that leaves regions, with now and then a jump far away.
    at += random.within(btVector3(-0.2, -0.05, -0.2), btVector3(0.3, 0.05, 0.3));
    if (step % 150 == 149) {
      const double z = random.uniform(0, 21);
      at = btVector3(random.uniform(0, 21), 0.5, z);
    }
    const btVector3 half = random.within(btVector3(0.2, 0.5, 0.2), btVector3(0.6, 1.2, 0.6));
    Visits ours;
    Visits bullets;
    ASSERT_TRUE(cache.process_all_triangles(terrain.shape.get(), &ours, at - half, at + half));
    terrain.shape->processAllTriangles(&bullets, at - half, at + half);
    ASSERT_EQ(ours.seen, bullets.seen) << "step " << step;
    handed += ours.seen.size();
    const btVector3 to = at + random.within(btVector3(-1, -1.5, -1), btVector3(1, 0.2, 1));
    RayVisits ray_ours(at, to);
    RayVisits ray_bullets(at, to);
    ASSERT_TRUE(cache.perform_raycast(terrain.shape.get(), &ray_ours, at, to));
    terrain.shape->performRaycast(&ray_bullets, at, to);
    ASSERT_EQ(ray_ours.visits.seen, ray_bullets.visits.seen) << "step " << step;
    rays_handed += ray_ours.visits.seen.size();
  }
  EXPECT_GT(handed, 3000u);
  EXPECT_GT(rays_handed, 300u);
  EXPECT_GT(cache.reuses(), 3 * cache.gathers());  // reused, not gathered per query
  EXPECT_GT(cache.gathers(), 10);                   // and gathered again as regions are outgrown
}

TEST(TriangleCache, TrianglesFirstMetAfterTheGatherAreHandedOutAsBulletsWalkHandsThem) {
  // A region's triangles are filled in when a query first meets them: the
  // triangles the first query (a sliver) does not meet are still handed
  // out, with their vertices, to the later queries and rays inside the
  // region, and a smaller region gathered after a larger one hands out
  // none of the larger one's.
  Terrain terrain;
  TriangleCache cache;
  const btVector3 centre(6, 0, 6);
  const btVector3 sliver(0.01, 0.01, 0.01);
  Visits first;
  ASSERT_TRUE(cache.process_all_triangles(terrain.shape.get(), &first, centre - sliver, centre + sliver));
  ASSERT_EQ(cache.gathers(), 1);
  const btVector3 offsets[] = {{0.6, 0, 0.6}, {-0.7, 0, 0.2}, {0.3, 0, -0.8}, {0, 0, 0}};
  for (const btVector3& offset : offsets) {
    const btVector3 low = centre + offset - btVector3(0.2, 1, 0.2);
    const btVector3 high = centre + offset + btVector3(0.2, 1, 0.2);
    Visits ours;
    Visits bullets;
    ASSERT_TRUE(cache.process_all_triangles(terrain.shape.get(), &ours, low, high));
    terrain.shape->processAllTriangles(&bullets, low, high);
    EXPECT_FALSE(bullets.seen.empty());
    EXPECT_EQ(ours.seen, bullets.seen);
  }
  const btVector3 from = centre + btVector3(-0.9, 0.9, 0.9);
  const btVector3 to = centre + btVector3(0.9, -0.9, -0.9);
  RayVisits ray_ours(from, to);
  RayVisits ray_bullets(from, to);
  ASSERT_TRUE(cache.perform_raycast(terrain.shape.get(), &ray_ours, from, to));
  terrain.shape->performRaycast(&ray_bullets, from, to);
  EXPECT_FALSE(ray_bullets.visits.seen.empty());
  EXPECT_EQ(ray_ours.visits.seen, ray_bullets.visits.seen);
  EXPECT_EQ(cache.gathers(), 1);  // all from the sliver's region
  // Elsewhere, regions of other sizes in both of the mesh's places; then back.
  for (const btVector3& at : {btVector3(20, 0, 20), btVector3(12, 0, 3), centre}) {
    Visits ours;
    Visits bullets;
    const btVector3 half(0.3, 1, 0.3);
    ASSERT_TRUE(cache.process_all_triangles(terrain.shape.get(), &ours, at - half, at + half));
    terrain.shape->processAllTriangles(&bullets, at - half, at + half);
    EXPECT_EQ(ours.seen, bullets.seen);
  }
  EXPECT_EQ(cache.gathers(), 4);
}

TEST(TriangleCache, AMeshKeepsTwoRegionsAndGathersAQueryInNeither) {
  // Two places far apart each gather once and are then answered from their
  // own region, alternately; a third place is in neither, so it is gathered
  // (in the place of the one used longest ago) and answers as Bullet's
  // walk; the one it replaced is gathered again when asked again.
  Terrain terrain;
  TriangleCache cache;
  const btVector3 half(0.3, 1, 0.3);
  auto ask = [&](const btVector3& at) {
    Visits ours;
    Visits bullets;
    ASSERT_TRUE(cache.process_all_triangles(terrain.shape.get(), &ours, at - half, at + half));
    terrain.shape->processAllTriangles(&bullets, at - half, at + half);
    EXPECT_FALSE(bullets.seen.empty());
    EXPECT_EQ(ours.seen, bullets.seen);
  };
  const btVector3 a(4, 0, 4);
  const btVector3 b(16, 0, 16);
  const btVector3 c(4, 0, 16);
  for (int round = 0; round < 3; ++round) {
    ask(a);
    ask(b);
  }
  EXPECT_EQ(cache.gathers(), 2);
  EXPECT_EQ(cache.reuses(), 4);
  ask(c);  // in neither: gathered where a was
  EXPECT_EQ(cache.gathers(), 3);
  ask(b);
  ask(c);
  EXPECT_EQ(cache.gathers(), 3);
  ask(a);  // replaced: gathered again
  EXPECT_EQ(cache.gathers(), 4);
}

TEST(TriangleCache, ARebuiltTreeIsGatheredAgain) {
  Terrain terrain;
  TriangleCache cache;
  const btVector3 low(4, -1, 4);
  const btVector3 high(5, 1, 5);
  Visits before;
  ASSERT_TRUE(cache.process_all_triangles(terrain.shape.get(), &before, low, high));
  terrain.shape->setLocalScaling(btVector3(1.5, 1, 1.5));  // Bullet rebuilds the tree
  Visits ours;
  Visits bullets;
  ASSERT_TRUE(cache.process_all_triangles(terrain.shape.get(), &ours, low, high));
  terrain.shape->processAllTriangles(&bullets, low, high);
  EXPECT_EQ(ours.seen, bullets.seen);
  EXPECT_FALSE(ours.seen == before.seen);
  EXPECT_EQ(cache.gathers(), 2);
}

TEST(TriangleCache, AnswersOnlyForQuantisedStacklessMeshTrees) {
  Terrain terrain;
  TriangleCache cache;
  Visits visits;
  btBoxShape box(btVector3(1, 1, 1));
  EXPECT_FALSE(cache.process_all_triangles(&box, &visits, btVector3(-1, -1, -1), btVector3(1, 1, 1)));
  terrain.shape->getOptimizedBvh()->setTraversalMode(btQuantizedBvh::TRAVERSAL_RECURSIVE);
  EXPECT_FALSE(cache.process_all_triangles(terrain.shape.get(), &visits, btVector3(0, -1, 0), btVector3(2, 1, 2)));
  btBvhTriangleMeshShape unquantised(&terrain.first, false);
  EXPECT_FALSE(cache.process_all_triangles(&unquantised, &visits, btVector3(0, -1, 0), btVector3(2, 1, 2)));
  EXPECT_TRUE(visits.seen.empty());
  EXPECT_EQ(cache.gathers(), 0);
}

TEST(TriangleCache, ForgetGathersAgain) {
  Terrain terrain;
  TriangleCache cache;
  Visits visits;
  const btVector3 low(4, -1, 4);
  const btVector3 high(5, 1, 5);
  ASSERT_TRUE(cache.process_all_triangles(terrain.shape.get(), &visits, low, high));
  ASSERT_TRUE(cache.process_all_triangles(terrain.shape.get(), &visits, low, high));
  cache.forget();
  ASSERT_TRUE(cache.process_all_triangles(terrain.shape.get(), &visits, low, high));
  EXPECT_EQ(cache.gathers(), 2);
  EXPECT_EQ(cache.reuses(), 1);
}

/// A heightfield of width x length grid points (1 m apart before scaling)
/// with bumpy random heights within -0.5..0.5, in any of the data types, up
/// axes, subdivisions, windings and scalings Bullet's walk knows.
struct Field {
  struct Options {
    PHY_ScalarType type = PHY_DOUBLE;
    int up = 1;
    bool flip_edges = false;
    bool diamond = false;
    bool zigzag = false;
    bool flip_winding = false;
    btVector3 scaling{1, 1, 1};
    int width = 21;
    int length = 21;
  };
  explicit Field(const Options& o) : options(o) {
    RandomGeometry random(7);
    for (int j = 0; j < o.length; ++j) {
      for (int i = 0; i < o.width; ++i) {
        const double h = 0.4 * std::sin(0.7 * i) * std::cos(0.5 * j) + random.uniform(0, 0.05);
        doubles.push_back(h);
        floats.push_back(static_cast<float>(h));
        shorts.push_back(static_cast<short>(std::lround(h / 0.01)));
        bytes.push_back(static_cast<unsigned char>(std::lround((h + 0.5) / 0.004)));
      }
    }
    const void* data = o.type == PHY_DOUBLE  ? static_cast<const void*>(doubles.data())
                       : o.type == PHY_FLOAT ? static_cast<const void*>(floats.data())
                       : o.type == PHY_SHORT ? static_cast<const void*>(shorts.data())
                                             : static_cast<const void*>(bytes.data());
    const double scale = o.type == PHY_SHORT ? 0.01 : 0.004;
    const double low = o.type == PHY_UCHAR ? 0.0 : -0.5;
    const double high = o.type == PHY_UCHAR ? 1.0 : 0.5;
    // (The constructor taking a type reads PHY_FLOAT as btScalar: double here.)
    shape = o.type == PHY_FLOAT ? std::make_unique<btHeightfieldTerrainShape>(o.width, o.length, floats.data(), low,
                                                                              high, o.up, o.flip_edges)
                                : std::make_unique<btHeightfieldTerrainShape>(o.width, o.length, data, scale, low,
                                                                              high, o.up, o.type, o.flip_edges);
    shape->setUseDiamondSubdivision(o.diamond);
    shape->setUseZigzagSubdivision(o.zigzag);
    shape->setFlipTriangleWinding(o.flip_winding);
    shape->setLocalScaling(o.scaling);
  }
  Options options;
  std::vector<double> doubles;
  std::vector<float> floats;
  std::vector<short> shorts;
  std::vector<unsigned char> bytes;
  std::unique_ptr<btHeightfieldTerrainShape> shape;
};

TEST(TriangleCache, HandsOutWhatAHeightfieldsWalkHandsOutInItsOrder) {
  std::vector<Field::Options> kinds(12);
  kinds[1].up = 0;
  kinds[2].up = 2;
  kinds[3].flip_edges = true;
  kinds[4].diamond = true;
  kinds[5].zigzag = true;
  kinds[6].flip_winding = true;
  kinds[7].type = PHY_FLOAT;
  kinds[8].type = PHY_SHORT;
  kinds[9].type = PHY_UCHAR;
  kinds[10].scaling = btVector3(0.6, 1.4, 0.35);  // dense along z: smaller regions
  kinds[10].width = 24;
  kinds[11].up = 2;
  kinds[11].diamond = true;
  kinds[11].flip_winding = true;
  kinds[11].scaling = btVector3(1.3, 0.7, 0.5);
  kinds[11].length = 17;
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    Field field(kinds[k]);
    TriangleCache cache;
    RandomGeometry random(40 + k);
    const int up = kinds[k].up;
    const int across[2] = {up == 0 ? 1 : 0, up == 2 ? 1 : 2};
    const btVector3& scaling = kinds[k].scaling;
    btVector3 reach(0, 0, 0);  // half the field's extent along the two axes across it
    reach[across[0]] = 0.5 * (kinds[k].width - 1) * scaling[across[0]];
    reach[across[1]] = 0.5 * (kinds[k].length - 1) * scaling[across[1]];
    btVector3 at(0, 0, 0);
    std::size_t handed = 0;
    int declined = 0;
    for (int step = 0; step < 400; ++step) {
      // A wander that leaves regions, with now and then a jump anywhere,
      // off the field's edges too.
      at += random.vector(-0.25, 0.3);
      if (step % 50 == 49) {
        const double z = random.uniform(-1.2, 1.2);
        at = btVector3(random.uniform(-1.2, 1.2), 0, z) * reach;
      }
      at[up] = random.uniform(-0.6, 0.6) * scaling[up];
      // Thin boxes too, whose up span lets the walk skip triangles.
      btVector3 half = random.vector(0.1, 1.5);
      half[up] = random.uniform(0.01, 0.8) * scaling[up];
      Visits ours;
      Visits bullets;
      const bool answered = cache.process_all_triangles(field.shape.get(), &ours, at - half, at + half);
      field.shape->processAllTriangles(&bullets, at - half, at + half);
      if (!answered) {
        ++declined;
        ASSERT_TRUE(ours.seen.empty());
        continue;
      }
      ASSERT_EQ(ours.seen, bullets.seen) << "kind " << k << " step " << step;
      handed += ours.seen.size();
    }
    EXPECT_GT(handed, 4000u) << "kind " << k;
    EXPECT_LE(declined, 2) << "kind " << k;  // only where rounding is in doubt
    EXPECT_GT(cache.reuses(), 2 * cache.gathers()) << "kind " << k;
    EXPECT_GT(cache.gathers(), 10) << "kind " << k;
  }
}

TEST(TriangleCache, DeclinesAHeightfieldWhereTheWalksRoundingIsInDoubt) {
  Field::Options even;
  even.width = 24;  // 23 cells: the field's centre, x = 0, lies halfway between grid points
  Field field(even);
  TriangleCache cache;
  Visits visits;
  EXPECT_FALSE(cache.process_all_triangles(field.shape.get(), &visits, btVector3(0, -1, 0.3), btVector3(1, 1, 1.3)));
  EXPECT_TRUE(cache.process_all_triangles(field.shape.get(), &visits, btVector3(0.1, -1, 0.3), btVector3(0.9, 1, 1.3)));
  Visits bullets;
  field.shape->processAllTriangles(&bullets, btVector3(0.1, -1, 0.3), btVector3(0.9, 1, 1.3));
  EXPECT_EQ(visits.seen, bullets.seen);
  EXPECT_FALSE(visits.seen.empty());
}

TEST(TriangleCache, AChangedHeightfieldIsGatheredAgain) {
  Field field(Field::Options{});
  TriangleCache cache;
  const btVector3 low(-2, -1, -2);
  const btVector3 high(-1.2, 1, -1.2);
  Visits before;
  ASSERT_TRUE(cache.process_all_triangles(field.shape.get(), &before, low, high));
  field.shape->setLocalScaling(btVector3(1.5, 1, 1.5));
  Visits ours;
  Visits bullets;
  ASSERT_TRUE(cache.process_all_triangles(field.shape.get(), &ours, low, high));
  field.shape->processAllTriangles(&bullets, low, high);
  EXPECT_EQ(ours.seen, bullets.seen);
  EXPECT_FALSE(ours.seen == before.seen);
  field.shape->setUseDiamondSubdivision(true);
  Visits diamond;
  Visits bullets_diamond;
  ASSERT_TRUE(cache.process_all_triangles(field.shape.get(), &diamond, low, high));
  field.shape->processAllTriangles(&bullets_diamond, low, high);
  EXPECT_EQ(diamond.seen, bullets_diamond.seen);
  EXPECT_EQ(cache.gathers(), 3);
}

/// A heightfield whose walk may differ from Bullet's (a subclass).
struct OwnField : btHeightfieldTerrainShape {
  using btHeightfieldTerrainShape::btHeightfieldTerrainShape;
};

TEST(TriangleCache, AnswersOnlyForBulletsOwnHeightfield) {
  Field field(Field::Options{});
  OwnField own(21, 21, field.doubles.data(), 1.0, -0.5, 0.5, 1, PHY_DOUBLE, false);
  TriangleCache cache;
  Visits visits;
  EXPECT_FALSE(cache.process_all_triangles(&own, &visits, btVector3(-2, -1, -2), btVector3(-1.2, 1, -1.2)));
  EXPECT_TRUE(visits.seen.empty());
  EXPECT_EQ(cache.gathers(), 0);
}

void expect_same_sweep(const btCollisionWorld::ClosestConvexResultCallback& plain, bool plain_answered,
                       const btCollisionWorld::ClosestConvexResultCallback& cached, bool cached_answered,
                       int step) {
  ASSERT_EQ(plain_answered, cached_answered) << "step " << step;
  ASSERT_EQ(plain.hasHit(), cached.hasHit()) << "step " << step;
  ASSERT_EQ(std::memcmp(&plain.m_closestHitFraction, &cached.m_closestHitFraction, sizeof(double)), 0)
      << "step " << step;
  if (plain.hasHit()) {  // (the callback leaves them unset otherwise)
    ASSERT_TRUE(same_bits(plain.m_hitNormalWorld, cached.m_hitNormalWorld) &&
                same_bits(plain.m_hitPointWorld, cached.m_hitPointWorld))
        << "step " << step;
  }
}

struct AdapterCounts {
  int contacts = 0;
  int hits = 0;
  int box_hits = 0;
  int ray_hits = 0;
};

/// The adapter's answers with the cache active and without (Bullet's
/// walk), on a capsule wandering over `shape` (spanning about 0..20 in x
/// and z, its ground near y 0 at the body's origin) while its body moves
/// now and then: contacts, capsule and box sweep fractions, normals and
/// points, and rays, bit for bit.
AdapterCounts expect_answers_as_without(btCollisionShape* shape, const btTransform& origin, TriangleCache* cache) {
  AdapterCounts counts;
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher(&configuration);
  btDbvtBroadphase broadphase;
  btCollisionWorld world(&dispatcher, &broadphase, &configuration);
  btCollisionObject ground;
  ground.setCollisionShape(shape);
  ground.setWorldTransform(origin);
  world.addCollisionObject(&ground);
  btCapsuleShape capsule_shape(0.3, 1.0);
  btBoxShape box_shape(btVector3(0.3, 0.8, 0.25));
  RandomGeometry random(17);
  btVector3 at(3, 1.0, 3);
  for (int step = 0; step < 800; ++step) {
    if (step % 200 == 100) {  // the body moves: the cache's triangles are in its frame
      const double y = random.uniform(-0.2, 0.2);
      const double x = random.uniform(-1, 1);
      const double angle = random.uniform(-0.3, 0.3);
      ground.setWorldTransform(
          btTransform(btQuaternion(btVector3(0, 1, 0), angle), btVector3(x, y, 0) + origin.getOrigin()));
      world.updateSingleAabb(&ground);
    }
    at += random.within(btVector3(-0.15, -0.08, -0.15), btVector3(0.25, 0.08, 0.25));
    if (at.x() > 20 || at.z() > 20) {
      const double z = random.uniform(1, 8);
      at = btVector3(random.uniform(1, 8), 1.0, z);
    }
    at.setY(std::fmin(std::fmax(at.y(), 0.2), 1.2));
    const btTransform pose(btQuaternion::getIdentity(), at);
    const btVector3 axis(0, 0.5, 0);
    const double threshold = random.uniform(0, 0.2);
    std::vector<Contact> plain;
    std::vector<Contact> cached;
    const bool plain_answered = detail::triangle_contacts(at - axis, at + axis, 0.3, &ground, threshold, &plain);
    bool cached_answered = false;
    cached_answered = detail::triangle_contacts(at - axis, at + axis, 0.3, &ground, threshold, &cached, cache);
    EXPECT_EQ(plain_answered, cached_answered) << "step " << step;
    EXPECT_EQ(plain.size(), cached.size()) << "step " << step;
    if (plain.size() != cached.size()) return counts;
    for (std::size_t i = 0; i < plain.size(); ++i) {
      EXPECT_TRUE(same_bits(plain[i].normal, cached[i].normal) && same_bits(plain[i].point, cached[i].point) &&
                  same_bits(plain[i].face_normal, cached[i].face_normal) &&
                  std::memcmp(&plain[i].distance, &cached[i].distance, sizeof(double)) == 0)
          << "step " << step << " contact " << i;
    }
    counts.contacts += static_cast<int>(plain.size());
    // Several sweeps from the same start (as a tick's move, slide and
    // step-up sweeps are): the later ones take the triangles' remembered
    // start contacts. A box (turned now and then) sweeps from there too.
    const btTransform box_pose(step % 3 == 0 ? random.rotation() : btQuaternion::getIdentity(), at);
    for (int sweep = 0; sweep < 3; ++sweep) {
      const btVector3 motion = random.within(btVector3(-0.6, -0.8, -0.6), btVector3(0.6, 0.4, 0.6));
      const btTransform to(btQuaternion::getIdentity(), at + motion);
      btCollisionWorld::ClosestConvexResultCallback plain_sweep(at, at + motion);
      btCollisionWorld::ClosestConvexResultCallback cached_sweep(at, at + motion);
      const bool plain_swept = detail::triangle_sweep_pair(&capsule_shape, pose, to, &ground, &plain_sweep);
      bool cached_swept = false;
      cached_swept = detail::triangle_sweep_pair(&capsule_shape, pose, to, &ground, &cached_sweep, cache);
      expect_same_sweep(plain_sweep, plain_swept, cached_sweep, cached_swept, step);
      counts.hits += plain_sweep.hasHit() ? 1 : 0;
      const btTransform box_to(box_pose.getBasis(), at + motion);
      btCollisionWorld::ClosestConvexResultCallback plain_box(at, at + motion);
      btCollisionWorld::ClosestConvexResultCallback cached_box(at, at + motion);
      const bool plain_boxed = detail::box_triangle_sweep_pair(&box_shape, box_pose, box_to, &ground, &plain_box);
      bool cached_boxed = false;
      cached_boxed = detail::box_triangle_sweep_pair(&box_shape, box_pose, box_to, &ground, &cached_box, cache);
      expect_same_sweep(plain_box, plain_boxed, cached_box, cached_boxed, step);
      counts.box_hits += plain_box.hasHit() ? 1 : 0;
    }
    // Rays through the adapter (its region's walk makes the cache active)
    // against Bullet's own rayTest.
    const btVector3 ray_to = at + random.within(btVector3(-1, -2.5, -1), btVector3(1, 0.5, 1));
    CollisionQueries queries(&world, nullptr);
    const RayHit ours = queries.ray(at, ray_to);
    btCollisionWorld::ClosestRayResultCallback bullets(at, ray_to);
    world.rayTest(at, ray_to, bullets);
    EXPECT_EQ(ours.hit, bullets.hasHit()) << "step " << step;
    if (ours.hit && bullets.hasHit()) {
      EXPECT_EQ(std::memcmp(&ours.fraction, &bullets.m_closestHitFraction, sizeof(double)), 0) << "step " << step;
      EXPECT_TRUE(same_bits(ours.normal, bullets.m_hitNormalWorld.normalized()) &&
                  same_bits(ours.point, bullets.m_hitPointWorld))
          << "step " << step;
      ++counts.ray_hits;
    }
  }
  return counts;
}

TEST(TriangleCache, ContactsSweepsAndRaysAnswerAsWithoutIt) {
  Terrain terrain;
  TriangleCache cache;
  const AdapterCounts counts = expect_answers_as_without(terrain.shape.get(), btTransform::getIdentity(), &cache);
  EXPECT_GT(counts.contacts, 300);
  EXPECT_GT(counts.hits, 450);
  EXPECT_GT(counts.box_hits, 450);
  EXPECT_GT(counts.ray_hits, 300);
  EXPECT_GT(cache.reuses(), 2 * cache.gathers());
  EXPECT_GT(cache.gathers(), 10);
}

TEST(TriangleCache, HeightfieldContactsAndSweepsAnswerAsWithoutIt) {
  Field field(Field::Options{});
  TriangleCache cache;
  // The field's grid centred on its body: move it so it spans 0..20.
  const btTransform origin(btQuaternion::getIdentity(), btVector3(10, 0, 10));
  const AdapterCounts counts = expect_answers_as_without(field.shape.get(), origin, &cache);
  EXPECT_GT(counts.contacts, 300);
  EXPECT_GT(counts.hits, 450);
  EXPECT_GT(counts.box_hits, 450);
  EXPECT_GT(counts.ray_hits, 300);
  EXPECT_GT(cache.reuses(), 2 * cache.gathers());
  EXPECT_GT(cache.gathers(), 10);
}

}  // namespace
}  // namespace stepslide::test
