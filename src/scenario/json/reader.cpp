// The typed readers (JsonReader, ObjectReader), JSON Pointers and the texts
// of messages; parsing is in scenario/json/parse.cpp.
#include "scenario/json/reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "base/json_string.h"

namespace stepslide::strict_json {

namespace {

/// `key` as one JSON Pointer token, appended to `out` (see pointer_token).
void append_token(std::string_view key, std::string& out) {
  static const char* const kHex = "0123456789abcdef";
  for (char c : key) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else if (c == '\\') {
      out += "\\\\";
    } else if (byte < 0x20 || byte == 0x7F) {
      out += "\\u00";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    } else {
      out += c;
    }
  }
}

/// The pointer of `where`, appended to `out`, root first. Recursive as deep
/// as the document's nesting, which parse_json bounds. The loader asks for
/// one per body (BodyDef::json_path), so it allocates only `out`.
void append_pointer(const Where& where, std::string& out) {
  if (where.parent == nullptr) return;
  append_pointer(*where.parent, out);
  out += '/';
  if (where.is_index) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, where.position).ptr;
    out.append(digits, end);
  } else {
    append_token(where.key, out);
  }
}

}  // namespace

std::string pointer_token(std::string_view key) {
  std::string out;
  append_token(key, out);
  return out;
}

std::string Where::pointer() const {
  std::string out;
  append_pointer(*this, out);
  return out;
}

std::vector<std::size_t> Where::order() const {
  std::vector<std::size_t> out;
  for (const Where* w = this; w->parent; w = w->parent) out.push_back(w->position);
  std::reverse(out.begin(), out.end());
  return out;
}

std::string number_text(double value) {
  char buffer[64];
  const bool whole = std::abs(value) < 1e15 && std::floor(value) == value;
  const auto end = whole ? std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed).ptr
                         : std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  return std::string(buffer, end);
}

std::string quote(std::string_view text) {
  constexpr std::size_t kMaxLength = 40;
  const bool cut = text.size() > kMaxLength;
  if (cut) {
    std::size_t end = kMaxLength;  // back up to the start of a UTF-8 sequence
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    text = text.substr(0, end);
  }
  std::string out = json_string(text);
  if (cut) out.insert(out.size() - 1, "...");
  return out;
}

namespace {

std::string integer_text(const Json& value) { return value.integer_text(); }
std::string integer_text(const nlohmann::ordered_json& value) { return value.dump(); }

/// describe() of either kind of value: both name their types alike.
template <class Value>
std::string describe_value(const Value& value) {
  using value_t = nlohmann::ordered_json::value_t;
  switch (value.type()) {
    case value_t::null:
      return "null";
    case value_t::boolean:
      return value.template get<bool>() ? "true" : "false";
    case value_t::string:
      return quote(value.template get_ref<const std::string&>());
    case value_t::array:
      return "an array";
    case value_t::object:
      return "an object";
    case value_t::number_integer:
    case value_t::number_unsigned:
      return integer_text(value);  // exact, even beyond 2^53
    case value_t::number_float:
      return number_text(value.template get<double>());
    default:
      return "an unsupported value";
  }
}

}  // namespace

std::string describe(const Json& value) { return describe_value(value); }

std::string describe(const nlohmann::ordered_json& value) { return describe_value(value); }

void JsonReader::error(const Where& where, std::string message) {
  if (issues_.size() >= max_issues_) {
    overflowed_ = true;
    return;
  }
  issues_.push_back(JsonIssue{where.pointer(), where.order(), std::move(message)});
}

void JsonReader::add(JsonIssue issue) {
  if (issues_.size() >= max_issues_) {
    overflowed_ = true;
    return;
  }
  issues_.push_back(std::move(issue));
}

std::vector<JsonIssue> JsonReader::take_sorted_issues() {
  std::stable_sort(issues_.begin(), issues_.end(),
                   [](const JsonIssue& a, const JsonIssue& b) { return a.order < b.order; });
  if (overflowed_) {
    issues_.push_back(
        JsonIssue{"", {}, "too many errors; only the first " + std::to_string(max_issues_) + " are listed"});
  }
  return std::move(issues_);
}

bool JsonReader::object(const Field& f) {
  if (!f) return false;
  if (f.value->is_object()) return true;
  error(f.where, "expected an object, got " + describe(*f.value));
  return false;
}

bool JsonReader::array(const Field& f) {
  if (!f) return false;
  if (f.value->is_array()) return true;
  error(f.where, "expected an array, got " + describe(*f.value));
  return false;
}

bool JsonReader::boolean(const Field& f, bool& out) {
  if (!f) return false;
  if (!f.value->is_boolean()) {
    error(f.where, "expected a boolean, got " + describe(*f.value));
    return false;
  }
  out = f.value->get<bool>();
  return true;
}

bool JsonReader::string(const Field& f, std::string& out) {
  if (!f) return false;
  if (!f.value->is_string()) {
    error(f.where, "expected a string, got " + describe(*f.value));
    return false;
  }
  out = f.value->get_ref<const std::string&>();
  return true;
}

bool JsonReader::number(const Field& f, const Range& range, double& out) {
  if (!f) return false;
  if (!f.value->is_number()) {
    error(f.where, "expected a number, got " + describe(*f.value));
    return false;
  }
  const double value = f.value->get<double>();
  if (!std::isfinite(value)) {  // parse_json rejects these; a hand-built document may not
    error(f.where, "expected a finite number, got " + describe(*f.value));
    return false;
  }
  if (!within(f, range)) return false;
  out = value;
  return true;
}

bool JsonReader::within(const Field& f, const Range& range, const char* kind) {
  const double value = f.value->get<double>();
  auto bound_text = [](const char* op, double bound, const char* note) {
    std::string text = std::string(op) + number_text(bound);
    if (note) text += std::string(" (") + note + ")";
    return text;
  };
  std::string expected;
  if (value < range.lo || (range.lo_open && value == range.lo)) {
    expected = bound_text(range.lo_open ? " > " : " >= ", range.lo, range.lo_note);
  } else if (value > range.hi || (range.hi_open && value == range.hi)) {
    expected = bound_text(range.hi_open ? " < " : " <= ", range.hi, range.hi_note);
  } else {
    return true;
  }
  error(f.where, "expected " + std::string(kind) + expected + ", got " + describe(*f.value));
  return false;
}

bool JsonReader::integral(const Field& f, const Range& range, double max_magnitude, double& out) {
  if (!f) return false;
  const Json& value = *f.value;
  const double number = value.is_number() ? value.get<double>() : 0.0;
  if (!value.is_number() || (value.is_number_float() && !(std::isfinite(number) && std::floor(number) == number))) {
    error(f.where, "expected an integer, got " + describe(value));
    return false;
  }
  // Keep integers exactly representable in both double and the target type.
  Range limited = range;
  if (limited.hi > max_magnitude) limited = Range{limited.lo, max_magnitude, limited.lo_open, false, limited.lo_note};
  if (limited.lo < -max_magnitude)
    limited = Range{-max_magnitude, limited.hi, false, limited.hi_open, nullptr, limited.hi_note};
  if (!within(f, limited, "an integer")) return false;
  out = number;
  return true;
}

bool JsonReader::integer(const Field& f, const Range& range, std::int64_t& out) {
  constexpr double kMaxExact = 9007199254740992.0;  // 2^53
  double value = 0;
  if (!integral(f, range, kMaxExact, value)) return false;
  out = static_cast<std::int64_t>(value);
  return true;
}

bool JsonReader::integer(const Field& f, const Range& range, int& out) {
  double value = 0;
  if (!integral(f, range, std::numeric_limits<int>::max(), value)) return false;
  out = static_cast<int>(value);
  return true;
}

std::string JsonReader::one_of(const std::vector<const char*>& names) {
  if (names.size() == 1) return quote(names[0]);
  std::string out = "one of ";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ", ";
    out += quote(names[i]);
  }
  return out;
}

std::string JsonReader::describe_count(const Json& value) {
  if (value.is_array()) return "an array of " + std::to_string(value.size());
  return describe(value);
}

ObjectReader::ObjectReader(JsonReader& reader, const Field& object)
    : reader_(reader),
      object_(object),
      members_(object.value->members()),
      asked_more_(members_.size() > 64 ? members_.size() - 64 : 0, false) {}

void ObjectReader::mark_asked(std::size_t i) {
  if (i < 64) {
    asked_bits_ |= std::uint64_t{1} << i;
  } else {
    asked_more_[i - 64] = true;
  }
}

bool ObjectReader::was_asked(std::size_t i) const {
  return i < 64 ? (asked_bits_ >> i & 1u) != 0 : asked_more_[i - 64];
}

std::size_t ObjectReader::find(std::string_view key) const {
  std::size_t i = 0;
  for (auto it = members_.begin(); it != members_.end(); ++it, ++i) {
    if (it->first == key) return i;
  }
  return kAbsent;
}

Field ObjectReader::optional(std::string_view key) {
  const std::size_t i = find(key);
  if (i == kAbsent) return Field{};
  mark_asked(i);
  const auto& member = *(members_.begin() + static_cast<std::ptrdiff_t>(i));
  return Field{&member.second, Where::member(object_.where, member.first, i)};
}

Field ObjectReader::required(std::string_view key) {
  Field field = optional(key);
  if (!field) reader_.error(object_.where, "missing required key " + quote(key));
  return field;
}

void ObjectReader::reject_unknown() {
  std::size_t i = 0;
  for (auto it = members_.begin(); it != members_.end(); ++it, ++i) {
    if (!was_asked(i)) reader_.error(Where::member(object_.where, it->first, i), "unknown key " + quote(it->first));
  }
}

}  // namespace stepslide::strict_json
