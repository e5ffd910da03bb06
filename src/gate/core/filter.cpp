#include "gate/core/filter.h"

#include <algorithm>
#include <optional>

#include "gate/core/command_inputs.h"
#include "gate/core/discovery.h"
#include "gate/core/text.h"

namespace stepslide {

namespace {

enum class Token { Literal, AnyRun, AnyChar, AnyDeepRun, AnyFolders };

struct Part {
  Token token;
  char literal = 0;
};

/// "**/" before "**" before "*": the longest reading of each star run.
std::vector<Part> parse_glob(const std::string& pattern) {
  std::vector<Part> parts;
  for (std::size_t i = 0; i < pattern.size();) {
    if (pattern.compare(i, 3, "**/") == 0) {
      parts.push_back({Token::AnyFolders});
      i += 3;
    } else if (pattern.compare(i, 2, "**") == 0) {
      parts.push_back({Token::AnyDeepRun});
      i += 2;
    } else if (pattern[i] == '*') {
      parts.push_back({Token::AnyRun});
      ++i;
    } else if (pattern[i] == '?') {
      parts.push_back({Token::AnyChar});
      ++i;
    } else {
      parts.push_back({Token::Literal, pattern[i]});
      ++i;
    }
  }
  return parts;
}

/// Matches parts[p..] against text[t..]; `memo` remembers the states that
/// failed, so a pattern full of stars stays quadratic, never exponential.
class Matcher {
 public:
  Matcher(std::vector<Part> parts, const std::string& text)
      : parts_(std::move(parts)), text_(text), failed_((parts_.size() + 1) * (text.size() + 1), false) {}

  bool match(std::size_t p, std::size_t t) {
    if (p == parts_.size()) return t == text_.size();
    const std::size_t key = p * (text_.size() + 1) + t;
    if (failed_[key]) return false;
    if (step(p, t)) return true;
    failed_[key] = true;
    return false;
  }

 private:
  bool step(std::size_t p, std::size_t t) {
    const bool more = t < text_.size();
    const char c = more ? text_[t] : '\0';
    switch (parts_[p].token) {
      case Token::Literal: return more && c == parts_[p].literal && match(p + 1, t + 1);
      case Token::AnyChar: return more && c != '/' && match(p + 1, t + 1);
      case Token::AnyRun: return match(p + 1, t) || (more && c != '/' && match(p, t + 1));
      case Token::AnyDeepRun: return match(p + 1, t) || (more && match(p, t + 1));
      case Token::AnyFolders:
        if (match(p + 1, t)) return true;
        for (std::size_t end = t; end < text_.size(); ++end) {
          if (text_[end] == '/' && match(p + 1, end + 1)) return true;
        }
        return false;
    }
    return false;
  }

  std::vector<Part> parts_;
  const std::string& text_;
  std::vector<bool> failed_;
};

bool matches(const std::string& pattern, const std::string& name, const std::string& path) {
  return path_glob_match(pattern, name) || path_glob_match(pattern, path);
}

}  // namespace

Expected<ScenarioFilter> parse_filters(const std::vector<std::string>& arguments) {
  ScenarioFilter filter;
  for (const std::string& argument : arguments) {
    if (argument.empty() || argument == "-") {
      return Expected<ScenarioFilter>::failure("--filter '" + argument +
                                               "': expected a glob such as 'stairs/*', or '-GLOB' to exclude");
    }
    if (argument[0] == '-') {
      filter.exclude.push_back(argument.substr(1));
    } else {
      filter.include.push_back(argument);
    }
  }
  return filter;
}

bool path_glob_match(const std::string& pattern, const std::string& text) {
  return Matcher(parse_glob(pattern), text).match(0, 0);
}

bool filter_selects(const ScenarioFilter& filter, const std::string& name, const std::string& path) {
  const auto hit = [&](const std::string& pattern) { return matches(pattern, name, path); };
  if (!filter.include.empty() && std::none_of(filter.include.begin(), filter.include.end(), hit)) return false;
  return std::none_of(filter.exclude.begin(), filter.exclude.end(), hit);
}

FilteredFiles filter_scenario_files(const std::vector<std::string>& files, const std::string& scenario_root,
                                    const ScenarioFilter& filter) {
  FilteredFiles kept;
  if (filter.empty()) {
    kept.files = files;
    return kept;
  }
  std::vector<bool> used(filter.include.size(), false);
  for (const std::string& file : files) {
    const std::string name = scenario_name(file, scenario_root);
    if (!filter_selects(filter, name, file)) continue;
    kept.files.push_back(file);
    for (std::size_t i = 0; i < filter.include.size(); ++i) used[i] = used[i] || matches(filter.include[i], name, file);
  }
  for (std::size_t i = 0; i < filter.include.size(); ++i) {
    if (!used[i]) kept.warnings += "warning: --filter '" + filter.include[i] + "' matches no scenario\n";
  }
  return kept;
}

Expected<FilteredFiles> select_scenario_files(const std::vector<std::string>& files, const std::string& scenario_root,
                                              const ScenarioFilter& filter) {
  FilteredFiles kept = filter_scenario_files(files, scenario_root, filter);
  if (!kept.files.empty() || filter.empty()) return kept;
  std::string given;
  for (const std::string& g : filter.include) given += " --filter '" + g + "'";
  for (const std::string& g : filter.exclude) given += " --filter '-" + g + "'";
  return Expected<FilteredFiles>::failure(
      error_line("no scenario is selected by" + given + " (of " + plural(files.size(), "scenario") + " found)"));
}

Expected<ChosenScenarios> choose_scenarios(const std::vector<std::string>& paths, const std::string& scenario_root,
                                           const std::vector<std::string>& filters, bool allow_none) {
  using Result = Expected<ChosenScenarios>;
  Expected<ScenarioFilter> filter = parse_filters(filters);
  if (!filter) return Result::failure(error_line(filter.error()));
  const Expected<std::vector<std::string>> named = paths_or_root(paths, scenario_root);
  if (!named) return Result::failure(named.error());
  Expected<std::vector<std::string>> found = scenario_files(*named);
  if (!found) return Result::failure(found.error());
  Expected<FilteredFiles> kept = allow_none ? filter_scenario_files(*found, scenario_root, *filter)
                                            : select_scenario_files(*found, scenario_root, *filter);
  if (!kept) return Result::failure(kept.error());
  return ChosenScenarios{found.take(), filter.take(), std::move(kept->files), std::move(kept->warnings)};
}

std::vector<std::string> selected_orphan_goldens(const std::vector<std::string>& paths,
                                                 const std::vector<std::string>& scenarios,
                                                 const std::string& scenario_root, const std::string& golden_dir,
                                                 const ScenarioFilter& filter) {
  const std::vector<std::string> covered = covered_golden_dirs(paths, scenario_root, golden_dir);
  std::vector<std::string> kept;
  for (const std::string& golden : find_orphan_goldens(scenarios, scenario_root, golden_dir, covered)) {
    const std::optional<std::string> scenario = scenario_path_for(golden, scenario_root, golden_dir);
    const std::string name = scenario ? scenario_name(*scenario, scenario_root) : golden;
    if (filter_selects(filter, name, golden)) kept.push_back(golden);
  }
  return kept;
}

}  // namespace stepslide
