// Equality to the bit, as the caches and memos of this folder key on it:
// a value a rounding apart, or a zero of the other sign, may give another
// answer from Bullet's arithmetic, so only the same bits may reuse one.
#pragma once

#include <LinearMath/btTransform.h>
#include <LinearMath/btVector3.h>

#include <cstring>

namespace stepslide {

inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

inline bool same_bits(const btVector3& a, const btVector3& b) {
  return same_bits(a.x(), b.x()) && same_bits(a.y(), b.y()) && same_bits(a.z(), b.z());
}

inline bool same_bits(const btTransform& a, const btTransform& b) {
  const btMatrix3x3& p = a.getBasis();
  const btMatrix3x3& q = b.getBasis();
  return same_bits(a.getOrigin(), b.getOrigin()) && same_bits(p[0], q[0]) && same_bits(p[1], q[1]) &&
         same_bits(p[2], q[2]);
}

}  // namespace stepslide
