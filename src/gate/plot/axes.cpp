#include "gate/plot/axes.h"

#include <algorithm>
#include <cmath>

#include "gate/plot/style.h"

namespace stepslide::plot {

namespace {

/// Decimals that show every multiple of `step` exactly.
int decimals_for(double step) { return std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9))); }

}  // namespace

double nice_step(double raw) {
  if (!(raw > 0) || !std::isfinite(raw)) return 1.0;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * power >= raw * (1 - 1e-9)) return m * power;
  }
  return 10 * power;
}

void draw_grid(Svg& svg, const Panel& panel, const std::string& x_label, const std::string& y_label) {
  // About one line every 70 pixels across and 45 pixels up.
  const double step_x = nice_step(panel.world.width() / (panel.width / 70));
  const double step_y = nice_step(panel.world.height() / (panel.height / 45));
  std::string grid, labels;
  const std::string label_style = xml_attribute("font-size", "11") + xml_attribute("fill", kMutedText);
  for (double v = std::ceil(panel.world.x0 / step_x) * step_x; v <= panel.world.x1 + 1e-9; v += step_x) {
    const double x = panel.to_px(v, panel.world.y0).x;
    grid += "M" + fixed(x) + " " + fixed(panel.top) + " V" + fixed(panel.top + panel.height) + " ";
    labels += text_element(x, panel.top + panel.height + 15, fixed(v, decimals_for(step_x)),
                           label_style + xml_attribute("text-anchor", "middle"));
  }
  for (double v = std::ceil(panel.world.y0 / step_y) * step_y; v <= panel.world.y1 + 1e-9; v += step_y) {
    const double y = panel.to_px(panel.world.x0, v).y;
    grid += "M" + fixed(panel.left) + " " + fixed(y) + " H" + fixed(panel.left + panel.width) + " ";
    labels += text_element(panel.left - 6, y + 4, fixed(v, decimals_for(step_y)),
                           label_style + xml_attribute("text-anchor", "end"));
  }
  svg.out += "<path class=\"grid\"" + xml_attribute("d", grid) + xml_attribute("stroke", kGridColour) + " stroke-width=\"1\" fill=\"none\"/>\n";
  svg.out += "<g class=\"axis-labels\">\n" + labels;
  svg.out += text_element(panel.left + panel.width / 2, panel.top + panel.height + 34, x_label,
                          xml_attribute("font-size", "12") + xml_attribute("text-anchor", "middle") + xml_attribute("fill", kTextColour));
  const double ly = panel.top + panel.height / 2, lx = panel.left - 48;
  svg.out += text_element(lx, ly, y_label,
                          xml_attribute("font-size", "12") + xml_attribute("text-anchor", "middle") + xml_attribute("fill", kTextColour) +
                              xml_attribute("transform", "rotate(-90 " + fixed(lx) + " " + fixed(ly) + ")"));
  svg.out += "</g>\n";
}

void open_clip(Svg& svg, const Panel& panel, const std::string& name) {
  svg.out += "<clipPath" + xml_attribute("id", svg.id(name)) + "><rect" + xml_attribute("x", fixed(panel.left)) +
             xml_attribute("y", fixed(panel.top)) + xml_attribute("width", fixed(panel.width)) + xml_attribute("height", fixed(panel.height)) +
             "/></clipPath>\n";
  svg.out += "<g" + xml_attribute("clip-path", "url(#" + svg.id(name) + ")") + ">\n";
}

void draw_frame(Svg& svg, const Panel& panel) {
  svg.out += "<rect class=\"frame\"" + xml_attribute("x", fixed(panel.left)) + xml_attribute("y", fixed(panel.top)) +
             xml_attribute("width", fixed(panel.width)) + xml_attribute("height", fixed(panel.height)) +
             " fill=\"none\" stroke=\"#444\" stroke-width=\"1\"/>\n";
}

}  // namespace stepslide::plot
