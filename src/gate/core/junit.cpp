// JUnit XML writer. The de-facto schema: <testsuites> with totals, one
// <testsuite>, <testcase name classname time> with an optional <failure
// message="..."> or <skipped/>. No timestamp or hostname, so the output is
// deterministic.

#include "gate/core/junit.h"

#include <charconv>
#include <cmath>
#include <cstdint>

#include "base/xml.h"

namespace stepslide {

namespace {

/// Seconds with three decimals via to_chars: no locale decimal comma, no
/// negative or NaN times (some CI parsers reject them).
std::string format_seconds(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) seconds = 0;
  char buffer[64];
  const std::to_chars_result result =
      std::to_chars(buffer, buffer + sizeof buffer, seconds, std::chars_format::fixed, 3);
  return std::string(buffer, result.ptr);
}

std::string testcase_xml(const JUnitCase& c) {
  std::string out = "    <testcase" + xml_attribute("name", c.name) + xml_attribute("classname", c.classname) +
                    xml_attribute("time", format_seconds(c.time_seconds));
  if (c.failed) {
    out += ">\n      <failure" + xml_attribute("message", c.failure_message) + xml_attribute("type", "failure") + ">";
    out += xml_escape_text(c.failure_text) + "</failure>\n    </testcase>\n";
  } else if (c.skipped) {
    out += ">\n      <skipped/>\n    </testcase>\n";
  } else {
    out += "/>\n";
  }
  return out;
}

}  // namespace

std::string junit_xml(const std::string& suite_name, const std::vector<JUnitCase>& cases) {
  std::size_t failures = 0;
  std::size_t skipped = 0;
  double total_seconds = 0;
  for (const JUnitCase& c : cases) {
    if (c.failed) {
      ++failures;
    } else if (c.skipped) {
      ++skipped;
    }
    if (std::isfinite(c.time_seconds) && c.time_seconds > 0) total_seconds += c.time_seconds;
  }
  const std::string counts = xml_attribute("tests", std::to_string(cases.size())) +
                             xml_attribute("failures", std::to_string(failures)) + xml_attribute("errors", "0") +
                             xml_attribute("skipped", std::to_string(skipped)) +
                             xml_attribute("time", format_seconds(total_seconds));

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites" + xml_attribute("name", suite_name) + counts + ">\n";
  out += "  <testsuite" + xml_attribute("name", suite_name) + counts + ">\n";
  for (const JUnitCase& c : cases) out += testcase_xml(c);
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace stepslide
