// Strict JSON reading for input files: a parser that rejects duplicate keys
// and runaway nesting, and small typed readers that record every problem with
// its JSON Pointer instead of stopping at the first one. Knows nothing about
// scenarios; the scenario format is read by load*.cpp.
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scenario/json/document.h"

namespace stepslide::strict_json {

/// What parse_json builds and the readers read (scenario/json/document.h). Objects
/// keep their members in document order, so problems can be listed in
/// document order too.
using Json = Node;

/// A place in the document. Built on the stack while descending, so reading
/// allocates nothing; turned into a JSON Pointer only when there is a problem.
/// A Where refers to its parent: it must not outlive it.
struct Where {
  const Where* parent = nullptr;  ///< null for the root
  std::string_view key;           ///< member name, when !is_index
  std::size_t position = 0;       ///< array index, or the member's position in its object
  bool is_index = false;

  static Where member(const Where& parent, std::string_view key, std::size_t position) {
    return Where{&parent, key, position, false};
  }
  static Where item(const Where& parent, std::size_t index) { return Where{&parent, {}, index, true}; }

  /// "/world/3/shape/half_extents/1"; "" for the root.
  std::string pointer() const;
  /// Positions from the root down. Comparing these sorts places into document
  /// order (a parent comes before its members).
  std::vector<std::size_t> order() const;
};

/// One problem found in a document.
struct JsonIssue {
  std::string pointer;
  std::vector<std::size_t> order;  ///< see Where::order
  std::string message;
};

struct ParsedJson {
  Document document;  ///< the value is document.root
  /// False after a syntax error, too deep nesting or a number too large for a
  /// double: parsing stopped there, `issues` holds that one error and
  /// `document` is empty.
  bool ok = false;
  std::vector<JsonIssue> issues;  ///< duplicate keys when ok
};

/// Parses JSON with comments allowed. Unlike nlohmann's own parser it reports
/// every duplicate key (the last value wins, but the document is invalid) and
/// stops at `max_depth` nested containers. Iterative: never deep recursion.
/// A number too large for a double is reported at its JSON path. Records at
/// most `max_duplicates` duplicate keys, which bounds memory on hostile input.
///
/// Memory: a first pass counts each array's and object's members, so the
/// document (scenario/json/document.h) holds every container in one block of its
/// exact size. The document's memory is then bounded as it is built (see
/// DomBuilder's charges: what nlohmann's DOM took, which these blocks never
/// exceed), and parsing stops with an error at the
/// value that would take it past `max_memory_bytes`: a value costs 16 bytes
/// or more, so documents of many tiny arrays, objects or strings (or
/// deeply nested ones) need 20 to 35 times their size.
ParsedJson parse_json(const std::string& text, int max_depth, std::size_t max_duplicates,
                      std::size_t max_memory_bytes = std::numeric_limits<std::size_t>::max());

/// The accepted interval of a number. Bounds may be open or infinite, and may
/// carry a note saying where they come from ("the vertex count").
struct Range {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;
  bool hi_open = false;
  const char* lo_note = nullptr;
  const char* hi_note = nullptr;
};

constexpr Range between(double lo, double hi) { return Range{lo, hi, false, false, nullptr, nullptr}; }
constexpr Range at_least(double lo, const char* note = nullptr) {
  return Range{lo, std::numeric_limits<double>::infinity(), false, false, note, nullptr};
}
constexpr Range above(double lo, const char* note = nullptr) {
  return Range{lo, std::numeric_limits<double>::infinity(), true, false, note, nullptr};
}

/// A value found, or not, at a place. `value` is null when the member is absent.
struct Field {
  const Json* value = nullptr;
  Where where;

  explicit operator bool() const { return value != nullptr; }
  /// The i-th element of an array field. The result refers to this field.
  Field item(std::size_t i) const { return Field{&(*value)[i], Where::item(where, i)}; }
};

/// `key` as one JSON Pointer token (RFC 6901): "~" becomes "~0", "/" becomes "~1".
/// Pointers are printed, so control characters are written as in a JSON
/// string ("\u0000", never a raw NUL or newline on a terminal), and a
/// backslash as "\\" so that a key spelling "\u0000" stays distinguishable.
std::string pointer_token(std::string_view key);
/// "-2", "2.5", "\"abc\"" (truncated when long), "true", "null", "an array", "an object".
std::string describe(const Json& value);
/// The same for a value of nlohmann's (the schema validator's documents).
std::string describe(const nlohmann::ordered_json& value);
/// A number for messages: whole numbers as integers ("1000000", not
/// "1e+06"), others in the shortest form that reads back to the same double.
std::string number_text(double value);
/// `text` as a JSON string literal, truncated when long.
std::string quote(std::string_view text);

/// Collects problems and reads typed values. Every reader returns true and
/// stores the value only when it is present and valid; an absent field is not
/// a problem here (see ObjectReader::required).
class JsonReader {
 public:
  explicit JsonReader(std::size_t max_issues) : max_issues_(max_issues) {}

  void error(const Where& where, std::string message);
  void add(JsonIssue issue);
  /// The problems in document order; problems at the same place keep the
  /// order they were found in.
  std::vector<JsonIssue> take_sorted_issues();

  bool object(const Field& f);
  bool array(const Field& f);
  bool boolean(const Field& f, bool& out);
  bool string(const Field& f, std::string& out);
  bool number(const Field& f, const Range& range, double& out);
  /// Accepts integral floats such as 3.0 or 1e3; rejects 2.5.
  bool integer(const Field& f, const Range& range, std::int64_t& out);
  bool integer(const Field& f, const Range& range, int& out);
  /// For a field already read as a number: reports it when outside `range`.
  /// Used for bounds that depend on other fields.
  bool within(const Field& f, const Range& range, const char* kind = "a number");

  /// An array of exactly N numbers in `each`.
  template <std::size_t N>
  bool numbers(const Field& f, const Range& each, std::array<double, N>& out) {
    if (!f) return false;
    if (!f.value->is_array() || f.value->size() != N) {
      error(f.where, "expected an array of " + std::to_string(N) + " numbers, got " + describe_count(*f.value));
      return false;
    }
    bool ok = true;
    for (std::size_t i = 0; i < N; ++i) ok = number(f.item(i), each, out[i]) && ok;
    return ok;
  }

  /// A string that is one of `options`.
  template <class T>
  bool choice(const Field& f, const std::vector<std::pair<const char*, T>>& options, T& out) {
    if (!f) return false;
    if (f.value->is_string()) {
      for (const auto& [name, value] : options) {
        if (f.value->template get_ref<const std::string&>() == name) {
          out = value;
          return true;
        }
      }
    }
    std::vector<const char*> names;
    for (const auto& option : options) names.push_back(option.first);
    error(f.where, "expected " + one_of(names) + ", got " + describe(*f.value));
    return false;
  }

  /// "\"a\"" or "one of \"a\", \"b\"".
  static std::string one_of(const std::vector<const char*>& names);
  /// Like describe(), but gives an array's length: "an array of 2".
  static std::string describe_count(const Json& value);

 private:
  bool integral(const Field& f, const Range& range, double max_magnitude, double& out);

  std::vector<JsonIssue> issues_;
  std::size_t max_issues_;
  bool overflowed_ = false;
};

/// Reads the members of one object and remembers which were asked for, so the
/// rest can be reported as unknown keys. The field must be an object and must
/// outlive the reader.
class ObjectReader {
 public:
  ObjectReader(JsonReader& reader, const Field& object);

  bool has(std::string_view key) const { return find(key) != kAbsent; }
  Field optional(std::string_view key);
  /// Reports `missing required key "key"` at the object when absent.
  Field required(std::string_view key);
  /// Reports every member not asked for: `unknown key "colour"` at its path.
  void reject_unknown();

 private:
  static constexpr std::size_t kAbsent = static_cast<std::size_t>(-1);
  std::size_t find(std::string_view key) const;

  JsonReader& reader_;
  const Field& object_;
  const Node::Members members_;
  void mark_asked(std::size_t i);
  bool was_asked(std::size_t i) const;

  /// Which members were asked for: bits of asked_bits_ for the first 64
  /// (most objects, without an allocation), asked_more_ for the rest.
  std::uint64_t asked_bits_ = 0;
  std::vector<bool> asked_more_;
};

}  // namespace stepslide::strict_json
