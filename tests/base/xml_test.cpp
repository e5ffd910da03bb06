// base/xml: markup becomes references, characters XML 1.0 forbids are dropped,
// invalid UTF-8 becomes U+FFFD, so any text gives a document that parses and
// reads back as the text (less what had to go).
#include "base/xml.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>

#include "support/xml_check.h"

namespace stepslide {
namespace {

const std::string kReplacement = "\xEF\xBF\xBD";  // U+FFFD

/// `text` as an attribute value and as element content, read back by the strict reader.
struct ReadBack {
  bool ok = false;
  std::string attribute, content, error;
};

ReadBack read_back(const std::string& text) {
  const std::string document = "<a b=\"" + xml_escape_attribute(text) + "\">" + xml_escape_text(text) + "</a>";
  xml_check::Reader reader(document);
  const std::unique_ptr<xml_check::Node> root = reader.read();
  if (!root) return {false, "", "", reader.error()};
  return {true, root->attribute("b"), root->text, ""};
}

TEST(XmlEscape, MarkupBecomesReferences) {
  EXPECT_EQ(xml_escape_text("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
  EXPECT_EQ(xml_escape_attribute("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
  EXPECT_EQ(xml_escape_text("plain text"), "plain text");
}

TEST(XmlEscape, TabsAndLineBreaksAreReferencesInAttributesOnly) {
  // A parser turns a raw tab or line break in an attribute into a space, and
  // drops a raw carriage return anywhere.
  EXPECT_EQ(xml_escape_attribute("a\nb\tc\rd"), "a&#10;b&#9;c&#13;d");
  EXPECT_EQ(xml_escape_text("a\nb\tc\rd"), "a\nb\tc&#13;d");
}

TEST(XmlEscape, ControlCharactersAreDropped) {
  EXPECT_EQ(xml_escape_text("bell\x07 escape\x1b[0m"), "bell escape[0m");
  EXPECT_EQ(xml_escape_attribute("x\x01y"), "xy");
  EXPECT_EQ(xml_escape_text(std::string("a\0b", 3)), "ab");
}

TEST(XmlEscape, Utf8IsKept) {
  const std::string ok = "caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80";  // café → 😀
  EXPECT_EQ(xml_escape_text(ok), ok);
  EXPECT_EQ(xml_escape_attribute(ok), ok);
}

TEST(XmlEscape, InvalidUtf8BecomesReplacementCharacters) {
  EXPECT_EQ(xml_escape_text("a\xFF"
                            "b"),
            "a" + kReplacement + "b");
  EXPECT_EQ(xml_escape_text("\xC3"), kReplacement);                                        // truncated sequence
  EXPECT_EQ(xml_escape_text("\xC0\xAF"), kReplacement + kReplacement);                     // overlong '/'
  EXPECT_EQ(xml_escape_text("\xED\xA0\x80"), kReplacement + kReplacement + kReplacement);  // surrogate
  const std::string four = kReplacement + kReplacement + kReplacement + kReplacement;
  EXPECT_EQ(xml_escape_text("\xF4\x90\x80\x80"), four);  // above U+10FFFF
}

TEST(XmlEscape, NoncharactersAreDropped) {
  EXPECT_EQ(xml_escape_text("a\xEF\xBF\xBE" "b\xEF\xBF\xBF"), "ab");  // U+FFFE, U+FFFF
}

TEST(XmlEscape, ValidTextReadsBackUnchanged) {
  for (const std::string text :
       {"a<b>&\"c'", "two\nlines\tand a tab", "cr\r\nlf", "caf\xC3\xA9 \xF0\x9F\x98\x80", ""}) {
    const ReadBack r = read_back(text);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.attribute, text);
    EXPECT_EQ(r.content, text);
  }
}

TEST(XmlEscape, AnyBytesGiveAWellFormedDocument) {
  std::mt19937 random(20240611);  // fixed: the same bytes on every run
  std::uniform_int_distribution<int> byte(0, 255), length(0, 40);
  for (int i = 0; i < 2000; ++i) {
    std::string text(static_cast<std::size_t>(length(random)), '\0');
    for (char& c : text) c = static_cast<char>(byte(random));
    const ReadBack r = read_back(text);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.attribute, r.content) << "both escapes keep the same characters";
  }
}

TEST(XmlAttribute, IsOneEscapedNameValuePair) {
  EXPECT_EQ(xml_attribute("data-body", "a\"<b>\n"), " data-body=\"a&quot;&lt;b&gt;&#10;\"");
}

}  // namespace
}  // namespace stepslide
