#include "gate/core/text.h"

namespace stepslide {

std::string trim(const std::string& text) {
  const char* space = " \t\r\n";
  const std::size_t first = text.find_first_not_of(space);
  if (first == std::string::npos) return "";
  const std::size_t last = text.find_last_not_of(space);
  return text.substr(first, last - first + 1);
}

std::string plural(std::size_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string ensure_newline(std::string text) {
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text;
}

std::string error_line(const std::string& message) { return "error: " + message + "\n"; }

}  // namespace stepslide
