#include "scenario/load/input_files.h"

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

fs::path absolute_root(const PathPolicy& policy) {
  return fs::absolute(policy.root_dir.empty() ? fs::path(".") : fs::path(policy.root_dir)).lexically_normal();
}

/// `path` relative to the root, or empty when it lies outside (compared as
/// absolute paths, so "../here/x" seen from inside "here" is inside).
fs::path inside_root(const fs::path& path, const PathPolicy& policy) {
  const fs::path relative = fs::absolute(path).lexically_normal().lexically_relative(absolute_root(policy));
  if (relative.empty() || *relative.begin() == "..") return {};
  return relative;
}

}  // namespace

Expected<std::string> resolve_input_path(const std::string& written, const std::string& base_dir,
                                         const PathPolicy& policy) {
  using Result = Expected<std::string>;
  if (written.empty()) return Result::failure("expected a file path, got an empty string");
  if (written.find('\0') != std::string::npos) return Result::failure("expected a file path, got a NUL character");
  const fs::path given(written);
  if (given.is_absolute() && !policy.allow_outside) {
    return Result::failure("absolute path " + written +
                           " is not allowed: give a path relative to the file that names it (or use --allow-outside)");
  }
  const fs::path base = base_dir.empty() ? fs::path(".") : fs::path(base_dir);
  const fs::path resolved = given.is_absolute() ? given.lexically_normal() : (base / given).lexically_normal();
  Status inside = check_inside_root(resolved.generic_string(), policy);
  if (!inside) return Result::failure("path " + written + " " + inside.error());
  return resolved.generic_string();
}

Status check_inside_root(const std::string& path, const PathPolicy& policy) {
  if (policy.allow_outside || !inside_root(path, policy).empty()) return Status();
  return Status::failure("leads outside the scenario's directory (use --allow-outside to allow it)");
}

std::string input_display_path(const std::string& opened, const PathPolicy& policy) {
  const fs::path relative = inside_root(opened, policy);
  return relative.empty() ? fs::path(opened).lexically_normal().generic_string() : relative.generic_string();
}

void add_input(std::vector<InputFile>& inputs, InputFile file) {
  for (const InputFile& known : inputs) {
    if (known.path == file.path) return;
  }
  inputs.push_back(std::move(file));
}

}  // namespace stepslide
