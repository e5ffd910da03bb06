// Build fingerprint and scenario hashing, recorded in trajectory metadata so
// that a failing check can say whether the golden came from another build.
#pragma once

#include <cstdint>
#include <string>

namespace stepslide {

/// What this binary was built with: each part is one field of the fingerprint.
struct BuildInfo {
  std::string version;    ///< stepslide's own version, "0.1.0"
  std::string compiler;   ///< "GNU 12.2.0"
  std::string flags;      ///< optimisation and floating-point flags, space separated
  std::string bullet;     ///< "3.24 float64 (pkg 3.24: LinearMath-float64 ...)"
  std::string libc;       ///< "glibc 2.36"
};

/// The build this code was compiled into.
const BuildInfo& build_info();

/// One line, stable for a given binary:
/// "stepslide 0.1.0; GNU 12.2.0; flags -O2 ...; bullet 3.24 float64 (...); glibc 2.36".
std::string build_fingerprint();

/// 64-bit FNV-1a of `bytes`.
std::uint64_t fnv1a64(const std::string& bytes);

/// fnv1a64 as 16 lowercase hex digits.
std::string fnv1a64_hex(const std::string& bytes);

}  // namespace stepslide
