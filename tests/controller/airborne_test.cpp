// In the air: the push out of faces the character cannot stand on, and
// landing while rising.
#include <gtest/gtest.h>

#include <cmath>

#include "stepslide/stages.h"

namespace stepslide::test {
namespace {

const btVector3 kUp(0, 1, 0);
const double kCos45 = std::sqrt(0.5);

/// A unit normal tilted `deg` degrees from up, toward +z.
btVector3 tilted(double deg) {
  const double a = deg * 3.14159265358979323846 / 180.0;
  return btVector3(0, std::cos(a), std::sin(a));
}

TEST(AirbornePushOut, ASteepFaceIsClearedAcrossUpAsFarAsItsNormalWould) {
  const btVector3 n = tilted(60);  // steeper than 45: not walkable
  const PushDirection p = airborne_push_out(n, 0.011, kUp, kCos45);
  EXPECT_NEAR(p.direction.dot(kUp), 0.0, 1e-15);  // never lifts
  EXPECT_NEAR(p.direction.length(), 1.0, 1e-12);
  EXPECT_NEAR(p.direction.z(), 1.0, 1e-12);
  // The shortest correction along it clears the face's plane by the depth.
  const btVector3 c = p.direction * p.depth;
  EXPECT_NEAR(c.dot(n), 0.011, 1e-12);
  EXPECT_NEAR(p.depth, 0.011 / std::sin(60 * 3.14159265358979323846 / 180.0), 1e-12);
}

TEST(AirbornePushOut, WalkableGroundCeilingsAndWallsKeepTheirNormal) {
  for (const btVector3& n : {tilted(30), tilted(0), tilted(90), tilted(135), btVector3(0, -1, 0)}) {
    const PushDirection p = airborne_push_out(n, 0.02, kUp, kCos45);
    EXPECT_NEAR((p.direction - n).length(), 0.0, 1e-15);
    EXPECT_NEAR(p.depth, 0.02, 1e-15);
  }
}

TEST(AirbornePushOut, AFaceNearlyLevelKeepsItsNormalRatherThanTravelFar) {
  // max_slope_deg 1: a 2-degree face is not walkable, but pushed out across
  // it would travel 29 times the overlap.
  const double cos1 = std::cos(1 * 3.14159265358979323846 / 180.0);
  const btVector3 n = tilted(2);
  const PushDirection p = airborne_push_out(n, 0.01, kUp, cos1);
  EXPECT_EQ(p.direction, n);
  // At 4 degrees (across part 0.07) it is pushed across.
  const PushDirection q = airborne_push_out(tilted(4), 0.01, kUp, cos1);
  EXPECT_NEAR(q.direction.dot(kUp), 0.0, 1e-15);
}

TEST(LandsRising, OnlyWhenTheVelocityDoesNotPointAwayFromTheGround) {
  const btVector3 ramp = tilted(20);  // rises toward -z
  // Running up it at 5 m/s: the ramp rises 1.82 m/s under the feet.
  EXPECT_TRUE(lands_rising(btVector3(0, 1.2, -5), ramp));   // a weak jump: caught
  EXPECT_FALSE(lands_rising(btVector3(0, 2.5, -5), ramp));  // a real one leaves it
  EXPECT_FALSE(lands_rising(btVector3(0, 0.5, 5), ramp));   // running down it, any rise leaves
  EXPECT_FALSE(lands_rising(btVector3(0, 0.1, 0), btVector3(0, 1, 0)));  // rising off flat ground
}

}  // namespace
}  // namespace stepslide::test
