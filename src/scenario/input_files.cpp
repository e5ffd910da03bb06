#include "scenario/input_files.h"

#include <filesystem>

namespace stepslide {

namespace fs = std::filesystem;

std::uint64_t fnv1a64_of(const std::string& bytes, std::uint64_t hash) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string hex64(std::uint64_t value) {
  static const char* const kHex = "0123456789abcdef";
  std::string text(16, '0');
  for (int i = 15; i >= 0; --i) {
    text[static_cast<std::size_t>(i)] = kHex[value & 0xF];
    value >>= 4;
  }
  return text;
}

std::string directory_of(const std::string& file) { return fs::path(file).parent_path().generic_string(); }

namespace {

fs::path root_of(const PathPolicy& policy) {
  return policy.root_dir.empty() ? fs::path(".") : fs::path(policy.root_dir).lexically_normal();
}

/// True when `path` (normalised, relative) climbs above its starting directory.
bool climbs_out(const fs::path& relative) {
  return relative.empty() || *relative.begin() == "..";
}

}  // namespace

Expected<std::string> resolve_input_path(const std::string& written, const std::string& base_dir,
                                         const PathPolicy& policy) {
  using Result = Expected<std::string>;
  if (written.empty()) return Result::failure("expected a file path, got an empty string");
  if (written.find('\0') != std::string::npos) return Result::failure("expected a file path, got a NUL character");
  const fs::path given(written);
  if (given.is_absolute()) {
    if (!policy.allow_outside) {
      return Result::failure("absolute path " + written +
                             " is not allowed: give a path relative to the file that names it (or use "
                             "--allow-outside)");
    }
    return given.lexically_normal().generic_string();
  }
  const fs::path base = base_dir.empty() ? fs::path(".") : fs::path(base_dir);
  const fs::path resolved = (base / given).lexically_normal();
  if (!policy.allow_outside) {
    const fs::path inside = resolved.lexically_relative(root_of(policy));
    if (climbs_out(inside)) {
      return Result::failure("path " + written + " leads outside the scenario's directory " +
                             root_of(policy).generic_string() + " (use --allow-outside to allow it)");
    }
  }
  return resolved.generic_string();
}

std::string input_display_path(const std::string& opened, const PathPolicy& policy) {
  const fs::path path(opened);
  const fs::path relative = path.lexically_normal().lexically_relative(root_of(policy));
  if (path.is_absolute() || relative.empty()) return path.lexically_normal().generic_string();
  return relative.generic_string();
}

void add_input(std::vector<InputFile>& inputs, InputFile file) {
  for (const InputFile& known : inputs) {
    if (known.path == file.path) return;
  }
  inputs.push_back(std::move(file));
}

}  // namespace stepslide
