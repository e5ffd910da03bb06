// Parsing text into a document (scenario/json/reader.h's parse_json): the member
// counting pass, the document builder (scenario/json/document.h) with its
// duplicate-key, depth and memory checks, and the fast parser of scenario/json/sax.h
// with nlohmann's as the fallback that words every error.
#include "scenario/json/reader.h"

#include <optional>
#include <string_view>
#include <unordered_map>

#include "scenario/json/sax.h"

namespace stepslide::strict_json {
namespace {

/// nlohmann's types, for its SAX interface and its parser (the fallback).
using NJson = nlohmann::ordered_json;

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
  /// The counts need no values (scenario/json/sax.h skips converting them).
  static constexpr bool kWantsValues = false;

  explicit MemberCounter(int max_depth) : max_depth_(static_cast<std::size_t>(max_depth)) {}

  bool null() { return value(); }
  bool boolean(bool /*value*/) { return value(); }
  bool number_integer(NJson::number_integer_t /*value*/) { return value(); }
  bool number_unsigned(NJson::number_unsigned_t /*value*/) { return value(); }
  bool number_float(NJson::number_float_t /*value*/, const std::string& /*text*/) { return value(); }
  bool string(std::string& /*value*/) { return value(); }
  bool binary(NJson::binary_t& /*value*/) { return value(); }
  bool start_object(std::size_t /*size*/) { return open(true); }
  bool start_array(std::size_t /*size*/) { return open(false); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(std::string& /*name*/) { return true; }
  bool parse_error(std::size_t /*byte*/, const std::string& /*token*/, const nlohmann::detail::exception& /*e*/) {
    return false;
  }

  std::vector<std::uint32_t> counts;  ///< per container, in opening order
  std::size_t array_values = 0;       ///< values directly in arrays, all arrays together
  std::size_t object_values = 0;      ///< the same in objects: the members

 private:
  bool value() {
    if (open_.empty()) return true;
    const std::size_t top = open_.back();
    ++counts[top >> 1];
    ++((top & 1) != 0 ? object_values : array_values);
    return true;
  }
  bool open(bool object) {
    if (open_.size() >= max_depth_) return false;
    value();
    open_.push_back(counts.size() << 1 | (object ? 1 : 0));
    counts.push_back(0);
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }

  std::size_t max_depth_;
  /// Per open container, innermost last: its index in counts, times 2,
  /// plus 1 for an object.
  std::vector<std::size_t> open_;
};

// What a document costs in memory, in bytes, as nlohmann's DOM held it
// (x86-64, glibc), which the memory limit still charges so that it reads the
// same documents as before (scenario/json/document.h's blocks need less): a value is 16 bytes, in its array's storage or, in an object, in a
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

// Builds the document (scenario/json/document.h) from nlohmann's SAX events. Unlike
// nlohmann's own DOM builder it reports duplicate keys instead of silently
// keeping the last value, and refuses to open containers beyond the depth
// limit. The parser itself is iterative, so deep input cannot exhaust the stack.
class DomBuilder {
 public:
  static constexpr bool kWantsValues = true;

  DomBuilder(Document& document, int max_depth, std::size_t max_duplicates, const std::vector<std::uint32_t>& sizes,
             std::size_t max_memory)
      : document_(document),
        max_depth_(static_cast<std::size_t>(max_depth)),
        max_duplicates_(max_duplicates),
        sizes_(sizes),
        max_memory_(max_memory),
        used_(sizes.capacity() * sizeof(std::uint32_t)) {}

  bool null() { return place(Node()) != nullptr; }
  bool boolean(bool value) { return place(Node::boolean(value)) != nullptr; }
  bool number_integer(NJson::number_integer_t value) { return place(Node::integer(value)) != nullptr; }
  bool number_unsigned(NJson::number_unsigned_t value) { return place(Node::unsigned_integer(value)) != nullptr; }
  bool number_float(NJson::number_float_t value, const std::string& /*text*/) {
    return place(Node::floating(value)) != nullptr;
  }
  bool string(std::string& value) {
    return charge(kStringBytes + text_bytes(value.size())) &&
           place(Node::string(document_.keep(std::move(value)))) != nullptr;
  }
  /// Only binary formats (CBOR, MessagePack ...) have binary values, never JSON text.
  bool binary(nlohmann::ordered_json::binary_t& /*value*/) { return place(Node()) != nullptr; }

  bool start_object(std::size_t /*size*/) { return open(true); }
  bool start_array(std::size_t /*size*/) { return open(false); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(std::string& name);

  bool parse_error(std::size_t /*byte*/, const std::string& token, const nlohmann::detail::exception& e);

  std::vector<JsonIssue> issues;
  bool fatal = false;

 private:
  struct Frame {
    Node* container = nullptr;
    std::size_t capacity = 0;  ///< of its block: what the counting pass found
    Where slot;  ///< where the container sits in its parent; parent pointer unused
    /// Objects of more than kLinearKeys members: name -> position. Smaller
    /// ones (nearly all) are searched in place, which allocates nothing.
    std::unordered_map<std::string_view, std::size_t> members;
    std::size_t members_bytes = 0;                          ///< charged for `members`
    Node* pending = nullptr;                                ///< objects: the member whose value comes next
    Where pending_slot;
  };

  /// Position of the member `name` of the innermost object, or kNoMember.
  static std::size_t find_member(const Frame& frame, const std::string& name);
  /// Indexes the member just appended when the object is large enough for an index.
  static void index_member(Frame& frame);

  Node* place(const Node& value);
  bool open(bool is_object);
  bool close() {
    used_ -= frames_.back().members_bytes;
    frames_.pop_back();
    return true;
  }
  /// Room for one more member. The counting pass counts values, and a key
  /// whose value never comes (a syntax error next) is one more member than
  /// it counted; the charges stay those of the counted size, as before.
  void grow(Frame& frame);
  /// False, with the error recorded, when the counting pass found fewer
  /// values for the innermost container than the build pass puts in it
  /// (both read the same events, so this is a bug, never bad input).
  bool full(const Frame& frame);
  /// Counts `bytes` more against the memory limit; past it, records the error
  /// at the next value's place and stops parsing.
  bool charge(std::size_t bytes) { return charge(bytes, next_slot()); }
  /// The same, with the error at `at` (null: the innermost open container).
  bool charge(std::size_t bytes, const Where* at);
  /// Where the next value goes; null for the root.
  const Where* next_slot();
  JsonIssue issue_at(const Where* last, std::string message) const;

  Document& document_;
  std::size_t max_depth_;
  std::size_t max_duplicates_;
  const std::vector<std::uint32_t>& sizes_;  ///< members of each container, in opening order
  std::size_t next_container_ = 0;
  std::size_t max_memory_;
  std::size_t used_;
  std::vector<Frame> frames_;
  Where array_slot_;  ///< scratch for next_slot()
};

bool DomBuilder::full(const Frame& frame) {
  if (frame.container->size() < frame.capacity) return false;
  issues.push_back(JsonIssue{"", {}, "internal error: the two parsing passes disagree on a container's size"});
  fatal = true;
  return true;
}

void DomBuilder::grow(Frame& frame) {
  frame.capacity += 1;
  frame.container->move_members(document_.members(frame.capacity));
  frame.members.clear();  // its keys were views of the old block
  const Node::Members members = frame.container->members();
  if (members.size() > kLinearKeys) {
    for (std::size_t i = 0; i < members.size(); ++i) frame.members.emplace(members.begin()[i].first, i);
  }
}

Node* DomBuilder::place(const Node& value) {
  if (frames_.empty()) {
    document_.root = value;
    return &document_.root;
  }
  Frame& top = frames_.back();
  if (top.container->is_array()) {
    if (full(top)) return nullptr;
    Node& item = top.container->next_item();
    item = value;
    return &item;
  }
  Node* member = top.pending;
  top.pending = nullptr;
  *member = value;
  return member;
}

bool DomBuilder::open(bool is_object) {
  if (frames_.size() >= max_depth_) {
    issues.push_back(
        issue_at(next_slot(), "expected at most " + std::to_string(max_depth_) + " levels of nesting, got more"));
    fatal = true;
    return false;
  }
  // One block of exactly its size (the first pass counted its members). The
  // charges are what nlohmann's DOM would take, which this document never
  // exceeds, so the memory limit reads the same documents as it did then.
  const std::size_t size = next_container_ < sizes_.size() ? sizes_[next_container_] : 0;
  ++next_container_;
  if (!charge(kContainerBytes + size * (is_object ? kMemberBytes : kSlotBytes))) return false;
  const Where* slot = next_slot();
  const Where frame_slot = slot ? *slot : Where{};
  Node* placed = place(is_object ? Node::object(document_.members(size)) : Node::array(document_.items(size)));
  if (placed == nullptr) return false;
  // Built in place: a Frame holds a hash map, costly to move.
  Frame& frame = frames_.emplace_back();
  frame.slot = frame_slot;
  frame.container = placed;
  frame.capacity = size;
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
  const Node::Members members = frame.container->members();
  if (members.size() <= kLinearKeys) {
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (members.begin()[i].first == name) return i;
    }
    return kNoMember;
  }
  const auto known = frame.members.find(name);
  return known == frame.members.end() ? kNoMember : known->second;
}

void DomBuilder::index_member(Frame& frame) {
  const Node::Members members = frame.container->members();
  if (members.size() <= kLinearKeys) return;
  if (frame.members.empty()) {  // the object just outgrew the linear search
    for (std::size_t i = 0; i < members.size(); ++i) frame.members.emplace(members.begin()[i].first, i);
    return;
  }
  frame.members.emplace(members.begin()[members.size() - 1].first, members.size() - 1);
}

bool DomBuilder::key(std::string& name) {
  Frame& top = frames_.back();
  const std::size_t known = find_member(top, name);
  if (known != kNoMember) {
    const std::size_t position = known;
    Member& member = top.container->placed_members()[position];
    top.pending_slot = Where{nullptr, member.first, position, false};
    if (issues.size() < max_duplicates_) issues.push_back(issue_at(&top.pending_slot, "duplicate key " + quote(name)));
    top.pending = &member.second;  // the last value wins; the document is invalid anyway
    return true;
  }
  const std::size_t index_bytes = kIndexEntryBytes + text_bytes(name.size());
  if (!charge(index_bytes + text_bytes(name.size()), nullptr)) return false;
  top.members_bytes += index_bytes;
  if (top.container->size() == top.capacity) grow(top);
  const std::size_t position = top.container->size();
  Member& member = top.container->next_member();
  member.first = std::move(name);
  index_member(top);
  top.pending_slot = Where{nullptr, member.first, position, false};
  top.pending = &member.second;
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

/// Both passes with scenario/json/sax.h's parser; nullopt when it declines the text
/// (not valid JSON, or a case it leaves to nlohmann), so that nlohmann's
/// parser reads it and reports the error in its own words.
std::optional<ParsedJson> parse_json_fast(const std::string& text, int max_depth, std::size_t max_duplicates,
                                          std::size_t max_memory_bytes) {
  MemberCounter counter(max_depth);
  if (SaxParser<MemberCounter>(text, counter).run() == SaxOutcome::Declined) return std::nullopt;
  counter.counts.shrink_to_fit();  // they count against the memory limit too
  std::optional<ParsedJson> result(std::in_place);
  result->document.reserve(counter.array_values, counter.object_values);
  DomBuilder builder(result->document, max_depth, max_duplicates, counter.counts, max_memory_bytes);
  const SaxOutcome outcome = SaxParser<DomBuilder>(text, builder).run();
  if (outcome == SaxOutcome::Declined || (outcome == SaxOutcome::Stopped && builder.issues.empty())) {
    result->document.clear();
    return std::nullopt;
  }
  result->ok = outcome == SaxOutcome::Done && !builder.fatal;
  if (result->ok) {
    result->issues = std::move(builder.issues);
  } else {
    // Stopped: the handler refused (depth or memory), with its error last.
    result->issues = {std::move(builder.issues.back())};
    result->document.clear();
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
  NJson::sax_parse(text, &counter, NJson::input_format_t::json, /*strict=*/true, /*ignore_comments=*/true);
  counter.counts.shrink_to_fit();  // they count against the memory limit too
  ParsedJson result;
  result.document.reserve(counter.array_values, counter.object_values);
  DomBuilder builder(result.document, max_depth, max_duplicates, counter.counts, max_memory_bytes);
  const bool parsed = NJson::sax_parse(text, &builder, NJson::input_format_t::json, /*strict=*/true,
                                      /*ignore_comments=*/true);
  result.ok = parsed && !builder.fatal;
  if (result.ok) {
    result.issues = std::move(builder.issues);
  } else if (builder.fatal) {
    result.issues = {std::move(builder.issues.back())};  // only the error that stopped parsing
  } else {
    result.issues = {JsonIssue{"", {}, "invalid JSON"}};
  }
  if (!result.ok) result.document.clear();
  return result;
}

}  // namespace stepslide::strict_json
