// JUnit XML: structure, counts, times, and well-formedness checked by the
// strict XML reader of the tests (and by Python's parser when it is
// installed). How text is escaped is base/xml's, tested in xml_test.cpp.

#include "gate/core/junit.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

#include "support/xml_check.h"

namespace stepslide {
namespace {

using xml_check::Node;

constexpr const char* kDeclaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

/// The document's root, after checking that it starts with the XML declaration.
std::unique_ptr<Node> parse_or_fail(const std::string& xml) {
  EXPECT_EQ(xml.rfind(kDeclaration, 0), 0u) << "missing XML declaration\n" << xml;
  xml_check::Reader reader(xml);
  std::unique_ptr<Node> root = reader.read();
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
  std::unique_ptr<Node> root = parse_or_fail(xml);
  ASSERT_TRUE(root);
  EXPECT_EQ(root->name, "testsuites");
  EXPECT_EQ(root->attribute("tests"), "3");
  EXPECT_EQ(root->attribute("failures"), "1");
  EXPECT_EQ(root->attribute("errors"), "0");
  EXPECT_EQ(root->attribute("skipped"), "1");

  const Node* suite = root->child("testsuite");
  ASSERT_NE(suite, nullptr);
  EXPECT_EQ(suite->attribute("name"), "stepslide");
  EXPECT_EQ(suite->attribute("tests"), "3");
  EXPECT_EQ(suite->attribute("failures"), "1");
  EXPECT_EQ(suite->attribute("skipped"), "1");
  EXPECT_EQ(suite->attribute("errors"), "0");
  EXPECT_EQ(suite->attribute("time"), "1.512");

  const Node* pass = suite->child("testcase", 0);
  const Node* fail = suite->child("testcase", 1);
  const Node* skip = suite->child("testcase", 2);
  ASSERT_TRUE(pass && fail && skip);
  EXPECT_EQ(pass->attribute("name"), "stairs/up_straight");
  EXPECT_EQ(pass->attribute("classname"), "scenarios.stairs");
  EXPECT_EQ(pass->attribute("time"), "0.013");  // 0.0125 is just above .0125 in binary
  EXPECT_TRUE(pass->children.empty());

  const Node* failure = fail->child("failure");
  ASSERT_NE(failure, nullptr);
  EXPECT_EQ(failure->attribute("message"), "first divergence at tick 212, column y");
  EXPECT_EQ(failure->text, "first divergence at tick 212, column y: expected 0.2, got 0.2031\n  ^~~~\n");
  EXPECT_EQ(fail->attribute("time"), "1.500");

  EXPECT_NE(skip->child("skipped"), nullptr);
  EXPECT_EQ(skip->child("failure"), nullptr);
}

TEST(JUnit, EveryFieldIsEscapedAndReadsBack) {
  JUnitCase c{"a<b>&\"c'", "k&<", 0.0, true, false, "bad <&\"> value\x01 here\x1b[0m", "text <&\"'>\x07 end\r\n"};
  const std::string xml = junit_xml("suite \"&<>'", {c});
  EXPECT_EQ(xml.find('\x01'), std::string::npos);
  EXPECT_EQ(xml.find('\x07'), std::string::npos);
  EXPECT_EQ(xml.find('\x1b'), std::string::npos);
  EXPECT_NE(xml.find("message=\"bad &lt;&amp;&quot;&gt; value here[0m\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("name=\"a&lt;b&gt;&amp;&quot;c&apos;\""), std::string::npos) << xml;
  EXPECT_NE(xml.find(">text &lt;&amp;&quot;&apos;&gt; end&#13;\n</failure>"), std::string::npos) << xml;

  std::unique_ptr<Node> root = parse_or_fail(xml);
  ASSERT_TRUE(root);
  EXPECT_EQ(root->attribute("name"), "suite \"&<>'");
  const Node* testcase = root->child("testsuite")->child("testcase");
  EXPECT_EQ(testcase->attribute("name"), "a<b>&\"c'");
  EXPECT_EQ(testcase->attribute("classname"), "k&<");
  EXPECT_EQ(testcase->child("failure")->attribute("message"), "bad <&\"> value here[0m");
  EXPECT_EQ(testcase->child("failure")->text, "text <&\"'> end\r\n");
}

TEST(JUnit, AMessageWithLineBreaksReadsBackWhole) {
  JUnitCase c{"n", "k", 0, true, false, "two\nlines", ""};
  std::unique_ptr<Node> root = parse_or_fail(junit_xml("s", {c}));
  ASSERT_TRUE(root);
  EXPECT_EQ(root->child("testsuite")->child("testcase")->child("failure")->attribute("message"), "two\nlines");
}

TEST(JUnit, InvalidUtf8StillGivesAWellFormedDocument) {
  JUnitCase c{"bad \xFF\xFE name", "k", 0, true, false, "\x80", std::string("\0\xC3", 2)};
  std::unique_ptr<Node> root = parse_or_fail(junit_xml("s", {c}));
  ASSERT_TRUE(root);
  EXPECT_EQ(root->child("testsuite")->child("testcase")->attribute("name"), "bad \xEF\xBF\xBD\xEF\xBF\xBD name");
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
  std::unique_ptr<Node> root = parse_or_fail(xml);
  ASSERT_TRUE(root);
  EXPECT_EQ(root->attribute("tests"), "0");
  EXPECT_NE(root->child("testsuite"), nullptr);
}

TEST(JUnit, FailedWinsOverSkipped) {
  JUnitCase c{"n", "k", 0, true, true, "m", "t"};
  std::unique_ptr<Node> root = parse_or_fail(junit_xml("s", {c}));
  ASSERT_TRUE(root);
  EXPECT_EQ(root->attribute("failures"), "1");
  EXPECT_EQ(root->attribute("skipped"), "0");
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
