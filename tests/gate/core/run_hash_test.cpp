// The determinism hash of a run: over the bits of every cell (as the CSV's
// shortest round-trip numbers), the header, and nothing of the metadata; and
// the suite's hash over every scenario's, so one line compares a suite.
#include "gate/core/run_hash.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gate/core/csv.h"
#include "gate/core/fingerprint.h"

namespace stepslide::test {
namespace {

Trajectory small() {
  Trajectory t;
  t.metadata = {" stepslide trajectory 1", " build stepslide 0.1.0; arch x86_64"};
  t.columns = {"tick", "x"};
  t.rows = {{0, 0.1}, {1, 0.30000000000000004}};
  return t;
}

TEST(RunHash, IsFnv1aOfTheCsvWithoutMetadata) {
  EXPECT_EQ(trajectory_hash(small()), "fnv1a64:" + fnv1a64_hex("tick,x\n0,0.1\n1,0.30000000000000004\n"));
}

TEST(RunHash, IgnoresMetadataSoAnotherBuildHashesTheSameRows) {
  Trajectory other = small();
  other.metadata = {" build stepslide 0.1.0; arch aarch64"};
  EXPECT_EQ(trajectory_hash(other), trajectory_hash(small()));
}

TEST(RunHash, MovesWithTheLastBitOfAnyCell) {
  Trajectory other = small();
  other.rows[1][1] = std::nextafter(other.rows[1][1], 1.0);
  EXPECT_NE(trajectory_hash(other), trajectory_hash(small()));
}

TEST(RunHash, MovesWithTheColumns) {
  Trajectory other = small();
  other.columns[1] = "y";
  EXPECT_NE(trajectory_hash(other), trajectory_hash(small()));
}

TEST(RunHash, AGoldenReadBackHashesLikeTheRunThatWroteIt) {
  const Expected<Trajectory> read = parse_csv(to_csv(small()));
  ASSERT_TRUE(read) << read.error();
  EXPECT_EQ(trajectory_hash(*read), trajectory_hash(small()));
}

TEST(RunHash, ListsAScenarioRelativeToItsRoot) {
  EXPECT_EQ(hash_name("scenarios/basic/walk.json", "scenarios"), "basic/walk.json");
  EXPECT_EQ(hash_name("./scenarios//basic/walk.json", "scenarios/"), "basic/walk.json");
  EXPECT_EQ(hash_name("elsewhere/walk.json", "scenarios"), "elsewhere/walk.json");
}

TEST(RunHash, LinesNameTheHashAndTheScenario) {
  EXPECT_EQ(hash_line({"basic/walk.json", "fnv1a64:0123456789abcdef"}),
            "hash fnv1a64:0123456789abcdef basic/walk.json\n");
  EXPECT_EQ(hash_line({"basic/bad.json", ""}), "hash - basic/bad.json (no run)\n");
}

TEST(RunHash, TheSuiteHashCoversEveryNameAndHashInOrder) {
  const std::vector<NamedHash> suite = {{"a.json", "fnv1a64:1111111111111111"}, {"b.json", ""}};
  EXPECT_EQ(suite_hash_line(suite),
            "hash fnv1a64:" + fnv1a64_hex("a.json fnv1a64:1111111111111111\nb.json -\n") + " suite of 2 scenarios\n");
  std::vector<NamedHash> swapped = {suite[1], suite[0]};
  EXPECT_NE(suite_hash_line(swapped), suite_hash_line(suite));
  EXPECT_EQ(suite_hash_line({suite[0]}).substr(29), " suite of 1 scenario\n");
}

}  // namespace
}  // namespace stepslide::test
