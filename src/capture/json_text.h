// The JSON text of a captured scenario, written by hand: the capture
// component may not depend on a JSON library (it is linked by games). Numbers
// are written so that a correctly rounding reader (the scenario loader's
// strtod) reads back the very same double: the replay is bit for bit.
#pragma once

#include <string>
#include <vector>

#include "base/json_string.h"  // json_string, for member keys and text values

namespace stepslide::capture {

/// Shortest text that reads back to `value` (std::to_chars), always as a JSON
/// number: -0 is written "-0.0" (the loader would read "-0" as the integer 0
/// and lose the sign). `value` must be finite.
std::string json_number(double value);
/// A whole number, for counts and ticks.
std::string json_integer(long long value);
/// "[a, b, c]" of json_number.
std::string json_numbers(const std::vector<double>& values);

/// Builds an object or array one member at a time, on one line or one
/// member per line (indented by `indent` levels of two spaces).
class JsonList {
 public:
  enum class Kind { Object, Array };
  JsonList(Kind kind, bool multiline, int indent = 0) : kind_(kind), multiline_(multiline), indent_(indent) {}
  /// Adds `"key": value` (objects) where `value` is JSON text.
  JsonList& member(const std::string& key, const std::string& value);
  /// Adds `value`, JSON text (arrays).
  JsonList& item(const std::string& value);
  std::string text() const;

 private:
  void add(std::string entry);
  Kind kind_;
  bool multiline_;
  int indent_;
  std::vector<std::string> entries_;
};

}  // namespace stepslide::capture
