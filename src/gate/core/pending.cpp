#include "gate/core/pending.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "base/file_io.h"
#include "gate/core/ci.h"
#include "gate/core/discovery.h"
#include "gate/core/text.h"

namespace stepslide {

namespace {

namespace fs = std::filesystem;

constexpr const char* kNewSuffix = ".new";
constexpr const char* kPendingSuffix = ".csv.new";
constexpr const char* kModes = "expected auto, new, always or no";

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool same_or_inside(const std::string& path, const std::string& root) {
  std::error_code ec1, ec2;
  const fs::path a = fs::absolute(path, ec1);
  const fs::path b = fs::absolute(root, ec2);
  return (!ec1 && !ec2 && normal_path(a.string()) == normal_path(b.string())) || is_inside(path, root);
}

/// The item for a `.csv.new` inside the golden root.
Expected<PendingItem> item_for(const std::string& pending, const Roots& roots) {
  PendingItem item;
  item.pending = normal_path(pending);
  item.golden = *golden_of_pending(item.pending);
  const std::optional<std::string> scenario = scenario_path_for(item.golden, roots.scenario_root, roots.golden_dir);
  if (!scenario) {
    return Expected<PendingItem>::failure(error_line(pending + ": not inside the golden root '" + roots.golden_dir +
                                                     "' (pass --golden-dir, and --scenario-root, as check had them)"));
  }
  item.scenario = *scenario;
  item.name = scenario_name(item.scenario, roots.scenario_root);
  return item;
}

/// The pending results one PATH names, as `.csv.new` paths.
Expected<std::vector<std::string>> pending_named_by(const std::string& path, const Roots& roots) {
  using Result = Expected<std::vector<std::string>>;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (fs::is_directory(status)) {
    if (same_or_inside(path, roots.golden_dir)) return files_below(path, kPendingSuffix);
    // A scenario folder: the pending results below its golden folder.
    const std::vector<std::string> golden_dirs = covered_golden_dirs({path}, roots.scenario_root, roots.golden_dir);
    if (!golden_dirs.empty()) return files_below(golden_dirs.front(), kPendingSuffix);
    return Result::failure(error_line(path + ": neither inside the scenario root '" + roots.scenario_root +
                                      "' nor inside the golden root '" + roots.golden_dir + "'"));
  }
  std::string pending;
  if (ends_with(path, kPendingSuffix)) {
    pending = path;
  } else if (ends_with(path, ".csv")) {
    pending = pending_path_for(path);
  } else if (!fs::exists(status)) {
    return Result::failure(error_line(path + ": no such file or directory"));
  } else if (const std::optional<std::string> golden = golden_path_for(path, roots.scenario_root, roots.golden_dir)) {
    pending = pending_path_for(*golden);
  } else {
    return Result::failure(error_line(path + ": outside the scenario root '" + roots.scenario_root +
                                      "', so it has no golden and no pending result"));
  }
  if (!fs::exists(pending, ec)) {
    return Result::failure(error_line(path + ": no pending result (" + normal_path(pending) + " does not exist)"));
  }
  return std::vector<std::string>{pending};
}

}  // namespace

std::optional<UpdateMode> parse_update_mode(const std::string& text) {
  if (text == "auto") return UpdateMode::Auto;
  if (text == "new") return UpdateMode::New;
  if (text == "always") return UpdateMode::Always;
  if (text == "no") return UpdateMode::No;
  return std::nullopt;
}

Expected<PendingAction> pending_action(const std::string& option, bool force, const EnvLookup& env) {
  using Result = Expected<PendingAction>;
  const char* variable = env("STEPSLIDE_UPDATE");
  const bool from_option = !option.empty();
  const std::string text = from_option ? option : (variable ? variable : "");
  const std::string source = from_option ? "--update " + text : "STEPSLIDE_UPDATE=" + text;
  const std::optional<UpdateMode> mode = text.empty() ? UpdateMode::Auto : parse_update_mode(text);
  if (!mode) return Result::failure(error_line(source + ": " + kModes));
  const bool ci = running_in_ci(env);
  switch (*mode) {
    case UpdateMode::Auto: return ci ? PendingAction::None : PendingAction::WriteNew;
    case UpdateMode::New: return PendingAction::WriteNew;
    case UpdateMode::No: return PendingAction::None;
    case UpdateMode::Always: break;
  }
  if (ci && !force) {
    return Result::failure(error_line("refusing " + source + ": the CI environment variable is set (" +
                                      ci_setting_text(env) +
                                      "); goldens are updated by a person who has looked at the change, not by a CI "
                                      "job. Use --force to update anyway."));
  }
  return PendingAction::WriteGolden;
}

std::string pending_path_for(const std::string& golden) { return golden + kNewSuffix; }

std::string picture_path_for(const std::string& pending) { return pending + ".svg"; }

std::optional<std::string> golden_of_pending(const std::string& pending) {
  if (!ends_with(pending, kPendingSuffix) || pending.size() == std::string(kPendingSuffix).size()) return std::nullopt;
  return pending.substr(0, pending.size() - std::string(kNewSuffix).size());
}

Recorded record_result(PendingAction action, const std::string& golden, const std::string& csv, const Roots& roots) {
  Recorded recorded;
  if (action == PendingAction::None) return recorded;
  const bool to_golden = action == PendingAction::WriteGolden;
  const std::string target = to_golden ? golden : pending_path_for(golden);
  if (const Status written = write_file_atomic(target, csv); !written) {
    recorded.failed = true;
    recorded.line = error_line("cannot write " + target + ": " + written.error());
    return recorded;
  }
  if (to_golden) {
    drop_pending(golden);
    recorded.line = "updated " + golden + " with this run (update mode always)\n";
    return recorded;
  }
  recorded.pending = target;
  recorded.line = "pending " + target + ": if the change is intended, run `" +
                  command_hint("accept", roots, {target}) + "`, or `" + command_hint("review", roots, {}) +
                  "` to look first\n";
  return recorded;
}

void drop_pending(const std::string& golden) {
  std::error_code ec;
  const std::string pending = pending_path_for(golden);
  fs::remove(pending, ec);
  fs::remove(picture_path_for(pending), ec);
}

std::vector<PendingItem> find_pending(const Roots& roots) {
  std::vector<PendingItem> items;
  for (const std::string& pending : files_below(roots.golden_dir, kPendingSuffix)) {
    if (Expected<PendingItem> item = item_for(pending, roots)) items.push_back(item.take());
  }
  return items;
}

Expected<std::vector<PendingItem>> select_pending(const std::vector<std::string>& paths, const Roots& roots,
                                                  const ScenarioFilter& filter) {
  using Result = Expected<std::vector<PendingItem>>;
  std::vector<std::string> files;
  std::string errors;
  if (paths.empty()) files = files_below(roots.golden_dir, kPendingSuffix);
  for (const std::string& path : paths) {
    const Expected<std::vector<std::string>> named = pending_named_by(path, roots);
    if (!named) errors += named.error();
    if (named) files.insert(files.end(), named->begin(), named->end());
  }
  std::vector<PendingItem> items;
  for (const std::string& file : files) {
    Expected<PendingItem> item = item_for(file, roots);
    if (!item) errors += item.error();
    if (item && filter_selects(filter, item->name, item->scenario)) items.push_back(item.take());
  }
  if (!errors.empty()) return Result::failure(errors);
  const auto before = [](const PendingItem& a, const PendingItem& b) { return a.pending < b.pending; };
  const auto same = [](const PendingItem& a, const PendingItem& b) { return a.pending == b.pending; };
  std::sort(items.begin(), items.end(), before);
  items.erase(std::unique(items.begin(), items.end(), same), items.end());
  return items;
}

}  // namespace stepslide
