// The one JSON string escaper: what it writes, and that it writes what
// nlohmann's dump (replace handler) wrote before, byte for byte, so the
// loader's messages did not change when it moved to base.
#include "base/json_string.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <random>

namespace stepslide {
namespace {

std::string nlohmann_quote(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

TEST(JsonString, EscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(json_string("a\"b\\c\nd\x01"), "\"a\\\"b\\\\c\\nd\\u0001\"");
  EXPECT_EQ(json_string("\b\f\r\t\x1f\x7f"), "\"\\b\\f\\r\\t\\u001f\x7f\"");
  EXPECT_EQ(json_string(std::string("\0", 1)), "\"\\u0000\"");
  EXPECT_EQ(json_string(""), "\"\"");
}

TEST(JsonString, WellFormedUtf8PassesThrough) {
  EXPECT_EQ(json_string("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82"), "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82\"");
}

TEST(JsonString, IllFormedUtf8BecomesOneReplacementPerBrokenSequence) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(json_string("a\xff" "b"), "\"a" + r + "b\"");            // a byte that starts nothing
  EXPECT_EQ(json_string("\xc3" "A"), "\"" + r + "A\"");              // the breaking byte is kept
  EXPECT_EQ(json_string("\xe2\x82"), "\"" + r + "\"");               // cut short at the end
  EXPECT_EQ(json_string("\xe0\x80\x80"), "\"" + r + r + r + "\"");   // overlong
  EXPECT_EQ(json_string("\xed\xa0\x80"), "\"" + r + r + r + "\"");   // a surrogate
  EXPECT_EQ(json_string("\xf4\x90\x80\x80"), "\"" + r + r + r + r + "\"");  // past U+10FFFF
}

TEST(JsonString, SameAsNlohmannDumpOnRandomBytes) {
  // Bytes drawn mostly from the interesting ranges: ASCII controls and
  // escapes, continuation bytes and every kind of lead byte.
  const std::string alphabet = std::string("\0\x01\x08\x09\x0a\x0c\x0d\x1f \"\\aZ\x7f", 15) +
                               "\x80\x8f\x90\x9f\xa0\xbf\xc0\xc1\xc2\xdf\xe0\xe1\xed\xef\xf0\xf1\xf4\xf5\xff";
  std::mt19937 random(13);
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::uniform_int_distribution<int> length(0, 12);
  for (int i = 0; i < 200000; ++i) {
    std::string text;
    for (int n = length(random); n > 0; --n) text += alphabet[pick(random)];
    ASSERT_EQ(json_string(text), nlohmann_quote(text)) << "case " << i;
  }
  // And every two-byte and every lead+continuation+continuation string.
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      const std::string text{static_cast<char>(a), static_cast<char>(b)};
      ASSERT_EQ(json_string(text), nlohmann_quote(text)) << a << " " << b;
      const std::string three{static_cast<char>(a), static_cast<char>(b), '\x80'};
      ASSERT_EQ(json_string(three), nlohmann_quote(three)) << a << " " << b;
    }
  }
}

}  // namespace
}  // namespace stepslide
