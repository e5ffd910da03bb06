#include "base/xml.h"

#include <cstdint>

namespace stepslide {

namespace {

constexpr const char* kReplacementCharacter = "\xEF\xBF\xBD";  // U+FFFD

/// What a UTF-8 lead byte announces: sequence length, its payload bits,
/// and the smallest code point that may use that length (no overlongs).
struct LeadByte {
  std::size_t length;
  std::uint32_t bits;
  std::uint32_t minimum;
};

LeadByte decode_lead(unsigned char lead) {
  if (lead < 0x80) return {1, lead, 0};
  if ((lead & 0xE0) == 0xC0) return {2, lead & 0x1Fu, 0x80};
  if ((lead & 0xF0) == 0xE0) return {3, lead & 0x0Fu, 0x800};
  if ((lead & 0xF8) == 0xF0) return {4, lead & 0x07u, 0x10000};
  return {0, 0, 0};  // a continuation byte or 0xF8..0xFF
}

/// Length of the valid UTF-8 sequence starting at `i`, or 0. Rejects
/// overlong forms, surrogates and code points above U+10FFFF.
std::size_t utf8_sequence_length(const std::string& s, std::size_t i, std::uint32_t* code_point) {
  const LeadByte lead = decode_lead(static_cast<unsigned char>(s[i]));
  if (lead.length == 0 || i + lead.length > s.size()) return 0;
  std::uint32_t cp = lead.bits;
  for (std::size_t k = 1; k < lead.length; ++k) {
    const auto next = static_cast<unsigned char>(s[i + k]);
    if ((next & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (next & 0x3Fu);
  }
  if (cp < lead.minimum || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  *code_point = cp;
  return lead.length;
}

/// XML 1.0's Char production (surrogates were rejected by the decoder).
bool allowed_in_xml(std::uint32_t cp) {
  if (cp < 0x20) return cp == '\t' || cp == '\n' || cp == '\r';
  return cp != 0xFFFE && cp != 0xFFFF;
}

/// The reference that stands for an ASCII character, or nullptr to keep it.
/// In attributes, tab and line breaks become references, or a parser would
/// normalise them to spaces. A carriage return is always a reference, or it
/// would be normalised away.
const char* reference_for(char c, bool attribute) {
  switch (c) {
    case '&':
      return "&amp;";
    case '<':
      return "&lt;";
    case '>':
      return "&gt;";
    case '"':
      return "&quot;";
    case '\'':
      return "&apos;";
    case '\r':
      return "&#13;";
    case '\n':
      return attribute ? "&#10;" : nullptr;
    case '\t':
      return attribute ? "&#9;" : nullptr;
    default:
      return nullptr;
  }
}

/// Escapes markup, drops characters XML 1.0 forbids, replaces invalid UTF-8.
std::string escape(const std::string& text, bool attribute) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  std::size_t i = 0;
  while (i < text.size()) {
    std::uint32_t cp = 0;
    const std::size_t length = utf8_sequence_length(text, i, &cp);
    if (length == 0) {
      out += kReplacementCharacter;
      ++i;
      continue;
    }
    if (length > 1) {
      if (allowed_in_xml(cp)) out.append(text, i, length);
      i += length;
      continue;
    }
    ++i;
    const char c = static_cast<char>(cp);
    if (const char* reference = reference_for(c, attribute)) {
      out += reference;
    } else if (allowed_in_xml(cp)) {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string xml_escape_attribute(const std::string& text) { return escape(text, true); }

std::string xml_escape_text(const std::string& text) { return escape(text, false); }

std::string xml_attribute(const char* name, const std::string& value) {
  return std::string(" ") + name + "=\"" + xml_escape_attribute(value) + "\"";
}

}  // namespace stepslide
