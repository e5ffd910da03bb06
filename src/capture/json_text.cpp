#include "capture/json_text.h"

#include <charconv>
#include <cmath>

namespace stepslide::capture {

std::string json_number(double value) {
  if (value == 0.0) return std::signbit(value) ? "-0.0" : "0";
  char buffer[64];
  const std::to_chars_result end = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, end.ptr);
}

std::string json_integer(long long value) { return std::to_string(value); }

std::string json_numbers(const std::vector<double>& values) {
  JsonList list(JsonList::Kind::Array, false);
  for (const double v : values) list.item(json_number(v));
  return list.text();
}

JsonList& JsonList::member(const std::string& key, const std::string& value) {
  add(json_string(key) + ": " + value);
  return *this;
}

JsonList& JsonList::item(const std::string& value) {
  add(value);
  return *this;
}

void JsonList::add(std::string entry) { entries_.push_back(std::move(entry)); }

std::string JsonList::text() const {
  const char open = kind_ == Kind::Object ? '{' : '[';
  const char close = kind_ == Kind::Object ? '}' : ']';
  std::string out(1, open);
  if (entries_.empty()) return out + close;
  const std::string inner(static_cast<std::size_t>(2 * (indent_ + 1)), ' ');
  const std::string outer(static_cast<std::size_t>(2 * indent_), ' ');
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (multiline_) {
      out += "\n" + inner;
    } else if (i > 0) {
      out += ' ';
    }
    out += entries_[i];
    if (i + 1 < entries_.size()) out += ',';
  }
  if (multiline_) out += "\n" + outer;
  return out + close;
}

}  // namespace stepslide::capture
