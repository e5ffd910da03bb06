#include "base/json_string.h"

namespace stepslide {

namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

bool in(unsigned char byte, unsigned char low, unsigned char high) { return byte >= low && byte <= high; }

/// Bytes in the UTF-8 sequence a lead byte starts; 0 for a byte that cannot
/// start one (a continuation byte, C0, C1, F5..FF).
std::size_t sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (in(lead, 0xC2, 0xDF)) return 2;
  if (in(lead, 0xE0, 0xEF)) return 3;
  if (in(lead, 0xF0, 0xF4)) return 4;
  return 0;
}

/// Whether `byte` may follow `lead` as its first continuation byte; the
/// narrower ranges exclude overlong forms, surrogates and code points past
/// U+10FFFF (RFC 3629).
bool first_continuation(unsigned char lead, unsigned char byte) {
  switch (lead) {
    case 0xE0:
      return in(byte, 0xA0, 0xBF);
    case 0xED:
      return in(byte, 0x80, 0x9F);
    case 0xF0:
      return in(byte, 0x90, 0xBF);
    case 0xF4:
      return in(byte, 0x80, 0x8F);
    default:
      return in(byte, 0x80, 0xBF);
  }
}

/// How many bytes of `text` from `at` form a well-formed sequence (its
/// length), or, negated, how many form the longest valid prefix of an
/// ill-formed one (at least 1: a byte that starts nothing is that prefix).
long valid_sequence(std::string_view text, std::size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  const std::size_t length = sequence_length(lead);
  if (length == 0) return -1;
  for (std::size_t k = 1; k < length; ++k) {
    if (at + k >= text.size()) return -static_cast<long>(k);
    const auto byte = static_cast<unsigned char>(text[at + k]);
    if (!(k == 1 ? first_continuation(lead, byte) : in(byte, 0x80, 0xBF))) return -static_cast<long>(k);
  }
  return static_cast<long>(length);
}

void append_ascii(char c, std::string& out) {
  static const char* const kHex = "0123456789abcdef";
  switch (c) {
    case '"':
      out += "\\\"";
      return;
    case '\\':
      out += "\\\\";
      return;
    case '\b':
      out += "\\b";
      return;
    case '\f':
      out += "\\f";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    default:
      break;
  }
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x20) {
    out += c;
    return;
  }
  out += "\\u00";
  out += kHex[byte >> 4];
  out += kHex[byte & 0xF];
}

}  // namespace

void append_json_string(std::string_view text, std::string& out) {
  out += '"';
  std::size_t at = 0;
  while (at < text.size()) {
    const long valid = valid_sequence(text, at);
    if (valid == 1) {
      append_ascii(text[at], out);
    } else if (valid > 1) {
      out.append(text, at, static_cast<std::size_t>(valid));
    } else {
      // The byte that broke the sequence is read again as a possible lead
      // (it may be fine on its own), as nlohmann's replace handler does.
      out += kReplacement;
    }
    at += static_cast<std::size_t>(valid > 0 ? valid : -valid);
  }
  out += '"';
}

std::string json_string(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  append_json_string(text, out);
  return out;
}

}  // namespace stepslide
