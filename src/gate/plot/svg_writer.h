// Writing SVG text: numbers, attributes, text elements and element ids, so
// every picture formats them the same way. No layout or drawing here.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/xml.h"

namespace stepslide::plot {

/// A point in a plane: the level seen from above (metres) or the page (pixels).
struct P2 {
  double x = 0, y = 0;
};

/// A document being written, with the prefix that keeps its ids unique when
/// several pictures share a page.
struct Svg {
  std::string out;
  std::string id_prefix;
  std::string id(const std::string& name) const { return id_prefix + "-" + name; }
};

/// Fixed-point with at most `decimals` decimals and no trailing zeros: compact
/// and the same on every machine ("C" formatting, no locale). Non-finite
/// values are written as 0, so a coordinate never breaks the document.
std::string fixed(double value, int decimals = 2);


/// "x,y x,y ..." for a polygon's points attribute.
std::string points_attr(const std::vector<P2>& points);

/// Cuts `text` to `limit` bytes plus "...", never inside a UTF-8 sequence.
std::string clip_text(const std::string& text, std::size_t limit);

/// A <text> element at (x, y); `extra` holds its further attributes.
std::string text_element(double x, double y, const std::string& text, const std::string& extra = "");

}  // namespace stepslide::plot
