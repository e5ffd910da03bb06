// Strict JSON reading (scenario/json/reader.h): JSON Pointers, the parser's
// duplicate-key, depth and overflow reports, the typed readers' messages,
// and problems listed in document order.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "scenario/json/reader.h"

namespace stepslide::strict_json {
namespace {

using Lines = std::vector<std::string>;

/// "/pointer: message" for each issue.
Lines lines(const std::vector<JsonIssue>& issues) {
  Lines out;
  for (const JsonIssue& issue : issues) out.push_back(issue.pointer + ": " + issue.message);
  return out;
}

/// A parsed document to read from; fails the test when it does not parse.
ParsedJson parsed(const std::string& text) {
  ParsedJson result = parse_json(text, 64, 100);
  EXPECT_TRUE(result.ok) << text;
  EXPECT_TRUE(result.issues.empty()) << text;
  return result;
}

TEST(StrictJson, PointersEscapeTildeAndSlashAndOrderFollowsTheDocument) {
  const Where root;
  const Where world = Where::member(root, "world", 3);
  const Where body = Where::item(world, 2);
  const Where odd = Where::member(body, "a/b~c", 1);
  EXPECT_EQ(root.pointer(), "");
  EXPECT_EQ(odd.pointer(), "/world/2/a~1b~0c");
  EXPECT_EQ(odd.order(), (std::vector<std::size_t>{3, 2, 1}));
  EXPECT_EQ(pointer_token("~/x/~"), "~0~1x~1~0");
}

TEST(StrictJson, PointersWriteControlCharactersAsJsonEscapes) {
  // A "\u0000" key was printed in the pointer as a raw NUL byte.
  EXPECT_EQ(pointer_token(std::string_view("a\0b", 3)), "a\\u0000b");
  EXPECT_EQ(pointer_token("line\nbreak\x1b[31m\x7f"), "line\\u000abreak\\u001b[31m\\u007f");
  // A backslash is doubled, so a key spelling \u0000 differs from a NUL.
  EXPECT_EQ(pointer_token("\\u0000"), "\\\\u0000");
  EXPECT_EQ(pointer_token("caf\xC3\xA9"), "caf\xC3\xA9") << "UTF-8 is kept as it is";
  const ParsedJson parsed = parse_json("{\"a\": {\"\\u0000\": 1, \"\\u0000\": 2}}", 64, 100);
  ASSERT_TRUE(parsed.ok);
  ASSERT_EQ(parsed.issues.size(), 1u);
  EXPECT_EQ(parsed.issues[0].pointer, "/a/\\u0000");
}

TEST(StrictJson, EveryDuplicateKeyIsReportedAndTheLastValueWins) {
  const ParsedJson result = parse_json(R"({"a": 1, "b": {"c": 1, "c": 2}, "a": 3})", 64, 100);
  ASSERT_TRUE(result.ok);
  EXPECT_EQ(lines(result.issues), (Lines{"/b/c: duplicate key \"c\"", "/a: duplicate key \"a\""}));
  EXPECT_EQ(to_nlohmann(result.document.root)["a"], 3);
  EXPECT_EQ(to_nlohmann(result.document.root)["b"]["c"], 2);
}

TEST(StrictJson, DuplicateReportsStopAtTheirLimit) {
  const ParsedJson result = parse_json(R"({"a": 1, "a": 2, "a": 3, "a": 4})", 64, 2);
  ASSERT_TRUE(result.ok);
  EXPECT_EQ(result.issues.size(), 2u);
}

TEST(StrictJson, ContainersHoldWhatTheTextHolds) {
  // A first pass counts each container's members, so each is one block of
  // that size; the document reads back as nlohmann reads the text.
  std::string numbers = "[0";
  for (int i = 1; i < 1000; ++i) numbers += ",0";
  const std::string text = R"({"a": )" + numbers +
                           R"(], "b": {"x": 1, "y": [], "z": [1, [2, 3]]}, "c": "long enough for the heap, surely",)"
                           R"( "d": [true, null, -3, 18446744073709551615, 2.5]})";
  const ParsedJson result = parse_json(text, 64, 100);
  ASSERT_TRUE(result.ok);
  const Json& root = result.document.root;
  EXPECT_EQ(root.find("a")->size(), 1000u);
  EXPECT_EQ(root.find("b")->members().size(), 3u);
  EXPECT_EQ((*root.find("b")->find("z"))[1].size(), 2u);
  EXPECT_TRUE(root.find("b")->find("y")->empty());
  EXPECT_EQ(root.find("d")->size(), 5u);
  EXPECT_EQ((*root.find("d"))[3].integer_text(), "18446744073709551615");
  EXPECT_EQ(to_nlohmann(root), nlohmann::ordered_json::parse(text));
}

TEST(StrictJson, ADocumentPastItsMemoryLimitStopsWithOneIssueAtItsPlace) {
  // Each nested array costs 64 bytes for 2 bytes of text.
  const std::string deep = std::string(20, '[') + std::string(20, ']');
  std::string text = R"({"a": 1, "b": [)" + deep;
  for (int i = 1; i < 100; ++i) text += "," + deep;
  text += "]}";
  const ParsedJson within = parse_json(text, 64, 100, 200 * 1024);
  EXPECT_TRUE(within.ok);
  const ParsedJson past = parse_json(text, 64, 100, 64 * 1024);
  EXPECT_FALSE(past.ok);
  ASSERT_EQ(past.issues.size(), 1u);
  EXPECT_EQ(past.issues[0].message,
            "expected a document needing at most 65536 bytes of memory (the memory limit), got more by here: too "
            "many small or deeply nested arrays, objects or strings");
  // Somewhere inside the nested arrays, at the array that went past.
  EXPECT_EQ(past.issues[0].pointer.substr(0, 3), "/b/") << past.issues[0].pointer;
  EXPECT_NE(past.issues[0].pointer.find("/0/0/"), std::string::npos) << past.issues[0].pointer;
}

TEST(StrictJson, CommentsAreAllowed) {
  EXPECT_EQ(parsed("// line\n{\"a\": /* block */ 1}").document.root.find("a")->get<std::int64_t>(), 1);
}

TEST(StrictJson, TooDeepNestingStopsParsingWithOneIssueAtItsPlace) {
  const ParsedJson result = parse_json(R"({"a": [[[1]]]})", 3, 100);
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(lines(result.issues), Lines{"/a/0/0: expected at most 3 levels of nesting, got more"});
}

TEST(StrictJson, ANumberBeyondADoubleIsReportedAtItsPlace) {
  const ParsedJson result = parse_json(R"({"g": [0, 1e999]})", 64, 100);
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(lines(result.issues), Lines{"/g/1: expected a finite number, got 1e999"});
}

TEST(StrictJson, SyntaxErrorsAreOneIssueForTheWholeDocument) {
  const ParsedJson result = parse_json("{\"a\": }", 64, 100);
  EXPECT_FALSE(result.ok);
  ASSERT_EQ(result.issues.size(), 1u);
  EXPECT_EQ(result.issues[0].pointer, "");
  EXPECT_EQ(result.issues[0].message.rfind("invalid JSON at line 1, column 7: ", 0), 0u) << result.issues[0].message;
}

TEST(StrictJson, DescribeSaysWhatWasFound) {
  using N = nlohmann::ordered_json;  // the schema validator's values
  EXPECT_EQ(describe(N(nullptr)), "null");
  EXPECT_EQ(describe(N(true)), "true");
  EXPECT_EQ(describe(N(-2)), "-2");
  EXPECT_EQ(describe(N(2.5)), "2.5");
  EXPECT_EQ(describe(N(1e6)), "1000000");
  EXPECT_EQ(describe(N("abc")), "\"abc\"");
  EXPECT_EQ(describe(N::array({1, 2})), "an array");
  EXPECT_EQ(describe(N::object()), "an object");
  // The loader's own documents say the same.
  const ParsedJson doc = parsed(R"([null, true, -2, 2.5, 1e6, "abc", [1, 2], {}, 18446744073709551615])");
  const Json& v = doc.document.root;
  const char* expected[] = {"null", "true", "-2", "2.5", "1000000", "\"abc\"", "an array", "an object",
                            "18446744073709551615"};
  for (std::size_t i = 0; i < std::size(expected); ++i) EXPECT_EQ(describe(v[i]), expected[i]) << i;
  EXPECT_EQ(JsonReader::describe_count(v[6]), "an array of 2");
  EXPECT_EQ(number_text(0.1), "0.1");
  EXPECT_EQ(number_text(1e20), "1e+20");
  EXPECT_EQ(quote(std::string(50, 'x')), "\"" + std::string(40, 'x') + "...\"");
}

TEST(StrictJson, IntegersMayBeWrittenAsWholeFloats) {
  const ParsedJson doc = parsed(R"({"a": 3.0, "b": 1e3, "c": 2.5, "d": 3000000000})");
  JsonReader r(100);
  const Field root{&doc.document.root, Where{}};
  ObjectReader o(r, root);
  std::int64_t a = 0, b = 0, c = 0;
  int d = 0;
  EXPECT_TRUE(r.integer(o.required("a"), Range{}, a));
  EXPECT_TRUE(r.integer(o.required("b"), Range{}, b));
  EXPECT_FALSE(r.integer(o.required("c"), Range{}, c));
  EXPECT_FALSE(r.integer(o.required("d"), Range{}, d));  // beyond an int
  EXPECT_EQ(a, 3);
  EXPECT_EQ(b, 1000);
  EXPECT_EQ(lines(r.take_sorted_issues()),
            (Lines{"/c: expected an integer, got 2.5", "/d: expected an integer <= 2147483647, got 3000000000"}));
}

TEST(StrictJson, RangeMessagesNameTheBoundAndItsNote) {
  const ParsedJson doc = parsed(R"({"a": 0, "b": 5, "c": 9})");
  JsonReader r(100);
  const Field root{&doc.document.root, Where{}};
  ObjectReader o(r, root);
  double v = 0;
  EXPECT_FALSE(r.number(o.required("a"), above(0), v));
  EXPECT_FALSE(r.number(o.required("b"), at_least(6, "the floor"), v));
  EXPECT_FALSE(r.number(o.required("c"), Range{0, 9, false, true, nullptr, "the cap"}, v));
  EXPECT_EQ(lines(r.take_sorted_issues()), (Lines{"/a: expected a number > 0, got 0",
                                                  "/b: expected a number >= 6 (the floor), got 5",
                                                  "/c: expected a number < 9 (the cap), got 9"}));
}

TEST(StrictJson, ChoicesListTheirOptions) {
  const ParsedJson doc = parsed(R"({"one": "b", "two": "z"})");
  JsonReader r(100);
  const Field root{&doc.document.root, Where{}};
  ObjectReader o(r, root);
  const std::vector<std::pair<const char*, int>> options = {{"a", 1}, {"b", 2}};
  int out = 0;
  EXPECT_TRUE(r.choice(o.required("one"), options, out));
  EXPECT_EQ(out, 2);
  EXPECT_FALSE(r.choice(o.required("two"), options, out));
  EXPECT_EQ(lines(r.take_sorted_issues()), Lines{"/two: expected one of \"a\", \"b\", got \"z\""});
}

TEST(StrictJson, ObjectsReportMissingAndUnknownKeys) {
  const ParsedJson doc = parsed(R"({"known": 1, "extra": 2})");
  JsonReader r(100);
  const Field root{&doc.document.root, Where{}};
  ObjectReader o(r, root);
  EXPECT_TRUE(o.has("extra"));
  EXPECT_TRUE(o.required("known"));
  EXPECT_FALSE(o.required("needed"));
  EXPECT_FALSE(o.optional("maybe"));
  o.reject_unknown();
  EXPECT_EQ(lines(r.take_sorted_issues()),
            (Lines{": missing required key \"needed\"", "/extra: unknown key \"extra\""}));
}

TEST(StrictJson, IssuesAreSortedIntoDocumentOrderAndCapped) {
  JsonReader r(3);
  const Where root;
  const Where b = Where::member(root, "b", 1);
  const Where a = Where::member(root, "a", 0);
  r.error(b, "second place, found first");
  r.error(a, "first place");
  r.error(b, "second place, found second");
  r.error(a, "beyond the cap");
  EXPECT_EQ(lines(r.take_sorted_issues()), (Lines{"/a: first place", "/b: second place, found first",
                                                  "/b: second place, found second",
                                                  ": too many errors; only the first 3 are listed"}));
}

}  // namespace
}  // namespace stepslide::strict_json
