#include "gate/plot/time_view.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "base/format.h"
#include "gate/plot/axes.h"
#include "gate/plot/geometry.h"
#include "gate/plot/marks.h"
#include "gate/plot/style.h"

namespace stepslide::plot {

namespace {

// Layout, in pixels.
constexpr double kTitleHeight = 30;   // the view's title, above the first strip's name
constexpr double kStripGap = 24;      // room for a strip's name above it
constexpr double kHeightStrip = 110;
constexpr double kSpeedStrip = 100;
constexpr double kCameraStrip = 70;
constexpr double kLaneHeight = 11;
constexpr double kLaneGap = 4;
constexpr double kAxisBelow = 40;     // tick numbers and the axis's name below the last strip

constexpr const char* kStripBackground = "#fbfbf8";
constexpr const char* kStillFill = "#e3e7ea";
constexpr const char* kStalledFill = "#f9d6d2";
constexpr const char* kStuckColour = "#b71c1c";

/// The contact strip: a lane per trace for grounded, then one per trace for stuck.
double contact_height(std::size_t trace_count) {
  return static_cast<double>(2 * trace_count) * (kLaneHeight + kLaneGap) + kLaneGap;
}

/// One strip of the view: a panel of tick against a value, and its name.
struct Strip {
  const char* kind;  ///< class suffix and data-strip value
  std::string name;
  Panel panel;
};

/// A series of one trace: one value per row (NaN: no point).
using Series = std::vector<double>;

/// Ticks from the first to the last row of any trace.
std::pair<double, double> tick_range(const std::vector<TraceData>& traces) {
  double lo = kInf, hi = -kInf;
  for (const TraceData& t : traces) {
    for (const double tick : t.tick) {
      if (!std::isfinite(tick)) continue;
      lo = std::min(lo, tick);
      hi = std::max(hi, tick);
    }
  }
  if (!(lo < hi)) return {std::isfinite(lo) ? lo - 1 : 0.0, std::isfinite(lo) ? lo + 1 : 1.0};
  return {lo, hi};
}

/// The value range of `series` over every trace, padded, at least `min_size`
/// high; with `from_zero` it starts at 0 (speeds).
Box value_box(const std::pair<double, double>& ticks, const std::vector<Series>& series, double min_size,
              bool from_zero) {
  double lo = from_zero ? 0.0 : kInf, hi = from_zero ? 0.0 : -kInf;
  for (const Series& s : series) {
    for (const double v : s) {
      if (!std::isfinite(v)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (!(lo <= hi)) lo = hi = 0.0;
  const double pad = std::max(0.06 * (hi - lo), min_size * 0.04);
  hi += pad;
  if (!from_zero) lo -= pad;
  if (hi - lo < min_size) {
    const double grow = min_size - (hi - lo);
    if (from_zero) {
      hi += grow;
    } else {
      lo -= grow / 2;
      hi += grow / 2;
    }
  }
  return Box{ticks.first, lo, ticks.second, hi};
}

/// Decimals that show every multiple of `step` exactly.
int decimals_for(double step) { return std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9))); }

/// Vertical lines at round ticks (numbered under the last strip only) and
/// horizontal lines at round values, numbered on the left.
void draw_strip_grid(Svg& svg, const Panel& panel, double tick_step, bool numbered_values, bool numbered_ticks) {
  std::string grid, labels;
  const std::string label_style = xml_attribute("font-size", "10") + xml_attribute("fill", kMutedText);
  for (double v = std::ceil(panel.world.x0 / tick_step) * tick_step; v <= panel.world.x1 + 1e-9; v += tick_step) {
    const double x = panel.to_px(v, panel.world.y0).x;
    grid += "M" + fixed(x) + " " + fixed(panel.top) + " V" + fixed(panel.top + panel.height) + " ";
    if (numbered_ticks) {
      labels += text_element(x, panel.top + panel.height + 14, fixed(v, 0), label_style + xml_attribute("text-anchor", "middle"));
    }
  }
  if (numbered_values) {
    const double step = nice_step(panel.world.height() / std::max(1.0, panel.height / 28));
    for (double v = std::ceil(panel.world.y0 / step) * step; v <= panel.world.y1 + 1e-9; v += step) {
      const double y = panel.to_px(panel.world.x0, v).y;
      grid += "M" + fixed(panel.left) + " " + fixed(y) + " H" + fixed(panel.left + panel.width) + " ";
      labels += text_element(panel.left - 6, y + 3.5, fixed(std::fabs(v) < step * 1e-6 ? 0.0 : v, decimals_for(step)),
                             label_style + xml_attribute("text-anchor", "end"));
    }
  }
  svg.out += "<path class=\"grid\"" + xml_attribute("d", grid) + xml_attribute("stroke", kGridColour) +
             " stroke-width=\"1\" fill=\"none\"/>\n";
  if (!labels.empty()) svg.out += "<g class=\"axis-labels\">\n" + labels + "</g>\n";
}

/// The points of one pixel column worth drawing, in order: the first, the
/// lowest, the highest and the last (duplicates dropped).
std::vector<P2> column_extremes(const std::vector<P2>& column) {
  std::size_t lo = 0, hi = 0;
  for (std::size_t i = 1; i < column.size(); ++i) {
    if (column[i].y < column[lo].y) lo = i;
    if (column[i].y > column[hi].y) hi = i;
  }
  std::vector<std::size_t> keep{0, std::min(lo, hi), std::max(lo, hi), column.size() - 1};
  keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
  std::vector<P2> out;
  for (const std::size_t i : keep) out.push_back(column[i]);
  return out;
}

/// The series as path data, breaking where there is no value. Each pixel
/// column keeps at most its first, lowest, highest and last point, so a
/// million ticks draw like nine hundred and no peak is lost.
std::string series_path(const Panel& panel, const TraceData& t, const Series& values) {
  std::string d;
  bool pen_down = false;
  std::vector<P2> column;
  double column_x = NAN;
  auto flush = [&] {
    if (column.empty()) return;
    for (const P2& p : column_extremes(column)) {
      d += (d.empty() ? "M" : pen_down ? " L" : " M") + fixed(p.x) + " " + fixed(p.y);
      pen_down = true;
    }
    column.clear();
  };
  const std::size_t n = std::min(values.size(), t.tick.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(values[i]) || !std::isfinite(t.tick[i])) {
      flush();
      pen_down = false;
      continue;
    }
    const P2 p = panel.to_px(t.tick[i], values[i]);
    if (std::floor(p.x) != column_x) {
      flush();
      column_x = std::floor(p.x);
    }
    column.push_back(p);
  }
  flush();
  return d;
}

/// One line per trace that has the series, the reference first and wide and
/// pale beneath the run, as in the other views.
void draw_series(Svg& svg, const Panel& panel, const std::vector<TraceData>& traces, const std::vector<Series>& series,
                 const char* kind) {
  for (std::size_t k = traces.size(); k-- > 0;) {
    const std::string d = series_path(panel, traces[k], series[k]);
    if (d.empty()) continue;
    const bool reference = k > 0;
    svg.out += "<path" + xml_attribute("class", std::string("time-line ") + kind) + xml_attribute("data-trace", std::to_string(k)) +
               xml_attribute("d", d) + " fill=\"none\"" + xml_attribute("stroke", trace_colour(k)) +
               (reference ? " stroke-width=\"5\" stroke-opacity=\"0.45\"" : " stroke-width=\"1.6\"") +
               " stroke-linejoin=\"round\" stroke-linecap=\"round\"/>\n";
  }
}

/// A strip's name above it, on a white halo: drawn last, over the divergence line.
void draw_strip_name(Svg& svg, const Strip& strip) {
  svg.out += text_element(strip.panel.left, strip.panel.top - 7, strip.name,
                          xml_attribute("class", "strip-name") + xml_attribute("font-size", "11") + xml_attribute("fill", kTextColour) +
                              xml_attribute("stroke", "#fff") + " stroke-width=\"3\"" + xml_attribute("paint-order", "stroke"));
}

/// A strip's background and grid; opens its clipped group (closed by close_strip).
void open_strip(Svg& svg, const Strip& strip, double tick_step, bool numbered_values, bool last) {
  const Panel& p = strip.panel;
  svg.out += "<g" + xml_attribute("class", std::string("time-strip ") + strip.kind) + xml_attribute("data-strip", strip.kind) + ">\n";
  svg.out += "<rect" + xml_attribute("x", fixed(p.left)) + xml_attribute("y", fixed(p.top)) + xml_attribute("width", fixed(p.width)) +
             xml_attribute("height", fixed(p.height)) + xml_attribute("fill", kStripBackground) + "/>\n";
  draw_strip_grid(svg, p, tick_step, numbered_values, last);
  open_clip(svg, p, std::string("time-clip-") + strip.kind);
}

void close_strip(Svg& svg, const Strip& strip) {
  svg.out += "</g>\n";  // the clipped group
  draw_frame(svg, strip.panel);
  svg.out += "</g>\n";
}

/// Where a row's tick lands across the strip, widened by half a tick each
/// side so one row is a visible bar.
std::pair<double, double> row_span(const Panel& panel, double first_tick, double last_tick) {
  return {panel.to_px(first_tick - 0.5, 0).x, panel.to_px(last_tick + 0.5, 0).x};
}

/// Runs of rows [first, last] where `on` holds; runs less than a pixel apart
/// are joined, so a flickering flag over a million ticks stays one bar per
/// pixel at most.
std::vector<std::pair<std::size_t, std::size_t>> lane_runs(const Panel& panel, const TraceData& t,
                                                           const std::vector<bool>& on) {
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  const std::size_t n = std::min(on.size(), t.tick.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (!on[i]) continue;
    std::size_t j = i;
    while (j + 1 < n && on[j + 1]) ++j;
    const bool close = !runs.empty() && row_span(panel, t.tick[i], t.tick[i]).first -
                                                row_span(panel, t.tick[runs.back().second], t.tick[runs.back().second]).second <
                                            1.0;
    if (close) {
      runs.back().second = j;
    } else {
      runs.emplace_back(i, j);
    }
    i = j;
  }
  return runs;
}

/// Bars over the runs of rows where `on` holds, in one lane.
void draw_lane(Svg& svg, const Panel& panel, const TraceData& t, const std::vector<bool>& on, double y,
               const char* css_class, std::size_t trace, const char* colour, double opacity) {
  for (const auto& [i, j] : lane_runs(panel, t, on)) {
    const auto [x0, x1] = row_span(panel, t.tick[i], t.tick[j]);
    const std::string ticks = i == j ? "tick " + fixed(t.tick[i], 0) : "ticks " + fixed(t.tick[i], 0) + "-" + fixed(t.tick[j], 0);
    svg.out += "<rect" + xml_attribute("class", css_class) + xml_attribute("data-trace", std::to_string(trace)) +
               xml_attribute("x", fixed(x0)) + xml_attribute("y", fixed(y)) + xml_attribute("width", fixed(std::max(0.5, x1 - x0))) +
               xml_attribute("height", fixed(kLaneHeight)) + xml_attribute("fill", colour) + xml_attribute("fill-opacity", fixed(opacity)) +
               "><title>" + xml_escape_text(std::string(css_class) + ", " + ticks) + "</title></rect>\n";
  }
}

/// The top of lane `lane` of the contact strip: grounded lanes first, one
/// per trace, then stuck lanes.
double lane_top(const Panel& p, std::size_t lane) {
  return p.top + kLaneGap + static_cast<double>(lane) * (kLaneHeight + kLaneGap);
}

/// The contact strip's bars: grounded, then stuck, one lane per trace each.
void draw_contact(Svg& svg, const Strip& strip, const std::vector<TraceData>& traces) {
  for (std::size_t k = 0; k < traces.size(); ++k) {
    const TraceData& t = traces[k];
    std::vector<bool> grounded(t.airborne.size());
    for (std::size_t i = 0; i < grounded.size(); ++i) grounded[i] = t.has_grounded && !t.airborne[i] && t.valid[i];
    draw_lane(svg, strip.panel, t, grounded, lane_top(strip.panel, k), "grounded-span", k, trace_colour(k),
              k == 0 ? 0.85 : 0.4);
    draw_lane(svg, strip.panel, t, t.stuck, lane_top(strip.panel, traces.size() + k), "stuck-span", k, kStuckColour,
              k == 0 ? 0.85 : 0.4);
  }
}

/// The lanes' names, left of the strip (outside its clip region).
void draw_lane_names(Svg& svg, const Strip& strip, std::size_t trace_count) {
  for (std::size_t lane = 0; lane < 2 * trace_count; ++lane) {
    const std::size_t k = lane % trace_count;
    const std::string name = std::string(k == 0 ? "" : "ref ") + (lane < trace_count ? "grounded" : "stuck");
    svg.out += text_element(strip.panel.left - 6, lane_top(strip.panel, lane) + kLaneHeight - 2, name,
                            xml_attribute("class", "lane-name") + xml_attribute("font-size", "9") +
                                xml_attribute("fill", kMutedText) + xml_attribute("text-anchor", "end"));
  }
}

/// Step markers on the height line, where each step starts.
void draw_time_steps(Svg& svg, const Panel& panel, const std::vector<TraceData>& traces) {
  for (std::size_t k = traces.size(); k-- > 0;) {
    const TraceData& t = traces[k];
    for (const TraceData::Step& step : t.steps) {
      const std::string ticks = step.first == step.last ? "tick " + fixed(t.tick[step.first], 0)
                                                        : "ticks " + fixed(t.tick[step.first], 0) + "-" +
                                                              fixed(t.tick[step.last], 0);
      svg.out += step_marker(panel.to_px(t.tick[step.first], t.height[step.first]), step.total > 0, trace_colour(k),
                             std::string(step.total > 0 ? "step up " : "step down ") +
                                 readable_number(std::fabs(step.total)) + " m, " + ticks);
    }
  }
}

/// A band over each still stretch of the run, named; red when the stick was
/// pushed all along (a stall).
void draw_still(Svg& svg, const Panel& panel, const TraceData& run, const std::vector<StillStretch>& still) {
  for (const StillStretch& s : still) {
    const auto [x0, x1] = row_span(panel, run.tick[s.first], run.tick[s.last]);
    const long ticks = std::lround(run.tick[s.last] - run.tick[s.first]);
    const std::string range = fixed(run.tick[s.first], 0) + "-" + fixed(run.tick[s.last], 0);
    const std::string what = std::string(s.pushed ? "stalled" : "still") + " " + std::to_string(ticks) + " ticks";
    svg.out += "<g" + xml_attribute("class", s.pushed ? "still stalled" : "still") +
               xml_attribute("data-first", fixed(run.tick[s.first], 0)) + xml_attribute("data-last", fixed(run.tick[s.last], 0)) +
               "><title>" +
               xml_escape_text(what + " (" + range + "): the feet did not move over the ground" +
                               (s.pushed ? " while the stick was pushed" : "")) +
               "</title>\n";
    svg.out += "<rect" + xml_attribute("x", fixed(x0)) + xml_attribute("y", fixed(panel.top)) + xml_attribute("width", fixed(x1 - x0)) +
               xml_attribute("height", fixed(panel.height)) + xml_attribute("fill", s.pushed ? kStalledFill : kStillFill) + "/>\n";
    svg.out += text_element((x0 + x1) / 2, panel.top + 13, clip_text(what, 40),
                            xml_attribute("font-size", "10") + xml_attribute("text-anchor", "middle") +
                                xml_attribute("fill", s.pushed ? kStuckColour : kMutedText));
    svg.out += "</g>\n";
  }
}

/// One line through every strip at the divergent tick, labelled at the top.
void draw_time_divergence(Svg& svg, const std::vector<Strip>& strips, const Divergence& d) {
  const Panel& first = strips.front().panel;
  const Panel& last = strips.back().panel;
  if (d.tick < first.world.x0 || d.tick > first.world.x1) return;
  const double x = first.to_px(d.tick, 0).x;
  const std::string what = "first divergence at tick " + readable_number(d.tick) + ", column " + d.column;
  svg.out += "<g class=\"time-divergence\"><title>" + xml_escape_text(what) + "</title>\n";
  svg.out += "<line" + xml_attribute("x1", fixed(x)) + xml_attribute("y1", fixed(first.top)) + xml_attribute("x2", fixed(x)) +
             xml_attribute("y2", fixed(last.top + last.height)) + xml_attribute("stroke", kDivergenceColour) +
             " stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>\n";
  // Inside the first strip, on a white halo, clear of the strip's name above it.
  const bool right_half = x > first.left + first.width * 0.7;
  svg.out += text_element(right_half ? x - 5 : x + 5, first.top + 13,
                          "tick " + readable_number(d.tick) + ": first divergence (" + d.column + ")",
                          xml_attribute("font-size", "11") + xml_attribute("font-weight", "bold") +
                              xml_attribute("fill", kDivergenceColour) + xml_attribute("text-anchor", right_half ? "end" : "start") +
                              xml_attribute("stroke", "#fff") + " stroke-width=\"3\"" + xml_attribute("paint-order", "stroke"));
  svg.out += "</g>\n";
}

/// One dotted line through every strip at each failed expectation's tick,
/// labelled at the bottom of the first strip (the divergence's label is at its top).
void draw_time_failures(Svg& svg, const std::vector<Strip>& strips, const std::vector<FailureMark>& failures) {
  const Panel& first = strips.front().panel;
  const Panel& last = strips.back().panel;
  std::vector<double> drawn;
  for (const FailureMark& mark : failures) {
    const double tick = static_cast<double>(mark.failure.tick);
    if (tick < first.world.x0 || tick > first.world.x1) continue;
    const double x = first.to_px(tick, 0).x;
    // Labels at one tick go one above the other.
    const auto stacked = std::count_if(drawn.begin(), drawn.end(), [&](double q) { return std::fabs(q - x) < 6; });
    drawn.push_back(x);
    svg.out += "<g class=\"time-expectation-failure\"" + xml_attribute("data-check", mark.failure.check) + "><title>" +
               xml_escape_text("failed expectation " + mark.text()) + "</title>\n";
    svg.out += "<line" + xml_attribute("x1", fixed(x)) + xml_attribute("y1", fixed(first.top)) + xml_attribute("x2", fixed(x)) +
               xml_attribute("y2", fixed(last.top + last.height)) + xml_attribute("stroke", kFailureColour) +
               " stroke-width=\"1.5\" stroke-dasharray=\"2 3\"/>\n";
    const bool right_half = x > first.left + first.width * 0.7;
    svg.out += text_element(right_half ? x - 4 : x + 4, first.top + first.height - 5 - 13 * static_cast<double>(stacked),
                            mark.label,
                            xml_attribute("font-size", "11") + xml_attribute("font-weight", "bold") +
                                xml_attribute("fill", kFailureColour) + xml_attribute("text-anchor", right_half ? "end" : "start") +
                                xml_attribute("stroke", "#fff") + " stroke-width=\"3\"" + xml_attribute("paint-order", "stroke"));
    svg.out += "</g>\n";
  }
}

/// Ticks per second from the run's first two rows; 0 when they do not say.
double ticks_per_second(const TraceData& run) {
  if (run.tick.size() < 2 || !(run.time[1] > run.time[0])) return 0.0;
  return (run.tick[1] - run.tick[0]) / (run.time[1] - run.time[0]);
}

/// The strips, top to bottom, with their value ranges.
std::vector<Strip> make_strips(double left, double top, double width, const std::vector<TraceData>& traces,
                               const std::vector<Series>& heights, const std::vector<Series>& speeds,
                               const std::vector<Series>& cameras) {
  const std::pair<double, double> ticks = tick_range(traces);
  std::vector<Strip> strips;
  double y = top + kTitleHeight + kStripGap;
  auto add = [&](const char* kind, std::string name, double h, Box box) {
    strips.push_back(Strip{kind, std::move(name), Panel{left, y, width, h, box, true}});
    y += h + kStripGap;
  };
  add("height", "height of the feet (m), step events", kHeightStrip, value_box(ticks, heights, 0.5, false));
  add("speed", "horizontal speed of the feet (m/s, from positions); shaded: still at least 0.5 s, red when the stick was pushed",
      kSpeedStrip, value_box(ticks, speeds, 1.0, true));
  add("camera", "camera offset camera_dy (m)", kCameraStrip, value_box(ticks, cameras, 0.05, false));
  add("contact", "grounded and stuck", contact_height(traces.size()), Box{ticks.first, 0, ticks.second, 1});
  return strips;
}

}  // namespace

double time_view_height(std::size_t trace_count) {
  return kTitleHeight + 4 * kStripGap + kHeightStrip + kSpeedStrip + kCameraStrip + contact_height(trace_count) + kAxisBelow;
}

void draw_time_view(Svg& svg, double left, double top, double width, const std::vector<TraceData>& traces,
                    const std::vector<StillStretch>& still, const std::optional<Divergence>& divergence,
                    const std::vector<FailureMark>& failures) {
  std::vector<Series> heights, speeds, cameras;
  for (const TraceData& t : traces) {
    Series h(t.height.size(), NAN);
    for (std::size_t i = 0; i < h.size(); ++i) h[i] = t.valid[i] ? t.height[i] : NAN;
    heights.push_back(std::move(h));
    speeds.push_back(t.speed);
    cameras.push_back(t.camera);
  }
  const std::vector<Strip> strips = make_strips(left, top, width, traces, heights, speeds, cameras);
  const Panel& axis = strips.front().panel;
  const double tick_step = std::max(1.0, nice_step(axis.world.width() / (axis.width / 60)));

  svg.out += "<g class=\"time-view\">\n";
  svg.out += text_element(left, top + 14, "Time view: against tick (one axis for every strip)",
                          xml_attribute("font-size", "14") + xml_attribute("font-weight", "bold") + xml_attribute("fill", kTextColour));
  for (std::size_t s = 0; s < strips.size(); ++s) {
    const Strip& strip = strips[s];
    const std::string kind = strip.kind;
    open_strip(svg, strip, tick_step, kind != "contact", s + 1 == strips.size());
    if (kind == "height") {
      draw_series(svg, strip.panel, traces, heights, "height");
      draw_time_steps(svg, strip.panel, traces);
    } else if (kind == "speed") {
      draw_still(svg, strip.panel, traces.front(), still);
      draw_series(svg, strip.panel, traces, speeds, "speed");
    } else if (kind == "camera") {
      draw_series(svg, strip.panel, traces, cameras, "camera");
    } else {
      draw_contact(svg, strip, traces);
    }
    close_strip(svg, strip);
    if (kind == "contact") draw_lane_names(svg, strip, traces.size());
  }
  const Panel& bottom = strips.back().panel;
  const double rate = ticks_per_second(traces.front());
  svg.out += text_element(left + width / 2, bottom.top + bottom.height + 32,
                          "tick" + (rate > 0 ? " (" + readable_number(rate) + " per second)" : std::string()),
                          xml_attribute("font-size", "12") + xml_attribute("text-anchor", "middle") + xml_attribute("fill", kTextColour));
  if (divergence) draw_time_divergence(svg, strips, *divergence);
  draw_time_failures(svg, strips, failures);
  for (const Strip& strip : strips) draw_strip_name(svg, strip);
  svg.out += "</g>\n";
}

}  // namespace stepslide::plot
