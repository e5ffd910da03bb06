// Elementary functions that give the same bits on every CPU: sine, cosine,
// arctangent, arc cosine and sine, and the exponential, computed with IEEE
// additions, multiplications, divisions and square roots only (each correctly
// rounded on every processor), compiled without contraction into fused
// multiply-adds (-ffp-contract=off, as every layer is). The C library's
// versions differ between x86-64 and arm64 (different code, and fused
// multiply-adds on one and not the other) in the last bit of some results,
// and a last bit on a decision path can move a trajectory. Accuracy: within
// one unit in the last place of the C library's results on the ranges the
// tests sweep (portable_math_test.cpp); determinism on every input.
#pragma once

namespace stepslide::portable {

/// Sine and cosine of an angle in radians. Reduced by pi/2 in four parts:
/// within one ulp of the C library for |x| <= 10, two up to 1e4, accurate
/// to |x| < 1.6e6; beyond that the same bits everywhere but coarser (the
/// reduction then keeps about 1e-10 of relative accuracy).
double sin(double x);
double cos(double x);

/// Sine and cosine of an angle in degrees, reduced exactly (whole turns and
/// quarter turns come off without rounding), so multiples of 90 degrees give
/// exactly 0 and +-1 at any magnitude, and odd multiples of 45 degrees give
/// sine and cosine of the same magnitude, sqrt(1/2).
void sin_cos_degrees(double deg, double* sine, double* cosine);

/// Arctangent of y/x in (-pi, pi], with the C library's signs and special
/// cases (zeros, infinities, NaN).
double atan2(double y, double x);

/// Arc cosine in [0, pi] and arc sine in [-pi/2, pi/2]; NaN outside [-1, 1].
double acos(double x);
double asin(double x);

/// e^x; +inf above about 709.78, 0 below about -745.13.
double exp(double x);

/// sqrt(x^2 + y^2) for finite x and y whose squares neither overflow nor
/// underflow (the C library's hypot differs between CPUs in the last bit).
double hypot(double x, double y);

/// A quaternion as (x, y, z, w), Bullet's order.
struct Quat {
  double x = 0, y = 0, z = 0, w = 1;
};

/// The rotation by `x_deg` about X, then `y_deg` about Y, then `z_deg` about
/// Z (docs/format.md `rotation_deg`): Bullet's setEulerZYX product, from the
/// sines and cosines of the half angles taken in degrees (sin_cos_degrees),
/// so a quarter turn is exact.
Quat quaternion_from_degrees(double x_deg, double y_deg, double z_deg);

/// The rotation by `deg` about `axis` (any length but zero): Bullet's
/// setRotation with the half angle taken in degrees.
Quat quaternion_about(double axis_x, double axis_y, double axis_z, double deg);

/// Spherical interpolation from `a` (t = 0) to `b` (t = 1) the short way,
/// Bullet's btQuaternion::slerp with this file's acos and sin.
Quat slerp(const Quat& a, const Quat& b, double t);

}  // namespace stepslide::portable
