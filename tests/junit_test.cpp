// JUnit XML: structure, counts, escaping, and well-formedness checked by a
// small strict XML reader (and by Python's parser when it is installed).

#include "gate/junit.h"
#include "base/xml.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace stepslide {
namespace {

// ---------------------------------------------------------------------------
// A strict reader for the XML subset junit_xml writes: prolog, elements,
// attributes in double quotes, text, the five named entities and numeric
// character references. Anything else is an error.

struct Element {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::string text;
  std::vector<std::unique_ptr<Element>> children;

  const Element* child(const std::string& child_name, std::size_t nth = 0) const {
    for (const auto& c : children) {
      if (c->name == child_name && nth-- == 0) return c.get();
    }
    return nullptr;
  }
};

class XmlReader {
 public:
  explicit XmlReader(const std::string& xml) : s_(xml) {}

  /// The root element, or nullptr with `error()` set.
  std::unique_ptr<Element> read() {
    const std::string prolog = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";
    if (s_.compare(0, prolog.size(), prolog) != 0) return fail("missing prolog");
    i_ = prolog.size();
    if (!valid_characters()) return nullptr;
    skip_space();
    std::unique_ptr<Element> root = element();
    if (!root) return nullptr;
    skip_space();
    if (i_ != s_.size()) return fail("content after the root element");
    return root;
  }

  const std::string& error() const { return error_; }

 private:
  bool reject(const std::string& what) {
    if (error_.empty()) error_ = what + " at byte " + std::to_string(i_);
    return false;
  }
  std::nullptr_t fail(const std::string& what) {
    reject(what);
    return nullptr;
  }

  /// Valid UTF-8, and only characters XML 1.0 allows.
  bool valid_characters() {
    for (std::size_t k = 0; k < s_.size(); ++k) {
      const auto c = static_cast<unsigned char>(s_[k]);
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return reject("control character");
      if (c < 0x80) continue;
      std::size_t extra = (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : 99;
      if (extra == 99 || k + extra >= s_.size() || c == 0xC0 || c == 0xC1) return reject("bad UTF-8");
      for (std::size_t j = 1; j <= extra; ++j) {
        if ((static_cast<unsigned char>(s_[k + j]) & 0xC0) != 0x80) return reject("bad UTF-8");
      }
      k += extra;
    }
    return true;
  }

  static bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == ':' || c == '.';
  }

  void skip_space() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }

  std::string name() {
    const std::size_t start = i_;
    while (i_ < s_.size() && name_char(s_[i_])) ++i_;
    return s_.substr(start, i_ - start);
  }

  /// Reads "&...;" at i_ and appends what it stands for.
  bool reference(std::string* out) {
    const std::size_t end = s_.find(';', i_);
    if (end == std::string::npos || end - i_ > 10) return reject("unterminated reference");
    const std::string ref = s_.substr(i_ + 1, end - i_ - 1);
    static const std::map<std::string, char> named = {
        {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
    if (named.count(ref)) {
      *out += named.at(ref);
    } else if (ref.size() > 1 && ref[0] == '#' && ref.find_first_not_of("0123456789", 1) == std::string::npos) {
      const long code = std::strtol(ref.c_str() + 1, nullptr, 10);
      if (code != 9 && code != 10 && code != 13 && (code < 0x20 || code > 0x7E)) return reject("bad char ref");
      *out += static_cast<char>(code);
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
      if (s_[i_] == '<') return reject("'<' in attribute");
      if (s_[i_] == '&') {
        if (!reference(out)) return false;
        continue;
      }
      // A literal tab or newline would be normalised to a space by parsers.
      if (s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r') return reject("raw whitespace in attribute");
      *out += s_[i_++];
    }
    if (i_ >= s_.size()) return reject("unterminated attribute");
    ++i_;
    return true;
  }

  bool attributes(Element* e) {
    while (true) {
      skip_space();
      if (i_ >= s_.size()) return reject("unterminated tag");
      if (s_[i_] == '>' || s_[i_] == '/') return true;
      const std::string key = name();
      if (key.empty()) return reject("expected an attribute name");
      if (e->attributes.count(key)) return reject("duplicate attribute " + key);
      if (i_ >= s_.size() || s_[i_] != '=') return reject("expected '='");
      ++i_;
      if (!attribute_value(&e->attributes[key])) return false;
    }
  }

  std::unique_ptr<Element> element() {
    if (i_ >= s_.size() || s_[i_] != '<') return fail("expected '<'");
    ++i_;
    auto e = std::make_unique<Element>();
    e->name = name();
    if (e->name.empty()) return fail("expected an element name");
    if (!attributes(e.get())) return nullptr;
    if (s_.compare(i_, 2, "/>") == 0) {
      i_ += 2;
      return e;
    }
    ++i_;  // '>'
    return content(std::move(e));
  }

  std::unique_ptr<Element> content(std::unique_ptr<Element> e) {
    while (i_ < s_.size()) {
      if (s_.compare(i_, 2, "</") == 0) {
        i_ += 2;
        if (name() != e->name) return fail("mismatched end tag for " + e->name);
        if (i_ >= s_.size() || s_[i_] != '>') return fail("expected '>'");
        ++i_;
        return e;
      }
      if (s_[i_] == '<') {
        std::unique_ptr<Element> c = element();
        if (!c) return nullptr;
        e->children.push_back(std::move(c));
      } else if (s_[i_] == '&') {
        if (!reference(&e->text)) return nullptr;
      } else {
        e->text += s_[i_++];
      }
    }
    return fail("unterminated element " + e->name);
  }

  const std::string& s_;
  std::size_t i_ = 0;
  std::string error_;
};

std::unique_ptr<Element> parse_or_fail(const std::string& xml) {
  XmlReader reader(xml);
  std::unique_ptr<Element> root = reader.read();
  EXPECT_TRUE(root) << reader.error() << "\n" << xml;
  return root;
}

std::vector<JUnitCase> sample_cases() {
  JUnitCase pass{"stairs/up_straight", "scenarios.stairs", 0.0125, false, false, "", ""};
  JUnitCase fail{"slopes/too_steep",
                 "scenarios.slopes",
                 1.5,
                 true,
                 false,
                 "first divergence at tick 212, column y",
                 "first divergence at tick 212, column y: expected 0.2, got 0.2031\n  ^~~~\n"};
  JUnitCase skip{"wip/ledge", "scenarios.wip", 0.0, false, true, "", ""};
  return {pass, fail, skip};
}

TEST(JUnit, DocumentStructureAndCounts) {
  const std::string xml = junit_xml("stepslide", sample_cases());
  std::unique_ptr<Element> root = parse_or_fail(xml);
  ASSERT_TRUE(root);
  EXPECT_EQ(root->name, "testsuites");
  EXPECT_EQ(root->attributes["tests"], "3");
  EXPECT_EQ(root->attributes["failures"], "1");
  EXPECT_EQ(root->attributes["errors"], "0");
  EXPECT_EQ(root->attributes["skipped"], "1");

  const Element* suite = root->child("testsuite");
  ASSERT_NE(suite, nullptr);
  EXPECT_EQ(suite->attributes.at("name"), "stepslide");
  EXPECT_EQ(suite->attributes.at("tests"), "3");
  EXPECT_EQ(suite->attributes.at("failures"), "1");
  EXPECT_EQ(suite->attributes.at("skipped"), "1");
  EXPECT_EQ(suite->attributes.at("errors"), "0");
  EXPECT_EQ(suite->attributes.at("time"), "1.512");

  const Element* pass = suite->child("testcase", 0);
  const Element* fail = suite->child("testcase", 1);
  const Element* skip = suite->child("testcase", 2);
  ASSERT_TRUE(pass && fail && skip);
  EXPECT_EQ(pass->attributes.at("name"), "stairs/up_straight");
  EXPECT_EQ(pass->attributes.at("classname"), "scenarios.stairs");
  EXPECT_EQ(pass->attributes.at("time"), "0.013");  // 0.0125 is just above .0125 in binary
  EXPECT_TRUE(pass->children.empty());

  const Element* failure = fail->child("failure");
  ASSERT_NE(failure, nullptr);
  EXPECT_EQ(failure->attributes.at("message"), "first divergence at tick 212, column y");
  EXPECT_EQ(failure->text, "first divergence at tick 212, column y: expected 0.2, got 0.2031\n  ^~~~\n");
  EXPECT_EQ(fail->attributes.at("time"), "1.500");

  EXPECT_NE(skip->child("skipped"), nullptr);
  EXPECT_EQ(skip->child("failure"), nullptr);
}

TEST(JUnit, EscapesMarkupAndDropsControlCharacters) {
  JUnitCase c{"a<b>&\"c'", "k&<", 0.0, true, false, "bad <&\"> value\x01 here\x1b[0m", "text <&\"'>\x07 end\r\n"};
  const std::string xml = junit_xml("suite \"&<>'", {c});
  EXPECT_EQ(xml.find('\x01'), std::string::npos);
  EXPECT_EQ(xml.find('\x07'), std::string::npos);
  EXPECT_EQ(xml.find('\x1b'), std::string::npos);
  EXPECT_NE(xml.find("message=\"bad &lt;&amp;&quot;&gt; value here[0m\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("name=\"a&lt;b&gt;&amp;&quot;c&apos;\""), std::string::npos) << xml;
  EXPECT_NE(xml.find(">text &lt;&amp;&quot;&apos;&gt; end&#13;\n</failure>"), std::string::npos) << xml;

  std::unique_ptr<Element> root = parse_or_fail(xml);
  ASSERT_TRUE(root);
  EXPECT_EQ(root->attributes["name"], "suite \"&<>'");
  const Element* testcase = root->child("testsuite")->child("testcase");
  EXPECT_EQ(testcase->attributes.at("name"), "a<b>&\"c'");
  EXPECT_EQ(testcase->attributes.at("classname"), "k&<");
  EXPECT_EQ(testcase->child("failure")->attributes.at("message"), "bad <&\"> value here[0m");
  EXPECT_EQ(testcase->child("failure")->text, "text <&\"'> end\r\n");
}

TEST(JUnit, LineBreaksInAttributesSurvive) {
  EXPECT_EQ(xml_escape_attribute("a\nb\tc\rd"), "a&#10;b&#9;c&#13;d");
  EXPECT_EQ(xml_escape_text("a\nb\tc\rd"), "a\nb\tc&#13;d");
  JUnitCase c{"n", "k", 0, true, false, "two\nlines", ""};
  std::unique_ptr<Element> root = parse_or_fail(junit_xml("s", {c}));
  ASSERT_TRUE(root);
  EXPECT_EQ(root->child("testsuite")->child("testcase")->child("failure")->attributes.at("message"), "two\nlines");
}

TEST(JUnit, Utf8IsKeptAndInvalidBytesBecomeReplacementCharacters) {
  const std::string ok = "caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80";  // café → 😀
  EXPECT_EQ(xml_escape_text(ok), ok);
  const std::string replacement = "\xEF\xBF\xBD";
  EXPECT_EQ(xml_escape_text("a\xFF"
                            "b"),
            "a" + replacement + "b");
  EXPECT_EQ(xml_escape_text("\xC3"), replacement);                                      // truncated sequence
  EXPECT_EQ(xml_escape_text("\xC0\xAF"), replacement + replacement);                    // overlong '/'
  EXPECT_EQ(xml_escape_text("\xED\xA0\x80"), replacement + replacement + replacement);  // surrogate
  EXPECT_EQ(xml_escape_text("\xEF\xBF\xBF"), "");  // U+FFFF is not an XML character
  EXPECT_EQ(xml_escape_text(std::string("a\0b", 3)), "ab");

  JUnitCase c{"bad \xFF\xFE name", "k", 0, true, false, "\x80", std::string("\0\xC3", 2)};
  parse_or_fail(junit_xml("s", {c}));
}

TEST(JUnit, TimesAreFixedThreeDecimalsAndNeverNegative) {
  std::vector<JUnitCase> cases(4);
  cases[0].time_seconds = 12345.6789;
  cases[1].time_seconds = -1.0;
  cases[2].time_seconds = std::numeric_limits<double>::quiet_NaN();
  cases[3].time_seconds = 0.0004;
  const std::string xml = junit_xml("s", cases);
  EXPECT_NE(xml.find("time=\"12345.679\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("time=\"0.000\""), std::string::npos) << xml;
  EXPECT_EQ(xml.find("time=\"-"), std::string::npos) << xml;
  EXPECT_EQ(xml.find("nan"), std::string::npos) << xml;
  parse_or_fail(xml);
}

TEST(JUnit, EmptySuiteIsValid) {
  const std::string xml = junit_xml("empty", {});
  std::unique_ptr<Element> root = parse_or_fail(xml);
  ASSERT_TRUE(root);
  EXPECT_EQ(root->attributes["tests"], "0");
  EXPECT_NE(root->child("testsuite"), nullptr);
}

TEST(JUnit, FailedWinsOverSkipped) {
  JUnitCase c{"n", "k", 0, true, true, "m", "t"};
  std::unique_ptr<Element> root = parse_or_fail(junit_xml("s", {c}));
  ASSERT_TRUE(root);
  EXPECT_EQ(root->attributes["failures"], "1");
  EXPECT_EQ(root->attributes["skipped"], "0");
  EXPECT_EQ(root->child("testsuite")->child("testcase")->child("skipped"), nullptr);
}

TEST(JUnit, OutputIsDeterministic) { EXPECT_EQ(junit_xml("s", sample_cases()), junit_xml("s", sample_cases())); }

TEST(JUnit, PythonXmlParserAcceptsTheDocument) {
  if (std::system("python3 -c pass >/dev/null 2>&1") != 0) GTEST_SKIP() << "python3 not available";
  JUnitCase nasty{"a<b>&\"c'", "k", 0.5, true, false, "bad <&\"> \x01\xFF value", "line1\nline2\r\n\x02 <end>"};
  std::vector<JUnitCase> cases = sample_cases();
  cases.push_back(nasty);

  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::string stem = "stepslide_junit_" + std::to_string(::getpid());
  const std::filesystem::path xml_file = dir / (stem + ".xml");
  const std::filesystem::path script_file = dir / (stem + ".py");
  std::ofstream(xml_file, std::ios::binary) << junit_xml("stepslide <&>", cases);
  std::ofstream(script_file) << R"py(import sys, xml.dom.minidom as m
d = m.parse(sys.argv[1])
assert d.documentElement.getAttribute('name') == 'stepslide <&>'
assert len(d.getElementsByTagName('testcase')) == 4
f = d.getElementsByTagName('failure')
message = f[1].getAttribute('message')
assert message == 'bad <&"> \ufffd value', repr(message)
)py";
  const std::string command = "python3 " + script_file.string() + " " + xml_file.string();
  const int rc = std::system(command.c_str());
  std::filesystem::remove(xml_file);
  std::filesystem::remove(script_file);
  EXPECT_EQ(rc, 0) << command;
}

}  // namespace
}  // namespace stepslide
