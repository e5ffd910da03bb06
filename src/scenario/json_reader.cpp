#include "scenario/json_reader.h"

#include "scenario/json_sax.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <unordered_map>

namespace stepslide::strict_json {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// Parser messages may quote raw input bytes (binary garbage, broken UTF-8):
// keep them printable and short.
std::string printable(std::string_view text) {
  constexpr std::size_t kMaxLength = 300;
  static const char* const kHex = "0123456789ABCDEF";
  std::string out;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7F) {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    } else {
      out += c;
    }
    if (out.size() > kMaxLength) {
      out += "...";
      break;
    }
  }
  return out;
}

// nlohmann's what() reads "[json.exception.parse_error.101] parse error at
// line 1, column 5: syntax error while parsing value - ...".
std::string syntax_message(std::string_view what) {
  const std::size_t tag_end = what.find("] ");
  if (tag_end != std::string_view::npos) what.remove_prefix(tag_end + 2);
  constexpr std::string_view kParseError = "parse error ";
  if (starts_with(what, kParseError)) {
    what.remove_prefix(kParseError.size());
    return "invalid JSON " + printable(what);
  }
  return "invalid JSON: " + printable(what);
}

// The first pass: for each array and object, in the order they open, the
// number of values directly inside it. Stops where the second pass will
// (syntax errors, too deep nesting), so the counts match every container the
// second pass opens.
class MemberCounter {
 public:
  /// The counts need no values (json_sax.h skips converting them).
  static constexpr bool kWantsValues = false;

  explicit MemberCounter(int max_depth) : max_depth_(static_cast<std::size_t>(max_depth)) {}

  bool null() { return value(); }
  bool boolean(bool /*value*/) { return value(); }
  bool number_integer(Json::number_integer_t /*value*/) { return value(); }
  bool number_unsigned(Json::number_unsigned_t /*value*/) { return value(); }
  bool number_float(Json::number_float_t /*value*/, const std::string& /*text*/) { return value(); }
  bool string(std::string& /*value*/) { return value(); }
  bool binary(Json::binary_t& /*value*/) { return value(); }
  bool start_object(std::size_t /*size*/) { return open(); }
  bool start_array(std::size_t /*size*/) { return open(); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(std::string& /*name*/) { return true; }
  bool parse_error(std::size_t /*byte*/, const std::string& /*token*/, const nlohmann::detail::exception& /*e*/) {
    return false;
  }

  std::vector<std::uint32_t> counts;  ///< per container, in opening order

 private:
  bool value() {
    if (!open_.empty()) ++counts[open_.back()];
    return true;
  }
  bool open() {
    if (open_.size() >= max_depth_) return false;
    value();
    open_.push_back(counts.size());
    counts.push_back(0);
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }

  std::size_t max_depth_;
  std::vector<std::size_t> open_;
};

// What the document costs in memory, in bytes, by what Json holds (x86-64,
// glibc): a value is 16 bytes, in its array's storage or, in an object, in a
// 48-byte member (key and value); an array or object adds its 24-byte vector
// (a 32-byte allocation) and its storage's allocation overhead; a string adds
// its 32-byte std::string (48 allocated) and, beyond 15 characters, its
// characters. Rounded up, so that the charges are not below what is allocated.
constexpr std::size_t kSlotBytes = 16;
constexpr std::size_t kMemberBytes = 48;
constexpr std::size_t kContainerBytes = 48;
constexpr std::size_t kStringBytes = 48;
/// The duplicate-key index of an object being read, per member (released when it closes).
constexpr std::size_t kIndexEntryBytes = 64;
std::size_t text_bytes(std::size_t length) { return length > 15 ? length + 1 + 16 : 0; }
/// Objects of up to this many members find a duplicate key by comparing
/// every key, which is cheaper than hashing for a few; larger ones index them.
/// The index is charged for every object all the same (kIndexEntryBytes), so
/// the memory limit reads the same documents as before.
constexpr std::size_t kLinearKeys = 8;
constexpr std::size_t kNoMember = static_cast<std::size_t>(-1);

// Builds the document from nlohmann's SAX events. Unlike nlohmann's own DOM
// builder it reports duplicate keys instead of silently keeping the last value,
// and refuses to open containers beyond the depth limit. The parser itself is
// iterative, so deep input cannot exhaust the stack.
class DomBuilder {
 public:
  static constexpr bool kWantsValues = true;

  DomBuilder(Json& root, int max_depth, std::size_t max_duplicates, const std::vector<std::uint32_t>& sizes,
             std::size_t max_memory)
      : root_(root),
        max_depth_(static_cast<std::size_t>(max_depth)),
        max_duplicates_(max_duplicates),
        sizes_(sizes),
        max_memory_(max_memory),
        used_(sizes.capacity() * sizeof(std::uint32_t)) {}

  bool null() { return place(Json(nullptr)) != nullptr; }
  bool boolean(bool value) { return place(Json(value)) != nullptr; }
  bool number_integer(Json::number_integer_t value) { return place(Json(value)) != nullptr; }
  bool number_unsigned(Json::number_unsigned_t value) { return place(Json(value)) != nullptr; }
  bool number_float(Json::number_float_t value, const std::string& /*text*/) { return place(Json(value)) != nullptr; }
  bool string(std::string& value) {
    return charge(kStringBytes + text_bytes(value.size())) && place(Json(std::move(value))) != nullptr;
  }
  bool binary(Json::binary_t& value) {
    return charge(kStringBytes + text_bytes(value.size())) && place(Json(std::move(value))) != nullptr;
  }

  bool start_object(std::size_t /*size*/) { return open(Json::object()); }
  bool start_array(std::size_t /*size*/) { return open(Json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(std::string& name);

  bool parse_error(std::size_t /*byte*/, const std::string& token, const nlohmann::detail::exception& e);

  std::vector<JsonIssue> issues;
  bool fatal = false;

 private:
  struct Frame {
    Json* container = nullptr;
    Where slot;  ///< where the container sits in its parent; parent pointer unused
    /// Objects of more than kLinearKeys members: name -> position. Smaller
    /// ones (nearly all) are searched in place, which allocates nothing.
    std::unordered_map<std::string, std::size_t> members;
    std::size_t members_bytes = 0;                          ///< charged for `members`
    Json* pending = nullptr;                               ///< objects: the member whose value comes next
    Where pending_slot;
  };

  /// Position of the member `name` of the innermost object, or kNoMember.
  static std::size_t find_member(const Frame& frame, const std::string& name);
  /// Indexes the member just appended when the object is large enough for an index.
  static void index_member(Frame& frame);

  Json* place(Json&& value);
  bool open(Json&& container);
  bool close() {
    used_ -= frames_.back().members_bytes;
    frames_.pop_back();
    return true;
  }
  /// Counts `bytes` more against the memory limit; past it, records the error
  /// at the next value's place and stops parsing.
  bool charge(std::size_t bytes) { return charge(bytes, next_slot()); }
  /// The same, with the error at `at` (null: the innermost open container).
  bool charge(std::size_t bytes, const Where* at);
  /// Where the next value goes; null for the root.
  const Where* next_slot();
  JsonIssue issue_at(const Where* last, std::string message) const;

  Json& root_;
  std::size_t max_depth_;
  std::size_t max_duplicates_;
  const std::vector<std::uint32_t>& sizes_;  ///< members of each container, in opening order
  std::size_t next_container_ = 0;
  std::size_t max_memory_;
  std::size_t used_;
  std::vector<Frame> frames_;
  Where array_slot_;  ///< scratch for next_slot()
};

Json* DomBuilder::place(Json&& value) {
  if (frames_.empty()) {
    root_ = std::move(value);
    return &root_;
  }
  Frame& top = frames_.back();
  if (top.container->is_array()) {
    top.container->get_ref<Json::array_t&>().push_back(std::move(value));
    return &top.container->get_ref<Json::array_t&>().back();
  }
  Json* member = top.pending;
  top.pending = nullptr;
  *member = std::move(value);
  return member;
}

bool DomBuilder::open(Json&& container) {
  if (frames_.size() >= max_depth_) {
    issues.push_back(
        issue_at(next_slot(), "expected at most " + std::to_string(max_depth_) + " levels of nesting, got more"));
    fatal = true;
    return false;
  }
  // Sized once, before anything is put in it (the first pass counted its members).
  const std::size_t size = next_container_ < sizes_.size() ? sizes_[next_container_] : 0;
  ++next_container_;
  const bool is_object = container.is_object();
  if (!charge(kContainerBytes + size * (is_object ? kMemberBytes : kSlotBytes))) return false;
  const Where* slot = next_slot();
  Frame frame;
  frame.slot = slot ? *slot : Where{};
  frame.container = place(std::move(container));
  if (is_object) {
    frame.container->get_ref<Json::object_t&>().reserve(size);
  } else {
    frame.container->get_ref<Json::array_t&>().reserve(size);
  }
  frames_.push_back(std::move(frame));
  return true;
}

bool DomBuilder::charge(std::size_t bytes, const Where* at) {
  used_ += bytes;
  if (used_ <= max_memory_) return true;
  issues.push_back(issue_at(at, "expected a document needing at most " + std::to_string(max_memory_) +
                                             " bytes of memory (the memory limit), got more by here: too many "
                                             "small or deeply nested arrays, objects or strings"));
  fatal = true;
  return false;
}

std::size_t DomBuilder::find_member(const Frame& frame, const std::string& name) {
  const auto& members = frame.container->get_ref<const Json::object_t&>();
  if (members.size() <= kLinearKeys) {
    for (std::size_t i = 0; i < members.size(); ++i) {
      if ((members.begin() + static_cast<std::ptrdiff_t>(i))->first == name) return i;
    }
    return kNoMember;
  }
  const auto known = frame.members.find(name);
  return known == frame.members.end() ? kNoMember : known->second;
}

void DomBuilder::index_member(Frame& frame) {
  const auto& members = frame.container->get_ref<const Json::object_t&>();
  if (members.size() <= kLinearKeys) return;
  if (frame.members.empty()) {  // the object just outgrew the linear search
    for (std::size_t i = 0; i < members.size(); ++i) {
      frame.members.emplace((members.begin() + static_cast<std::ptrdiff_t>(i))->first, i);
    }
    return;
  }
  frame.members.emplace(members.back().first, members.size() - 1);
}

bool DomBuilder::key(std::string& name) {
  Frame& top = frames_.back();
  auto& members = top.container->get_ref<Json::object_t&>();
  const std::size_t known = find_member(top, name);
  if (known != kNoMember) {
    const std::size_t position = known;
    auto& member = *(members.begin() + static_cast<std::ptrdiff_t>(position));
    top.pending_slot = Where{nullptr, member.first, position, false};
    if (issues.size() < max_duplicates_) issues.push_back(issue_at(&top.pending_slot, "duplicate key " + quote(name)));
    top.pending = &member.second;  // the last value wins; the document is invalid anyway
    return true;
  }
  const std::size_t index_bytes = kIndexEntryBytes + text_bytes(name.size());
  if (!charge(index_bytes + text_bytes(name.size()), nullptr)) return false;
  top.members_bytes += index_bytes;
  const std::size_t position = members.size();
  // ordered_map is a vector: append directly (its own emplace searches linearly).
  members.emplace_back(std::move(name), nullptr);
  index_member(top);
  top.pending_slot = Where{nullptr, members.back().first, position, false};
  top.pending = &members.back().second;
  return true;
}

bool DomBuilder::parse_error(std::size_t /*byte*/, const std::string& token, const nlohmann::detail::exception& e) {
  // 406: a number literal beyond the range of a double, such as 1e999.
  constexpr int kNumberOverflow = 406;
  if (e.id == kNumberOverflow) {
    issues.push_back(issue_at(next_slot(), "expected a finite number, got " + printable(token)));
  } else {
    issues.push_back(JsonIssue{"", {}, syntax_message(e.what())});
  }
  fatal = true;
  return false;
}

const Where* DomBuilder::next_slot() {
  if (frames_.empty()) return nullptr;
  const Frame& top = frames_.back();
  if (top.container->is_array()) {
    array_slot_ = Where{nullptr, {}, top.container->size(), true};
    return &array_slot_;
  }
  return &top.pending_slot;
}

JsonIssue DomBuilder::issue_at(const Where* last, std::string message) const {
  // Link the open containers' slots into a Where chain, so pointers and
  // document order are computed in one place.
  std::vector<Where> chain;
  chain.reserve(frames_.size() + 2);
  chain.push_back(Where{});
  auto link = [&chain](const Where& slot) {
    Where step = slot;
    step.parent = &chain.back();
    chain.push_back(step);
  };
  for (std::size_t i = 1; i < frames_.size(); ++i) link(frames_[i].slot);
  if (last) link(*last);
  return JsonIssue{chain.back().pointer(), chain.back().order(), std::move(message)};
}

}  // namespace

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

namespace {

/// Both passes with json_sax.h's parser; nullopt when it declines the text
/// (not valid JSON, or a case it leaves to nlohmann), so that nlohmann's
/// parser reads it and reports the error in its own words.
std::optional<ParsedJson> parse_json_fast(const std::string& text, int max_depth, std::size_t max_duplicates,
                                          std::size_t max_memory_bytes) {
  MemberCounter counter(max_depth);
  if (SaxParser<MemberCounter>(text, counter).run() == SaxOutcome::Declined) return std::nullopt;
  counter.counts.shrink_to_fit();  // they count against the memory limit too
  std::optional<ParsedJson> result(std::in_place);
  DomBuilder builder(result->document, max_depth, max_duplicates, counter.counts, max_memory_bytes);
  const SaxOutcome outcome = SaxParser<DomBuilder>(text, builder).run();
  if (outcome == SaxOutcome::Declined || (outcome == SaxOutcome::Stopped && builder.issues.empty())) {
    release(result->document);
    return std::nullopt;
  }
  result->ok = outcome == SaxOutcome::Done && !builder.fatal;
  if (result->ok) {
    result->issues = std::move(builder.issues);
  } else {
    // Stopped: the handler refused (depth or memory), with its error last.
    result->issues = {std::move(builder.issues.back())};
    release(result->document);
  }
  return result;
}

}  // namespace

ParsedJson parse_json(const std::string& text, int max_depth, std::size_t max_duplicates,
                      std::size_t max_memory_bytes) {
  if (std::optional<ParsedJson> fast = parse_json_fast(text, max_depth, max_duplicates, max_memory_bytes)) {
    return std::move(*fast);
  }
  MemberCounter counter(max_depth);
  Json::sax_parse(text, &counter, Json::input_format_t::json, /*strict=*/true, /*ignore_comments=*/true);
  counter.counts.shrink_to_fit();  // they count against the memory limit too
  ParsedJson result;
  DomBuilder builder(result.document, max_depth, max_duplicates, counter.counts, max_memory_bytes);
  const bool parsed = Json::sax_parse(text, &builder, Json::input_format_t::json, /*strict=*/true,
                                      /*ignore_comments=*/true);
  result.ok = parsed && !builder.fatal;
  if (result.ok) {
    result.issues = std::move(builder.issues);
  } else if (builder.fatal) {
    result.issues = {std::move(builder.issues.back())};  // only the error that stopped parsing
  } else {
    result.issues = {JsonIssue{"", {}, "invalid JSON"}};
  }
  if (!result.ok) release(result.document);
  return result;
}

void release(Json& document) {
  if (document.is_array()) {
    auto& items = document.get_ref<Json::array_t&>();
    for (Json& item : items) release(item);
    items.clear();  // now only scalars and empty containers, each freed at once
  } else if (document.is_object()) {
    auto& members = document.get_ref<Json::object_t&>();
    for (auto& member : members) release(member.second);
    members.clear();
  }
  document = Json();
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
  std::string out = Json(std::string(text)).dump(-1, ' ', false, Json::error_handler_t::replace);
  if (cut) out.insert(out.size() - 1, "...");
  return out;
}

std::string describe(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return value.get<bool>() ? "true" : "false";
    case Json::value_t::string:
      return quote(value.get_ref<const std::string&>());
    case Json::value_t::array:
      return "an array";
    case Json::value_t::object:
      return "an object";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      return value.dump();  // exact, even beyond 2^53
    case Json::value_t::number_float:
      return number_text(value.get<double>());
    default:
      return "an unsupported value";
  }
}

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
      members_(object.value->get_ref<const Json::object_t&>()),
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
