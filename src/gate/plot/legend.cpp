#include "gate/plot/legend.h"

#include <string>

#include "base/format.h"
#include "gate/core/diff_report.h"
#include "gate/plot/marks.h"
#include "gate/plot/style.h"
#include "gate/plot/top_view.h"

namespace stepslide::plot {

namespace {

/// Writes legend lines one below the other.
struct LegendWriter {
  Svg& svg;
  double x = 0, y = 0;
  /// A symbol drawn around (0, 0), then its meaning.
  void entry(const std::string& symbol, const std::string& text) {
    svg.out += "<g" + xml_attribute("transform", "translate(" + fixed(x) + " " + fixed(y) + ")") + ">" + symbol;
    svg.out += text_element(34, 4, text, xml_attribute("font-size", "12") + xml_attribute("fill", kTextColour)) + "</g>\n";
    y += 21;
  }
  /// A line of text without a symbol.
  void note(const std::string& text, const char* colour = kMutedText) {
    svg.out += text_element(x, y + 4, text, xml_attribute("font-size", "11") + xml_attribute("fill", colour));
    y += 17;
  }
};

/// One entry per trace and one per kind of mark.
void symbol_entries(LegendWriter& w, const std::vector<TraceData>& traces, bool divergence, const LegendFacts& facts) {
  for (std::size_t k = 0; k < traces.size(); ++k) {
    const std::string line = "<line x1=\"0\" y1=\"0\" x2=\"26\" y2=\"0\"" + xml_attribute("stroke", trace_colour(k)) +
                             (k == 0 ? " stroke-width=\"2\"" : " stroke-width=\"5\" stroke-opacity=\"0.45\"") + "/>";
    w.entry(line, clip_text(traces[k].label, 60));
  }
  w.entry("<line x1=\"0\" y1=\"0\" x2=\"26\" y2=\"0\"" + xml_attribute("stroke", kTraceColour[0]) +
              " stroke-width=\"2\"/><line x1=\"0\" y1=\"0\" x2=\"26\" y2=\"0\" stroke=\"#fff\" stroke-width=\"3\" "
              "stroke-dasharray=\"5 4\"/>",
          "airborne (not grounded)");
  w.entry(step_marker({13, 0}, true, kTraceColour[0]), "step up (where step_dy > 0 starts)");
  w.entry(step_marker({13, 0}, false, kTraceColour[0]), "step down (where step_dy < 0 starts)");
  w.entry("<circle cx=\"13\" cy=\"0\" r=\"2.6\" fill=\"#fff\"" + xml_attribute("stroke", kTraceColour[0]) +
              " stroke-width=\"1.2\"/>",
          "every " + std::to_string(facts.interval) + " ticks (labelled with the tick)");
  w.entry("<circle cx=\"6\" cy=\"0\" r=\"4.5\"" + xml_attribute("fill", kTraceColour[0]) +
              "/><rect x=\"16\" y=\"-4\" width=\"8\" height=\"8\"" + xml_attribute("fill", kTraceColour[0]) + "/>",
          "start, end");
  if (facts.any_moving) {
    w.entry("<rect x=\"2\" y=\"-6\" width=\"22\" height=\"12\" fill=\"none\"" + xml_attribute("stroke", kBodyStroke) +
                " stroke-dasharray=\"4 3\"/>",
            "moving body at tick 0 (solid: at the end)");
  }
  if (facts.any_still) {
    w.entry("<circle cx=\"13\" cy=\"0\" r=\"6\" fill=\"none\" stroke=\"#b71c1c\" stroke-width=\"1.5\" "
            "stroke-dasharray=\"2 2\"/>",
            "stalled (stick pushed) or still: feet not moving 0.5 s+");
  }
  if (divergence) {
    w.entry("<circle cx=\"13\" cy=\"0\" r=\"7\" fill=\"none\"" + xml_attribute("stroke", kDivergenceColour) +
                " stroke-width=\"2\"/>",
            "first divergence");
  }
  if (!facts.failures.empty()) {
    w.entry("<path d=\"M8 -5 L18 5 M8 5 L18 -5\"" + xml_attribute("stroke", kFailureColour) +
                " stroke-width=\"2.4\" stroke-linecap=\"round\"/>",
            "failed expectation (E1, E2, ...: listed below)");
  }
  if (facts.any_walls) {
    w.entry("<line x1=\"0\" y1=\"0\" x2=\"26\" y2=\"0\"" + xml_attribute("stroke", kWallColour) +
                " stroke-width=\"1.8\" stroke-linecap=\"round\"/>",
            "wall, where it crosses the character's waist");
  }
  if (facts.any_overhead) {
    w.entry("<rect x=\"2\" y=\"-6\" width=\"22\" height=\"12\"" + xml_attribute("fill", kOverheadColour) +
                " fill-opacity=\"0.55\"/>",
            "above the head (roof, upper floor): under the floors");
  }
  for (const auto& [symbol, text] : facts.more) w.entry(symbol, text);
}

/// The height scale of the level's surfaces: a gradient from lo to hi.
void height_scale(LegendWriter& w, double lo, double hi) {
  Svg& svg = w.svg;
  const std::string gradient = svg.id("height-scale");
  svg.out += "<linearGradient" + xml_attribute("id", gradient) + " x1=\"0\" y1=\"0\" x2=\"1\" y2=\"0\"><stop offset=\"0\"" +
             xml_attribute("stop-color", height_colour(lo, lo, hi)) + "/><stop offset=\"1\"" +
             xml_attribute("stop-color", height_colour(hi, lo, hi)) + "/></linearGradient>\n";
  svg.out += "<rect" + xml_attribute("x", fixed(w.x)) + xml_attribute("y", fixed(w.y - 6)) + " width=\"150\" height=\"12\"" +
             xml_attribute("fill", "url(#" + gradient + ")") + xml_attribute("stroke", kBodyStroke) + " stroke-width=\"0.6\"/>\n";
  svg.out += text_element(w.x + 158, w.y + 4,
                          "surface height " + readable_number(lo) + " to " + readable_number(hi) + " m",
                          xml_attribute("font-size", "12") + xml_attribute("fill", kTextColour));
  w.y += 30;
}

/// Each failed expectation by its label, at most kListedFailures of them.
void failure_notes(LegendWriter& w, const std::vector<std::string>& failures) {
  constexpr std::size_t kListedFailures = 6;
  if (failures.empty()) return;
  w.y += 6;
  w.note("failed expectations:", kFailureColour);
  for (std::size_t i = 0; i < failures.size() && i < kListedFailures; ++i) w.note(clip_text(failures[i], 64), kFailureColour);
  if (failures.size() > kListedFailures) {
    w.note("and " + std::to_string(failures.size() - kListedFailures) + " more", kFailureColour);
  }
}

/// The scenario and the judged run in numbers, and where it first diverged.
void run_notes(LegendWriter& w, const Scenario& scenario, const TraceData& run,
               const std::optional<Divergence>& divergence) {
  w.note(std::to_string(scenario.ticks) + " ticks at " + std::to_string(scenario.tick_rate) + " Hz, " +
         std::to_string(scenario.world.size()) + " bodies");
  w.note(run.label + ": " + std::to_string(run.steps_up()) + " steps up, " +
         std::to_string(run.steps.size() - run.steps_up()) + " down, airborne on " +
         std::to_string(run.airborne_rows) + " of " + std::to_string(run.valid.size()) + " rows");
  if (!run.distance.empty()) w.note("horizontal distance travelled: " + readable_number(run.distance.back()) + " m");
  if (divergence) {
    w.y += 6;
    w.note("first divergence at tick " + readable_number(divergence->tick) + ", column " + divergence->column + ":",
           kDivergenceColour);
    const DivergenceValues v = readable_values(*divergence);
    w.note("expected " + clip_text(divergence->expected.empty() ? "(no row)" : v.expected, 28) + ", got " +
               clip_text(divergence->actual.empty() ? "(no row)" : v.actual, 28),
           kDivergenceColour);
  }
}

}  // namespace

void draw_legend(Svg& svg, double x, double y, const Scenario& scenario, const std::vector<TraceData>& traces,
                 const std::optional<Divergence>& divergence, const LegendFacts& facts) {
  LegendWriter w{svg, x, y};
  svg.out += "<g class=\"legend\">\n";
  svg.out += text_element(x, y - 10, "Legend", xml_attribute("font-size", "14") + xml_attribute("font-weight", "bold") +
                                                   xml_attribute("fill", kTextColour));
  w.y += 8;
  symbol_entries(w, traces, divergence.has_value(), facts);
  height_scale(w, facts.lo, facts.hi);
  run_notes(w, scenario, traces.front(), divergence);
  failure_notes(w, facts.failures);
  svg.out += "</g>\n";
}

}  // namespace stepslide::plot
