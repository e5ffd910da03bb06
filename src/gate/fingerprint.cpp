#include "gate/fingerprint.h"

#include <LinearMath/btScalar.h>
#include <gnu/libc-version.h>

#include <cstdio>
#include <sstream>

#include "build_info.h"

namespace stepslide {

namespace {

/// CMake lists arrive joined with ';' and padded with spaces: make them one
/// space-separated line so the fingerprint fits a metadata line.
std::string normalise_words(const std::string& text) {
  std::string spaced = text;
  for (char& c : spaced) {
    if (c == ';' || c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  std::istringstream words(spaced);
  std::string out;
  std::string word;
  while (words >> word) {
    if (!out.empty()) out += ' ';
    out += word;
  }
  return out;
}

std::string bullet_description() {
  const int version = BT_BULLET_VERSION;  // e.g. 324 for 3.24
  const char* precision = sizeof(btScalar) == 8 ? "float64" : "float32";
  std::string text = std::to_string(version / 100) + "." + (version % 100 < 10 ? "0" : "") +
                     std::to_string(version % 100) + " " + precision;
  text += " (pkg " + normalise_words(STEPSLIDE_BULLET_PKG_VERSION) + ": " + normalise_words(STEPSLIDE_BULLET_LIBS) +
          ")";
  return text;
}

}  // namespace

const BuildInfo& build_info() {
  static const BuildInfo info = {
      normalise_words(STEPSLIDE_VERSION),
      normalise_words(STEPSLIDE_COMPILER),
      normalise_words(STEPSLIDE_BUILD_FLAGS),
      bullet_description(),
      std::string("glibc ") + gnu_get_libc_version(),
  };
  return info;
}

std::string build_fingerprint() {
  const BuildInfo& b = build_info();
  return "stepslide " + b.version + "; " + b.compiler + "; flags " + b.flags + "; bullet " + b.bullet + "; " +
         b.libc;
}

std::uint64_t fnv1a64(const std::string& bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ull;  // FNV offset basis
  for (unsigned char byte : bytes) {
    hash ^= byte;
    hash *= 0x100000001b3ull;  // FNV prime
  }
  return hash;
}

std::string fnv1a64_hex(const std::string& bytes) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(fnv1a64(bytes)));
  return text;
}

}  // namespace stepslide
