#include "gate/plot/side_view.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "gate/plot/axes.h"
#include "gate/plot/marks.h"
#include "gate/plot/style.h"

namespace stepslide::plot {

namespace {

/// A run that moves less than this horizontally is drawn against time instead.
constexpr double kMinSideDistance = 0.25;
/// The ground profile starts this far above the feet, so it finds the floor
/// under the character but not a ceiling above its head.
constexpr double kProfileRayLift = 0.5;
constexpr double kProfileRayDepth = 100.0;
/// Ground shown below the lowest floor under the run: at least this much, or
/// this fraction of the panel's height, so a floor reads as solid.
constexpr double kGroundSlab = 0.15;
constexpr double kGroundSlabFraction = 0.08;
/// At most this many ground-profile rays per run.
constexpr std::size_t kMaxProfileRays = 2000;

/// The height of the first thing below each sampled row's feet, found with a
/// ray in the world posed for that row's tick. NaN where nothing is below.
std::vector<std::pair<std::size_t, double>> ground_profile(const Frame& f, World& world, const TraceData& t) {
  std::vector<std::pair<std::size_t, double>> profile;
  const std::size_t n = t.valid.size();
  const std::size_t stride = std::max<std::size_t>(1, (n + kMaxProfileRays - 1) / kMaxProfileRays);
  std::vector<std::size_t> rows;
  for (std::size_t i = 0; i < n; i += stride) rows.push_back(i);
  if (n > 0 && rows.back() != n - 1) rows.push_back(n - 1);
  for (const std::size_t i : rows) {
    if (!t.valid[i]) continue;
    world.set_time(static_cast<std::int64_t>(t.tick[i]));
    const btVector3 from = t.feet[i] + f.up * kProfileRayLift, to = t.feet[i] - f.up * kProfileRayDepth;
    btCollisionWorld::ClosestRayResultCallback hit(from, to);
    world.collision_world()->rayTest(from, to, hit);
    profile.emplace_back(i, hit.hasHit() ? hit.m_hitPointWorld.dot(f.up) : NAN);
  }
  return profile;
}

/// Every trace's points and all the ground under the run, with a margin and
/// a slab of ground below the lowest floor; at least a metre high, so that
/// centimetres on a flat run do not fill the panel. The ground is always in
/// view, however far below: a run falling toward a floor it has not reached
/// must not look like floating.
Box side_world(const std::vector<TraceData>& traces, const SideView& view) {
  Box box;
  for (std::size_t k = 0; k < traces.size(); ++k) {
    for (std::size_t i = 0; i < traces[k].valid.size(); ++i) {
      if (traces[k].valid[i]) box.add(view.x[k][i], traces[k].height[i]);
    }
  }
  double lowest_ground = kInf;
  for (const auto& [row, h] : view.profile) {
    if (!std::isfinite(h)) continue;
    box.add(view.x[0][row], h);
    lowest_ground = std::min(lowest_ground, h);
  }
  box = padded(box, 0.08, 0.05, 0.0);
  if (std::isfinite(lowest_ground)) {
    box.y0 = std::min(box.y0, lowest_ground - std::max(kGroundSlab, kGroundSlabFraction * box.height()));
  }
  if (box.height() < 1.0) {
    const double grow = (1.0 - box.height()) / 2;
    box.y0 -= grow;
    box.y1 += grow;
  }
  return box;
}

/// The ground under the run as path data, filled down to the panel's bottom;
/// a gap where nothing is below.
std::string ground_path(const Panel& panel, const SideView& view) {
  std::string ground;
  bool open = false;
  P2 first{}, previous{};
  const double bottom = panel.top + panel.height + 2;
  auto close = [&] {
    if (open) {
      ground += " L" + fixed(previous.x) + " " + fixed(bottom) + " L" + fixed(first.x) + " " + fixed(bottom) + " Z ";
    }
    open = false;
  };
  for (const auto& [row, h] : view.profile) {
    if (!std::isfinite(h)) {
      close();
      continue;
    }
    const P2 p = panel.to_px(view.x[0][row], h);
    if (!open) {
      ground += "M" + fixed(p.x) + " " + fixed(bottom) + " L" + fixed(p.x) + " " + fixed(p.y);
      first = p;
      open = true;
    } else {
      ground += " L" + fixed(p.x) + " " + fixed(p.y);
    }
    previous = p;
  }
  close();
  return ground;
}

TracePixels side_pixels(const Panel& panel, const SideView& view, const std::vector<TraceData>& traces) {
  TracePixels px(traces.size());
  for (std::size_t k = 0; k < traces.size(); ++k) {
    for (std::size_t i = 0; i < traces[k].height.size(); ++i) {
      px[k].push_back(panel.to_px(view.x[k][i], traces[k].height[i]));
    }
  }
  return px;
}

/// A dashed vertical line through the judged run's divergent row.
void draw_divergence_line(Svg& svg, const Panel& panel, const SideView& view, std::size_t row) {
  if (row >= view.x[0].size()) return;
  const double x = panel.to_px(view.x[0][row], 0).x;
  svg.out += "<line class=\"divergence-line\"" + xml_attribute("x1", fixed(x)) + xml_attribute("y1", fixed(panel.top)) +
             xml_attribute("x2", fixed(x)) + xml_attribute("y2", fixed(panel.top + panel.height)) + xml_attribute("stroke", kDivergenceColour) +
             " stroke-width=\"1\" stroke-dasharray=\"5 3\"/>\n";
}

}  // namespace

SideView side_view(const Frame& f, World& world, const std::vector<TraceData>& traces) {
  SideView view;
  view.profile = ground_profile(f, world, traces.front());
  const TraceData& run = traces.front();
  view.against_time = run.distance.empty() || run.distance.back() < kMinSideDistance;
  for (const TraceData& t : traces) view.x.push_back(view.against_time ? t.time : t.distance);
  view.world = side_world(traces, view);
  return view;
}

void draw_side_view(Svg& svg, const Panel& panel, const Frame& f, const SideView& view,
                    const std::vector<TraceData>& traces, const std::optional<Divergence>& divergence,
                    const std::vector<StillStretch>& still, std::int64_t interval,
                    const std::vector<FailureMark>& failures) {
  svg.out += "<g class=\"side-view\">\n";
  svg.out += text_element(panel.left, panel.top - 10,
                          view.against_time ? "Side view: height against time (the run barely moves horizontally)"
                                            : "Side view: height against distance travelled",
                          xml_attribute("font-size", "14") + xml_attribute("font-weight", "bold") + xml_attribute("fill", kTextColour));
  svg.out += "<rect" + xml_attribute("x", fixed(panel.left)) + xml_attribute("y", fixed(panel.top)) + xml_attribute("width", fixed(panel.width)) +
             xml_attribute("height", fixed(panel.height)) + " fill=\"#fbfbf8\"/>\n";
  draw_grid(svg, panel, view.against_time ? "time (s)" : "distance travelled (m)",
            "height" + (f.up_name.empty() ? std::string() : " " + f.up_name) + " (m)");
  open_clip(svg, panel, "side-clip");
  const std::string ground = ground_path(panel, view);
  if (!ground.empty()) {
    svg.out += "<path class=\"ground\"" + xml_attribute("d", ground) + xml_attribute("fill", kGroundColour) + xml_attribute("stroke", kBodyStroke) +
               " stroke-width=\"0.8\"/>\n";
  }
  const TracePixels px = side_pixels(panel, view, traces);
  draw_traces(svg, traces, px, interval);
  // Against time a stall is a flat line already; against distance it is one point.
  if (!view.against_time) draw_still_marks(svg, traces.front(), px.front(), still);
  if (divergence) {
    draw_divergence_line(svg, panel, view, divergence->row);
    draw_divergence(svg, traces, *divergence, px);
  }
  draw_failure_marks(svg, traces.front(), px.front(), failures);
  svg.out += "</g>\n";
  draw_frame(svg, panel);
  svg.out += "</g>\n";
}

}  // namespace stepslide::plot
