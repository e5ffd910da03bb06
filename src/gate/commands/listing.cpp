#include "gate/commands/listing.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <set>
#include <system_error>

#include "gate/core/discovery.h"
#include "gate/core/filter.h"
#include "gate/core/pending.h"
#include "gate/core/text.h"

namespace stepslide {

namespace {

namespace fs = std::filesystem;

bool exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

std::string absolute_text(const std::string& path) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  return normal_path(ec ? path : absolute.string());
}

ListEntry scenario_entry(const std::string& scenario, const ListRequest& request) {
  const std::optional<std::string> golden = golden_path_for(scenario, request.scenario_root, request.golden_dir);
  if (!golden) {
    return {ListStatus::Outside, scenario, "outside the scenario root '" + request.scenario_root + "': no golden"};
  }
  const std::string pending = pending_path_for(*golden);
  if (exists(pending)) return {ListStatus::Pending, scenario, pending + (exists(*golden) ? "" : " (no golden yet)")};
  if (!exists(*golden)) return {ListStatus::Missing, scenario, *golden};
  return {ListStatus::Ok, scenario, ""};
}

/// `.new` files below the covered golden folders whose scenario is not among
/// `files`, kept by `filter`.
std::vector<ListEntry> orphan_pending(const ListRequest& request, const std::vector<std::string>& files,
                                      const ScenarioFilter& filter) {
  std::set<std::string> known;
  for (const std::string& file : files) known.insert(absolute_text(file));
  std::set<std::string> seen;
  std::vector<ListEntry> entries;
  for (const std::string& dir : covered_golden_dirs(request.paths, request.scenario_root, request.golden_dir)) {
    for (const std::string& pending : files_below(dir, ".csv.new")) {
      const std::optional<std::string> scenario =
          scenario_path_for(*golden_of_pending(pending), request.scenario_root, request.golden_dir);
      if (!scenario || known.count(absolute_text(*scenario)) > 0 || !seen.insert(pending).second) continue;
      if (!filter_selects(filter, scenario_name(*scenario, request.scenario_root), pending)) continue;
      entries.push_back({ListStatus::Orphan, pending, "pending result with no scenario " + *scenario});
    }
  }
  return entries;
}

const char* status_word(ListStatus status) {
  switch (status) {
    case ListStatus::Ok: return "ok";
    case ListStatus::Pending: return "pending";
    case ListStatus::Missing: return "missing";
    case ListStatus::Outside: return "outside";
    case ListStatus::Orphan: return "orphan";
  }
  return "?";
}

}  // namespace

ListRun run_list(const ListRequest& request) {
  ListRun run;
  // Listing nothing is an answer, not a mistake: a filter that keeps no
  // scenario (it may keep orphans) only warns.
  const Expected<ChosenScenarios> chosen =
      choose_scenarios(request.paths, request.scenario_root, request.filters, /*allow_none=*/true);
  if (!chosen) {
    run.errors = chosen.error();
    run.exit_code = kExitInvalid;
    return run;
  }
  run.warnings = chosen->warnings;
  for (const std::string& file : chosen->kept) run.entries.push_back(scenario_entry(file, request));
  for (const std::string& golden :
       selected_orphan_goldens(request.paths, chosen->found, request.scenario_root, request.golden_dir,
                               chosen->filter)) {
    const std::optional<std::string> scenario = scenario_path_for(golden, request.scenario_root, request.golden_dir);
    run.entries.push_back({ListStatus::Orphan, golden, "no scenario " + scenario.value_or("maps to it")});
  }
  for (ListEntry& entry : orphan_pending(request, chosen->found, chosen->filter)) {
    run.entries.push_back(std::move(entry));
  }
  return run;
}

std::string list_text(const std::vector<ListEntry>& entries) {
  std::size_t width = 0;
  for (const ListEntry& e : entries) width = std::max(width, e.path.size());
  std::array<std::size_t, 5> counts{};
  std::string text;
  for (const ListEntry& e : entries) {
    ++counts[static_cast<std::size_t>(e.status)];
    const std::string word = status_word(e.status);
    std::string line = word + std::string(9 - word.size(), ' ') + e.path;
    if (!e.detail.empty()) line += std::string(width - e.path.size() + 2, ' ') + e.detail;
    text += line + "\n";
  }
  const std::size_t scenarios = entries.size() - counts[static_cast<std::size_t>(ListStatus::Orphan)];
  text += plural(scenarios, "scenario") + ": " + std::to_string(counts[0]) + " ok, " + std::to_string(counts[1]) +
          " pending, " + std::to_string(counts[2]) + " missing";
  if (counts[3] > 0) text += ", " + std::to_string(counts[3]) + " outside";
  if (counts[4] > 0) text += "; " + plural(counts[4], "orphan");
  return text + "\n";
}

}  // namespace stepslide
