// JUnit XML for CI (Jenkins, GitLab): one test suite, one case per scenario.
#pragma once

#include <string>
#include <vector>

namespace stepslide {

struct JUnitCase {
  std::string name;
  std::string classname;
  double time_seconds = 0.0;
  bool failed = false;
  bool skipped = false;         ///< ignored when `failed` is set
  std::string failure_message;  ///< one line, shown in CI summaries
  std::string failure_text;     ///< the full report, shown on the case's page
};

/// A complete UTF-8 XML document: <testsuites> holding one <testsuite>.
/// Any text is accepted: markup is escaped, characters XML 1.0 forbids are
/// dropped and invalid UTF-8 becomes U+FFFD. Times are written with three
/// decimals, independent of the locale.
std::string junit_xml(const std::string& suite_name, const std::vector<JUnitCase>& cases);

}  // namespace stepslide
