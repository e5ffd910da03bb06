#include "gate/core/discovery.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <system_error>

#include "scenario/load/level_include.h"

namespace stepslide {

namespace fs = std::filesystem;

namespace {

/// "scenarios/./a//b.json/" -> "scenarios/a/b.json"; "" -> ".".
std::string normal_form(const fs::path& path) {
  std::string text = path.lexically_normal().generic_string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text.empty() ? "." : text;
}

/// Absolute and lexically normal, for comparing paths spelled differently.
fs::path absolute_normal(const fs::path& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  if (ec) absolute = path;
  std::string text = normal_form(absolute);
  return fs::path(text);
}

bool is_hidden(const fs::path& path) {
  const std::string name = path.filename().string();
  return !name.empty() && name[0] == '.';
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// Every regular file below `dir` whose name ends in `suffix`, skipping
/// hidden entries. Unreadable folders become errors, not silent gaps.
void collect_files(const fs::path& dir, const std::string& suffix, std::vector<std::string>* files,
                   std::vector<std::string>* errors) {
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, ec);
  if (ec) {
    if (errors) errors->push_back(normal_form(dir) + ": cannot read directory: " + ec.message());
    return;
  }
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const fs::path& path = it->path();
    if (is_hidden(path)) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) && ends_with(path.filename().string(), suffix)) files->push_back(normal_form(path));
  }
  if (ec && errors) errors->push_back(normal_form(dir) + ": cannot read directory: " + ec.message());
}

/// `path` relative to `root` when it lies inside it. Tries the spelling given
/// first, then the resolved one, so a symlinked root still matches.
std::optional<fs::path> relative_inside(const fs::path& path, const fs::path& root) {
  auto inside = [](const fs::path& p, const fs::path& r) -> std::optional<fs::path> {
    const fs::path rel = p.lexically_relative(r);
    if (rel.empty() || rel == "." || *rel.begin() == "..") return std::nullopt;
    return rel;
  };
  if (auto rel = inside(absolute_normal(path), absolute_normal(root))) return rel;
  std::error_code ec1, ec2;
  const fs::path real_path = fs::weakly_canonical(path, ec1);
  const fs::path real_root = fs::weakly_canonical(root, ec2);
  if (ec1 || ec2) return std::nullopt;
  return inside(real_path, real_root);
}

}  // namespace

std::string normal_path(const std::string& path) { return normal_form(path); }

ScenarioList discover_scenarios(const std::vector<std::string>& paths) {
  ScenarioList list;
  for (const std::string& path : paths) {
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (path.empty() || !fs::exists(status)) {
      list.errors.push_back((path.empty() ? std::string("''") : path) + ": no such file or directory");
    } else if (fs::is_directory(status)) {
      std::vector<std::string> found;
      collect_files(path, ".json", &found, &list.errors);
      // Level files (stepslide/level@1) live beside the scenarios that include them.
      for (std::string& file : found) {
        if (!is_level_file(file)) list.files.push_back(std::move(file));
      }
    } else {
      list.files.push_back(normal_form(path));
    }
  }
  std::sort(list.files.begin(), list.files.end());
  list.files.erase(std::unique(list.files.begin(), list.files.end()), list.files.end());
  return list;
}

bool is_inside(const std::string& path, const std::string& root) { return relative_inside(path, root).has_value(); }

std::optional<std::string> golden_path_for(const std::string& scenario, const std::string& scenario_root,
                                           const std::string& golden_dir) {
  std::optional<fs::path> rel = relative_inside(scenario, scenario_root);
  if (!rel) return std::nullopt;
  rel->replace_extension(".csv");
  return normal_form(fs::path(golden_dir) / *rel);
}

std::optional<std::string> scenario_path_for(const std::string& golden, const std::string& scenario_root,
                                             const std::string& golden_dir) {
  std::optional<fs::path> rel = relative_inside(golden, golden_dir);
  if (!rel) return std::nullopt;
  rel->replace_extension(".json");
  return normal_form(fs::path(scenario_root) / *rel);
}

std::string scenario_name(const std::string& scenario, const std::string& scenario_root) {
  fs::path name = relative_inside(scenario, scenario_root).value_or(fs::path(normal_form(scenario)));
  return normal_form(name.replace_extension());
}

std::vector<std::string> covered_golden_dirs(const std::vector<std::string>& paths, const std::string& scenario_root,
                                             const std::string& golden_dir) {
  if (paths.empty()) return {normal_form(golden_dir)};
  std::vector<std::string> dirs;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (!fs::is_directory(path, ec)) continue;  // a file covers only its own golden
    if (absolute_normal(path) == absolute_normal(scenario_root)) {
      dirs.push_back(normal_form(golden_dir));
    } else if (const std::optional<fs::path> rel = relative_inside(path, scenario_root)) {
      dirs.push_back(normal_form(fs::path(golden_dir) / *rel));
    }
  }
  std::sort(dirs.begin(), dirs.end());
  dirs.erase(std::unique(dirs.begin(), dirs.end()), dirs.end());
  return dirs;
}

std::vector<std::string> find_orphan_goldens(const std::vector<std::string>& scenarios,
                                             const std::string& scenario_root, const std::string& golden_dir) {
  return find_orphan_goldens(scenarios, scenario_root, golden_dir, {golden_dir});
}

std::vector<std::string> find_orphan_goldens(const std::vector<std::string>& scenarios,
                                             const std::string& scenario_root, const std::string& golden_dir,
                                             const std::vector<std::string>& covered) {
  std::set<std::string> mapped;
  for (const std::string& scenario : scenarios) {
    if (const std::optional<std::string> golden = golden_path_for(scenario, scenario_root, golden_dir)) {
      mapped.insert(absolute_normal(*golden).generic_string());
    }
  }
  std::set<std::string> orphans;  // covered folders may nest: each golden once
  for (const std::string& dir : covered) {
    for (const std::string& golden : files_below(dir, ".csv")) {
      if (mapped.count(absolute_normal(golden).generic_string()) == 0) orphans.insert(golden);
    }
  }
  return {orphans.begin(), orphans.end()};
}

std::vector<std::string> files_below(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return files;
  collect_files(dir, suffix, &files, nullptr);
  std::sort(files.begin(), files.end());
  return files;
}

std::string output_file_name(const std::string& scenario_name) {
  std::string name;
  for (char c : scenario_name) {
    const bool safe = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    name += safe ? c : '_';
  }
  if (name.empty() || name[0] == '.') name = "_" + name;
  return name + ".csv";
}

}  // namespace stepslide
