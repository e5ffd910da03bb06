#include "gate/plot/svg_writer.h"

#include <cmath>
#include <cstdio>

#include "base/xml.h"

namespace stepslide::plot {

std::string fixed(double value, int decimals) {
  if (!std::isfinite(value)) return "0";
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  std::string out = text;
  if (out.find('.') != std::string::npos) {
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
  }
  if (out == "-0") out = "0";
  return out;
}

std::string points_attr(const std::vector<P2>& points) {
  std::string text;
  for (const P2& p : points) text += (text.empty() ? "" : " ") + fixed(p.x) + "," + fixed(p.y);
  return text;
}

std::string clip_text(const std::string& text, std::size_t limit) {
  if (text.size() <= limit) return text;
  std::size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "...";
}

std::string text_element(double x, double y, const std::string& text, const std::string& extra) {
  return "<text" + xml_attribute("x", fixed(x)) + xml_attribute("y", fixed(y)) + extra + ">" + xml_escape_text(text) + "</text>\n";
}

}  // namespace stepslide::plot
