// Reading a project file (docs/format.md §4) with the scenario loader's strict
// JSON reader: duplicate keys, unknown keys, wrong types and values out of
// range are all errors, each reported at its JSON Pointer, every one of them
// in one pass.

#include <filesystem>
#include <system_error>

#include "base/file_io.h"
#include "gate/core/project.h"
#include "scenario/load/load.h"
#include "scenario/load/tolerance.h"

namespace stepslide {

namespace {

namespace fs = std::filesystem;
using namespace strict_json;

constexpr std::size_t kMaxErrors = 1000;
constexpr const char* kDefaultScenarioRoot = "scenarios";

/// `value` from the file's folder `base`: "../scenarios" for base ".." and
/// value "scenarios"; an absolute value as it is.
std::string resolve(const std::string& base, const std::string& value) {
  const fs::path path(value);
  const fs::path joined = path.is_absolute() ? path : fs::path(base) / path;
  std::string text = joined.lexically_normal().generic_string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text.empty() ? "." : text;
}

/// A path member: a non-empty string without NUL, resolved against `base`.
void read_path(JsonReader& r, const Field& f, const std::string& base, std::optional<std::string>& out) {
  std::string value;
  if (!r.string(f, value)) return;
  if (value.empty()) return r.error(f.where, "expected a path, got an empty string");
  if (value.find('\0') != std::string::npos) return r.error(f.where, "expected a path, got a string holding NUL");
  out = resolve(base, value);
}

/// A "directories" key as a folder below the scenario root, "terrain/", or
/// the reason it is not one.
Expected<std::string> directory_key(const std::string& key) {
  using Result = Expected<std::string>;
  const fs::path path(key);
  if (key.find('\0') != std::string::npos) return Result::failure("expected a directory, got a key holding NUL");
  if (path.is_absolute()) {
    return Result::failure("expected a directory relative to the scenario root, got an absolute path");
  }
  std::string normal = path.lexically_normal().generic_string();
  if (normal.empty() || normal == "." || normal == "./") {
    return Result::failure("expected a directory below the scenario root; for every scenario, use the top-level "
                           "\"tolerances\"");
  }
  if (normal == ".." || normal.compare(0, 3, "../") == 0) {
    return Result::failure("expected a directory inside the scenario root, got " + quote(key));
  }
  if (normal.back() != '/') normal += '/';
  return normal;
}

/// One "directories" member: its key checked against the folders on disk,
/// its value an object holding "tolerances".
void read_directory(JsonReader& r, const Field& member, const std::string& key, const std::string& scenario_root,
                    std::vector<DirectoryTolerances>& out) {
  DirectoryTolerances entry;
  const Expected<std::string> directory = directory_key(key);
  bool ok = static_cast<bool>(directory);
  if (!directory) r.error(member.where, directory.error());
  for (const DirectoryTolerances& earlier : out) {
    if (directory && earlier.directory == *directory) {
      r.error(member.where, "names the same directory as an earlier key, " + quote(earlier.directory));
      ok = false;
    }
  }
  std::error_code ec;
  const std::string on_disk = directory ? resolve(scenario_root, *directory) : "";
  if (directory && !fs::is_directory(on_disk, ec)) {
    r.error(member.where, "no directory " + on_disk + " (a key names a directory below the scenario root, " +
                              scenario_root + ")");
    ok = false;
  }
  if (!r.object(member)) return;
  ObjectReader o(r, member);
  read_tolerances(r, o.required("tolerances"), entry.tolerances);
  o.reject_unknown();
  if (!ok) return;
  entry.directory = *directory;
  out.push_back(std::move(entry));
}

void read_directories(JsonReader& r, const Field& f, const std::string& scenario_root,
                      std::vector<DirectoryTolerances>& out) {
  if (!f || !r.object(f)) return;
  const Json::Members members = f.value->members();
  std::size_t position = 0;
  for (auto it = members.begin(); it != members.end(); ++it, ++position) {
    read_directory(r, Field{&it->second, Where::member(f.where, it->first, position)}, it->first, scenario_root, out);
  }
}

void read_project(JsonReader& r, const Field& root, const std::string& base, Project& p) {
  if (!r.object(root)) return;
  ObjectReader o(r, root);
  const Field format = o.required("format");
  if (format && !(format.value->is_string() && format.value->get_ref<const std::string&>() == kProjectFormat)) {
    r.error(format.where, "expected " + quote(kProjectFormat) + ", got " + describe(*format.value));
  }
  std::string schema_reference;  // "$schema": for editors (schema/project.schema.json); ignored here
  r.string(o.optional("$schema"), schema_reference);
  read_path(r, o.optional("scenario_root"), base, p.scenario_root);
  read_path(r, o.optional("golden_dir"), base, p.golden_dir);
  read_path(r, o.optional("report_dir"), base, p.report_dir);
  int jobs = 0;
  if (r.integer(o.optional("jobs"), between(0, ProjectLimits::max_jobs), jobs)) p.jobs = jobs;
  read_tolerances(r, o.optional("tolerances"), p.tolerances.tolerances);
  const std::string scenario_root = p.scenario_root.value_or(resolve(base, kDefaultScenarioRoot));
  read_directories(r, o.optional("directories"), scenario_root, p.tolerances.directories);
  o.reject_unknown();
}

std::string error_lines(const std::string& file, std::vector<JsonIssue> issues) {
  std::string text;
  for (JsonIssue& issue : issues) text += format_error(LoadError{file, issue.pointer, issue.message}) + "\n";
  return text;
}

Expected<Project> load_text(const std::string& text, const std::string& path) {
  using Result = Expected<Project>;
  if (static_cast<long long>(text.size()) > ProjectLimits::max_file_bytes) {
    return Result::failure(path + ": file too large: " + std::to_string(text.size()) + " bytes (limit " +
                           std::to_string(ProjectLimits::max_file_bytes) + ")\n");
  }
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    return Result::failure(path + ": empty file: expected a JSON object\n");
  }
  ParsedJson parsed = parse_json(text, ProjectLimits::max_json_depth, kMaxErrors + 1);
  JsonReader reader(kMaxErrors);
  for (JsonIssue& issue : parsed.issues) reader.add(std::move(issue));
  Project project;
  project.file = path;
  if (parsed.ok) read_project(reader, Field{&parsed.document.root, Where{}}, fs::path(path).parent_path().string(), project);
  std::vector<JsonIssue> issues = reader.take_sorted_issues();
  if (!issues.empty()) return Result::failure(error_lines(path, std::move(issues)));
  return project;
}

}  // namespace

Expected<Project> load_project_text(const std::string& text, const std::string& path) {
  try {
    return load_text(text, path);
  } catch (const std::exception& e) {
    return Expected<Project>::failure(path + ": internal error while loading: " + e.what() + "\n");
  }
}

Expected<Project> load_project_file(const std::string& path) {
  const Expected<std::string> text = read_file(path, ProjectLimits::max_file_bytes);
  if (!text) return Expected<Project>::failure(path + ": " + text.error() + "\n");
  return load_project_text(*text, path);
}

}  // namespace stepslide
