#include "scenario/load/column_pattern.h"

#include <algorithm>

#include "scenario/columns.h"

namespace stepslide {

namespace {

int count_of(std::string_view text, char c) { return static_cast<int>(std::count(text.begin(), text.end(), c)); }

int literal_count(std::string_view pattern) {
  return static_cast<int>(pattern.size()) - count_of(pattern, '*') - count_of(pattern, '?');
}

/// Characters people may expect to be wildcards that are matched literally
/// here; a key holding one is refused with a hint instead of matching nothing.
std::optional<char> unsupported_wildcard(std::string_view pattern) {
  for (char c : pattern) {
    if (c == '[' || c == ']' || c == '{' || c == '}' || c == '\\') return c;
  }
  return std::nullopt;
}

}  // namespace

bool is_glob(std::string_view pattern) { return pattern.find_first_of("*?") != std::string_view::npos; }

int compare_specificity(std::string_view a, std::string_view b) {
  const bool exact_a = !is_glob(a), exact_b = !is_glob(b);
  if (exact_a != exact_b) return exact_a ? 1 : -1;
  const int literals = literal_count(a) - literal_count(b);
  if (literals != 0) return literals > 0 ? 1 : -1;
  const int stars = count_of(b, '*') - count_of(a, '*');
  return stars == 0 ? 0 : (stars > 0 ? 1 : -1);
}

std::vector<std::string> columns_matching(std::string_view pattern) {
  std::vector<std::string> names;
  for (const std::string& name : column_names()) {
    if (glob_match(pattern, name)) names.push_back(name);
  }
  return names;
}

std::optional<std::string> pattern_problem(const std::string& pattern, const std::string& shown) {
  if (pattern.empty()) return "expected a column name or glob, got an empty name (known: " + known_columns_text() + ")";
  if (const std::optional<char> c = unsupported_wildcard(pattern)) {
    return "'" + std::string(1, *c) + "' in " + shown + " is not a wildcard here; only * and ? are";
  }
  if (!columns_matching(pattern).empty() || entity_pattern(pattern)) return std::nullopt;
  if (is_glob(pattern)) return "glob " + shown + " matches no column (known: " + known_columns_text() + ")";
  return "unknown column " + shown + " (known: " + known_columns_text() + ")";
}

std::string known_columns_text() {
  std::vector<std::string> names = column_names();
  std::sort(names.begin(), names.end());
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace stepslide
