// The one name glob (column patterns, mesh node names).
#include "base/glob.h"

#include <gtest/gtest.h>

#include <string>

namespace stepslide {
namespace {

TEST(Glob, MatchesStarsAndQuestionMarks) {
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("Floor*", "Floor_01"));
  EXPECT_TRUE(glob_match("*_01", "Floor_01"));
  EXPECT_TRUE(glob_match("F?oor", "Floor"));
  EXPECT_TRUE(glob_match("*o*o*", "Floor"));
  EXPECT_FALSE(glob_match("Floor", "floor"));  // case matters
  EXPECT_FALSE(glob_match("F?", "Floor"));
  EXPECT_FALSE(glob_match("*x", "Floor"));
  // Many stars against a long name without a match: linear, not exponential.
  EXPECT_FALSE(glob_match("*a*a*a*a*a*a*a*a*a*a*b", std::string(5000, 'a')));
}

}  // namespace
}  // namespace stepslide
