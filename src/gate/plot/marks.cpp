#include "gate/plot/marks.h"

#include <algorithm>
#include <cmath>

#include "base/format.h"
#include "base/xml.h"
#include "gate/plot/axes.h"
#include "gate/plot/style.h"

namespace stepslide::plot {

namespace {

/// Points closer than this on screen are merged: long runs stay small files.
constexpr double kMinPixelStep = 0.5;
/// Tick labels closer than this to one already drawn are left out.
constexpr double kMinLabelGap = 26;

/// A polyline through rows [first, last] of a trace as SVG path data, breaking
/// at invalid rows and merging points closer than kMinPixelStep.
std::string path_data(const TraceData& t, std::size_t first, std::size_t last, const std::vector<P2>& px) {
  std::string d;
  bool pen_down = false;
  P2 previous{};
  for (std::size_t i = first; i <= last && i < t.valid.size(); ++i) {
    if (!t.valid[i]) {
      pen_down = false;
      continue;
    }
    const P2 p = px[i];
    const bool is_last = i == last || i + 1 == t.valid.size();
    if (pen_down && !is_last && std::fabs(p.x - previous.x) < kMinPixelStep && std::fabs(p.y - previous.y) < kMinPixelStep) {
      continue;
    }
    d += (d.empty() ? "M" : pen_down ? " L" : " M") + fixed(p.x) + " " + fixed(p.y);
    pen_down = true;
    previous = p;
  }
  return d.empty() ? "M0 0" : d;
}

/// A circle on every `interval`-th tick, labelled with the tick where the
/// labels do not crowd each other.
void draw_tick_marks(Svg& svg, const TraceData& t, const std::vector<P2>& px, const char* colour,
                     std::int64_t interval) {
  std::vector<P2> labelled;
  for (std::size_t i = 0; i < t.valid.size(); ++i) {
    if (!t.valid[i] || std::fmod(t.tick[i], static_cast<double>(interval)) != 0.0) continue;
    const P2 p = px[i];
    svg.out += "<circle class=\"tick-mark\"" + xml_attribute("cx", fixed(p.x)) + xml_attribute("cy", fixed(p.y)) +
               " r=\"2.6\" fill=\"#fff\"" + xml_attribute("stroke", colour) + " stroke-width=\"1.2\"/>\n";
    const bool crowded = std::any_of(labelled.begin(), labelled.end(),
                                     [&](const P2& q) { return std::hypot(q.x - p.x, q.y - p.y) < kMinLabelGap; });
    if (crowded) continue;
    labelled.push_back(p);
    svg.out += text_element(p.x + 5, p.y - 5, fixed(t.tick[i], 0),
                            xml_attribute("class", "tick-label") + xml_attribute("font-size", "9") + xml_attribute("fill", "#37474f") +
                                xml_attribute("stroke", "#fff") + " stroke-width=\"2\"" + xml_attribute("paint-order", "stroke"));
  }
}

/// One marker per step, where it starts; its title says how far and when.
void draw_steps(Svg& svg, const TraceData& t, const std::vector<P2>& px, const char* colour) {
  for (const TraceData::Step& step : t.steps) {
    const std::string ticks = step.first == step.last ? "tick " + fixed(t.tick[step.first], 0)
                                                      : "ticks " + fixed(t.tick[step.first], 0) + "-" +
                                                            fixed(t.tick[step.last], 0);
    svg.out += step_marker(px[step.first], step.total > 0, colour,
                           std::string(step.total > 0 ? "step up " : "step down ") +
                               readable_number(std::fabs(step.total)) + " m, " + ticks);
  }
}

/// A dot where the run starts and a square where it ends.
void draw_start_and_end(Svg& svg, const TraceData& t, const std::vector<P2>& px, const char* colour) {
  const std::size_t last = t.valid.size() - 1;
  if (t.valid[0]) {
    const P2 s = px[0];
    svg.out += "<circle class=\"start\"" + xml_attribute("cx", fixed(s.x)) + xml_attribute("cy", fixed(s.y)) + " r=\"4.5\"" +
               xml_attribute("fill", colour) + " stroke=\"#fff\" stroke-width=\"1.2\"/>\n";
  }
  if (t.valid[last]) {
    const P2 e = px[last];
    svg.out += "<rect class=\"end\"" + xml_attribute("x", fixed(e.x - 4)) + xml_attribute("y", fixed(e.y - 4)) +
               " width=\"8\" height=\"8\"" + xml_attribute("fill", colour) + " stroke=\"#fff\" stroke-width=\"1.2\"/>\n";
  }
}

/// Trace `index` in one view: one <path class="trajectory">, its airborne
/// stretches dashed and its steps marked; the judged run (index 0) also gets
/// tick marks, start and end. A reference is drawn wide and pale beneath it.
void draw_trace(Svg& svg, const TraceData& t, std::size_t index, const std::vector<P2>& px, std::int64_t interval) {
  if (t.valid.empty()) return;
  const char* colour = trace_colour(index);
  const bool reference = index > 0;
  svg.out += "<g class=\"trace\"" + xml_attribute("data-trace", std::to_string(index)) + ">\n";
  svg.out += "<path class=\"trajectory\"" + xml_attribute("data-trace", std::to_string(index)) +
             xml_attribute("d", path_data(t, 0, t.valid.size() - 1, px)) + " fill=\"none\"" + xml_attribute("stroke", colour) +
             (reference ? " stroke-width=\"5\" stroke-opacity=\"0.45\"" : " stroke-width=\"2\"") +
             " stroke-linejoin=\"round\" stroke-linecap=\"round\"/>\n";
  // Airborne: white dashes across the line cut it into dashes.
  for (const auto& [first, end] : airborne_stretches(t)) {
    svg.out += "<path class=\"airborne\"" + xml_attribute("d", path_data(t, first, end, px)) +
               " fill=\"none\" stroke=\"#fff\"" + (reference ? " stroke-width=\"2\"" : " stroke-width=\"3\"") +
               " stroke-dasharray=\"5 4\"/>\n";
  }
  if (!reference) draw_tick_marks(svg, t, px, colour, interval);
  draw_steps(svg, t, px, colour);
  if (!reference) draw_start_and_end(svg, t, px, colour);
  svg.out += "</g>\n";
}

}  // namespace

std::int64_t tick_interval(std::int64_t ticks) {
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(nice_step(static_cast<double>(ticks) / 12.0)));
}

std::string step_marker(const P2& p, bool up, const char* trace_colour, const std::string& title) {
  const double s = 5;
  const std::vector<P2> tri = up ? std::vector<P2>{{p.x, p.y - s}, {p.x - s, p.y + s * 0.7}, {p.x + s, p.y + s * 0.7}}
                                 : std::vector<P2>{{p.x, p.y + s}, {p.x - s, p.y - s * 0.7}, {p.x + s, p.y - s * 0.7}};
  return std::string("<polygon class=\"") + (up ? "step-up" : "step-down") + "\"" + xml_attribute("points", points_attr(tri)) +
         xml_attribute("fill", up ? kStepUpColour : kStepDownColour) + xml_attribute("stroke", trace_colour) + " stroke-width=\"0.6\"" +
         (title.empty() ? "/>\n" : "><title>" + xml_escape_text(title) + "</title></polygon>\n");
}

void draw_traces(Svg& svg, const std::vector<TraceData>& traces, const TracePixels& px, std::int64_t interval) {
  for (std::size_t k = traces.size(); k-- > 0;) draw_trace(svg, traces[k], k, px[k], interval);
}

void draw_still_marks(Svg& svg, const TraceData& run, const std::vector<P2>& px, const std::vector<StillStretch>& still) {
  for (const StillStretch& s : still) {
    if (s.first >= px.size() || !run.valid[s.first]) continue;
    const P2 p = px[s.first];
    const std::string text = std::string(s.pushed ? "stalled " : "still ") +
                             fixed(run.tick[s.last] - run.tick[s.first], 0) + " ticks (" + fixed(run.tick[s.first], 0) +
                             "-" + fixed(run.tick[s.last], 0) + ")";
    const char* colour = s.pushed ? "#b71c1c" : kMutedText;
    svg.out += "<g" + xml_attribute("class", "still-mark") + "><circle" + xml_attribute("cx", fixed(p.x)) +
               xml_attribute("cy", fixed(p.y)) + " r=\"6\" fill=\"none\"" + xml_attribute("stroke", colour) +
               " stroke-width=\"1.5\" stroke-dasharray=\"2 2\"/>" +
               text_element(p.x - 9, p.y + 14, text,
                            xml_attribute("font-size", "10") + xml_attribute("text-anchor", "end") + xml_attribute("fill", colour) +
                                xml_attribute("stroke", "#fff") + " stroke-width=\"2.5\"" + xml_attribute("paint-order", "stroke")) +
               "</g>\n";
  }
}

void draw_divergence(Svg& svg, const std::vector<TraceData>& traces, const Divergence& d, const TracePixels& px) {
  std::vector<P2> at;
  for (std::size_t k = 0; k < traces.size() && k < 2; ++k) {
    if (d.row < traces[k].valid.size() && traces[k].valid[d.row]) at.push_back(px[k][d.row]);
  }
  if (at.empty()) return;
  svg.out += "<g class=\"divergence\">\n<title>" +
             xml_escape_text("first divergence at tick " + readable_number(d.tick) + ", column " + d.column) +
             "</title>\n";
  if (at.size() == 2) {
    svg.out += "<line" + xml_attribute("x1", fixed(at[0].x)) + xml_attribute("y1", fixed(at[0].y)) + xml_attribute("x2", fixed(at[1].x)) +
               xml_attribute("y2", fixed(at[1].y)) + xml_attribute("stroke", kDivergenceColour) + " stroke-width=\"1.5\"/>\n";
  }
  for (const P2& p : at) {
    svg.out += "<circle" + xml_attribute("cx", fixed(p.x)) + xml_attribute("cy", fixed(p.y)) + " r=\"8\" fill=\"none\"" +
               xml_attribute("stroke", kDivergenceColour) + " stroke-width=\"2\"/>\n";
  }
  svg.out += "</g>\n";
}

std::string FailureMark::text() const {
  return label + " " + failure.check + " at tick " + std::to_string(failure.tick) + ": " + failure.message;
}

std::vector<FailureMark> failure_marks(const TraceData& run, const std::vector<ExpectationFailure>& failures) {
  std::vector<FailureMark> marks;
  for (const ExpectationFailure& f : failures) {
    FailureMark mark;
    mark.label = "E" + std::to_string(marks.size() + 1);
    mark.failure = f;
    mark.row = run.tick.size();
    for (std::size_t i = 0; i < run.tick.size(); ++i) {
      if (run.tick[i] == static_cast<double>(f.tick)) {
        mark.row = i;
        break;
      }
    }
    marks.push_back(std::move(mark));
  }
  return marks;
}

void draw_failure_marks(Svg& svg, const TraceData& run, const std::vector<P2>& px,
                        const std::vector<FailureMark>& marks) {
  std::vector<P2> drawn;
  for (const FailureMark& mark : marks) {
    if (mark.row >= run.valid.size() || !run.valid[mark.row]) continue;
    const P2 p = px[mark.row];
    constexpr double r = 6;
    // Labels of marks on one spot (a run that stalls fails several checks
    // there) go one above the other.
    const auto stacked = std::count_if(drawn.begin(), drawn.end(), [&](const P2& q) {
      return std::fabs(q.x - p.x) < 8 && std::fabs(q.y - p.y) < 8;
    });
    drawn.push_back(p);
    svg.out += "<g class=\"expectation-failure\"" + xml_attribute("data-check", mark.failure.check) +
               xml_attribute("data-tick", std::to_string(mark.failure.tick)) + "><title>" +
               xml_escape_text("failed expectation " + mark.text()) + "</title>\n";
    for (const double sign : {1.0, -1.0}) {
      const std::string line = xml_attribute("x1", fixed(p.x - r)) + xml_attribute("y1", fixed(p.y - sign * r)) +
                               xml_attribute("x2", fixed(p.x + r)) + xml_attribute("y2", fixed(p.y + sign * r));
      svg.out += "<line" + line + " stroke=\"#fff\" stroke-width=\"5\" stroke-linecap=\"round\"/>\n";
      svg.out += "<line" + line + xml_attribute("stroke", kFailureColour) +
                 " stroke-width=\"2.4\" stroke-linecap=\"round\"/>\n";
    }
    svg.out += text_element(p.x + r + 3, p.y - r - 13 * static_cast<double>(stacked), mark.label,
                            xml_attribute("font-size", "11") + xml_attribute("font-weight", "bold") +
                                xml_attribute("fill", kFailureColour) + xml_attribute("stroke", "#fff") +
                                " stroke-width=\"3\"" + xml_attribute("paint-order", "stroke"));
    svg.out += "</g>\n";
  }
}

}  // namespace stepslide::plot
