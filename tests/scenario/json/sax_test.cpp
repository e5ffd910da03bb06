// The fast SAX parser (scenario/json/sax.h) against nlohmann's: for every
// text nlohmann accepts it gives the same events with the same values; for
// every text nlohmann rejects it declines, so that parse_json falls back to
// nlohmann and its error messages. Hand-picked edge cases, then many random
// documents and mutations of them (a fixed seed: the same cases every run).

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "scenario/json/reader.h"
#include "scenario/json/sax.h"

namespace stepslide::strict_json {
namespace {

using Json = nlohmann::ordered_json;  // the reference parser

/// Records every event as text. With kValues false (scenario/json/sax.h's counting
/// mode) numbers and strings are recorded by kind only.
template <bool kValues>
class Recorder {
 public:
  static constexpr bool kWantsValues = kValues;

  bool null() { return add("null"); }
  bool boolean(bool value) { return add(value ? "true" : "false"); }
  bool number_integer(Json::number_integer_t value) { return add(kValues ? "i" + std::to_string(value) : "n"); }
  bool number_unsigned(Json::number_unsigned_t value) { return add(kValues ? "u" + std::to_string(value) : "n"); }
  bool number_float(Json::number_float_t value, const std::string& /*text*/) {
    if (!kValues) return add("n");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return add("f" + std::to_string(bits));
  }
  bool string(std::string& value) { return add(kValues ? "s" + value : "s"); }
  bool binary(Json::binary_t& /*value*/) { return add("binary"); }
  bool start_object(std::size_t /*size*/) { return add("{"); }
  bool start_array(std::size_t /*size*/) { return add("["); }
  bool end_object() { return add("}"); }
  bool end_array() { return add("]"); }
  bool key(std::string& name) { return add("k" + (kValues ? name : std::string())); }
  bool parse_error(std::size_t /*byte*/, const std::string& /*token*/, const nlohmann::detail::exception& /*e*/) {
    return false;
  }

  std::vector<std::string> events;

 private:
  bool add(std::string event) {
    events.push_back(std::move(event));
    return true;
  }
};

/// Whether a run of number characters in `text` is out of the range of a
/// double for strtod (nlohmann's conversion), as 1e-400 is.
bool has_number_out_of_range(const std::string& text) {
  static const std::regex kNumber("-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kNumber); it != std::sregex_iterator(); ++it) {
    errno = 0;
    std::strtod(it->str().c_str(), nullptr);
    if (errno == ERANGE) return true;
  }
  return false;
}

/// Checks scenario/json/sax.h against nlohmann on `text`, in both modes.
void expect_same(const std::string& text) {
  Recorder<true> theirs;
  const bool accepted = Json::sax_parse(text, &theirs, Json::input_format_t::json, true, true);
  Recorder<true> ours;
  const SaxOutcome outcome = SaxParser<Recorder<true>>(text, ours).run();
  if (accepted && outcome == SaxOutcome::Declined) {
    // Left to nlohmann on purpose: a NUL byte (the end of input for
    // nlohmann) or a number below the smallest double (strtod's zero).
    ASSERT_TRUE(text.find('\0') != std::string::npos || has_number_out_of_range(text)) << text;
    return;
  }
  if (accepted) {
    ASSERT_EQ(outcome, SaxOutcome::Done) << "nlohmann accepts: " << text;
    ASSERT_EQ(ours.events, theirs.events) << text;
  } else {
    ASSERT_EQ(outcome, SaxOutcome::Declined) << "nlohmann rejects: " << text;
  }
  if (!accepted) return;
  Recorder<false> kinds_theirs;
  Json::sax_parse(text, &kinds_theirs, Json::input_format_t::json, true, true);
  Recorder<false> kinds_ours;
  ASSERT_EQ(SaxParser<Recorder<false>>(text, kinds_ours).run(), SaxOutcome::Done) << text;
  ASSERT_EQ(kinds_ours.events, kinds_theirs.events) << text;
}

TEST(JsonSax, EdgeCasesMatchNlohmann) {
  const std::vector<std::string> cases = {
      "{}", "[]", "0", "-0", "1", "-1", "0.5", "-0.0", "1e5", "1E+5", "1e-5", "2.5e+300", "1.7976931348623157e308",
      "18446744073709551615", "18446744073709551616", "9223372036854775807", "-9223372036854775808",
      "-9223372036854775809", "123456789012345678901234567890", "1e999", "-1e999", "1e-400", "4.9e-324",
      "2.2250738585072011e-308", "0.1", "0.30000000000000004", "01", "1.", ".5", "+1", "-", "--1", "1e", "1e+",
      "0x10", "1.5.5", "Infinity", "NaN", "true", "false", "null", "tru", "nul", "truex", "[true,false,null]",
      "[1,]", "[,1]", "{\"a\":1,}", "{\"a\" 1}", "{\"a\":}", "{a:1}", "{'a':1}", "{\"a\":1 \"b\":2}", "[1 2]",
      "{\"a\":1}}", "[[]", "[]]", "", " ", "\t\n\r {} \t\n\r", "{} x", "{}{}",
      // comments
      "// c\n{}", "{}// c", "{}// c\n", "/* c */{}", "{/* c */\"a\"/**/:/**/1/**/}", "[1/*x*/,/*y*/2]", "/* c {}",
      "/ {}", "{}/", "{}/*", "/**/", "/***/[]", "/* * / */[]", "//\r[]", "[1//c\n]",
      // strings and escapes
      "\"\"", "\"abc\"", "\"a\\\"b\"", "\"\\\\\"", "\"\\/\"", "\"\\b\\f\\n\\r\\t\"", "\"\\u0041\"", "\"\\u00e9\"",
      "\"\\u20AC\"", "\"\\uD83D\\uDE00\"", "\"\\uD83D\"", "\"\\uDE00\"", "\"\\uD83D\\u0041\"", "\"\\uD83Dx\"",
      "\"\\u12\"", "\"\\u12G4\"", "\"\\x\"", "\"\\", "\"abc", "\"a\tb\"", "\"a\nb\"", "\"\\u0000\"",
      "\"\x7f\"", "\"\xc3\xa9\"", "\"\xe2\x82\xac\"", "\"\xf0\x9f\x98\x80\"", "\"\xc0\x80\"", "\"\xc1\xbf\"",
      "\"\xe0\x80\x80\"", "\"\xe0\xa0\x80\"", "\"\xed\xa0\x80\"", "\"\xed\x9f\xbf\"", "\"\xf0\x80\x80\x80\"",
      "\"\xf0\x90\x80\x80\"", "\"\xf4\x8f\xbf\xbf\"", "\"\xf4\x90\x80\x80\"", "\"\xf5\x80\x80\x80\"", "\"\xff\"",
      "\"\x80\"", "\"\xc3\"", "\"\xe2\x82\"", "\xc3\xa9", "{\"k\xc3\xa9y\":1}",
      // byte order mark, NUL bytes
      "\xef\xbb\xbf{}", "\xef\xbb{}", "\xef{}", " \xef\xbb\xbf{}", std::string("{}\0", 3), std::string("{}\0x", 4),
      std::string("[\0]", 3), std::string("\"a\0\"", 4), std::string("//\0\n{}", 6), std::string("/*\0*/{}", 7),
      // a realistic body
      "{\"name\": \"floor\", \"shape\": {\"type\": \"box\", \"half_extents\": [20, 0.5, 20]}, \"position\": [0, -0.5, 0]}",
      "{\"a\": 1, \"a\": 2}", "[[[[[[[[[[1]]]]]]]]]]",
  };
  for (const std::string& text : cases) expect_same(text);
}

/// Random JSON texts: nested values with varied spacing and comments, then
/// perhaps mutated by a few byte edits drawn from the characters that matter.
class RandomJson {
 public:
  explicit RandomJson(std::uint32_t seed) : random_(seed) {}

  std::string document() {
    std::string out;
    value(out, 0);
    if (pick(4) == 0) mutate(out);
    return out;
  }

 private:
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random_); }

  void space(std::string& out) {
    static const char* const kSpaces[] = {"", "", "", " ", "\n  ", "\t", "\r\n", "/* c */", "// c\n", " /**/ "};
    out += kSpaces[pick(10)];
  }

  void string(std::string& out) {
    static const char* const kParts[] = {"a",      "name",   "\\n",     "\\\"",     "\\u00e9", "\\uD83D\\uDE00",
                                         "\xc3\xa9", "\xe2\x82\xac", "/", "\\/", "~", " ", "\\\\", "half_extents"};
    out += '"';
    for (std::size_t i = pick(4); i > 0; --i) out += kParts[pick(14)];
    out += '"';
  }

  void number(std::string& out) {
    static const char* const kNumbers[] = {"0",   "-0",    "1",      "-17",   "0.25",   "-3.5e2", "1E-3",
                                           "1e308", "12345678901234567890", "-9223372036854775809",
                                           "4.9e-324", "20", "0.5", "1e400"};
    out += kNumbers[pick(14)];
  }

  void value(std::string& out, int depth) {
    const std::size_t kind = depth >= 5 ? 3 + pick(4) : pick(7);
    switch (kind) {
      case 0:
      case 1: {
        out += '{';
        space(out);
        for (std::size_t i = 0, n = pick(4); i < n; ++i) {
          if (i > 0) out += ',';
          space(out);
          string(out);
          space(out);
          out += ':';
          space(out);
          value(out, depth + 1);
          space(out);
        }
        out += '}';
        break;
      }
      case 2: {
        out += '[';
        space(out);
        for (std::size_t i = 0, n = pick(4); i < n; ++i) {
          if (i > 0) out += ',';
          space(out);
          value(out, depth + 1);
          space(out);
        }
        out += ']';
        break;
      }
      case 3:
        string(out);
        break;
      case 4:
      case 5:
        number(out);
        break;
      default: {
        static const char* const kLiterals[] = {"true", "false", "null"};
        out += kLiterals[pick(3)];
      }
    }
  }

  void mutate(std::string& out) {
    static const char kBytes[] = "{}[],:\"\\/*-+.eE0123456789 \n\tuxtrfn\x00\x80\xc3\xff";
    for (std::size_t edits = 1 + pick(3); edits > 0 && !out.empty(); --edits) {
      const std::size_t at = pick(out.size());
      const char byte = kBytes[pick(sizeof kBytes - 1)];
      switch (pick(3)) {
        case 0:
          out[at] = byte;
          break;
        case 1:
          out.erase(at, 1);
          break;
        default:
          out.insert(out.begin() + static_cast<std::ptrdiff_t>(at), byte);
      }
    }
  }

  std::mt19937 random_;
};

TEST(JsonSax, RandomDocumentsAndMutationsMatchNlohmann) {
  RandomJson random(20261123);
  int accepted = 0;
  constexpr int kCases = 20000;
  for (int i = 0; i < kCases; ++i) {
    const std::string text = random.document();
    expect_same(text);
    if (HasFatalFailure()) return;
    Recorder<true> check;
    accepted += Json::sax_parse(text, &check, Json::input_format_t::json, true, true) ? 1 : 0;
  }
  // Both kinds were exercised in numbers.
  EXPECT_GT(accepted, kCases / 2);
  EXPECT_LT(accepted, kCases);
}

// parse_json's own document (scenario/json/document.h) holds what nlohmann's DOM
// holds for every document both accept, and refuses the others as before.
TEST(JsonSax, ParseJsonBuildsWhatNlohmannBuilds) {
  RandomJson random(20261124);
  int compared = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string text = random.document();
    const ParsedJson ours = parse_json(text, 64, 1000);
    Json theirs;
    bool accepted = true;
    try {
      theirs = Json::parse(text, nullptr, true, /*ignore_comments=*/true);
    } catch (const Json::exception&) {
      accepted = false;
    }
    ASSERT_EQ(ours.ok, accepted) << text;
    if (!accepted || !ours.issues.empty()) continue;  // duplicate keys: listed, the document is invalid
    ASSERT_EQ(to_nlohmann(ours.document.root), theirs) << text;
    ++compared;
  }
  EXPECT_GT(compared, 5000);
}

TEST(JsonSax, AHandlerThatRefusesStopsTheParse) {
  struct Refuser : Recorder<true> {
    bool start_array(std::size_t /*size*/) { return false; }
  };
  Refuser handler;
  EXPECT_EQ(SaxParser<Refuser>("{\"a\": [1]}", handler).run(), SaxOutcome::Stopped);
  EXPECT_EQ(handler.events, (std::vector<std::string>{"{", "ka"}));
}

TEST(JsonSax, ParseJsonStillReportsNlohmannsSyntaxErrors) {
  // Declined by the fast parser, read again by nlohmann for its message.
  const ParsedJson bad = parse_json("{\"a\": [1, 2,]}", 64, 100);
  ASSERT_FALSE(bad.ok);
  ASSERT_EQ(bad.issues.size(), 1u);
  EXPECT_EQ(bad.issues[0].message.rfind("invalid JSON at line 1, column 13", 0), 0u) << bad.issues[0].message;
  const ParsedJson overflow = parse_json("{\"a\": [1, 1e999]}", 64, 100);
  ASSERT_FALSE(overflow.ok);
  ASSERT_EQ(overflow.issues.size(), 1u);
  EXPECT_EQ(overflow.issues[0].pointer, "/a/1");
  const ParsedJson tiny = parse_json("[1e-400]", 64, 100);
  ASSERT_TRUE(tiny.ok);
  EXPECT_EQ(tiny.document.root[0].get<double>(), 0.0);
}

}  // namespace
}  // namespace stepslide::strict_json
