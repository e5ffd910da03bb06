// The strict XML reader of the tests, for everything the gate writes (JUnit,
// the SVG of plot, the HTML page of the report): an optional XML declaration,
// an optional <!DOCTYPE html>, comments, elements, double-quoted attributes,
// text, the five named entities and numeric character references, in valid
// UTF-8 of characters XML 1.0 allows. Anything else is an error: a mismatched
// or unclosed tag, and a raw tab or line break in an attribute value (a parser
// would turn it into a space). Returns a tree to query.
#pragma once

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace stepslide::xml_check {

struct Node {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::string text;  ///< character data directly inside, concatenated
  std::vector<std::unique_ptr<Node>> children;

  std::string attribute(const std::string& key) const {
    const auto it = attributes.find(key);
    return it == attributes.end() ? "" : it->second;
  }
  /// The `nth` child element named `child_name`, or nullptr.
  const Node* child(const std::string& child_name, std::size_t nth = 0) const {
    for (const auto& c : children) {
      if (c->name == child_name && nth-- == 0) return c.get();
    }
    return nullptr;
  }
  /// True when the class attribute holds `word` as one of its words.
  bool has_class(const std::string& word) const {
    const std::string classes = " " + attribute("class") + " ";
    return classes.find(" " + word + " ") != std::string::npos;
  }
  /// Every descendant (not this node) for which `match` holds, in document order.
  std::vector<const Node*> find_all(const std::function<bool(const Node&)>& match) const {
    std::vector<const Node*> found;
    for (const auto& c : children) {
      if (match(*c)) found.push_back(c.get());
      for (const Node* d : c->find_all(match)) found.push_back(d);
    }
    return found;
  }
  /// All text below this node, in document order.
  std::string all_text() const {
    std::string out = text;
    for (const auto& c : children) {
      const std::string inner = c->all_text();
      if (!out.empty() && !inner.empty()) out += " ";
      out += inner;
    }
    return out;
  }
};

inline std::function<bool(const Node&)> element(const std::string& name, const std::string& css_class = "") {
  return [name, css_class](const Node& n) { return n.name == name && (css_class.empty() || n.has_class(css_class)); };
}

class Reader {
 public:
  explicit Reader(const std::string& text) : s_(text) {}

  /// The root element, or nullptr with error() set.
  std::unique_ptr<Node> read() {
    if (!valid_characters()) return nullptr;
    skip_space();
    if (starts("<?xml")) {
      const std::size_t end = s_.find("?>", i_);
      if (end == std::string::npos) return fail("unterminated XML declaration");
      i_ = end + 2;
    }
    skip_misc();
    if (starts("<!DOCTYPE")) {
      const std::size_t end = s_.find('>', i_);
      if (end == std::string::npos) return fail("unterminated DOCTYPE");
      i_ = end + 1;
    }
    skip_misc();
    std::unique_ptr<Node> root = element_at();
    if (!root) return nullptr;
    skip_misc();
    if (i_ != s_.size()) return fail("content after the root element");
    return root;
  }

  const std::string& error() const { return error_; }

 private:
  bool starts(const char* text) const { return s_.compare(i_, std::char_traits<char>::length(text), text) == 0; }

  bool reject(const std::string& what) {
    if (error_.empty()) error_ = what + " at byte " + std::to_string(i_) + " near '" + s_.substr(i_, 40) + "'";
    return false;
  }
  std::nullptr_t fail(const std::string& what) {
    reject(what);
    return nullptr;
  }

  /// The code point of the valid UTF-8 sequence at `k` and its length, or a
  /// length of 0 (overlong forms, surrogates and values above U+10FFFF are invalid).
  std::size_t decode(std::size_t k, std::uint32_t* code_point) const {
    const auto lead = static_cast<unsigned char>(s_[k]);
    const std::size_t length = lead < 0x80 ? 1 : (lead & 0xE0) == 0xC0 ? 2 : (lead & 0xF0) == 0xE0 ? 3
                               : (lead & 0xF8) == 0xF0 ? 4 : 0;
    if (length == 0 || k + length > s_.size()) return 0;
    std::uint32_t cp = length == 1 ? lead : lead & (0x7Fu >> length);
    for (std::size_t j = 1; j < length; ++j) {
      const auto next = static_cast<unsigned char>(s_[k + j]);
      if ((next & 0xC0) != 0x80) return 0;
      cp = (cp << 6) | (next & 0x3Fu);
    }
    static const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < smallest[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    *code_point = cp;
    return length;
  }

  /// XML 1.0's Char production.
  static bool xml_char(std::uint32_t cp) {
    if (cp < 0x20) return cp == '\t' || cp == '\n' || cp == '\r';
    return cp != 0xFFFE && cp != 0xFFFF && !(cp >= 0xD800 && cp <= 0xDFFF) && cp <= 0x10FFFF;
  }

  /// Valid UTF-8, and only characters XML 1.0 allows.
  bool valid_characters() {
    for (std::size_t k = 0; k < s_.size();) {
      std::uint32_t cp = 0;
      const std::size_t length = decode(k, &cp);
      i_ = k;
      if (length == 0) return reject("bad UTF-8");
      if (!xml_char(cp)) return reject("a character XML does not allow");
      k += length;
    }
    i_ = 0;
    return true;
  }

  /// `cp` as UTF-8.
  static std::string utf8(std::uint32_t cp) {
    if (cp < 0x80) return std::string(1, static_cast<char>(cp));
    std::string out;
    if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    }
    out += static_cast<char>(0x80 | (cp & 0x3F));
    return out;
  }

  static bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':'; }
  static bool name_char(char c) {
    return name_start(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.';
  }

  void skip_space() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }

  /// Whitespace and comments between top-level constructs.
  void skip_misc() {
    for (;;) {
      skip_space();
      if (!starts("<!--")) return;
      if (!comment()) return;
    }
  }

  bool comment() {
    const std::size_t end = s_.find("-->", i_ + 4);
    if (end == std::string::npos) return reject("unterminated comment");
    if (s_.substr(i_ + 4, end - i_ - 4).find("--") != std::string::npos) return reject("'--' inside a comment");
    i_ = end + 3;
    return true;
  }

  std::string name() {
    const std::size_t start = i_;
    if (i_ < s_.size() && name_start(s_[i_])) {
      while (i_ < s_.size() && name_char(s_[i_])) ++i_;
    }
    return s_.substr(start, i_ - start);
  }

  /// Reads "&...;" at i_ and appends what it stands for.
  bool reference(std::string* out) {
    const std::size_t end = s_.find(';', i_);
    if (end == std::string::npos || end - i_ > 12) return reject("unterminated reference");
    const std::string ref = s_.substr(i_ + 1, end - i_ - 1);
    static const std::map<std::string, char> named = {
        {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
    if (named.count(ref)) {
      *out += named.at(ref);
    } else if (ref.size() > 1 && ref[0] == '#' && ref.find_first_not_of("0123456789", 1) == std::string::npos) {
      const long code = std::strtol(ref.c_str() + 1, nullptr, 10);
      if (code < 0 || code > 0x10FFFF || !xml_char(static_cast<std::uint32_t>(code))) return reject("bad char ref");
      *out += utf8(static_cast<std::uint32_t>(code));
    } else {
      return reject("unknown entity &" + ref + ";");
    }
    i_ = end + 1;
    return true;
  }

  bool attribute_value(std::string* out) {
    if (i_ >= s_.size() || s_[i_] != '"') return reject("expected '\"'");
    ++i_;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (s_[i_] == '<') return reject("'<' in an attribute");
      if (s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r') return reject("raw tab or line break in an attribute");
      if (s_[i_] == '&') {
        if (!reference(out)) return false;
        continue;
      }
      *out += s_[i_++];
    }
    if (i_ >= s_.size()) return reject("unterminated attribute");
    ++i_;
    return true;
  }

  /// Attributes up to '>' or '/>'; sets `empty` for the latter.
  bool attributes(Node* e, bool* empty) {
    for (;;) {
      const std::size_t before = i_;
      skip_space();
      if (starts("/>")) {
        i_ += 2;
        *empty = true;
        return true;
      }
      if (starts(">")) {
        ++i_;
        *empty = false;
        return true;
      }
      if (i_ == before) return reject("expected whitespace before an attribute");
      const std::string key = name();
      if (key.empty()) return reject("expected an attribute name");
      skip_space();
      if (i_ >= s_.size() || s_[i_] != '=') return reject("expected '=' after " + key);
      ++i_;
      skip_space();
      std::string value;
      if (!attribute_value(&value)) return false;
      if (!e->attributes.emplace(key, value).second) return reject("duplicate attribute " + key);
    }
  }

  std::unique_ptr<Node> element_at() {
    if (i_ >= s_.size() || s_[i_] != '<') return fail("expected '<'");
    ++i_;
    auto e = std::make_unique<Node>();
    e->name = name();
    if (e->name.empty()) return fail("expected an element name");
    bool empty = false;
    if (!attributes(e.get(), &empty)) return nullptr;
    if (empty) return e;
    for (;;) {
      if (i_ >= s_.size()) return fail("unclosed <" + e->name + ">");
      if (starts("</")) {
        i_ += 2;
        const std::string closing = name();
        if (closing != e->name) return fail("</" + closing + "> closes <" + e->name + ">");
        skip_space();
        if (i_ >= s_.size() || s_[i_] != '>') return fail("expected '>'");
        ++i_;
        return e;
      }
      if (starts("<!--")) {
        if (!comment()) return nullptr;
        continue;
      }
      if (s_[i_] == '<') {
        std::unique_ptr<Node> c = element_at();
        if (!c) return nullptr;
        e->children.push_back(std::move(c));
        continue;
      }
      if (s_[i_] == '&') {
        if (!reference(&e->text)) return nullptr;
        continue;
      }
      if (s_[i_] == '>') return fail("raw '>' in text");
      e->text += s_[i_++];
    }
  }

  const std::string& s_;
  std::size_t i_ = 0;
  std::string error_;
};

}  // namespace stepslide::xml_check
