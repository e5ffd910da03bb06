// The portable elementary functions: close to the C library's (within one
// unit in the last place for sine and cosine up to 10 radians, the exponential and the
// arctangent of one argument; a few for the inverse sine, cosine and the
// two-argument arctangent, which go through a quotient), exact where an
// angle in degrees is a quarter turn, and pinned bit for bit, so a build on
// another CPU or compiler that computes them differently fails here.
#include "base/portable_math.h"

#include <gtest/gtest.h>

#include <LinearMath/btQuaternion.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace stepslide::test {
namespace {

namespace pm = portable;

/// Distance in units in the last place between two finite doubles.
std::int64_t ulps_apart(double a, double b) {
  auto ordered = [](double d) {
    std::int64_t i;
    std::memcpy(&i, &d, sizeof i);
    return i < 0 ? std::numeric_limits<std::int64_t>::min() - i : i;
  };
  const std::int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

/// A fixed sequence of doubles in [lo, hi) (SplitMix64), the same on every run.
class Points {
 public:
  Points(double lo, double hi) : lo_(lo), hi_(hi) {}
  double next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return lo_ + (hi_ - lo_) * static_cast<double>(z >> 11) * 0x1p-53;
  }

 private:
  double lo_, hi_;
  std::uint64_t state_ = 12345;
};

/// The largest distance from the C library over `n` points of [lo, hi).
template <class Mine, class Libm>
std::int64_t worst_ulps(Mine mine, Libm libm, double lo, double hi, int n = 100000) {
  Points points(lo, hi);
  std::int64_t worst = 0;
  for (int i = 0; i < n; ++i) {
    const double x = points.next();
    worst = std::max(worst, ulps_apart(mine(x), libm(x)));
  }
  return worst;
}

TEST(PortableMath, SineAndCosineWithinOneUlpOfTheCLibrary) {
  auto my_sin = [](double x) { return pm::sin(x); };
  auto my_cos = [](double x) { return pm::cos(x); };
  auto sin = [](double x) { return std::sin(x); };
  auto cos = [](double x) { return std::cos(x); };
  EXPECT_LE(worst_ulps(my_sin, sin, -10, 10), 1);
  EXPECT_LE(worst_ulps(my_cos, cos, -10, 10), 1);
  EXPECT_LE(worst_ulps(my_sin, sin, -1e-3, 1e-3), 1);
  EXPECT_LE(worst_ulps(my_cos, cos, -1e-3, 1e-3), 1);
  EXPECT_LE(worst_ulps(my_cos, cos, 1e3, 1e4), 2);  // the reduction's three roundings
}

TEST(PortableMath, ExponentialWithinOneUlpOfTheCLibrary) {
  auto mine = [](double x) { return pm::exp(x); };
  auto libm = [](double x) { return std::exp(x); };
  EXPECT_LE(worst_ulps(mine, libm, -2, 0), 1);  // the per-tick decays
  EXPECT_LE(worst_ulps(mine, libm, -700, 700), 1);
  EXPECT_EQ(pm::exp(0.0), 1.0);
  EXPECT_EQ(pm::exp(1000.0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(pm::exp(-1000.0), 0.0);
  EXPECT_TRUE(std::isnan(pm::exp(std::nan(""))));
}

TEST(PortableMath, InverseFunctionsCloseToTheCLibrary) {
  auto atan_mine = [](double x) { return pm::atan2(x, 1.0); };
  auto atan_libm = [](double x) { return std::atan2(x, 1.0); };
  EXPECT_LE(worst_ulps(atan_mine, atan_libm, -100, 100), 1);
  auto acos_mine = [](double x) { return pm::acos(x); };
  auto acos_libm = [](double x) { return std::acos(x); };
  auto asin_mine = [](double x) { return pm::asin(x); };
  auto asin_libm = [](double x) { return std::asin(x); };
  EXPECT_LE(worst_ulps(acos_mine, acos_libm, -1, 1), 3);
  EXPECT_LE(worst_ulps(acos_mine, acos_libm, 0.999999, 1), 3);
  EXPECT_LE(worst_ulps(asin_mine, asin_libm, -1, 1), 3);
  auto atan2_mine = [](double a) { return pm::atan2(std::sin(7 * a), std::cos(3 * a)); };
  auto atan2_libm = [](double a) { return std::atan2(std::sin(7 * a), std::cos(3 * a)); };
  EXPECT_LE(worst_ulps(atan2_mine, atan2_libm, -10, 10), 3);
  EXPECT_TRUE(std::isnan(pm::acos(1.0 + 1e-15)));
  EXPECT_TRUE(std::isnan(pm::asin(-2.0)));
  EXPECT_EQ(pm::acos(1.0), 0.0);
  EXPECT_EQ(pm::asin(1.0), std::asin(1.0));
}

TEST(PortableMath, TwoArgumentArctangentKeepsTheCLibrarysSpecialCases) {
  const double inf = std::numeric_limits<double>::infinity();
  const double values[] = {0.0, -0.0, 1.0, -1.0, inf, -inf};
  for (double y : values) {
    for (double x : values) {
      const double mine = pm::atan2(y, x), libm = std::atan2(y, x);
      EXPECT_LE(ulps_apart(mine, libm), 1) << "atan2(" << y << ", " << x << ")";
      EXPECT_EQ(std::signbit(mine), std::signbit(libm)) << "atan2(" << y << ", " << x << ")";
    }
  }
  EXPECT_TRUE(std::isnan(pm::atan2(std::nan(""), 1.0)));
}

TEST(PortableMath, QuarterTurnsInDegreesAreExactAtAnyMagnitude) {
  double s = 0, c = 0;
  for (double turns : {0.0, 1.0, -3.0, 1e9}) {
    pm::sin_cos_degrees(360.0 * turns + 90.0, &s, &c);
    EXPECT_EQ(s, 1.0);
    EXPECT_EQ(c, 0.0);
    pm::sin_cos_degrees(360.0 * turns + 180.0, &s, &c);
    EXPECT_EQ(s, 0.0);
    EXPECT_EQ(c, -1.0);
    pm::sin_cos_degrees(360.0 * turns - 90.0, &s, &c);
    EXPECT_EQ(s, -1.0);
    EXPECT_EQ(c, 0.0);
  }
  for (double eighth : {45.0, 135.0, -45.0, 315.0}) {
    pm::sin_cos_degrees(eighth, &s, &c);
    EXPECT_EQ(std::fabs(s), std::sqrt(0.5)) << eighth;
    EXPECT_EQ(std::fabs(c), std::sqrt(0.5)) << eighth;
    EXPECT_EQ(s, std::sin(eighth * M_PI / 180) < 0 ? -std::sqrt(0.5) : std::sqrt(0.5)) << eighth;
    EXPECT_EQ(c, std::cos(eighth * M_PI / 180) < 0 ? -std::sqrt(0.5) : std::sqrt(0.5)) << eighth;
  }
  pm::sin_cos_degrees(37.5, &s, &c);
  EXPECT_LE(ulps_apart(s, std::sin(37.5 * M_PI / 180)), 1);
  EXPECT_LE(ulps_apart(c, std::cos(37.5 * M_PI / 180)), 1);
}

TEST(PortableMath, QuaternionsAsBulletFormsThem) {
  Points points(-400, 400);
  for (int i = 0; i < 1000; ++i) {
    const double x = points.next(), y = points.next(), z = points.next();
    const pm::Quat mine = pm::quaternion_from_degrees(x, y, z);
    btQuaternion bullet;
    bullet.setEulerZYX(z * M_PI / 180, y * M_PI / 180, x * M_PI / 180);
    EXPECT_NEAR(mine.x, bullet.x(), 1e-14);
    EXPECT_NEAR(mine.y, bullet.y(), 1e-14);
    EXPECT_NEAR(mine.z, bullet.z(), 1e-14);
    EXPECT_NEAR(mine.w, bullet.w(), 1e-14);
  }
  const pm::Quat quarter = pm::quaternion_from_degrees(0, 90, 0);
  EXPECT_EQ(quarter.x, 0.0);
  EXPECT_EQ(quarter.y, quarter.w);
  EXPECT_EQ(quarter.z, 0.0);
  const pm::Quat about = pm::quaternion_about(0, 2, 0, 90);
  EXPECT_EQ(about.y, quarter.y);
  EXPECT_EQ(about.w, quarter.w);
}

TEST(PortableMath, SlerpAsBulletDoes) {
  const pm::Quat a = pm::quaternion_from_degrees(10, 20, 30), b = pm::quaternion_from_degrees(-40, 5, 170);
  for (double t : {0.0, 0.25, 0.5, 1.0}) {
    const pm::Quat mine = pm::slerp(a, b, t);
    const btQuaternion bullet = slerp(btQuaternion(a.x, a.y, a.z, a.w), btQuaternion(b.x, b.y, b.z, b.w), t);
    EXPECT_NEAR(mine.x, bullet.x(), 1e-14);
    EXPECT_NEAR(mine.y, bullet.y(), 1e-14);
    EXPECT_NEAR(mine.z, bullet.z(), 1e-14);
    EXPECT_NEAR(mine.w, bullet.w(), 1e-14);
  }
  const pm::Quat same = pm::slerp(a, a, 0.5);
  EXPECT_EQ(same.x, a.x);
  EXPECT_EQ(same.w, a.w);
}

// The bits every build must give (an x86-64 gcc build wrote them down; the
// arm64 build and clang at any -O must agree).
TEST(PortableMath, SameBitsOnEveryCpu) {
  EXPECT_EQ(pm::sin(1.0), 0x1.aed548f090ceep-1);
  EXPECT_EQ(pm::cos(1.0), 0x1.14a280fb5068cp-1);
  EXPECT_EQ(pm::sin(100.0), -0x1.03425b78c4db8p-1);
  EXPECT_EQ(pm::exp(-0.1333), 0x1.c01a8a80cdf8dp-1);
  EXPECT_EQ(pm::exp(5.5), 0x1.e96244f21bbf6p+7);
  EXPECT_EQ(pm::atan2(0.3, -0.7), 0x1.5e4c36ca0118ap+1);
  EXPECT_EQ(pm::acos(0.2), 0x1.5e9383efad0dp+0);
  EXPECT_EQ(pm::asin(-0.9), -0x1.1ea93705fa172p+0);
  double s = 0, c = 0;
  pm::sin_cos_degrees(37.5, &s, &c);
  EXPECT_EQ(s, 0x1.37af93f9513eap-1);
  EXPECT_EQ(c, 0x1.963268b572492p-1);
  const pm::Quat q = pm::quaternion_from_degrees(10, 20, 30);
  EXPECT_EQ(q.x, 0x1.386600d9cd25ap-5);
  EXPECT_EQ(q.y, 0x1.83b3d683aed71p-3);
  EXPECT_EQ(q.z, 0x1.ea153f34ce654p-3);
  EXPECT_EQ(q.w, 0x1.e7315e43cde2ep-1);
}

}  // namespace
}  // namespace stepslide::test
