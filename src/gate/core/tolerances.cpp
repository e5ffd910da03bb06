#include "gate/core/tolerances.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "gate/core/discovery.h"
#include "gate/core/text.h"
#include "scenario/columns.h"
#include "scenario/load/column_pattern.h"

namespace stepslide {

namespace {

constexpr const char* kTolSyntax =
    "expected COLUMN=ABS or COLUMN=abs:A,rel:R, for example --tol y=1e-4 or --tol 'v*=abs:1e-5,rel:1e-6'";

/// A finite number >= 0 written in full, or nullopt.
std::optional<double> parse_tolerance(const std::string& text) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value) || value < 0.0) return std::nullopt;
  return value;
}

/// "abs:A,rel:R", "rel:R", ...: each part once. False when malformed.
bool parse_parts(const std::string& text, ColumnTolerance& entry) {
  bool seen_abs = false, seen_rel = false;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string part = trim(text.substr(start, comma - start));
    const std::size_t colon = part.find(':');
    const std::string name = trim(part.substr(0, colon));
    const std::optional<double> value =
        colon == std::string::npos ? std::nullopt : parse_tolerance(trim(part.substr(colon + 1)));
    bool& seen = name == "abs" ? seen_abs : seen_rel;
    if (!value || (name != "abs" && name != "rel") || seen) return false;
    seen = true;
    (name == "abs" ? entry.abs : entry.rel) = *value;
    start = comma + 1;
  }
  return true;
}

/// Sets every tolerance of `rules` to 0.
DiffRules zeroed(DiffRules rules) {
  for (ColumnRule& rule : rules.rules) {
    rule.abs_tolerance = 0.0;
    rule.rel_tolerance = 0.0;
  }
  rules.default_tolerance = 0.0;
  rules.entities_exact = true;
  return rules;
}

/// The directory entries that contain `directory`, shorter prefixes first, so
/// that for a column the longest prefix that sets it wins.
std::vector<const DirectoryTolerances*> containing(const std::vector<DirectoryTolerances>& entries,
                                                   const std::string& directory) {
  std::vector<const DirectoryTolerances*> found;
  for (const DirectoryTolerances& entry : entries) {
    if (directory.compare(0, entry.directory.size(), entry.directory) == 0) found.push_back(&entry);
  }
  std::stable_sort(found.begin(), found.end(), [](const DirectoryTolerances* a, const DirectoryTolerances* b) {
    return a->directory.size() < b->directory.size();
  });
  return found;
}

}  // namespace

Expected<ColumnTolerance> parse_tol_option(const std::string& option) {
  using Result = Expected<ColumnTolerance>;
  const std::size_t equals = option.find('=');
  const std::string column = trim(option.substr(0, equals));
  const std::string quoted = "--tol '" + option + "': ";
  if (equals == std::string::npos || column.empty()) return Result::failure(quoted + kTolSyntax);
  if (const std::optional<std::string> problem = pattern_problem(column, "'" + column + "'")) {
    return Result::failure(quoted + *problem);
  }
  ColumnTolerance entry;
  entry.pattern = column;
  const std::string value = trim(option.substr(equals + 1));
  if (value.find(':') != std::string::npos) {
    if (!parse_parts(value, entry)) {
      return Result::failure(quoted + "expected abs:A and/or rel:R after '=', each a finite number >= 0");
    }
    return entry;
  }
  const std::optional<double> abs = parse_tolerance(value);
  if (!abs) return Result::failure(quoted + "expected a finite number >= 0 after '='");
  entry.abs = *abs;
  return entry;
}

Expected<ToleranceLayers> make_tolerance_layers(bool exact, const std::vector<std::string>& tolerances,
                                                ProjectTolerances project) {
  ToleranceLayers layers;
  layers.project = std::move(project);
  layers.exact = exact;
  for (const std::string& option : tolerances) {
    Expected<ColumnTolerance> entry = parse_tol_option(option);
    if (!entry) return Expected<ToleranceLayers>::failure(entry.error());
    layers.command_line.push_back(entry.take());
  }
  return layers;
}

void apply_tolerances(const std::vector<ColumnTolerance>& layer, DiffRules& rules) {
  for (const std::string& column : column_names()) {
    const ColumnTolerance* best = nullptr;
    for (const ColumnTolerance& entry : layer) {
      if (!glob_match(entry.pattern, column)) continue;
      if (best == nullptr || compare_specificity(entry.pattern, best->pattern) >= 0) best = &entry;
    }
    if (best != nullptr) rules.set(column, best->abs, best->rel);
  }
  if (!layer.empty()) rules.entity_layers.push_back(layer);
}

DiffRules rules_for(const DiffRules& base, const ToleranceLayers& layers, const std::string& directory,
                    const std::vector<ColumnTolerance>& own) {
  if (layers.exact) {
    DiffRules rules = zeroed(base);
    apply_tolerances(layers.command_line, rules);
    return rules;
  }
  DiffRules rules = base;
  apply_tolerances(layers.project.tolerances, rules);
  for (const DirectoryTolerances* entry : containing(layers.project.directories, directory)) {
    apply_tolerances(entry->tolerances, rules);
  }
  apply_tolerances(own, rules);
  apply_tolerances(layers.command_line, rules);
  return rules;
}

std::string scenario_directory(const std::string& scenario, const std::string& scenario_root) {
  // The golden path below an empty golden root is the scenario's path
  // relative to the scenario root; a scenario outside the root has none, so
  // no directory override applies to it.
  const std::string relative = golden_path_for(scenario, scenario_root, "").value_or("");
  const std::size_t slash = relative.rfind('/');
  return slash == std::string::npos ? "" : relative.substr(0, slash + 1);
}

Expected<DiffRules> make_diff_rules(bool exact, const std::vector<std::string>& tolerances) {
  Expected<ToleranceLayers> layers = make_tolerance_layers(exact, tolerances);
  if (!layers) return Expected<DiffRules>::failure(layers.error());
  return rules_for(default_diff_rules(), *layers, "", {});
}

DiffRules exact_diff_rules() { return zeroed(default_diff_rules()); }

}  // namespace stepslide
