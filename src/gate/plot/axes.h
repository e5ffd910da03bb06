// What frames a panel: its grid with numbered axes and their names, its clip
// region and its border.
#pragma once

#include <string>

#include "gate/plot/geometry.h"
#include "gate/plot/svg_writer.h"

namespace stepslide::plot {

/// 1, 2 or 5 times a power of ten, at least `raw`: a step people read easily.
double nice_step(double raw);

/// Grid lines at round values of both axes, numbered, and the axes' names
/// below and (turned) left of the panel.
void draw_grid(Svg& svg, const Panel& panel, const std::string& x_label, const std::string& y_label);

/// Defines a clip path `name` for the panel and opens a group clipped to it;
/// the caller closes the group.
void open_clip(Svg& svg, const Panel& panel, const std::string& name);

/// The panel's border, drawn last so nothing covers it.
void draw_frame(Svg& svg, const Panel& panel);

}  // namespace stepslide::plot
