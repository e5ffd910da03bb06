// Numbers in a captured scenario read back to the same double.
#include "capture/json_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>

namespace stepslide::capture {
namespace {

TEST(CaptureJsonText, NumbersAreShortestAndReadBackExactly) {
  EXPECT_EQ(json_number(0.1), "0.1");
  EXPECT_EQ(json_number(0.0), "0");
  EXPECT_EQ(json_number(-0.0), "-0.0");  // "-0" would be read as the integer 0
  EXPECT_EQ(json_number(1e300), "1e+300");
  EXPECT_EQ(json_number(1.0 / 3), "0.3333333333333333");
  std::mt19937_64 random(12);
  std::uniform_real_distribution<double> exponent(-300, 300);
  for (int i = 0; i < 10000; ++i) {
    const double value = std::pow(10.0, exponent(random)) * (i % 2 ? -1 : 1);
    EXPECT_EQ(std::strtod(json_number(value).c_str(), nullptr), value);
  }
  EXPECT_EQ(std::strtod(json_number(std::numeric_limits<double>::denorm_min()).c_str(), nullptr),
            std::numeric_limits<double>::denorm_min());
}

TEST(CaptureJsonText, ListsOnOneLineOrOnePerLine) {
  EXPECT_EQ(JsonList(JsonList::Kind::Object, false).member("a", "1").member("b", "[]").text(), "{\"a\": 1, \"b\": []}");
  EXPECT_EQ(JsonList(JsonList::Kind::Array, true, 1).item("1").item("2").text(), "[\n    1,\n    2\n  ]");
  EXPECT_EQ(JsonList(JsonList::Kind::Array, true).text(), "[]");
}

}  // namespace
}  // namespace stepslide::capture
