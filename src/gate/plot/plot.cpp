// A picture of a run, put together: the layout of the page, its title, then
// the top view, the legend, the side view and the time view (each in its own
// file).
#include "gate/plot/plot.h"

#include <algorithm>
#include <stdexcept>

#include "base/xml.h"
#include "gate/plot/axes.h"
#include "gate/plot/body_marks.h"
#include "gate/plot/geometry.h"
#include "gate/plot/legend.h"
#include "gate/plot/marks.h"
#include "gate/plot/outlines.h"
#include "gate/plot/side_view.h"
#include "gate/plot/style.h"
#include "gate/plot/svg_writer.h"
#include "gate/plot/time_view.h"
#include "gate/plot/top_view.h"
#include "gate/plot/traces.h"
#include "scenario/load/world.h"

namespace stepslide {

using namespace plot;

namespace {

// Layout, in pixels.
constexpr double kWidth = 1000;
constexpr double kMarginLeft = 70;
constexpr double kTopViewY = 86;
constexpr double kTopViewMax = 470;    // largest side of the top view
constexpr double kTopViewMinHeight = 330;  // room for the legend beside it
constexpr double kLegendX = 600;
constexpr double kSideWidth = 900;
constexpr double kSideHeight = 230;
constexpr double kGapBelowTopView = 78;
constexpr double kGapBelowSideView = 48;  // the side view's axis name
/// Samples of the runs a mesh is cut at (outlines.h): a nearest-sample
/// search per triangle, so a long run is thinned to this many.
constexpr std::size_t kMaxCutSamples = 1500;

/// Where the three views go on the page, and the page's height.
struct Layout {
  Panel top;
  Panel side;
  double time_top = 0;  ///< the time view's title, below the side view
  double height = 0;
};

/// The top view keeps the plane's aspect, at most kTopViewMax on its longer
/// side; the side view, below it, has a fixed size; the time view, below
/// that, grows with the number of traces (a lane each).
Layout make_layout(const Box& top_world, const Box& side_world, std::size_t trace_count) {
  Layout layout;
  const double scale = std::min(kTopViewMax / top_world.width(), kTopViewMax / top_world.height());
  layout.top = Panel{kMarginLeft, kTopViewY, top_world.width() * scale, top_world.height() * scale, top_world, false};
  const double side_top = std::max(kTopViewY + layout.top.height, kTopViewY + kTopViewMinHeight) + kGapBelowTopView;
  layout.side = Panel{kMarginLeft, side_top, kSideWidth, kSideHeight, side_world, true};
  layout.time_top = side_top + kSideHeight + kGapBelowSideView;
  layout.height = layout.time_top + time_view_height(trace_count) + 10;
  return layout;
}

/// The legend's facts about the level: surface heights at the end, and
/// whether anything moves.
LegendFacts level_facts(const std::vector<BodyDrawing>& bodies, std::int64_t interval) {
  LegendFacts facts;
  facts.interval = interval;
  double lo = kInf, hi = -kInf;
  for (const BodyDrawing& body : bodies) {
    facts.any_moving = facts.any_moving || body.moving;
    facts.any_walls = facts.any_walls || !body.walls.empty();
    for (const Part& part : body.end) {
      // What is overhead is not shaded by height: the scale is the floors'.
      facts.any_overhead = facts.any_overhead || part.overhead;
      if (part.overhead) continue;
      lo = std::min(lo, part.top);
      hi = std::max(hi, part.top);
    }
  }
  if (lo > hi) lo = hi = 0.0;  // no bodies
  facts.lo = lo;
  facts.hi = hi;
  return facts;
}

/// The <svg> start tag, title, arrow marker, background, heading and description.
void open_document(Svg& svg, const Scenario& scenario, const std::string& title, double height) {
  svg.out += "<svg xmlns=\"http://www.w3.org/2000/svg\"" + xml_attribute("width", fixed(kWidth)) + xml_attribute("height", fixed(height)) +
             xml_attribute("viewBox", "0 0 " + fixed(kWidth) + " " + fixed(height)) + xml_attribute("font-family", kFont) +
             xml_attribute("role", "img") + xml_attribute("aria-labelledby", svg.id("title")) + ">\n";
  svg.out += "<title" + xml_attribute("id", svg.id("title")) + ">" + xml_escape_text("stepslide: " + title) + "</title>\n";
  svg.out += "<defs><marker" + xml_attribute("id", svg.id("arrow")) +
             " viewBox=\"0 0 8 8\" refX=\"7\" refY=\"4\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\">"
             "<path d=\"M0 0 L8 4 L0 8 Z\"" + xml_attribute("fill", kBodyStroke) + "/></marker></defs>\n";
  svg.out += "<rect class=\"background\" x=\"0\" y=\"0\"" + xml_attribute("width", fixed(kWidth)) + xml_attribute("height", fixed(height)) +
             " fill=\"#fff\"/>\n";
  svg.out += text_element(kMarginLeft, 30, clip_text(title, 90),
                          xml_attribute("font-size", "18") + xml_attribute("font-weight", "bold") + xml_attribute("fill", kTextColour));
  if (!scenario.description.empty()) {
    svg.out += text_element(kMarginLeft, 52, clip_text(scenario.description, 140),
                            xml_attribute("font-size", "12") + xml_attribute("fill", kMutedText));
  }
}

/// body_marks.h's marks over the top view, clipped to it.
void draw_top_marks(Svg& svg, const Panel& top, const Frame& frame, const Scenario& scenario, const World& world,
                    const TraceData& run, const RunEvents& events) {
  std::vector<P2> px;
  for (const P2& p : run.plane) px.push_back(top.to_px(p.x, p.y));
  open_clip(svg, top, "marks-clip");
  draw_run_marks(svg, top, frame, scenario, world, run, px, events);
  svg.out += "</g>\n";
}

void require_positions(const std::vector<PlotTrace>& traces) {
  if (traces.empty() || traces.front().trajectory == nullptr) throw std::invalid_argument("plot_svg: no trajectory");
  for (const PlotTrace& trace : traces) {
    if (trace.trajectory == nullptr || !missing_plot_columns(*trace.trajectory).empty()) {
      throw std::invalid_argument("plot_svg: trajectory '" + trace.label + "' lacks x, y or z");
    }
  }
}

}  // namespace

std::vector<std::string> missing_plot_columns(const Trajectory& trajectory) {
  std::vector<std::string> missing;
  for (const char* column : {"x", "y", "z"}) {
    if (trajectory.column_index(column) < 0) missing.push_back(column);
  }
  return missing;
}

std::string plot_svg(const Scenario& scenario, const std::vector<PlotTrace>& traces,
                     const std::optional<Divergence>& divergence, const PlotOptions& options) {
  require_positions(traces);
  const Frame frame = make_frame(scenario.up);
  World world(scenario);
  std::vector<TraceData> data;
  for (const PlotTrace& trace : traces) data.push_back(trace_data(frame, trace, scenario.tick_rate));
  // The other characters ("characters", docs/format.md §1.7): each one's
  // path from the first trace's columns, labelled with its name.
  std::vector<Trajectory> others;
  others.reserve(scenario.others.size());
  for (const OtherCharacter& other : scenario.others) {
    others.push_back(columns_of(*traces.front().trajectory, other.def.name + "."));
    if (!missing_plot_columns(others.back()).empty()) continue;
    data.push_back(trace_data(frame, PlotTrace{other.def.name, &others.back()}, scenario.tick_rate));
  }
  const Box top_box = top_view_box(data);
  std::vector<BodyDrawing> bodies = level_drawings(
      frame, scenario, world, cut_samples(data, scenario.character.shape, kMaxCutSamples), top_box);
  pose_dynamic_bodies(frame, scenario, world, *traces.front().trajectory, bodies);
  const SideView side = side_view(frame, world, data);
  const Layout layout = make_layout(top_box, side.world, data.size());
  const std::vector<StillStretch> still = still_stretches(data.front(), stick_pushed(scenario, data.front()));
  const std::vector<FailureMark> failures = failure_marks(data.front(), options.expectation_failures);
  LegendFacts facts = level_facts(bodies, tick_interval(scenario.ticks));
  facts.any_still = !still.empty();
  for (const FailureMark& mark : failures) facts.failures.push_back(mark.text());
  const RunEvents no_events;
  const RunEvents& events = options.events != nullptr ? *options.events : no_events;
  facts.more = run_mark_legend(scenario, events);


  Svg svg;
  svg.id_prefix = options.id_prefix;
  open_document(svg, scenario, options.title.empty() ? scenario.name : options.title, layout.height);
  draw_top_view(svg, layout.top, frame, bodies, data, divergence, still, facts.interval, facts.lo, facts.hi, failures);
  draw_top_marks(svg, layout.top, frame, scenario, world, data.front(), events);
  draw_legend(svg, std::max(kLegendX, layout.top.left + layout.top.width + 40), kTopViewY + 10, scenario, data,
              divergence, facts);
  draw_side_view(svg, layout.side, frame, side, data, divergence, still, facts.interval, failures);
  draw_time_view(svg, kMarginLeft, layout.time_top, kSideWidth, data, still, divergence, failures);
  svg.out += "</svg>\n";
  return svg.out;
}

}  // namespace stepslide
