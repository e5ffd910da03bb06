#include "gate/core/fingerprint.h"

#include <LinearMath/btScalar.h>
#include <gnu/libc-version.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <utility>

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

/// The processor the compiler generated code for, from its own target
/// macros (the binary's truth, whatever machine configured it).
std::string target_arch() {
#if defined(__x86_64__) || defined(_M_X64)
  return "x86_64";
#elif defined(__aarch64__) || defined(_M_ARM64)
  return "aarch64";
#elif defined(__i386__) || defined(_M_IX86)
  return "i386";
#elif defined(__arm__)
  return "arm";
#elif defined(__riscv) && __riscv_xlen == 64
  return "riscv64";
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
  return "ppc64le";
#elif defined(__s390x__)
  return "s390x";
#else
  const std::string configured = normalise_words(STEPSLIDE_SYSTEM_PROCESSOR);
  return configured.empty() ? "unknown" : configured;
#endif
}

/// The keys a fingerprint part may start with, and the field each names.
struct Key {
  const char* prefix;
  const char* field;
};
constexpr Key kKeys[] = {{"stepslide", "stepslide"}, {"arch", "arch"},     {"build", "build"},
                         {"flags", "flags"},         {"bullet", "bullet"}, {"glibc", "libc"}};

/// The part split into a field: "arch x86_64" -> {arch, x86_64}; "glibc 2.36"
/// -> {libc, glibc 2.36}; anything else is the compiler.
FingerprintField field_of(const std::string& part) {
  for (const Key& key : kKeys) {
    const std::string prefix = std::string(key.prefix) + " ";
    if (part.rfind(prefix, 0) != 0) continue;
    if (std::string(key.field) == "libc") return {key.field, part};
    return {key.field, part.substr(prefix.size())};
  }
  return {"compiler", part};
}

const FingerprintField* find_field(const std::vector<FingerprintField>& fields, const std::string& name) {
  for (const FingerprintField& f : fields) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

/// "arch x86_64 (this build: aarch64)"; "(not recorded)" for a missing side.
std::string change_text(const FingerprintChange& c) {
  const auto shown = [](const std::string& v) { return v.empty() ? std::string("(not recorded)") : v; };
  return c.name + " " + shown(c.then) + " (this build: " + shown(c.now) + ")";
}

}  // namespace

const BuildInfo& build_info() {
  static const BuildInfo info = {
      normalise_words(STEPSLIDE_VERSION),
      target_arch(),
      normalise_words(STEPSLIDE_COMPILER),
      normalise_words(STEPSLIDE_BUILD_TYPE).empty() ? "none" : normalise_words(STEPSLIDE_BUILD_TYPE),
      normalise_words(STEPSLIDE_BUILD_FLAGS),
      bullet_description(),
      std::string("glibc ") + gnu_get_libc_version(),
  };
  return info;
}

std::string build_fingerprint() {
  const BuildInfo& b = build_info();
  return "stepslide " + b.version + "; arch " + b.arch + "; " + b.compiler + "; build " + b.build_type + "; flags " +
         b.flags + "; bullet " + b.bullet + "; " + b.libc;
}

std::vector<FingerprintField> fingerprint_fields(const std::string& fingerprint) {
  std::vector<FingerprintField> fields;
  std::size_t start = 0;
  while (start <= fingerprint.size()) {
    const std::size_t end = std::min(fingerprint.find(';', start), fingerprint.size());
    const std::string part = normalise_words(fingerprint.substr(start, end - start));
    if (!part.empty()) fields.push_back(field_of(part));
    start = end + 1;
  }
  return fields;
}

std::vector<FingerprintChange> fingerprint_changes(const std::string& then, const std::string& now) {
  const std::vector<FingerprintField> old_fields = fingerprint_fields(then), new_fields = fingerprint_fields(now);
  std::vector<FingerprintChange> changes;
  for (const FingerprintField& f : new_fields) {
    const FingerprintField* old = find_field(old_fields, f.name);
    if (old == nullptr || old->value != f.value) changes.push_back({f.name, old ? old->value : "", f.value});
  }
  for (const FingerprintField& f : old_fields) {
    if (find_field(new_fields, f.name) == nullptr) changes.push_back({f.name, f.value, ""});
  }
  return changes;
}

std::string build_difference_note(const std::vector<std::string>& golden_builds, const std::string& now) {
  // Each distinct recorded build that differs, with how many goldens it wrote.
  std::vector<std::pair<std::string, std::size_t>> builds;
  std::size_t recorded = 0;
  for (const std::string& build : golden_builds) {
    if (build.empty()) continue;
    ++recorded;
    if (fingerprint_changes(build, now).empty()) continue;
    auto it = std::find_if(builds.begin(), builds.end(), [&](const auto& b) { return b.first == build; });
    if (it == builds.end()) {
      builds.emplace_back(build, 1);
    } else {
      ++it->second;
    }
  }
  std::string note;
  bool arch_differs = false;
  for (const auto& [build, count] : builds) {
    std::string fields;
    for (const FingerprintChange& c : fingerprint_changes(build, now)) {
      fields += (fields.empty() ? "" : "; ") + change_text(c);
      arch_differs = arch_differs || (c.name == "arch" && !c.then.empty());
    }
    note += "note: " + std::to_string(count) + " of " + std::to_string(recorded) +
            " goldens were written by a different build: " + fields + "\n";
  }
  if (arch_differs) {
    note += "note: the processor architecture differs: where stepslide's own arithmetic decides the results agree "
            "bit for bit (dynamic bodies included); where Bullet's compiled code does (the few queries left to it, "
            "docs/fuzzing.md \"arm64\") they may differ in the last bits, and --exact says so\n";
  }
  return note;
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
