#include "scenario/json/document.h"

#include <algorithm>

namespace stepslide::strict_json {

namespace {

/// Nodes or members per block beyond what was reserved (rare: a key whose
/// value never came, a document built without a counting pass).
constexpr std::size_t kBlock = 64;

}  // namespace

Node Node::boolean(bool value) {
  Node n;
  n.type_ = value_t::boolean;
  n.value_.boolean = value;
  return n;
}

Node Node::integer(std::int64_t value) {
  Node n;
  n.type_ = value_t::number_integer;
  n.value_.integer = value;
  return n;
}

Node Node::unsigned_integer(std::uint64_t value) {
  Node n;
  n.type_ = value_t::number_unsigned;
  n.value_.unsigned_integer = value;
  return n;
}

Node Node::floating(double value) {
  Node n;
  n.type_ = value_t::number_float;
  n.value_.floating = value;
  return n;
}

Node Node::string(const std::string* text) {
  Node n;
  n.type_ = value_t::string;
  n.value_.string = text;
  return n;
}

Node Node::array(Node* items) {
  Node n;
  n.type_ = value_t::array;
  n.value_.items = items;
  return n;
}

Node Node::object(Member* members) {
  Node n;
  n.type_ = value_t::object;
  n.value_.members = members;
  return n;
}

Node::Members Node::members() const {
  return is_object() ? Members(value_.members, count_) : Members(nullptr, 0);
}

const Node* Node::find(std::string_view key) const {
  for (const Member& member : members()) {
    if (member.first == key) return &member.second;
  }
  return nullptr;
}

template <>
bool Node::get<bool>() const {
  return value_.boolean;
}

template <>
double Node::get<double>() const {
  switch (type_) {
    case value_t::number_integer:
      return static_cast<double>(value_.integer);
    case value_t::number_unsigned:
      return static_cast<double>(value_.unsigned_integer);
    default:
      return value_.floating;
  }
}

template <>
std::int64_t Node::get<std::int64_t>() const {
  return type_ == value_t::number_unsigned ? static_cast<std::int64_t>(value_.unsigned_integer) : value_.integer;
}

template <>
std::uint64_t Node::get<std::uint64_t>() const {
  return type_ == value_t::number_integer ? static_cast<std::uint64_t>(value_.integer) : value_.unsigned_integer;
}

template <>
const std::string& Node::get_ref<const std::string&>() const {
  return *value_.string;
}

void Node::move_members(Member* block) {
  std::move(value_.members, value_.members + count_, block);
  value_.members = block;
}

std::string Node::integer_text() const {
  return is_number_unsigned() ? std::to_string(value_.unsigned_integer) : std::to_string(value_.integer);
}

template <class T>
void Document::Blocks<T>::reserve(std::size_t count) {
  if (count == 0) return;
  blocks.push_back(std::make_unique<T[]>(count));
  capacity = count;
  used = 0;
}

template <class T>
T* Document::Blocks<T>::take(std::size_t count) {
  if (count == 0) return nullptr;
  if (blocks.empty() || capacity - used < count) {
    capacity = std::max(kBlock, count);
    blocks.push_back(std::make_unique<T[]>(capacity));
    used = 0;
  }
  T* out = blocks.back().get() + used;
  used += count;
  return out;
}

void Document::reserve(std::size_t items, std::size_t members) {
  nodes_.reserve(items);
  members_.reserve(members);
}

Node* Document::items(std::size_t count) { return nodes_.take(count); }

Member* Document::members(std::size_t count) { return members_.take(count); }

const std::string* Document::keep(std::string&& text) {
  strings_.push_back(std::move(text));
  return &strings_.back();
}

void Document::clear() {
  root = Node();
  nodes_ = Blocks<Node>();
  members_ = Blocks<Member>();
  strings_.clear();
}

nlohmann::ordered_json to_nlohmann(const Node& node) {
  using Json = nlohmann::ordered_json;
  switch (node.type()) {
    case Node::value_t::boolean:
      return node.get<bool>();
    case Node::value_t::number_integer:
      return node.get<std::int64_t>();
    case Node::value_t::number_unsigned:
      return node.get<std::uint64_t>();
    case Node::value_t::number_float:
      return node.get<double>();
    case Node::value_t::string:
      return node.get_ref<const std::string&>();
    case Node::value_t::array: {
      Json out = Json::array();
      for (std::size_t i = 0; i < node.size(); ++i) out.push_back(to_nlohmann(node[i]));
      return out;
    }
    case Node::value_t::object: {
      Json out = Json::object();
      for (const Member& member : node.members()) out[member.first] = to_nlohmann(member.second);
      return out;
    }
    default:
      return nullptr;
  }
}

}  // namespace stepslide::strict_json
