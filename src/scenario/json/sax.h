// A fast SAX parser for the JSON that parse_json reads (scenario/json/reader.h): the
// same events, in the same order, as nlohmann's sax_parse with strict = true
// and comments ignored, for every document nlohmann accepts; for anything
// else it stops and declines, and parse_json asks nlohmann again, so every
// error message stays nlohmann's own.
//
// Why not nlohmann's parser: it copies each token into a buffer one character
// at a time and converts numbers with strtod, over both passes parse_json
// makes, which dominates loading a large level. This one scans runs of plain
// characters at once, converts numbers with std::from_chars (correctly
// rounded, as strtod is) and skips all conversion when the handler does not
// want the values (the counting pass).
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>

namespace stepslide::strict_json {

enum class SaxOutcome {
  Done,     ///< the whole document was read and every event was accepted
  Stopped,  ///< the handler returned false: stop there, as nlohmann's sax_parse does
  Declined  ///< not valid JSON, or a case left to nlohmann (a number out of range, a NUL byte)
};

/// Reads `text` into `handler`, which has nlohmann's SAX interface
/// (json_sax). `Handler::kWantsValues` false: strings and numbers are checked
/// but not converted, and the handler gets empty strings and zeros.
template <class Handler>
class SaxParser {
 public:
  SaxParser(std::string_view text, Handler& handler)
      : p_(text.data()), end_(text.data() + text.size()), handler_(handler) {}

  SaxOutcome run();

 private:
  enum class Step { Value, AfterValue, Key, Stop, Decline, Done };

  int peek() const { return p_ < end_ ? static_cast<unsigned char>(*p_) : -1; }
  bool skip_space();
  Step value();
  Step after_value();
  Step key();
  Step open(bool object);
  Step close(bool object);
  bool string();
  bool escape();
  bool utf8(unsigned char lead);
  bool hex4(std::uint32_t& out);
  void append_code_point(std::uint32_t cp);
  Step literal(std::string_view word);
  Step number();

  const char* p_;
  const char* end_;
  Handler& handler_;
  std::string open_;  ///< '{' or '[' per open container, innermost last
  std::string text_;  ///< the string or key just read
  const std::string empty_;
};

template <class Handler>
SaxOutcome SaxParser<Handler>::run() {
  // nlohmann skips a UTF-8 byte order mark at the very start.
  if (peek() == 0xEF) {
    if (end_ - p_ < 3 || static_cast<unsigned char>(p_[1]) != 0xBB || static_cast<unsigned char>(p_[2]) != 0xBF) {
      return SaxOutcome::Declined;
    }
    p_ += 3;
  }
  if (!skip_space()) return SaxOutcome::Declined;
  Step step = Step::Value;
  for (;;) {
    switch (step) {
      case Step::Value:
        step = value();
        break;
      case Step::AfterValue:
        step = after_value();
        break;
      case Step::Key:
        step = key();
        break;
      case Step::Stop:
        return SaxOutcome::Stopped;
      case Step::Decline:
        return SaxOutcome::Declined;
      case Step::Done:
        return SaxOutcome::Done;
    }
  }
}

// Whitespace and comments. A NUL byte ends the input for nlohmann, so
// anything holding one is left to it.
template <class Handler>
bool SaxParser<Handler>::skip_space() {
  for (;;) {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
    if (peek() != '/') return true;
    if (end_ - p_ < 2) return false;
    if (p_[1] == '/') {
      p_ += 2;
      while (p_ < end_ && *p_ != '\n' && *p_ != '\r') {
        if (*p_ == '\0') return false;
        ++p_;
      }
      continue;
    }
    if (p_[1] != '*') return false;
    p_ += 2;
    for (;;) {
      if (p_ >= end_ || *p_ == '\0') return false;
      if (*p_ == '*' && p_ + 1 < end_ && p_[1] == '/') break;
      ++p_;
    }
    p_ += 2;
  }
}

template <class Handler>
typename SaxParser<Handler>::Step SaxParser<Handler>::value() {
  switch (peek()) {
    case '{':
      return open(true);
    case '[':
      return open(false);
    case '"':
      if (!string()) return Step::Decline;
      return handler_.string(text_) ? Step::AfterValue : Step::Stop;
    case 't':
      return literal("true");
    case 'f':
      return literal("false");
    case 'n':
      return literal("null");
    default:
      return number();
  }
}

template <class Handler>
typename SaxParser<Handler>::Step SaxParser<Handler>::open(bool object) {
  ++p_;
  if (!(object ? handler_.start_object(static_cast<std::size_t>(-1))
               : handler_.start_array(static_cast<std::size_t>(-1)))) {
    return Step::Stop;
  }
  if (!skip_space()) return Step::Decline;
  open_.push_back(object ? '{' : '[');
  if (peek() == (object ? '}' : ']')) return close(object);
  return object ? Step::Key : Step::Value;
}

template <class Handler>
typename SaxParser<Handler>::Step SaxParser<Handler>::close(bool object) {
  ++p_;
  open_.pop_back();
  if (!(object ? handler_.end_object() : handler_.end_array())) return Step::Stop;
  return Step::AfterValue;
}

template <class Handler>
typename SaxParser<Handler>::Step SaxParser<Handler>::key() {
  if (peek() != '"' || !string()) return Step::Decline;
  if (!handler_.key(text_)) return Step::Stop;
  if (!skip_space() || peek() != ':') return Step::Decline;
  ++p_;
  return skip_space() ? Step::Value : Step::Decline;
}

template <class Handler>
typename SaxParser<Handler>::Step SaxParser<Handler>::after_value() {
  if (!skip_space()) return Step::Decline;
  if (open_.empty()) return p_ == end_ ? Step::Done : Step::Decline;
  const bool object = open_.back() == '{';
  const int c = peek();
  if (c == ',') {
    ++p_;
    if (!skip_space()) return Step::Decline;
    return object ? Step::Key : Step::Value;
  }
  if (c == (object ? '}' : ']')) return close(object);
  return Step::Decline;
}

template <class Handler>
typename SaxParser<Handler>::Step SaxParser<Handler>::literal(std::string_view word) {
  if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) {
    return Step::Decline;
  }
  p_ += word.size();
  bool accepted = false;
  if (word[0] == 'n') {
    accepted = handler_.null();
  } else {
    accepted = handler_.boolean(word[0] == 't');
  }
  return accepted ? Step::AfterValue : Step::Stop;
}

// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, typed as nlohmann types it:
// an integer without fraction or exponent is unsigned when not negative,
// signed when negative, and a double when it does not fit either.
template <class Handler>
typename SaxParser<Handler>::Step SaxParser<Handler>::number() {
  auto digit = [this] { return p_ < end_ && *p_ >= '0' && *p_ <= '9'; };
  const char* start = p_;
  const bool negative = peek() == '-';
  if (negative) ++p_;
  if (!digit()) return Step::Decline;
  if (*p_ == '0') {
    ++p_;
  } else {
    while (digit()) ++p_;
  }
  bool is_float = false;
  if (peek() == '.') {
    ++p_;
    if (!digit()) return Step::Decline;
    while (digit()) ++p_;
    is_float = true;
  }
  if (peek() == 'e' || peek() == 'E') {
    ++p_;
    if (peek() == '+' || peek() == '-') ++p_;
    if (!digit()) return Step::Decline;
    while (digit()) ++p_;
    is_float = true;
  }
  if constexpr (!Handler::kWantsValues) {
    return handler_.number_float(0.0, empty_) ? Step::AfterValue : Step::Stop;
  } else {
    if (!is_float) {
      if (negative) {
        std::int64_t value = 0;
        if (std::from_chars(start, p_, value).ec == std::errc()) {
          return handler_.number_integer(value) ? Step::AfterValue : Step::Stop;
        }
      } else {
        std::uint64_t value = 0;
        if (std::from_chars(start, p_, value).ec == std::errc()) {
          return handler_.number_unsigned(value) ? Step::AfterValue : Step::Stop;
        }
      }
    }
    // Out of range (overflow: nlohmann's error; underflow: strtod's rounding
    // to zero or a subnormal, which from_chars does not give): nlohmann's.
    double value = 0.0;
    if (std::from_chars(start, p_, value).ec != std::errc()) return Step::Decline;
    return handler_.number_float(value, empty_) ? Step::AfterValue : Step::Stop;
  }
}

// The string at p_ (its opening quote) into text_, unescaped. Control
// characters, bad escapes and ill-formed UTF-8 decline, as nlohmann rejects them.
template <class Handler>
bool SaxParser<Handler>::string() {
  ++p_;
  text_.clear();
  for (;;) {
    const char* run = p_;
    while (p_ < end_) {
      const auto c = static_cast<unsigned char>(*p_);
      if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80) break;
      ++p_;
    }
    if constexpr (Handler::kWantsValues) text_.append(run, p_);
    if (p_ >= end_) return false;
    const auto c = static_cast<unsigned char>(*p_);
    if (c == '"') {
      ++p_;
      return true;
    }
    if (c < 0x20) return false;
    if (c == '\\') {
      ++p_;
      if (!escape()) return false;
    } else if (!utf8(c)) {
      return false;
    }
  }
}

template <class Handler>
bool SaxParser<Handler>::escape() {
  if (p_ >= end_) return false;
  const char c = *p_++;
  char plain = 0;
  switch (c) {
    case '"':
    case '\\':
    case '/':
      plain = c;
      break;
    case 'b':
      plain = '\b';
      break;
    case 'f':
      plain = '\f';
      break;
    case 'n':
      plain = '\n';
      break;
    case 'r':
      plain = '\r';
      break;
    case 't':
      plain = '\t';
      break;
    case 'u': {
      std::uint32_t cp = 0;
      if (!hex4(cp)) return false;
      if (cp >= 0xDC00 && cp <= 0xDFFF) return false;  // a low surrogate alone
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        std::uint32_t low = 0;
        if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
        p_ += 2;
        if (!hex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      }
      if constexpr (Handler::kWantsValues) append_code_point(cp);
      return true;
    }
    default:
      return false;
  }
  if constexpr (Handler::kWantsValues) text_.push_back(plain);
  return true;
}

template <class Handler>
bool SaxParser<Handler>::hex4(std::uint32_t& out) {
  if (end_ - p_ < 4) return false;
  out = 0;
  for (int i = 0; i < 4; ++i) {
    const char c = *p_++;
    std::uint32_t v = 0;
    if (c >= '0' && c <= '9') {
      v = static_cast<std::uint32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      v = static_cast<std::uint32_t>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      v = static_cast<std::uint32_t>(c - 'A' + 10);
    } else {
      return false;
    }
    out = (out << 4) | v;
  }
  return true;
}

template <class Handler>
void SaxParser<Handler>::append_code_point(std::uint32_t cp) {
  if (cp < 0x80) {
    text_.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    text_.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    text_.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    text_.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    text_.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    text_.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    text_.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    text_.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    text_.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    text_.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// One well-formed UTF-8 sequence (Unicode table 3-7, which nlohmann checks)
// starting with `lead` at p_, copied into text_.
template <class Handler>
bool SaxParser<Handler>::utf8(unsigned char lead) {
  int more = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    more = 1;
  } else if (lead == 0xE0) {
    more = 2;
    lo = 0xA0;
  } else if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) {
    more = 2;
  } else if (lead == 0xED) {
    more = 2;
    hi = 0x9F;
  } else if (lead == 0xF0) {
    more = 3;
    lo = 0x90;
  } else if (lead >= 0xF1 && lead <= 0xF3) {
    more = 3;
  } else if (lead == 0xF4) {
    more = 3;
    hi = 0x8F;
  } else {
    return false;
  }
  if (end_ - p_ < 1 + more) return false;
  for (int i = 1; i <= more; ++i) {
    const auto c = static_cast<unsigned char>(p_[i]);
    const unsigned char min = i == 1 ? lo : 0x80, max = i == 1 ? hi : 0xBF;
    if (c < min || c > max) return false;
  }
  if constexpr (Handler::kWantsValues) text_.append(p_, static_cast<std::size_t>(1 + more));
  p_ += 1 + more;
  return true;
}

}  // namespace stepslide::strict_json
