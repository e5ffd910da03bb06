// The document parse_json builds (scenario/json/reader.h): every value in a few large
// blocks, sized by parse_json's counting pass, instead of nlohmann's one
// allocation per array, object and member list: building and freeing
// nlohmann's DOM (4 containers per box, each two allocations and frees) is a
// large part of loading a big level, where a block costs a bump of a pointer
// per container and one free per block.
//
// A Node reads like the nlohmann value it replaces (is_string(), size(),
// get<double>(), operator[] ...), so the typed readers and the loaders read
// it as they read nlohmann's; only members() differs (nlohmann's object_t is
// a container, here it is a view of the member block).
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace stepslide::strict_json {

struct Member;

/// One JSON value. 16 bytes, what parse_json's memory limit charges per
/// array element (kSlotBytes); points into its Document's blocks.
class Node {
 public:
  using value_t = nlohmann::ordered_json::value_t;

  /// An object's members in document order (`first`: the key, `second`: the value).
  class Members {
   public:
    Members(const Member* begin, std::size_t size) : begin_(begin), size_(size) {}
    const Member* begin() const { return begin_; }
    const Member* end() const;
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }

   private:
    const Member* begin_;
    std::size_t size_;
  };

  Node() = default;
  static Node boolean(bool value);
  static Node integer(std::int64_t value);
  static Node unsigned_integer(std::uint64_t value);
  static Node floating(double value);
  static Node string(const std::string* text);
  static Node array(Node* items);
  static Node object(Member* members);

  value_t type() const { return type_; }
  bool is_null() const { return type_ == value_t::null; }
  bool is_boolean() const { return type_ == value_t::boolean; }
  bool is_number() const { return is_number_integer() || is_number_float(); }
  /// Signed or unsigned, as nlohmann's.
  bool is_number_integer() const { return type_ == value_t::number_integer || is_number_unsigned(); }
  bool is_number_unsigned() const { return type_ == value_t::number_unsigned; }
  bool is_number_float() const { return type_ == value_t::number_float; }
  bool is_string() const { return type_ == value_t::string; }
  bool is_array() const { return type_ == value_t::array; }
  bool is_object() const { return type_ == value_t::object; }
  bool is_structured() const { return is_array() || is_object(); }

  /// Elements or members; 0 for null and 1 for any other scalar, as nlohmann's size().
  std::size_t size() const;
  bool empty() const { return size() == 0; }

  /// The i-th element of an array (i < size()).
  const Node& operator[](std::size_t i) const { return value_.items[i]; }
  /// An object's members; empty for anything else.
  Members members() const;
  /// The member `key` of an object, or null.
  const Node* find(std::string_view key) const;
  bool contains(std::string_view key) const { return find(key) != nullptr; }

  /// get<bool>(), get<double>() (any number, converted as nlohmann does),
  /// get<std::int64_t>(), get<std::uint64_t>(); the type must match.
  template <class T>
  T get() const;
  /// get_ref<const std::string&>() of a string.
  template <class T>
  T get_ref() const;

  /// An integer as nlohmann's dump() writes it: every digit.
  std::string integer_text() const;

  /// For parse_json's builder: the next element of an array, the next
  /// member of an object (within the block it was made with), and the
  /// members placed so far, to be written to.
  Node& next_item() { return value_.items[count_++]; }
  Member& next_member();
  Member* placed_members() { return value_.members; }
  /// Moves an object's members to `block` (room for one more at least).
  void move_members(Member* block);

 private:
  union Value {
    bool boolean;
    std::int64_t integer;
    std::uint64_t unsigned_integer;
    double floating;
    const std::string* string;
    Node* items;
    Member* members;
  };
  Value value_{};
  std::uint32_t count_ = 0;  ///< elements or members placed so far
  value_t type_ = value_t::null;
};

struct Member {
  std::string first;  ///< the key
  Node second;        ///< the value
};

inline const Member* Node::Members::end() const { return begin_ + size_; }

// Inline: the readers ask for sizes at every array and object.
inline std::size_t Node::size() const {
  if (is_structured()) return count_;
  return is_null() ? 0 : 1;
}
inline Member& Node::next_member() { return value_.members[count_++]; }

template <>
bool Node::get<bool>() const;
template <>
double Node::get<double>() const;
template <>
std::int64_t Node::get<std::int64_t>() const;
template <>
std::uint64_t Node::get<std::uint64_t>() const;
template <>
const std::string& Node::get_ref<const std::string&>() const;

/// Owns the blocks the nodes of one document live in; `root` is the document.
class Document {
 public:
  Document() = default;
  Document(Document&&) = default;
  Document& operator=(Document&&) = default;
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  Node root;

  /// Room for `items` array elements and `members` object members in all,
  /// made at once (parse_json's counting pass knows both); what is asked
  /// beyond it gets blocks of its own.
  void reserve(std::size_t items, std::size_t members);
  /// `count` elements for an array, in one block (never moved).
  Node* items(std::size_t count);
  /// `count` members for an object, in one block (never moved).
  Member* members(std::size_t count);
  /// A string's text, kept until the document goes.
  const std::string* keep(std::string&& text);
  /// Frees everything; root becomes null.
  void clear();

 private:
  template <class T>
  struct Blocks {
    std::vector<std::unique_ptr<T[]>> blocks;
    std::size_t used = 0;      ///< of the last block
    std::size_t capacity = 0;  ///< of the last block
    void reserve(std::size_t count);
    T* take(std::size_t count);
  };
  Blocks<Node> nodes_;
  Blocks<Member> members_;
  std::deque<std::string> strings_;
};

/// The document as nlohmann's value, for the schema validator and tests.
nlohmann::ordered_json to_nlohmann(const Node& node);

}  // namespace stepslide::strict_json
