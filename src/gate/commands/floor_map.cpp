#include "gate/commands/floor_map.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "base/file_io.h"
#include "base/format.h"
#include "gate/commands/level_source.h"
#include "gate/core/text.h"
#include "scenario/load/spawn.h"
#include "scenario/load/world.h"

namespace stepslide {

namespace {

constexpr double kMapMaxPixels = 1200;  // the longer side of the floor area
constexpr double kMargin = 60;
constexpr double kLegendHeight = 70;
constexpr double kSameColour = 0.005;        // floors in one run differ by less, metres
constexpr double kLabelSpacing = 3.0;        // a riser label per this many metres at most
constexpr std::size_t kMaxLabels = 600;

std::string px(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", v);
  return buffer;
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

/// Lowest (t = 0) blue through green to highest (t = 1) yellow.
std::string height_colour(double t) {
  static const std::array<std::array<double, 3>, 5> stops = {
      {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}};
  t = std::clamp(t, 0.0, 1.0) * (stops.size() - 1);
  const std::size_t k = std::min<std::size_t>(static_cast<std::size_t>(t), stops.size() - 2);
  const double f = t - static_cast<double>(k);
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "#%02x%02x%02x",
                static_cast<int>(std::lround(stops[k][0] + f * (stops[k + 1][0] - stops[k][0]))),
                static_cast<int>(std::lround(stops[k][1] + f * (stops[k + 1][1] - stops[k][1]))),
                static_cast<int>(std::lround(stops[k][2] + f * (stops[k + 1][2] - stops[k][2]))));
  return buffer;
}

/// A grid spacing from 1-2-5 steps that draws at most about a dozen lines.
double grid_step(double extent) {
  for (double step : {0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0}) {
    if (extent / step <= 14.0) return step;
  }
  return 10000.0;
}

struct Frame {
  const FloorSurvey& survey;
  double scale;  // pixels per metre
  double sx(double x) const { return kMargin + (x - survey.x0) * scale; }
  double sz(double z) const { return kMargin + (z - survey.z0) * scale; }
  double t(double y) const {
    return survey.highest > survey.lowest ? (y - survey.lowest) / (survey.highest - survey.lowest) : 0.5;
  }
};

void draw_floors(std::string& svg, const Frame& f) {
  const FloorSurvey& s = f.survey;
  std::size_t layers = 0;
  for (const auto& cell : s.floors) layers = std::max(layers, cell.size());
  for (std::size_t layer = 0; layer < layers; ++layer) {
    svg += layer == 0 ? "<g id=\"floors\" shape-rendering=\"crispEdges\">\n"
                      : "<g class=\"upper\" opacity=\"0.55\" shape-rendering=\"crispEdges\">\n";
    for (int j = 0; j < s.nz; ++j) {
      int i = 0;
      while (i < s.nx) {
        const auto& cell = s.floors[static_cast<std::size_t>(j) * s.nx + i];
        if (cell.size() <= layer) {
          ++i;
          continue;
        }
        const double y = cell[layer].y;
        int end = i + 1;
        while (end < s.nx) {
          const auto& next = s.floors[static_cast<std::size_t>(j) * s.nx + end];
          if (next.size() <= layer || std::abs(next[layer].y - y) >= kSameColour) break;
          ++end;
        }
        svg += "<rect x=\"" + px(f.sx(s.x0 + i * s.pitch)) + "\" y=\"" + px(f.sz(s.z0 + j * s.pitch)) +
               "\" width=\"" + px((end - i) * s.pitch * f.scale) + "\" height=\"" + px(s.pitch * f.scale) +
               "\" fill=\"" + height_colour(f.t(y)) + "\"><title>y " + readable_number(std::round(y * 1000) / 1000) +
               "</title></rect>\n";
        i = end;
      }
    }
    svg += "</g>\n";
  }
}

void draw_edges(std::string& svg, const Frame& f) {
  svg += "<g id=\"edges\" stroke=\"#202020\" stroke-width=\"1.5\" stroke-linecap=\"round\">\n";
  for (const SurveyEdge& e : f.survey.edges) {
    if (e.step) continue;
    svg += "<line x1=\"" + px(f.sx(e.x0)) + "\" y1=\"" + px(f.sz(e.z0)) + "\" x2=\"" + px(f.sx(e.x1)) + "\" y2=\"" +
           px(f.sz(e.z1)) + "\"/>\n";
  }
  svg += "</g>\n<g id=\"risers\" stroke=\"#e8590c\" stroke-width=\"2.5\" stroke-linecap=\"round\">\n";
  for (const SurveyEdge& e : f.survey.edges) {
    if (!e.step) continue;
    svg += "<line x1=\"" + px(f.sx(e.x0)) + "\" y1=\"" + px(f.sz(e.z0)) + "\" x2=\"" + px(f.sx(e.x1)) + "\" y2=\"" +
           px(f.sz(e.z1)) + "\"><title>riser " + readable_number(std::round(e.riser * 1000) / 1000) +
           " m</title></line>\n";
  }
  svg += "</g>\n";
  // One label per riser height per kLabelSpacing metres, so stairs read without clutter.
  struct Label {
    double x, z;
    std::int64_t mm;
  };
  std::vector<Label> labels;
  svg += "<g id=\"riser-labels\" font-family=\"sans-serif\" font-size=\"9\" fill=\"#7a2e00\" "
         "text-anchor=\"middle\">\n";
  for (const SurveyEdge& e : f.survey.edges) {
    if (!e.step || labels.size() >= kMaxLabels) continue;
    const double x = 0.5 * (e.x0 + e.x1), z = 0.5 * (e.z0 + e.z1);
    const std::int64_t mm = std::llround(e.riser * 1000.0);
    const bool near = std::any_of(labels.begin(), labels.end(), [&](const Label& l) {
      return l.mm == mm && std::hypot(l.x - x, l.z - z) < kLabelSpacing;
    });
    if (near) continue;
    labels.push_back({x, z, mm});
    svg += "<text x=\"" + px(f.sx(x)) + "\" y=\"" + px(f.sz(z) - 2) + "\">" +
           readable_number(static_cast<double>(mm) / 1000.0) + "</text>\n";
  }
  svg += "</g>\n";
}

void draw_grid(std::string& svg, const Frame& f) {
  const FloorSurvey& s = f.survey;
  const double x1 = s.x0 + s.nx * s.pitch, z1 = s.z0 + s.nz * s.pitch;
  const double step = grid_step(std::max(x1 - s.x0, z1 - s.z0));
  svg += "<g id=\"grid\" stroke=\"#8a8a8a\" stroke-width=\"0.6\" stroke-dasharray=\"3 3\" font-family=\"sans-serif\" "
         "font-size=\"11\" fill=\"#333\">\n";
  for (double x = std::ceil(s.x0 / step) * step; x <= x1; x += step) {
    svg += "<line x1=\"" + px(f.sx(x)) + "\" y1=\"" + px(f.sz(s.z0)) + "\" x2=\"" + px(f.sx(x)) + "\" y2=\"" +
           px(f.sz(z1)) + "\"/><text stroke=\"none\" text-anchor=\"middle\" x=\"" + px(f.sx(x)) + "\" y=\"" +
           px(kMargin - 6) + "\">" + readable_number(x) + "</text>\n";
  }
  for (double z = std::ceil(s.z0 / step) * step; z <= z1; z += step) {
    svg += "<line x1=\"" + px(f.sx(s.x0)) + "\" y1=\"" + px(f.sz(z)) + "\" x2=\"" + px(f.sx(x1)) + "\" y2=\"" +
           px(f.sz(z)) + "\"/><text stroke=\"none\" text-anchor=\"end\" x=\"" + px(kMargin - 6) + "\" y=\"" +
           px(f.sz(z) + 4) + "\">" + readable_number(z) + "</text>\n";
  }
  svg += "<text stroke=\"none\" x=\"" + px(f.sx(x1) + 4) + "\" y=\"" + px(kMargin - 6) + "\">x</text>\n";
  svg += "<text stroke=\"none\" x=\"" + px(kMargin - 20) + "\" y=\"" + px(f.sz(z1) + 16) + "\">z</text>\n";
  svg += "</g>\n";
}

void draw_markers(std::string& svg, const Frame& f, const std::vector<MapMarker>& markers) {
  if (markers.empty()) return;
  svg += "<g id=\"markers\" font-family=\"sans-serif\" font-size=\"12\">\n";
  for (const MapMarker& m : markers) {
    const std::string cx = px(f.sx(m.x)), cy = px(f.sz(m.z));
    const char* colour = m.spawn ? "#1a7f37" : "#d0021b";
    if (m.spawn) {
      svg += "<path class=\"spawn\" transform=\"translate(" + cx + " " + cy +
             ")\" d=\"M0 -7 L6 0 L0 7 L-6 0 Z\" fill=\"#1a7f37\" stroke=\"white\" stroke-width=\"1.5\"/>";
    } else {
      svg += "<circle cx=\"" + cx + "\" cy=\"" + cy +
             "\" r=\"5\" fill=\"#d0021b\" stroke=\"white\" stroke-width=\"1.5\"/>";
    }
    svg += "<text x=\"" + px(f.sx(m.x) + 7) + "\" y=\"" + px(f.sz(m.z) - 6) + "\" fill=\"" + colour +
           "\" stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\">" + xml_escape(m.label) + " (" +
           readable_number(std::round(m.x * 100) / 100) + ", " + readable_number(std::round(m.z * 100) / 100) +
           ")</text>\n";
  }
  svg += "</g>\n";
}

void draw_legend(std::string& svg, const Frame& f, double top, const std::string& title) {
  const FloorSurvey& s = f.survey;
  svg += "<defs><linearGradient id=\"heights\">";
  for (int k = 0; k <= 4; ++k) {
    svg += "<stop offset=\"" + px(k / 4.0) + "\" stop-color=\"" + height_colour(k / 4.0) + "\"/>";
  }
  svg += "</linearGradient></defs>\n<g id=\"legend\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#222\">\n";
  svg += "<text x=\"" + px(kMargin) + "\" y=\"" + px(22) + "\" font-size=\"15\">" + xml_escape(title) + "</text>\n";
  svg += "<rect x=\"" + px(kMargin) + "\" y=\"" + px(top + 14) + "\" width=\"200\" height=\"12\" fill=\"url(#heights)\"/>\n";
  svg += "<text x=\"" + px(kMargin) + "\" y=\"" + px(top + 42) + "\">y " + readable_number(std::round(s.lowest * 100) / 100) +
         "</text><text x=\"" + px(kMargin + 200) + "\" y=\"" + px(top + 42) + "\" text-anchor=\"end\">y " +
         readable_number(std::round(s.highest * 100) / 100) + "</text>\n";
  svg += "<text x=\"" + px(kMargin + 220) + "\" y=\"" + px(top + 24) +
         "\">walkable floors (slope up to " + readable_number(s.max_slope_deg) +
         " deg) by height; half-transparent: a floor above another; dark lines: walls and drops; orange: risers "
         "(m), max_step_height " + readable_number(s.max_step_height) + "</text>\n";
  svg += "<text x=\"" + px(kMargin + 220) + "\" y=\"" + px(top + 42) + "\">cells of " + readable_number(s.pitch) +
         " m; +x right, +z down, seen from above</text>\n</g>\n";
}

}  // namespace

std::string floor_map_svg(const FloorSurvey& survey, const std::vector<MapMarker>& markers, const std::string& title) {
  const double width_m = survey.nx * survey.pitch, depth_m = survey.nz * survey.pitch;
  const Frame frame{survey, kMapMaxPixels / std::max(width_m, depth_m)};
  const double width = 2 * kMargin + width_m * frame.scale;
  const double height = 2 * kMargin + depth_m * frame.scale + kLegendHeight;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + px(std::max(width, 900.0)) +
                    "\" height=\"" + px(height) + "\" viewBox=\"0 0 " + px(std::max(width, 900.0)) + " " + px(height) +
                    "\">\n<rect width=\"100%\" height=\"100%\" fill=\"#f4f4f4\"/>\n";
  draw_floors(svg, frame);
  draw_grid(svg, frame);
  draw_edges(svg, frame);
  draw_markers(svg, frame, markers);
  draw_legend(svg, frame, kMargin + depth_m * frame.scale + 10, title);
  svg += "</svg>\n";
  return svg;
}

std::string survey_report(const FloorSurvey& survey) {
  constexpr std::size_t kListed = 12;
  std::vector<FloorLevel> levels = floor_levels(survey);
  const std::size_t all = levels.size();
  // The largest, listed by height.
  std::stable_sort(levels.begin(), levels.end(), [](const FloorLevel& a, const FloorLevel& b) { return a.area > b.area; });
  if (levels.size() > kListed) levels.resize(kListed);
  std::sort(levels.begin(), levels.end(), [](const FloorLevel& a, const FloorLevel& b) { return a.y < b.y; });
  std::string text = "floors (walkable, the " + std::to_string(levels.size()) + " largest of " + std::to_string(all) +
                     " heights, to the cm, with 1 m2 or more):";
  for (const FloorLevel& level : levels) {
    text += " y " + readable_number(level.y) + ": " + readable_number(std::round(level.area * 10) / 10) + " m2;";
  }
  if (levels.empty()) text += " none";
  if (text.back() == ';') text.pop_back();
  text += "\nrisers (height jumps between walkable floors up to " + readable_number(kSurveyMaxRiser) +
          " m, in cell sides): " + riser_summary(survey) + "\n";
  if (const std::optional<double> riser = common_riser_over_step(survey)) {
    text += "hint: the most common riser above max_step_height " + readable_number(survey.max_step_height) +
            " m is " + readable_number(*riser) + " m; to climb it set character.settings.max_step_height to " +
            readable_number(std::ceil(*riser * 100.0 + 1.0) / 100.0) + "\n";
  }
  return text;
}

namespace {

/// The level's spawn points (green), then for a scenario its start and targets (red).
std::vector<MapMarker> scenario_markers(const Scenario& scenario, const std::vector<LevelSpawn>& spawns,
                                        bool is_scenario) {
  std::vector<MapMarker> markers;
  for (const LevelSpawn& spawn : spawns) markers.push_back({spawn.position[0], spawn.position[2], spawn.name, true});
  if (!is_scenario) return markers;
  markers.push_back({scenario.character.position[0], scenario.character.position[2], "start"});
  int n = 0;
  for (const InputKey& key : scenario.input) {
    if (!key.steer) continue;
    for (const Vec2& target : key.steer->targets) {
      markers.push_back({target[0], target[1], "target " + std::to_string(++n)});
    }
  }
  return markers;
}

/// "spawn points (green diamonds): spawn_1 (x, y, z), ..." for stdout; "" when the level has none.
std::string spawn_report(const std::vector<LevelSpawn>& spawns) {
  if (spawns.empty()) return "";
  constexpr std::size_t kListed = 8;
  std::string text = "spawn points (" + std::to_string(spawns.size()) + ", green diamonds):";
  for (std::size_t i = 0; i < spawns.size() && i < kListed; ++i) {
    const Vec3& p = spawns[i].position;
    text += std::string(i == 0 ? " " : ", ") + spawns[i].name + " (" + readable_number(std::round(p[0] * 100) / 100) +
            ", " + readable_number(std::round(p[1] * 100) / 100) + ", " +
            readable_number(std::round(p[2] * 100) / 100) + ")";
  }
  if (spawns.size() > kListed) text += ", ...";
  return text + "\n";
}

}  // namespace

MapResult map_level(const MapRequest& request) {
  MapResult result;
  auto refuse = [&result](std::string errors) {
    result.exit_code = kExitInvalid;
    result.errors = std::move(errors);
    return result;
  };
  if (request.pitch < 0.0 || !std::isfinite(request.pitch)) {
    return refuse(error_line("--pitch: expected a number > 0, got " + format_number(request.pitch)));
  }
  LoadOptions options;
  options.allow_outside = request.allow_outside;
  const LoadResult load = load_level_or_scenario(request.source, options);
  if (!load.scenario) return refuse(format_load_errors(load));
  const Scenario& scenario = *load.scenario;
  World world(scenario);
  SurveyOptions survey_options;
  survey_options.pitch = request.pitch;
  survey_options.below = request.below;
  survey_options.above = request.above;
  const FloorSurvey survey = survey_floors(world, scenario, survey_options);
  if (static_cast<double>(survey.nx) * survey.nz > 4e6) {
    return refuse(error_line("--pitch " + readable_number(survey.pitch) + " makes " + std::to_string(survey.nx) +
                             " x " + std::to_string(survey.nz) + " cells; choose a larger one"));
  }
  std::string out = request.out;
  if (out.empty()) out = std::filesystem::path(request.source).replace_extension(".svg").generic_string();
  std::string title = "stepslide map: " + request.source;
  if (request.below) title += ", floors at or below y " + readable_number(*request.below);
  if (request.above) title += ", floors at or above y " + readable_number(*request.above);
  const std::vector<LevelSpawn> spawns = level_spawns(scenario, world);
  const std::string svg =
      floor_map_svg(survey, scenario_markers(scenario, spawns, !is_level_source(request.source)), title);
  if (Status written = write_file_atomic(out, svg); !written) {
    return refuse(error_line("cannot write " + out + ": " + written.error()));
  }
  result.text = "wrote " + out + ": " + std::to_string(survey.nx) + " x " + std::to_string(survey.nz) +
                " cells of " + readable_number(survey.pitch) + " m from x " + readable_number(survey.x0) + " z " +
                readable_number(survey.z0) + "\n" + survey_report(survey) + spawn_report(spawns);
  return result;
}

}  // namespace stepslide
