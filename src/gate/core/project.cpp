// Finding the project file: the nearest `stepslide.json` at or above the
// working directory, as git finds `.git` and cargo `Cargo.toml`. Reading it is
// project_load.cpp.

#include "gate/core/project.h"

#include <filesystem>
#include <system_error>

namespace stepslide {

namespace {

namespace fs = std::filesystem;

/// "stepslide.json" seen from `start`, `levels` folders up: "../../stepslide.json".
std::string spelled_from(const std::string& start, int levels) {
  std::string path = start == "." ? "" : start + (start.back() == '/' ? "" : "/");
  for (int i = 0; i < levels; ++i) path += "../";
  return path + kProjectFileName;
}

}  // namespace

std::optional<std::string> find_project_file(const std::string& start) {
  std::error_code ec;
  // The walk follows the real folders: ".." from a symlinked folder leads to
  // its real parent, and so does the spelling handed back.
  fs::path dir = fs::weakly_canonical(fs::absolute(start.empty() ? "." : start, ec), ec);
  if (ec) return std::nullopt;
  const bool absolute = fs::path(start).is_absolute();
  for (int levels = 0;; ++levels) {
    const fs::path candidate = dir / kProjectFileName;
    std::error_code exists_ec;
    if (fs::exists(candidate, exists_ec)) {
      return absolute ? candidate.generic_string() : spelled_from(start.empty() ? "." : start, levels);
    }
    if (!dir.has_relative_path()) return std::nullopt;  // the filesystem root was the last to look in
    dir = dir.parent_path();
  }
}

Expected<std::optional<Project>> select_project(const ProjectUse& use) {
  using Result = Expected<std::optional<Project>>;
  std::optional<std::string> file;
  if (use.mode == ProjectUse::Mode::File) file = use.file;
  if (use.mode == ProjectUse::Mode::Search) file = find_project_file(use.search_from);
  if (!file) return std::optional<Project>();
  Expected<Project> project = load_project_file(*file);
  if (!project) return Result::failure(project.error());
  return std::optional<Project>(project.take());
}

}  // namespace stepslide
