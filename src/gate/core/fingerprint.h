// Build fingerprint and scenario hashing, recorded in trajectory metadata so
// that a check can say whether the golden came from another build, and what
// about that build differs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stepslide {

/// What this binary was built with: each part is one field of the fingerprint.
struct BuildInfo {
  std::string version;     ///< stepslide's own version, "0.1.0"
  std::string arch;        ///< the compiler's target processor: "x86_64", "aarch64", ...
  std::string compiler;    ///< "GNU 12.2.0"
  std::string build_type;  ///< CMAKE_BUILD_TYPE: "Release", "Debug", ...; "none" when unset
  std::string flags;       ///< that build type's optimisation and floating-point flags, space separated
  std::string bullet;      ///< "3.24 float64 (pkg 3.24: LinearMath-float64 ...)"
  std::string libc;        ///< "glibc 2.36"
};

/// The build this code was compiled into.
const BuildInfo& build_info();

/// One line, stable for a given binary:
/// "stepslide 0.1.0; arch x86_64; GNU 12.2.0; build Release; flags -O2 ...;
/// bullet 3.24 float64 (...); glibc 2.36".
std::string build_fingerprint();

/// One field of a fingerprint: "arch", "compiler", "build", "flags",
/// "bullet", "libc" or "stepslide", and its value ("x86_64", "GNU 12.2.0", ...).
struct FingerprintField {
  std::string name;
  std::string value;
};

/// The fields of a fingerprint line, in order. A part that starts with a
/// known key ("arch x86_64") is that field; "glibc 2.36" is libc; the part
/// naming no key is the compiler. Fingerprints written before a field existed
/// simply lack it.
std::vector<FingerprintField> fingerprint_fields(const std::string& fingerprint);

/// A field that differs between two fingerprints; "" for a side that does
/// not record it.
struct FingerprintChange {
  std::string name;
  std::string then;  ///< the recorded (golden's) value
  std::string now;   ///< this build's value
};

/// The fields whose values differ, in the order of `now`'s fields, then any
/// only `then` has.
std::vector<FingerprintChange> fingerprint_changes(const std::string& then, const std::string& now);

/// The note `check` prints once per run when goldens were written by another
/// build (empty when none was): how many, what differs field by field, and,
/// when the processor architecture differs, that only Bullet's compiled code
/// (dynamic bodies) may differ in the last bits. `golden_builds` holds each compared golden's
/// recorded fingerprint ("" when it records none).
std::string build_difference_note(const std::vector<std::string>& golden_builds, const std::string& now);

/// 64-bit FNV-1a of `bytes`.
std::uint64_t fnv1a64(const std::string& bytes);

/// fnv1a64 as 16 lowercase hex digits.
std::string fnv1a64_hex(const std::string& bytes);

}  // namespace stepslide
