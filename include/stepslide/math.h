// Small vector helpers and angle constants shared by the controller and the
// tools around it. Header-only.
#pragma once

#include <LinearMath/btQuaternion.h>
#include <LinearMath/btTransform.h>
#include <LinearMath/btVector3.h>

namespace stepslide {

constexpr double kPi = 3.14159265358979323846;
/// Degrees to radians by one multiplication.
constexpr double kDegToRad = kPi / 180.0;

/// Radians from degrees, as `deg * kPi / 180`. (The same angle through
/// kDegToRad may differ in the last bit: keep one form per use so that
/// trajectories stay byte-identical.)
inline double radians(double deg) { return deg * kPi / 180.0; }
/// Degrees from radians, as `rad * 180 / kPi`.
inline double degrees(double rad) { return rad * 180.0 / kPi; }

/// The part of `v` across `up` (unit).
inline btVector3 horizontal_part(const btVector3& v, const btVector3& up) { return v - up * v.dot(up); }

/// `v` scaled to unit length, or zero when it is (nearly) zero.
inline btVector3 safe_normalized(const btVector3& v) {
  const double length = v.length();
  return length > 1e-12 ? v / length : btVector3(0, 0, 0);
}

/// The rotation that takes local +Y onto `up` (unit): the orientation of a
/// character's shape. Straight down turns about X.
inline btQuaternion rotation_onto_up(const btVector3& up) {
  const btVector3 y(0, 1, 0);
  if (up.dot(y) < -0.999999) return btQuaternion(btVector3(1, 0, 0), kPi);
  return shortestArcQuat(y, up);
}

/// Equal in every component, to the bit but for the sign of zero.
inline bool same_vector(const btVector3& a, const btVector3& b) {
  return a.x() == b.x() && a.y() == b.y() && a.z() == b.z();
}

/// Equal in all 12 numbers, as same_vector compares them.
inline bool same_transform(const btTransform& a, const btTransform& b) {
  for (int r = 0; r < 3; ++r) {
    if (!same_vector(a.getBasis()[r], b.getBasis()[r])) return false;
  }
  return same_vector(a.getOrigin(), b.getOrigin());
}

}  // namespace stepslide
