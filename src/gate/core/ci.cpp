#include "gate/core/ci.h"

#include <cctype>

namespace stepslide {

namespace {

bool equals_ignoring_case(const std::string& text, const char* word) {
  std::size_t i = 0;
  for (; word[i] != '\0'; ++i) {
    if (i >= text.size()) return false;
    if (std::tolower(static_cast<unsigned char>(text[i])) != word[i]) return false;
  }
  return i == text.size();
}

}  // namespace

bool ci_value_means_ci(const char* value) {
  if (value == nullptr) return false;
  const std::string text = value;
  return !text.empty() && text != "0" && !equals_ignoring_case(text, "false");
}

bool running_in_ci(const EnvLookup& env) { return ci_value_means_ci(env("CI")); }

std::string ci_setting_text(const EnvLookup& env) {
  const char* value = env("CI");
  return std::string("CI=") + (value ? value : "");
}

}  // namespace stepslide
