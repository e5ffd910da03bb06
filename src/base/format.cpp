#include "base/format.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace stepslide {

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0.0) return "0";  // also -0.0
  char buffer[32];
  const std::to_chars_result result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string format_significant(double value, int digits) {
  if (!std::isfinite(value) || value == 0.0) return format_number(value);
  char buffer[64];
  const std::to_chars_result result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, digits);
  return std::string(buffer, result.ptr);
}

std::string readable_number(double value) {
  if (std::fabs(value) < 5e-10) value = 0.0;
  return format_significant(value, 6);
}

std::string readable_beside(double value, double limit) {
  std::string text = readable_number(value);
  if (value == limit || !std::isfinite(value)) return text;
  // As few more digits as it takes for the text to fall on value's side of
  // the limit ("0.15000000000000002 outside [0, 0.15]").
  const bool above = value > limit;
  for (int digits = 7; digits <= 17; ++digits) {
    const double shown = std::strtod(text.c_str(), nullptr);
    if (above ? shown > limit : shown < limit) break;
    text = format_significant(value, digits);
  }
  return text;
}

}  // namespace stepslide
