#include "base/portable_math.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace stepslide::portable {

namespace {

// pi/2 in four parts; the first three have 33 significant bits, so k times
// any of them is exact for |k| < 2^20.
constexpr double kHalfPi1 = 1.5707963267341256;
constexpr double kHalfPi2 = 6.077100506303966e-11;
constexpr double kHalfPi3 = 2.0222662487111665e-21;
constexpr double kHalfPi4 = 8.4784276603689e-32;
constexpr double kTwoOverPi = 0.6366197723675814;
// pi/2 and pi as the nearest double and what remains.
constexpr double kHalfPiHi = 1.5707963267948966;
constexpr double kHalfPiLo = 6.123233995736766e-17;
constexpr double kPiHi = 3.141592653589793;
constexpr double kPiLo = 1.2246467991473532e-16;
constexpr double kTwoPi = 6.283185307179586;
// pi/180 as the nearest double and what remains.
constexpr double kDegToRadHi = 0.017453292519943295;
constexpr double kDegToRadLo = 2.9486522708701687e-19;
// ln 2 with 32 significant bits (k ln2_hi is exact for |k| < 2^21), and the rest.
constexpr double kLn2Hi = 0.6931471803691238;
constexpr double kLn2Lo = 1.9082149292705877e-10;
constexpr double kInvLn2 = 1.4426950408889634;

/// `v` rounded to the nearest integer, ties to even, for |v| < 2^51: what
/// std::nearbyint gives in the default rounding mode, without a call (the
/// sum's rounding does it; no flag of this build reassociates it away).
double nearest_integer(double v) {
  constexpr double kShift = 6755399441055744.0;  // 1.5 * 2^52
  return (v + kShift) - kShift;
}

/// `value` times 2^k, exact while the result stays normal: a multiplication
/// by 2^k built from its bits where that is safe, std::ldexp elsewhere.
double times_power_of_two(double value, int k) {
  if (k < -1020 || k > 1020) return std::ldexp(value, k);
  const std::uint64_t bits = static_cast<std::uint64_t>(k + 1023) << 52;
  double scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return value * scale;
}

/// Taylor terms 1/n! with alternating signs, Horner form, for |r| <= pi/4
/// (the first term left out is below 1e-22 of the result).
double sin_kernel(double r) {
  const double z = r * r;
  const double p =
      -1.0 / 6 +
      z * (1.0 / 120 +
           z * (-1.0 / 5040 +
                z * (1.0 / 362880 +
                     z * (-1.0 / 39916800 +
                          z * (1.0 / 6227020800.0 +
                               z * (-1.0 / 1307674368000.0 +
                                    z * (1.0 / 355687428096000.0 + z * (-1.0 / 121645100408832000.0))))))));
  return r + r * z * p;
}

double cos_kernel(double r) {
  const double z = r * r;
  const double q =
      1.0 / 24 +
      z * (-1.0 / 720 +
           z * (1.0 / 40320 +
                z * (-1.0 / 3628800 +
                     z * (1.0 / 479001600.0 +
                          z * (-1.0 / 87178291200.0 +
                               z * (1.0 / 20922789888000.0 + z * (-1.0 / 6402373705728000.0)))))));
  // 1 - z/2 with its rounding error recovered exactly (Sterbenz), then the rest.
  const double hz = 0.5 * z;
  const double w = 1.0 - hz;
  return w + (((1.0 - w) - hz) + z * z * q);
}

/// The quadrant of x (mod 4) and x minus that many quarter turns.
int reduce_half_pi(double x, double* r) {
  if (std::fabs(x) <= 0.7853981633974483) {
    *r = x;
    return 0;
  }
  if (!(std::fabs(x) < 1.6e6)) x = std::fmod(x, kTwoPi);  // exact, against a double 2 pi
  const double k = nearest_integer(x * kTwoOverPi);
  *r = (((x - k * kHalfPi1) - k * kHalfPi2) - k * kHalfPi3) - k * kHalfPi4;
  const long long n = static_cast<long long>(k);
  return static_cast<int>(((n % 4) + 4) % 4);
}

/// sin and cos from the quadrant and the reduced argument.
double sine_of(int quadrant, double r) {
  switch (quadrant) {
    case 0: return sin_kernel(r);
    case 1: return cos_kernel(r);
    case 2: return -sin_kernel(r);
    default: return -cos_kernel(r);
  }
}

/// atan(t) for |t| <= 1/16: Taylor terms to t^19.
double atan_kernel(double t) {
  const double z = t * t;
  const double p =
      -1.0 / 3 +
      z * (1.0 / 5 +
           z * (-1.0 / 7 +
                z * (1.0 / 9 + z * (-1.0 / 11 + z * (1.0 / 13 + z * (-1.0 / 15 + z * (1.0 / 17 + z * (-1.0 / 19))))))));
  return t + t * z * p;
}

/// atan(k/8) for k = 0..8, as the nearest double and what remains.
constexpr double kAtanHi[9] = {0.0,
                               0.12435499454676144,
                               0.24497866312686414,
                               0.35877067027057225,
                               0.4636476090008061,
                               0.5585993153435624,
                               0.6435011087932844,
                               0.7188299996216245,
                               0.7853981633974483};
constexpr double kAtanLo[9] = {0.0,
                               -3.1253241424539383e-18,
                               1.0698755618734451e-17,
                               -2.4623815582638635e-17,
                               2.2698777452961687e-17,
                               -5.4556305485916264e-18,
                               1.5834785051444286e-17,
                               -2.1478388444456983e-17,
                               3.061616997868383e-17};

/// atan(z) for z in [0, 1]: atan(c) + atan((z - c)/(1 + z c)) with c the
/// nearest multiple of 1/8, so the remaining argument is at most 1/16.
double atan_unit(double z) {
  const int k = static_cast<int>(z * 8.0 + 0.5);
  if (k == 0) return atan_kernel(z);
  const double c = k / 8.0;
  const double t = (z - c) / (1.0 + z * c);  // z - c is exact (Sterbenz)
  return kAtanHi[k] + (kAtanLo[k] + atan_kernel(t));
}

}  // namespace

double sin(double x) {
  if (!std::isfinite(x)) return std::numeric_limits<double>::quiet_NaN();
  double r = 0;
  const int quadrant = reduce_half_pi(x, &r);
  return sine_of(quadrant, r);
}

double cos(double x) {
  if (!std::isfinite(x)) return std::numeric_limits<double>::quiet_NaN();
  double r = 0;
  const int quadrant = reduce_half_pi(x, &r);
  return sine_of((quadrant + 1) % 4, r);
}

void sin_cos_degrees(double deg, double* sine, double* cosine) {
  if (!std::isfinite(deg)) {
    *sine = *cosine = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  const double turn = std::fmod(deg, 360.0);  // exact
  const double q = nearest_integer(turn / 90.0);
  const double rest = turn - 90.0 * q;  // exact: |turn| < 360 and the result is within 45 of it
  const int quadrant = static_cast<int>(((static_cast<long long>(q) % 4) + 4) % 4);
  if (std::fabs(rest) == 45.0) {
    // An eighth turn: sine and cosine are the same number, sqrt(1/2) rounded once.
    const double half = std::sqrt(0.5), r = std::copysign(half, rest);
    const double by_quadrant[4][2] = {{r, half}, {half, -r}, {-r, -half}, {-half, r}};
    *sine = by_quadrant[quadrant][0];
    *cosine = by_quadrant[quadrant][1];
    return;
  }
  const double r = rest * kDegToRadHi + rest * kDegToRadLo;
  *sine = sine_of(quadrant, r);
  *cosine = sine_of((quadrant + 1) % 4, r);
}

double atan2(double y, double x) {
  if (std::isnan(x) || std::isnan(y)) return x + y;
  const double ax = std::fabs(x), ay = std::fabs(y);
  double a;
  if (ay == 0.0) {
    a = std::signbit(x) ? kPiHi : 0.0;
  } else if (ax == 0.0 || std::isinf(ay)) {
    a = std::isinf(ax) ? (std::signbit(x) ? 3 * kHalfPiHi / 2 : kHalfPiHi / 2) : kHalfPiHi;
  } else if (std::isinf(ax)) {
    a = std::signbit(x) ? kPiHi : 0.0;
  } else {
    a = ay > ax ? (kHalfPiHi - atan_unit(ax / ay)) + kHalfPiLo : atan_unit(ay / ax);
    if (std::signbit(x)) a = (kPiHi - a) + kPiLo;
  }
  return std::copysign(a, y);
}

namespace {

/// sqrt(1 - x^2) for |x| <= 1: 1 - |x| is exact from 0.5 up (Sterbenz),
/// and below it x^2 is small beside 1.
double cosine_of_sine(double x) {
  const double a = std::fabs(x);
  return std::sqrt(a < 0.5 ? 1.0 - a * a : (1.0 - a) * (1.0 + a));
}

}  // namespace

double acos(double x) {
  if (!(std::fabs(x) <= 1.0)) return std::numeric_limits<double>::quiet_NaN();
  return atan2(cosine_of_sine(x), x);
}

double asin(double x) {
  if (!(std::fabs(x) <= 1.0)) return std::numeric_limits<double>::quiet_NaN();
  return atan2(x, cosine_of_sine(x));
}

double exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.782712893384) return std::numeric_limits<double>::infinity();
  if (x < -745.1332191019412) return 0.0;
  const double k = nearest_integer(x * kInvLn2);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  // e^r - 1 for |r| <= ln2/2: Taylor terms to r^14 (the next is below 1e-18).
  const double p =
      r + r * r *
              (1.0 / 2 +
               r * (1.0 / 6 +
                    r * (1.0 / 24 +
                         r * (1.0 / 120 +
                              r * (1.0 / 720 +
                                   r * (1.0 / 5040 +
                                        r * (1.0 / 40320 +
                                             r * (1.0 / 362880 +
                                                  r * (1.0 / 3628800 +
                                                       r * (1.0 / 39916800 +
                                                            r * (1.0 / 479001600.0 +
                                                                 r * (1.0 / 6227020800.0 +
                                                                      r * (1.0 / 87178291200.0)))))))))))));
  return times_power_of_two(1.0 + p, static_cast<int>(k));
}

double hypot(double x, double y) { return std::sqrt(x * x + y * y); }

Quat quaternion_from_degrees(double x_deg, double y_deg, double z_deg) {
  double sin_roll, cos_roll, sin_pitch, cos_pitch, sin_yaw, cos_yaw;
  sin_cos_degrees(x_deg * 0.5, &sin_roll, &cos_roll);
  sin_cos_degrees(y_deg * 0.5, &sin_pitch, &cos_pitch);
  sin_cos_degrees(z_deg * 0.5, &sin_yaw, &cos_yaw);
  Quat q;
  q.x = sin_roll * cos_pitch * cos_yaw - cos_roll * sin_pitch * sin_yaw;
  q.y = cos_roll * sin_pitch * cos_yaw + sin_roll * cos_pitch * sin_yaw;
  q.z = cos_roll * cos_pitch * sin_yaw - sin_roll * sin_pitch * cos_yaw;
  q.w = cos_roll * cos_pitch * cos_yaw + sin_roll * sin_pitch * sin_yaw;
  return q;
}

Quat quaternion_about(double axis_x, double axis_y, double axis_z, double deg) {
  const double length = std::sqrt(axis_x * axis_x + axis_y * axis_y + axis_z * axis_z);
  double sine, cosine;
  sin_cos_degrees(deg * 0.5, &sine, &cosine);
  const double s = sine / length;
  return Quat{axis_x * s, axis_y * s, axis_z * s, cosine};
}

Quat slerp(const Quat& a, const Quat& b, double t) {
  const double magnitude =
      std::sqrt((a.x * a.x + a.y * a.y + a.z * a.z + a.w * a.w) * (b.x * b.x + b.y * b.y + b.z * b.z + b.w * b.w));
  const double product = (a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w) / magnitude;
  const double abs_product = std::fabs(product);
  // Nearly the same rotation: `a` itself, as Bullet does.
  if (!(abs_product < 1.0 - std::numeric_limits<double>::epsilon())) return a;
  const double theta = acos(abs_product);
  const double d = sin(theta);
  const double sign = product < 0 ? -1.0 : 1.0;
  const double s0 = sin((1.0 - t) * theta) / d;
  const double s1 = sin(sign * t * theta) / d;
  return Quat{a.x * s0 + b.x * s1, a.y * s0 + b.y * s1, a.z * s0 + b.z * s1, a.w * s0 + b.w * s1};
}

}  // namespace stepslide::portable
