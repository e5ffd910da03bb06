#include "gate/tolerances.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "scenario/columns.h"
#include "gate/text.h"

namespace stepslide {

namespace {

std::optional<double> parse_real(const std::string& text) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

/// "camera_dy, depen_iters, ...": the columns a --tol may name, sorted.
std::string known_columns() {
  std::vector<std::string> names = column_names();
  std::sort(names.begin(), names.end());
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

/// Applies one "--tol COLUMN=ABS" to `rules`.
Status apply_tolerance(const std::string& option, DiffRules& rules) {
  const std::size_t equals = option.find('=');
  const std::string column = trim(option.substr(0, equals));
  const std::string quoted = "--tol '" + option + "': ";
  if (equals == std::string::npos || column.empty()) {
    return Status::failure(quoted + "expected COLUMN=ABS, for example --tol y=1e-4");
  }
  if (find_column(column) == nullptr) {
    return Status::failure(quoted + "unknown column '" + column + "' (known: " + known_columns() + ")");
  }
  const std::optional<double> value = parse_real(trim(option.substr(equals + 1)));
  if (!value || !std::isfinite(*value) || *value < 0.0) {
    return Status::failure(quoted + "expected a finite number >= 0 after '='");
  }
  rules.set(column, *value);
  return Status();
}

}  // namespace

Expected<DiffRules> make_diff_rules(bool exact, const std::vector<std::string>& tolerances) {
  DiffRules rules = exact ? exact_diff_rules() : default_diff_rules();
  for (const std::string& option : tolerances) {
    const Status applied = apply_tolerance(option, rules);
    if (!applied) return Expected<DiffRules>::failure(applied);
  }
  return rules;
}

DiffRules exact_diff_rules() {
  DiffRules rules = default_diff_rules();
  for (ColumnRule& rule : rules.rules) rule.abs_tolerance = 0.0;
  rules.default_tolerance = 0.0;
  return rules;
}

}  // namespace stepslide
