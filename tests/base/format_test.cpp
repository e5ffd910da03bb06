// base/format: format_number is exact (the shortest text that reads back to
// the same double), readable_number and format_significant are short, for
// people.
#include "base/format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

namespace stepslide {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(FormatNumber, ShortestTextThatReadsBack) {
  EXPECT_EQ(format_number(0.1), "0.1");
  EXPECT_EQ(format_number(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(format_number(1.0 / 3.0), "0.3333333333333333");
  EXPECT_EQ(format_number(240), "240");
  EXPECT_EQ(format_number(-1.5), "-1.5");
  EXPECT_EQ(format_number(1e-300), "1e-300");
  EXPECT_EQ(format_number(5e-324), "5e-324");
  EXPECT_EQ(format_number(9007199254740992.0), "9007199254740992");
}

TEST(FormatNumber, EveryFiniteDoubleReadsBackBitForBit) {
  std::mt19937_64 random(7);  // fixed: the same doubles on every run
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t bits = random();
    double value = 0;
    std::memcpy(&value, &bits, sizeof value);
    if (!std::isfinite(value) || value == 0.0) continue;
    const std::string text = format_number(value);
    EXPECT_TRUE(same_bits(std::strtod(text.c_str(), nullptr), value)) << text;
  }
  for (const double value : {std::numeric_limits<double>::max(), std::numeric_limits<double>::lowest(),
                             std::numeric_limits<double>::min(), std::numeric_limits<double>::denorm_min()}) {
    EXPECT_TRUE(same_bits(std::strtod(format_number(value).c_str(), nullptr), value)) << format_number(value);
  }
}

TEST(FormatNumber, MinusZeroIsZeroAndNonFiniteValuesHaveNames) {
  // A sign of zero must never make a diff.
  EXPECT_EQ(format_number(-0.0), "0");
  EXPECT_EQ(format_number(0.0), "0");
  EXPECT_EQ(format_number(kNan), "nan");
  EXPECT_EQ(format_number(-kNan), "nan");
  EXPECT_EQ(format_number(kInf), "inf");
  EXPECT_EQ(format_number(-kInf), "-inf");
}

TEST(ReadableNumber, SixSignificantDigits) {
  EXPECT_EQ(readable_number(1.0 / 3.0), "0.333333");
  EXPECT_EQ(readable_number(0.1 + 0.2), "0.3");
  EXPECT_EQ(readable_number(2), "2");
  EXPECT_EQ(readable_number(-12.5), "-12.5");
  EXPECT_EQ(readable_number(123456789), "1.23457e+08");
  EXPECT_EQ(readable_number(0.0001234567), "0.000123457");
  EXPECT_EQ(readable_number(1e-5), "1e-05");
}

TEST(ReadableNumber, RoundOffNoiseIsZero) {
  EXPECT_EQ(readable_number(4.9e-10), "0");
  EXPECT_EQ(readable_number(-4.9e-10), "0");
  EXPECT_EQ(readable_number(-0.0), "0");
  EXPECT_EQ(readable_number(5e-10), "5e-10");
  EXPECT_EQ(readable_number(-6.03028e-10), "-6.03028e-10");
}

TEST(ReadableBeside, EveryDigitOnlyWhenSixWouldReadAsTheLimit) {
  EXPECT_EQ(readable_beside(1.7999999999999998, 1e-5), "1.8");
  EXPECT_EQ(readable_beside(1.0000000001e-5, 1e-5), "1.0000000001e-05") << "just past the tolerance";
  EXPECT_EQ(readable_beside(1e-5, 1e-5), "1e-05") << "equal reads equal";
  EXPECT_EQ(readable_beside(2.0000001, 2), "2.0000001");
  EXPECT_EQ(readable_beside(-0.5, 0), "-0.5");
}

TEST(ReadableNumber, NonFiniteValuesAsFormatNumber) {
  EXPECT_EQ(readable_number(kNan), "nan");
  EXPECT_EQ(readable_number(kInf), "inf");
  EXPECT_EQ(readable_number(-kInf), "-inf");
}

TEST(FormatSignificant, GivenDigitsWithoutTrailingZeros) {
  EXPECT_EQ(format_significant(1.0 / 3.0, 3), "0.333");
  EXPECT_EQ(format_significant(2.5, 3), "2.5");
  EXPECT_EQ(format_significant(123456, 3), "1.23e+05");
  EXPECT_EQ(format_significant(0.00012345, 2), "0.00012");
  EXPECT_EQ(format_significant(0.1 + 0.2, 17), "0.30000000000000004");
}

TEST(FormatSignificant, ZeroAndNonFiniteValuesAsFormatNumber) {
  EXPECT_EQ(format_significant(0.0, 3), "0");
  EXPECT_EQ(format_significant(-0.0, 3), "0");
  EXPECT_EQ(format_significant(kNan, 3), "nan");
  EXPECT_EQ(format_significant(-kInf, 3), "-inf");
}

}  // namespace
}  // namespace stepslide
