#include "gate/plot/top_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/xml.h"
#include "gate/plot/axes.h"
#include "gate/plot/marks.h"
#include "gate/plot/style.h"

namespace stepslide::plot {

namespace {

/// Labels need this much room inside a body, in pixels.
constexpr double kMinLabelledWidth = 36;

std::vector<P2> to_pixels(const Panel& panel, const std::vector<P2>& outline) {
  std::vector<P2> px;
  for (const P2& p : outline) px.push_back(panel.to_px(p.x, p.y));
  return px;
}

/// The centre of the box around `parts`, in the plane.
P2 centre_of(const std::vector<Part>& parts) {
  Box box;
  for (const Part& part : parts) {
    for (const P2& p : part.outline) box.add(p.x, p.y);
  }
  return box.empty() ? P2{} : P2{(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2};
}

/// An arrow from the centre of a moving body's first pose to its last, when
/// it is long enough to see.
void draw_motion(Svg& svg, const Panel& panel, const BodyDrawing& body) {
  const P2 a = panel.to_px(centre_of(body.start).x, centre_of(body.start).y);
  const P2 b = panel.to_px(centre_of(body.end).x, centre_of(body.end).y);
  if (std::hypot(b.x - a.x, b.y - a.y) <= 4) return;  // too short to see
  svg.out += "<line class=\"motion\"" + xml_attribute("x1", fixed(a.x)) + xml_attribute("y1", fixed(a.y)) + xml_attribute("x2", fixed(b.x)) +
             xml_attribute("y2", fixed(b.y)) + xml_attribute("stroke", kBodyStroke) + " stroke-width=\"1.2\"" +
             xml_attribute("marker-end", "url(#" + svg.id("arrow") + ")") + "/>\n";
}

/// A cut mesh's parts: its extent dashed, what is overhead faint, its floors
/// shaded by height (each outlined in its own colour, so that a floor reads
/// as one surface rather than as its triangles) and its walls as lines.
void draw_cut_body(Svg& svg, const Panel& panel, const BodyDrawing& body, double lo, double hi) {
  svg.out += "<polygon class=\"extent\"" + xml_attribute("points", points_attr(to_pixels(panel, body.extent))) +
             " fill=\"none\"" + xml_attribute("stroke", kBodyStroke) +
             " stroke-width=\"0.8\" stroke-opacity=\"0.6\" stroke-dasharray=\"6 4\"/>\n";
  for (const Part& part : body.end) {
    const std::string points = xml_attribute("points", points_attr(to_pixels(panel, part.outline)));
    if (part.overhead) {
      svg.out += "<polygon class=\"overhead\"" + points + xml_attribute("fill", kOverheadColour) +
                 " fill-opacity=\"0.55\"/>\n";
      continue;
    }
    const std::string colour = height_colour(part.top, lo, hi);
    svg.out += std::string("<polygon class=\"") + (body.moving ? "pose-end" : "floor") + "\"" + points +
               xml_attribute("fill", colour) + xml_attribute("stroke", colour) +
               " stroke-width=\"0.6\" stroke-linejoin=\"round\"/>\n";
  }
  if (body.walls.empty()) return;
  std::string d;
  for (const Segment& wall : body.walls) {
    const P2 a = panel.to_px(wall.a.x, wall.a.y), b = panel.to_px(wall.b.x, wall.b.y);
    d += (d.empty() ? "M" : " M") + fixed(a.x) + " " + fixed(a.y) + " L" + fixed(b.x) + " " + fixed(b.y);
  }
  svg.out += "<path class=\"wall\"" + xml_attribute("d", d) + " fill=\"none\"" + xml_attribute("stroke", kWallColour) +
             " stroke-width=\"1.8\" stroke-linecap=\"round\"/>\n";
}

/// One <g class="body">: its parts shaded by height; a moving body also
/// dashed at tick 0 with an arrow to where it ends.
void draw_body(Svg& svg, const Panel& panel, const BodyDrawing& body, double lo, double hi) {
  svg.out += "<g class=\"body\"" + xml_attribute("data-body", body.name) + ">\n";
  svg.out += "<title>" + xml_escape_text(body.name + (body.moving ? " (moving: dashed at tick 0, solid at the end)" : "")) +
             "</title>\n";
  for (const std::vector<Part>& sample : body.samples) {
    for (const Part& part : sample) {
      svg.out += "<polygon class=\"pose-sample\"" + xml_attribute("points", points_attr(to_pixels(panel, part.outline))) +
                 " fill=\"none\"" + xml_attribute("stroke", kBodyStroke) + " stroke-opacity=\"0.45\" stroke-width=\"0.8\"/>\n";
    }
  }
  if (body.moving) {
    for (const Part& part : body.start) {
      svg.out += "<polygon class=\"pose-start\"" + xml_attribute("points", points_attr(to_pixels(panel, part.outline))) +
                 " fill=\"none\"" + xml_attribute("stroke", kBodyStroke) + " stroke-width=\"1\" stroke-dasharray=\"4 3\"/>\n";
    }
  }
  if (body.cut) {
    draw_cut_body(svg, panel, body, lo, hi);
    if (body.moving) draw_motion(svg, panel, body);
    svg.out += "</g>\n";
    return;
  }
  for (const Part& part : body.end) {
    svg.out += std::string("<polygon class=\"") + (body.moving ? "pose-end" : "part") + "\"" +
               xml_attribute("points", points_attr(to_pixels(panel, part.outline))) +
               xml_attribute("fill", height_colour(part.top, lo, hi)) + " fill-opacity=\"0.8\"" + xml_attribute("stroke", kBodyStroke) +
               " stroke-width=\"0.7\" stroke-linejoin=\"round\"/>\n";
  }
  if (body.moving) draw_motion(svg, panel, body);
  svg.out += "</g>\n";
}

/// The body's name, when it is wide enough on screen and does not cover the
/// whole view (a floor).
void draw_body_label(Svg& svg, const Panel& panel, const BodyDrawing& body) {
  Box px;
  for (const Part& part : body.end) {
    for (const P2& p : to_pixels(panel, part.outline)) px.add(p.x, p.y);
  }
  const bool covers_view = px.x0 <= panel.left && px.x1 >= panel.left + panel.width && px.y0 <= panel.top &&
                           px.y1 >= panel.top + panel.height;
  if (px.empty() || covers_view || px.width() < kMinLabelledWidth) return;
  // Inside the body's upper-left corner, where the path seldom runs.
  const double x = std::clamp(px.x0, panel.left, panel.left + panel.width - 40) + 4;
  const double y = std::clamp(px.y0, panel.top, panel.top + panel.height - 16) + 13;
  svg.out += text_element(x, y, clip_text(body.name, 24),
                          xml_attribute("class", "body-label") + xml_attribute("font-size", "10") + xml_attribute("text-anchor", "start") +
                              xml_attribute("fill", "#4e4334") + xml_attribute("stroke", "#fff") + " stroke-width=\"2.5\"" +
                              xml_attribute("paint-order", "stroke"));
}

TracePixels plane_pixels(const Panel& panel, const std::vector<TraceData>& traces) {
  TracePixels px;
  for (const TraceData& t : traces) px.push_back(to_pixels(panel, t.plane));
  return px;
}

}  // namespace

Box top_view_box(const std::vector<TraceData>& traces) {
  Box box;
  for (const TraceData& t : traces) {
    for (std::size_t i = 0; i < t.plane.size(); ++i) {
      if (t.valid[i]) box.add(t.plane[i].x, t.plane[i].y);
    }
  }
  box = padded(box, 0.15, 1.0, 3.0);
  constexpr double kMaxAspect = 1.4;
  if (box.width() * kMaxAspect < box.height()) {
    const double grow = (box.height() / kMaxAspect - box.width()) / 2;
    box.x0 -= grow;
    box.x1 += grow;
  } else if (box.height() * kMaxAspect < box.width()) {
    const double grow = (box.width() / kMaxAspect - box.height()) / 2;
    box.y0 -= grow;
    box.y1 += grow;
  }
  return box;
}

std::string height_colour(double top, double lo, double hi) {
  const double u = hi - lo > 1e-9 ? std::clamp((top - lo) / (hi - lo), 0.0, 1.0) : 0.5;
  const double low[3] = {238, 233, 222}, high[3] = {128, 110, 88};
  char text[8];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", static_cast<unsigned>(std::lround(low[0] + u * (high[0] - low[0]))),
                static_cast<unsigned>(std::lround(low[1] + u * (high[1] - low[1]))),
                static_cast<unsigned>(std::lround(low[2] + u * (high[2] - low[2]))));
  return text;
}

void draw_top_view(Svg& svg, const Panel& panel, const Frame& f, const std::vector<BodyDrawing>& bodies,
                   const std::vector<TraceData>& traces, const std::optional<Divergence>& divergence,
                   const std::vector<StillStretch>& still, std::int64_t interval, double lo, double hi,
                   const std::vector<FailureMark>& failures) {
  svg.out += "<g class=\"top-view\">\n";
  svg.out += text_element(panel.left, panel.top - 10, "Top view (seen from above)",
                          xml_attribute("font-size", "14") + xml_attribute("font-weight", "bold") + xml_attribute("fill", kTextColour));
  svg.out += "<rect" + xml_attribute("x", fixed(panel.left)) + xml_attribute("y", fixed(panel.top)) + xml_attribute("width", fixed(panel.width)) +
             xml_attribute("height", fixed(panel.height)) + " fill=\"#fbfbf8\"/>\n";
  draw_grid(svg, panel, (f.right_name.empty() ? "right" : f.right_name) + " (m)",
            (f.down_name.empty() ? "down" : f.down_name) + " (m)");
  open_clip(svg, panel, "top-clip");
  for (const BodyDrawing& body : bodies) draw_body(svg, panel, body, lo, hi);
  // Labels after every body, so no outline covers a name.
  for (const BodyDrawing& body : bodies) draw_body_label(svg, panel, body);
  const TracePixels px = plane_pixels(panel, traces);
  draw_traces(svg, traces, px, interval);
  draw_still_marks(svg, traces.front(), px.front(), still);
  if (divergence) draw_divergence(svg, traces, *divergence, px);
  draw_failure_marks(svg, traces.front(), px.front(), failures);
  svg.out += "</g>\n";
  draw_frame(svg, panel);
  svg.out += "</g>\n";
}

}  // namespace stepslide::plot
