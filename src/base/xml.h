// Text for XML and HTML documents (JUnit, SVG, the HTML report). Any input
// is accepted: markup is escaped, characters XML 1.0 forbids are dropped and
// invalid UTF-8 becomes U+FFFD, so the document always parses.
#pragma once

#include <string>

namespace stepslide {

/// `text` escaped for an attribute value (either quote style). Tabs and line
/// breaks become character references, or a parser would turn them into spaces.
std::string xml_escape_attribute(const std::string& text);

/// `text` escaped for element content; tabs and line feeds are kept.
std::string xml_escape_text(const std::string& text);

/// ` name="value"`, the value escaped: one attribute of a start tag.
std::string xml_attribute(const char* name, const std::string& value);

}  // namespace stepslide
