#include "gate/core/command_hint.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "gate/core/discovery.h"

namespace stepslide {

namespace {

namespace fs = std::filesystem;

constexpr const char* kDefaultScenarioRoot = "scenarios";
constexpr const char* kDefaultGoldenDir = "golden";

/// Absolute and normal, for comparing spellings.
std::string absolute_text(const std::string& path) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  return normal_path(ec ? path : absolute.string());
}

bool same_path(const std::string& a, const std::string& b) { return absolute_text(a) == absolute_text(b); }

/// The golden root of `roots` may not be, hold or lie inside the current
/// one: its goldens would mix with the project's (as orphans).
bool clear_of(const Roots& roots, const Roots& current) {
  const std::string& mine = roots.golden_dir;
  const std::string& theirs = current.golden_dir;
  return !same_path(mine, theirs) && !is_inside(mine, theirs) && !is_inside(theirs, mine) &&
         !same_path(mine, roots.scenario_root);
}

std::string join(const fs::path& dir, const std::string& name) { return normal_path((dir / name).string()); }

/// The folder a path names: itself for a folder, else the one it is in.
fs::path folder_of(const std::string& path) {
  std::error_code ec;
  const fs::path normal = normal_path(path);
  if (fs::is_directory(normal, ec)) return normal;
  return normal.has_parent_path() ? normal.parent_path() : fs::path(".");
}

std::string base_name(const std::string& path) { return fs::path(normal_path(path)).filename().string(); }

/// An ancestor of `folder` (itself included) named like the current scenario
/// root, with a sibling named like the current golden root.
std::optional<Roots> sibling_project(const fs::path& folder, const Roots& current) {
  const std::string root_name = base_name(current.scenario_root);
  const std::string golden_name = base_name(current.golden_dir);
  if (root_name.empty() || root_name == "." || root_name == ".." || golden_name.empty()) return std::nullopt;
  for (fs::path p = folder; !p.empty() && p.has_relative_path(); p = p.parent_path()) {
    if (p.filename() == root_name && p.has_parent_path()) {
      return Roots{normal_path(p.string()), join(p.parent_path(), golden_name)};
    }
  }
  return std::nullopt;
}

}  // namespace

std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("/._-+=:,@", c) != nullptr;
  });
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) quoted += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string command_hint(const std::string& verb, const Roots& roots, const std::vector<std::string>& args) {
  std::string command = "stepslide " + verb;
  if (normal_path(roots.scenario_root) != kDefaultScenarioRoot) {
    command += " --scenario-root " + shell_word(roots.scenario_root);
  }
  if (normal_path(roots.golden_dir) != kDefaultGoldenDir) command += " --golden-dir " + shell_word(roots.golden_dir);
  for (const std::string& arg : args) command += " " + shell_word(arg);
  return command;
}

Roots roots_of_their_own(const std::string& path, const Roots& current) {
  const fs::path folder = folder_of(path);
  if (std::optional<Roots> sibling = sibling_project(folder, current); sibling && clear_of(*sibling, current)) {
    return *sibling;
  }
  const std::string golden_name = base_name(current.golden_dir).empty() ? kDefaultGoldenDir
                                                                         : base_name(current.golden_dir);
  const fs::path above = folder.parent_path();
  if (!above.empty() && above.has_relative_path()) {
    const Roots roots{normal_path(above.string()), join(above, golden_name)};
    if (clear_of(roots, current)) return roots;
  }
  Roots roots{normal_path(folder.string()), join(folder, golden_name)};
  // Only a scenario beside the scenario root (in the project folder itself)
  // gets here: its folder's golden root is the project's.
  if (!clear_of(roots, current)) roots.golden_dir = join(folder, "outside-" + golden_name);
  return roots;
}

bool holds_scenario_root(const std::string& path, const Roots& current) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return false;
  return same_path(path, current.scenario_root) ? false : is_inside(current.scenario_root, path);
}

}  // namespace stepslide
