// What a world costs against its size, counted, never timed: a
// tick poses only the moving bodies, and loading a scenario and building its
// world take the same number of heap allocations per body at 2 000, 4 000 and
// 8 000 bodies (linear, under a ceiling per body).
#include <gtest/gtest.h>

#include <LinearMath/btAlignedAllocator.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>

#include "scenario/load/load.h"
#include "scenario/load/world.h"
#include "support/test_bodies.h"

namespace {

// Every allocation of this test binary is counted: operator new (the
// standard library, nlohmann's documents) here, Bullet's btAlignedAlloc
// through its custom-allocator hook while a count runs.
std::atomic<std::int64_t> g_allocations{0};

void* counted_bullet_alloc(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size);
}
void bullet_free(void* memory) { std::free(memory); }

}  // namespace

// Counted allocation replaces every plain (non-aligned) form of new and
// delete together, so each block goes back the way it came: a sanitizer build
// aborts when a malloc'd block meets its own delete, or its own new's block
// meets free (std::stable_sort's buffer takes the nothrow new).
namespace {
void* counted_malloc(std::size_t size) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}
void* counted_or_throw(std::size_t size) {
  if (void* memory = counted_malloc(size)) return memory;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t size) { return counted_or_throw(size); }
void* operator new[](std::size_t size) { return counted_or_throw(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return counted_malloc(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return counted_malloc(size); }
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete[](void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete[](void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete(void* memory, const std::nothrow_t&) noexcept { std::free(memory); }
void operator delete[](void* memory, const std::nothrow_t&) noexcept { std::free(memory); }

namespace stepslide {
namespace {

BodyDef linear_mover(Vec3 centre) {
  BodyDef b = test::box(centre, {1, 1, 1});
  b.motion.type = MotionType::Linear;
  b.motion.velocity = {0.1, 0, 0};
  return b;
}

/// A world of `statics` static boxes on a grid far from the origin and three
/// boxes moving through the origin.
Scenario world_with_statics(int statics) {
  Scenario s;
  for (int i = 0; i < statics; ++i) {
    s.world.push_back(test::box({100.0 + 3.0 * (i % 200), 0.5, 3.0 * (i / 200)}, {0.5, 0.5, 0.5}));
  }
  for (int i = 0; i < 3; ++i) s.world.push_back(linear_mover({0, 0, 3.0 * i}));
  return s;
}

TEST(WorldCost, SetTimePosesOnlyTheMovingBodies) {
  // Visiting every body each tick would make a level of static boxes cost
  // in proportion to its size.
  for (const int statics : {10, 20000}) {
    const Scenario s = world_with_statics(statics);
    World world(s);
    for (std::int64_t tick = 1; tick <= 50; ++tick) world.set_time(tick);
    EXPECT_EQ(world.bodies_posed(), 3 * 50) << statics << " static bodies";
    // The static bodies stay where they were put.
    const btCollisionObject* first_static = world.bodies()[0].object;
    EXPECT_EQ(first_static->getWorldTransform().getOrigin(), btVector3(100.0, 0.5, 0.0));
  }
}

/// `count` named boxes of distinct sizes, written as a user's file would be.
std::string scenario_text(int count) {
  std::string text = R"({"format": "stepslide/scenario@1", "ticks": 1, "world": [)";
  text += R"({"name": "floor", "shape": {"type": "box", "half_extents": [20, 0.5, 20]}, "position": [0, -0.5, 0]})";
  for (int i = 0; i < count; ++i) {
    const std::string half = std::to_string(0.25 + 0.5 * (i % 97) / 97.0);
    text += ",\n  {\"name\": \"clutter/" + std::to_string(i) + "\", \"shape\": {\"type\": \"box\", \"half_extents\": [" +
            half + ", " + half + ", " + half + "]}, \"position\": [" + std::to_string(30 + 4 * (i % 300)) + ", " +
            half + ", " + std::to_string(4 * (i / 300)) + "]}";
  }
  return text + "]}";
}

/// Heap allocations made by loading `text` and building its world.
std::int64_t allocations_to_load_and_build(const std::string& text) {
  btAlignedAllocSetCustom(counted_bullet_alloc, bullet_free);
  const std::int64_t before = g_allocations.load();
  std::int64_t after = 0;
  {
    const LoadResult load = load_scenario_text(text, "clutter.json");
    EXPECT_TRUE(load.errors.empty()) << format_load_errors(load);
    if (load.scenario) World world(*load.scenario);
    after = g_allocations.load();
  }
  btAlignedAllocSetCustom(nullptr, nullptr);
  return after - before;
}

TEST(WorldCost, LoadingAndBuildingAllocateTheSameForEveryBody) {
  // Above kIncrementalBodies (1 024) the broadphase tree is built in bulk.
  const std::string small = scenario_text(2000), medium = scenario_text(4000), large = scenario_text(8000);
  const double a2 = static_cast<double>(allocations_to_load_and_build(small));
  const double a4 = static_cast<double>(allocations_to_load_and_build(medium));
  const double a8 = static_cast<double>(allocations_to_load_and_build(large));
  const double per_body_low = (a4 - a2) / 2000.0, per_body_high = (a8 - a4) / 4000.0;
  // Linear: the next 4 000 bodies cost what the 2 000 before them did, per
  // body (vectors growing by doubling add a few allocations, not per body).
  EXPECT_NEAR(per_body_high, per_body_low, 0.01 * per_body_low) << a2 << " " << a4 << " " << a8;
  // Each body is a JSON object of 3 members holding an object and 2 arrays
  // (nlohmann: two allocations each, one per string), its name's entry in the
  // duplicate-name index, its collision shape and broadphase proxy and leaf.
  // An index entry per JSON key, a bit vector per JSON object, a collision
  // object per body or a vector per JSON Pointer would each break the ceiling.
  EXPECT_LE(per_body_high, 15.5);
}

}  // namespace
}  // namespace stepslide
