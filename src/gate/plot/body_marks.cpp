#include "gate/plot/body_marks.h"

#include <algorithm>
#include <cmath>

#include "base/format.h"
#include "base/xml.h"
#include "gate/plot/style.h"

namespace stepslide::plot {

namespace {

constexpr const char* kPushColour = "#e65100";
constexpr const char* kPushedByColour = "#6a1b9a";
constexpr const char* kOneWayColour = "#1e88e5";
constexpr const char* kCrouchColour = "#ab47bc";
/// A push arrow's length on the page, whatever the impulse.
constexpr double kArrowPixels = 26;

std::vector<P2> to_pixels(const Panel& panel, const std::vector<P2>& outline) {
  std::vector<P2> px;
  for (const P2& p : outline) px.push_back(panel.to_px(p.x, p.y));
  return px;
}

std::vector<Part> parts_at(const Frame& f, const WorldBody& body, const btTransform& centre_of_mass) {
  return shape_parts(f, body.object->getCollisionShape(), centre_of_mass);
}

std::string arrow(const P2& a, const P2& b, const char* colour, double width) {
  std::string out = "<line" + xml_attribute("x1", fixed(a.x)) + xml_attribute("y1", fixed(a.y)) +
                    xml_attribute("x2", fixed(b.x)) + xml_attribute("y2", fixed(b.y)) + xml_attribute("stroke", colour) +
                    xml_attribute("stroke-width", fixed(width)) + " stroke-linecap=\"round\"/>";
  // The head: two short strokes back from b.
  const double dx = b.x - a.x, dy = b.y - a.y, len = std::hypot(dx, dy);
  if (len < 1e-9) return out;
  const double ux = dx / len, uy = dy / len;
  for (double side : {-1.0, 1.0}) {
    const P2 c{b.x - 7 * ux + side * 4 * uy, b.y - 7 * uy - side * 4 * ux};
    out += "<line" + xml_attribute("x1", fixed(b.x)) + xml_attribute("y1", fixed(b.y)) + xml_attribute("x2", fixed(c.x)) +
           xml_attribute("y2", fixed(c.y)) + xml_attribute("stroke", colour) + xml_attribute("stroke-width", fixed(width)) +
           " stroke-linecap=\"round\"/>";
  }
  return out;
}

const char* kind_text(RunPush::Kind kind) {
  switch (kind) {
    case RunPush::Kind::Push: return "pushed";
    case RunPush::Kind::Landing: return "landed on";
    case RunPush::Kind::PushedBy: return "pushed by";
  }
  return "";
}

void draw_pushes(Svg& svg, const Panel& panel, const Frame& f, const RunEvents& events) {
  for (const PushStretch& s : events.stretches()) {
    const bool by = s.kind == RunPush::Kind::PushedBy;
    const char* colour = by ? kPushedByColour : kPushColour;
    const P2 at = panel.to_px(plane_of(f, s.point).x, plane_of(f, s.point).y);
    const P2 d = plane_of(f, s.total);
    const P2 o = plane_of(f, btVector3(0, 0, 0));
    const P2 tip_world{d.x - o.x, d.y - o.y};
    const P2 tip0 = panel.to_px(0, 0), tip1 = panel.to_px(tip_world.x, tip_world.y);
    const double dx = tip1.x - tip0.x, dy = tip1.y - tip0.y, len = std::hypot(dx, dy);
    const std::string ticks = s.first == s.last ? "tick " + std::to_string(s.first)
                                                : "ticks " + std::to_string(s.first) + "-" + std::to_string(s.last);
    const std::string total = by ? "moved " + readable_number(s.total.length()) + " m"
                                 : "impulse " + readable_number(s.total.length()) + " N s";
    svg.out += "<g" + xml_attribute("class", by ? "push pushed-by" : "push") + xml_attribute("data-body", s.body) +
               xml_attribute("data-first", std::to_string(s.first)) + xml_attribute("data-last", std::to_string(s.last)) +
               "><title>" + xml_escape_text(std::string(kind_text(s.kind)) + " " + s.body + ", " + ticks + ": " + total) +
               "</title>";
    svg.out += "<circle" + xml_attribute("cx", fixed(at.x)) + xml_attribute("cy", fixed(at.y)) + " r=\"3\"" +
               xml_attribute("fill", colour) + "/>";
    if (len > 1e-9) {
      // Pushed by a body: the arrow ends at the contact; else it starts there.
      const P2 end{at.x + dx / len * kArrowPixels, at.y + dy / len * kArrowPixels};
      const P2 start{at.x - dx / len * kArrowPixels, at.y - dy / len * kArrowPixels};
      svg.out += by ? arrow(start, at, colour, 2) : arrow(at, end, colour, 2);
    }
    svg.out += "</g>\n";
  }
}

/// The side a one-way body blocks from: its local +Y in the world.
btVector3 blocking_side(const World& world, const WorldBody& body) {
  return world.body_pose(body.def_index, 0).getBasis() * btVector3(0, 1, 0);
}

void draw_one_way(Svg& svg, const Panel& panel, const Frame& f, const Scenario& scenario, const World& world) {
  for (const WorldBody& body : world.bodies()) {
    const BodyDef& def = scenario.world[body.def_index];
    if (!def.one_way) continue;
    const btTransform pose = world.body_pose(body.def_index, 0) * body.local_offset;
    Box box;
    std::string outline;
    for (const Part& part : shape_parts(f, body.object->getCollisionShape(), pose)) {
      const std::vector<P2> px = to_pixels(panel, part.outline);
      for (const P2& p : px) box.add(p.x, p.y);
      outline += "<polygon" + xml_attribute("points", points_attr(px)) + " fill=\"none\"" +
                 xml_attribute("stroke", kOneWayColour) + " stroke-width=\"1.6\" stroke-dasharray=\"6 3\"/>";
    }
    if (box.empty()) continue;
    const btVector3 side = blocking_side(world, body);
    const double along_up = side.dot(f.up);
    const P2 c{(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2};
    std::string mark, said;
    if (along_up > 0.5) {
      said = "blocks from above: jumped up through, stood on";
      mark = "<circle" + xml_attribute("cx", fixed(c.x)) + xml_attribute("cy", fixed(c.y)) + " r=\"6\" fill=\"#fff\"" +
             xml_attribute("stroke", kOneWayColour) + " stroke-width=\"1.6\"/><circle" + xml_attribute("cx", fixed(c.x)) +
             xml_attribute("cy", fixed(c.y)) + " r=\"2\"" + xml_attribute("fill", kOneWayColour) + "/>";
    } else if (along_up < -0.5) {
      said = "blocks from below";
      mark = "<circle" + xml_attribute("cx", fixed(c.x)) + xml_attribute("cy", fixed(c.y)) + " r=\"6\" fill=\"#fff\"" +
             xml_attribute("stroke", kOneWayColour) + " stroke-width=\"1.6\"/><path" +
             xml_attribute("d", "M" + fixed(c.x - 4) + " " + fixed(c.y - 4) + " L" + fixed(c.x + 4) + " " + fixed(c.y + 4) +
                                    " M" + fixed(c.x - 4) + " " + fixed(c.y + 4) + " L" + fixed(c.x + 4) + " " +
                                    fixed(c.y - 4)) +
             xml_attribute("stroke", kOneWayColour) + " stroke-width=\"1.6\"/>";
    } else {
      said = "blocks from the side the arrow points to";
      const P2 d = plane_of(f, side), o = plane_of(f, btVector3(0, 0, 0));
      const P2 a = panel.to_px(0, 0), b = panel.to_px(d.x - o.x, d.y - o.y);
      const double dx = b.x - a.x, dy = b.y - a.y, len = std::max(1e-9, std::hypot(dx, dy));
      mark = arrow(c, P2{c.x + dx / len * 18, c.y + dy / len * 18}, kOneWayColour, 1.8);
    }
    svg.out += "<g class=\"one-way\"" + xml_attribute("data-body", body.name) + "><title>" +
               xml_escape_text(body.name + ": one-way, " + said) + "</title>" + outline + mark + "</g>\n";
  }
}

void draw_crouched(Svg& svg, const TraceData& run, const std::vector<P2>& px, const std::vector<bool>& crouched) {
  std::string d;
  std::size_t first = 0;
  int stretches = 0;
  for (std::size_t i = 0; i < crouched.size() && i < px.size(); ++i) {
    if (!crouched[i] || !run.valid[i]) continue;
    const bool starts = i == 0 || !crouched[i - 1] || !run.valid[i - 1];
    if (starts) {
      first = i;
      ++stretches;
    }
    d += (starts ? (d.empty() ? "M" : " M") : " L") + fixed(px[i].x) + " " + fixed(px[i].y);
    (void)first;
  }
  if (d.empty()) return;
  svg.out += "<path class=\"crouched\"" + xml_attribute("d", d) + " fill=\"none\"" + xml_attribute("stroke", kCrouchColour) +
             " stroke-width=\"9\" stroke-opacity=\"0.35\" stroke-linecap=\"round\" stroke-linejoin=\"round\"><title>" +
             xml_escape_text("crouched (a shape lower than the standing one): " + std::to_string(stretches) +
                             (stretches == 1 ? " stretch" : " stretches")) +
             "</title></path>\n";
}

}  // namespace

std::optional<btTransform> column_pose(const Trajectory& t, const std::string& name, std::size_t row) {
  static const char* const kSuffixes[7] = {".x", ".y", ".z", ".qx", ".qy", ".qz", ".qw"};
  if (row >= t.rows.size()) return std::nullopt;
  double v[7];
  for (int i = 0; i < 7; ++i) {
    const int column = t.column_index(name + kSuffixes[i]);
    if (column < 0) return std::nullopt;
    v[i] = t.cell(row, column);
  }
  return btTransform(btQuaternion(v[3], v[4], v[5], v[6]), btVector3(v[0], v[1], v[2]));
}

void pose_dynamic_bodies(const Frame& f, const Scenario& scenario, const World& world, const Trajectory& run,
                         std::vector<BodyDrawing>& bodies) {
  if (run.rows.empty()) return;
  for (const WorldBody& body : world.bodies()) {
    if (!scenario.world[body.def_index].dynamic()) continue;
    const auto drawing = std::find_if(bodies.begin(), bodies.end(), [&](const BodyDrawing& d) { return d.name == body.name; });
    const std::optional<btTransform> start = column_pose(run, body.name, 0);
    const std::optional<btTransform> end = column_pose(run, body.name, run.rows.size() - 1);
    if (drawing == bodies.end() || !start || !end) continue;
    drawing->moving = true;
    drawing->start = parts_at(f, body, *start);
    drawing->end = parts_at(f, body, *end);
    drawing->samples.clear();
    const std::size_t last = run.rows.size() - 1;
    for (int k = 1; k <= kBodySamples && last > 1; ++k) {
      const std::size_t row = last * static_cast<std::size_t>(k) / (kBodySamples + 1);
      if (row == 0 || row >= last) continue;
      if (const std::optional<btTransform> pose = column_pose(run, body.name, row)) {
        drawing->samples.push_back(parts_at(f, body, *pose));
      }
    }
    drawing->top = -kInf;
    for (const Part& p : drawing->end) drawing->top = std::max(drawing->top, p.top);
  }
}

std::vector<std::pair<std::string, std::string>> run_mark_legend(const Scenario& scenario, const RunEvents& events) {
  std::vector<std::pair<std::string, std::string>> out;
  bool pushes = false, pushed_by = false;
  for (const RunPush& p : events.pushes) (p.kind == RunPush::Kind::PushedBy ? pushed_by : pushes) = true;
  if (pushes) {
    out.emplace_back("<circle cx=\"4\" cy=\"0\" r=\"3\"" + xml_attribute("fill", kPushColour) + "/>" +
                         arrow({4, 0}, {26, 0}, kPushColour, 2),
                     "character pushed or landed on a body (impulse)");
  }
  if (pushed_by) {
    out.emplace_back(arrow({0, 0}, {22, 0}, kPushedByColour, 2) + "<circle cx=\"22\" cy=\"0\" r=\"3\"" +
                         xml_attribute("fill", kPushedByColour) + "/>",
                     "a body pushed the character");
  }
  const bool any_dynamic = std::any_of(scenario.world.begin(), scenario.world.end(), [](const BodyDef& b) { return b.dynamic(); });
  if (any_dynamic) {
    out.emplace_back("<rect x=\"2\" y=\"-6\" width=\"22\" height=\"12\" fill=\"none\"" + xml_attribute("stroke", kBodyStroke) +
                         " stroke-opacity=\"0.45\" stroke-width=\"0.8\"/>",
                     "dynamic body at " + std::to_string(kBodySamples) + " ticks along the run");
  }
  if (std::any_of(scenario.world.begin(), scenario.world.end(), [](const BodyDef& b) { return b.one_way; })) {
    out.emplace_back("<rect x=\"2\" y=\"-6\" width=\"22\" height=\"12\" fill=\"none\"" + xml_attribute("stroke", kOneWayColour) +
                         " stroke-width=\"1.6\" stroke-dasharray=\"6 3\"/>",
                     "one-way (dot: blocks from above)");
  }
  const std::vector<bool> crouched = events.crouched(scenario);
  if (std::find(crouched.begin(), crouched.end(), true) != crouched.end()) {
    out.emplace_back("<line x1=\"0\" y1=\"0\" x2=\"26\" y2=\"0\"" + xml_attribute("stroke", kCrouchColour) +
                         " stroke-width=\"9\" stroke-opacity=\"0.35\"/>",
                     "crouched");
  }
  return out;
}

void draw_run_marks(Svg& svg, const Panel& panel, const Frame& f, const Scenario& scenario, const World& world,
                    const TraceData& run, const std::vector<P2>& px, const RunEvents& events) {
  draw_one_way(svg, panel, f, scenario, world);
  draw_crouched(svg, run, px, events.crouched(scenario));
  draw_pushes(svg, panel, f, events);
}

}  // namespace stepslide::plot
