// The time view of `stepslide plot` and `check --report`: strips against tick
// read back with the strict XML reader and measured in pixels (a divergence is
// one line at its tick through every strip, a timing-only change separates
// the lines, a stall is a flat zero-speed run under a red band), the side view
// keeps the ground in view under a fall, and Chromium renders it.
#include "gate/plot/plot.h"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>

#include "gate/picture_test_util.h"
#include "gate/plot/geometry.h"
#include "gate/plot/side_view.h"
#include "gate/plot/traces.h"
#include "stepslide/character.h"
#include "support/chromium.h"

namespace stepslide::test {
namespace {

struct Point {
  double x = 0, y = 0;
};

/// The points of SVG path data made of M and L commands.
std::vector<Point> path_points(const std::string& d) {
  std::vector<Point> points;
  const std::regex pair("[ML](-?[0-9.]+) (-?[0-9.]+)");
  for (auto it = std::sregex_iterator(d.begin(), d.end(), pair); it != std::sregex_iterator(); ++it) {
    points.push_back({std::stod((*it)[1]), std::stod((*it)[2])});
  }
  return points;
}

/// The strip of the time view showing `kind` (height, speed, camera, contact).
const Node* strip(const Node& svg, const std::string& kind) {
  const std::vector<const Node*> found =
      svg.find_all([&](const Node& n) { return n.name == "g" && n.has_class("time-strip") && n.attribute("data-strip") == kind; });
  EXPECT_EQ(found.size(), 1u) << kind;
  return found.empty() ? nullptr : found.front();
}

/// A strip's plotting area: its background, the first rect in it.
struct Area {
  double left = 0, top = 0, width = 0, height = 0;
  double bottom() const { return top + height; }
};
Area area_of(const Node& strip_node) {
  const Node* rect = strip_node.child("rect");
  EXPECT_TRUE(rect);
  if (rect == nullptr) return {};
  return {std::stod(rect->attribute("x")), std::stod(rect->attribute("y")), std::stod(rect->attribute("width")),
          std::stod(rect->attribute("height"))};
}

/// The points of trace `trace`'s line in a strip.
std::vector<Point> line_of(const Node& strip_node, const std::string& kind, int trace) {
  for (const Node* path : strip_node.find_all(element("path", "time-line"))) {
    if (path->has_class(kind) && path->attribute("data-trace") == std::to_string(trace)) {
      return path_points(path->attribute("d"));
    }
  }
  ADD_FAILURE() << "no " << kind << " line for trace " << trace;
  return {};
}

/// A scenario of `ticks` ticks on a floor; the stick pushed from tick 0 when `pushed`.
Scenario flat_scenario(int ticks, bool pushed) {
  const std::string text = R"({"format": "stepslide/scenario@1", "name": "stall", "ticks": )" + std::to_string(ticks) +
                           R"(, "world": [{"name": "floor", "shape": {"type": "box", "half_extents": [50, 0.5, 50]},
                                            "position": [0, -0.5, 0]}])" +
                           (pushed ? R"(, "input": [{"tick": 0, "move": [0, 1]}]})" : "}");
  const LoadResult load = load_scenario_text(text, "stall.json");
  if (!load.scenario) throw std::runtime_error(format_load_errors(load));
  return *load.scenario;
}

/// A hand-made trajectory at 60 Hz along -z: moving 3 m/s, then still over
/// rows [still_from, still_to], then moving again.
Trajectory walk_with_pause(int rows, int still_from, int still_to) {
  Trajectory t;
  t.columns = {"tick", "time", "x", "y", "z", "grounded", "step_dy", "camera_dy", "stuck"};
  double z = 0;
  for (int i = 0; i <= rows; ++i) {
    if (i > 0 && (i <= still_from || i > still_to)) z -= 3.0 / 60;
    t.rows.push_back({static_cast<double>(i), i / 60.0, 0, 0, z, 1, 0, 0, 0});
  }
  return t;
}

// ---------------------------------------------------------------------------

TEST(TimeView, HasFourStripsOnOneTickAxisWithALinePerTrace) {
  const std::string path = kSource + "/scenarios/stairs/up_straight.json";
  const Scenario scenario = load_or_die(path);
  const SimulationResult run = simulate(scenario);
  const std::optional<Trajectory> golden = read_trajectory(golden_of(path));
  ASSERT_TRUE(golden);
  const std::unique_ptr<Node> svg =
      parse_xml(plot_svg(scenario, {{"this run", &run.trajectory}, {"golden", &*golden}}, std::nullopt));
  ASSERT_TRUE(svg);
  const Node* view = only(*svg, element("g", "time-view"), "time view");
  ASSERT_TRUE(view);
  std::vector<std::string> kinds;
  for (const Node* s : view->find_all(element("g", "time-strip"))) kinds.push_back(s->attribute("data-strip"));
  EXPECT_EQ(kinds, (std::vector<std::string>{"height", "speed", "camera", "contact"}));
  // The strips share one tick axis: the same left edge and width, top to bottom.
  double previous_bottom = 0;
  for (const std::string& kind : kinds) {
    const Area a = area_of(*strip(*view, kind));
    EXPECT_EQ(a.left, area_of(*strip(*view, "height")).left) << kind;
    EXPECT_EQ(a.width, area_of(*strip(*view, "height")).width) << kind;
    EXPECT_GT(a.top, previous_bottom) << kind;
    previous_bottom = a.bottom();
  }
  for (const char* kind : {"height", "speed", "camera"}) {
    EXPECT_EQ(count(*strip(*view, kind), element("path", "time-line")), 2u) << kind << ": run and golden";
  }
  // Lanes: the run and the golden are grounded all along, one bar each, and never stuck.
  EXPECT_EQ(count(*strip(*view, "contact"), element("rect", "grounded-span")), 2u);
  EXPECT_EQ(count(*strip(*view, "contact"), element("rect", "stuck-span")), 0u);
  EXPECT_EQ(count(*view, element("g", "time-divergence")), 0u);
  // Tick numbers only under the last strip, from 0 to the last tick.
  const std::string axis = strip(*view, "contact")->all_text();
  EXPECT_NE(axis.find(" 0 "), std::string::npos) << axis;
  EXPECT_NE(axis.find(" 90"), std::string::npos) << axis;
  EXPECT_NE(view->all_text().find("tick (60 per second)"), std::string::npos);
}

TEST(TimeView, MarksTheFirstDivergenceOnceThroughEveryStripAtItsTick) {
  const std::string path = kSource + "/scenarios/stairs/up_straight.json";
  Scenario scenario = load_or_die(path);
  scenario.character.settings.max_step_height = 0.15;
  const SimulationResult run = simulate(scenario);
  const std::optional<Trajectory> golden = read_trajectory(golden_of(path));
  ASSERT_TRUE(golden);
  const DiffResult diff = diff_trajectories(*golden, run.trajectory, default_diff_rules());
  ASSERT_TRUE(diff.first);
  const std::unique_ptr<Node> svg =
      parse_xml(plot_svg(scenario, {{"this run", &run.trajectory}, {"golden", &*golden}}, diff.first));
  ASSERT_TRUE(svg);
  const Node* view = only(*svg, element("g", "time-view"), "time view");
  ASSERT_TRUE(view);
  const Node* marker = only(*view, element("g", "time-divergence"), "divergence marker");
  ASSERT_TRUE(marker);
  const Node* line = marker->child("line");
  ASSERT_TRUE(line);
  const Area top = area_of(*strip(*view, "height")), bottom = area_of(*strip(*view, "contact"));
  EXPECT_EQ(line->attribute("x1"), line->attribute("x2"));
  EXPECT_NEAR(std::stod(line->attribute("x1")), top.left + diff.first->tick / 90.0 * top.width, 0.01);
  EXPECT_NEAR(std::stod(line->attribute("y1")), top.top, 0.01);
  EXPECT_NEAR(std::stod(line->attribute("y2")), bottom.bottom(), 0.01);
  std::ostringstream expected;
  expected << "first divergence at tick " << diff.first->tick << ", column " << diff.first->column;
  EXPECT_NE(marker->all_text().find(expected.str()), std::string::npos) << marker->all_text();
  // Stopped at the first riser with the stick pushed: a stall, under the divergence.
  const std::vector<const Node*> stalls = view->find_all(element("g", "stalled"));
  ASSERT_EQ(stalls.size(), 1u);
  EXPECT_EQ(stalls[0]->attribute("data-last"), "90");
}

TEST(TimeView, ATimingOnlyChangeSeparatesTheLinesAgainstTick) {
  // walk_speed 6 instead of 5 climbs the same stairs along the same line:
  // the top and side views overlap, the time view does not.
  const std::string path = kSource + "/scenarios/stairs/up_straight.json";
  Scenario scenario = load_or_die(path);
  scenario.character.settings.walk_speed = 6;
  const SimulationResult run = simulate(scenario);
  const std::optional<Trajectory> golden = read_trajectory(golden_of(path));
  ASSERT_TRUE(golden);
  const DiffResult diff = diff_trajectories(*golden, run.trajectory, default_diff_rules());
  const std::unique_ptr<Node> svg =
      parse_xml(plot_svg(scenario, {{"this run", &run.trajectory}, {"golden", &*golden}}, diff.first));
  ASSERT_TRUE(svg);
  // Speed: the run's line tops out 1 m/s higher, a sixth of the golden's top speed.
  const Node* speed = strip(*svg, "speed");
  ASSERT_TRUE(speed);
  auto highest = [](const std::vector<Point>& points) {
    double y = 1e9;
    for (const Point& p : points) y = std::min(y, p.y);
    return y;
  };
  const Area speed_area = area_of(*speed);
  const double run_top = speed_area.bottom() - highest(line_of(*speed, "speed", 0));
  const double golden_top = speed_area.bottom() - highest(line_of(*speed, "speed", 1));
  EXPECT_NEAR(run_top / golden_top, 6.0 / 5.0, 0.05);
  // Height: the run reaches the landing (its highest point) at least 5 ticks earlier.
  const Node* height = strip(*svg, "height");
  ASSERT_TRUE(height);
  auto reaches_top = [&](const std::vector<Point>& points) {
    const double top = highest(points);
    for (const Point& p : points) {
      if (p.y < top + 0.5) return p.x;
    }
    return 0.0;
  };
  const Area height_area = area_of(*height);
  const double pixels_per_tick = height_area.width / 90.0;
  EXPECT_GT(reaches_top(line_of(*height, "height", 1)) - reaches_top(line_of(*height, "height", 0)),
            5 * pixels_per_tick);
}

TEST(TimeView, AStallIsAFlatRunAtZeroSpeedUnderARedBand) {
  // Feet flat in x and z over rows 20-80 with the stick pushed all along.
  const Trajectory t = walk_with_pause(100, 20, 80);
  const Scenario scenario = flat_scenario(100, /*pushed=*/true);
  const std::unique_ptr<Node> svg = parse_xml(plot_svg(scenario, {{"synthetic", &t}}, std::nullopt));
  ASSERT_TRUE(svg);
  const Node* speed = strip(*svg, "speed");
  ASSERT_TRUE(speed);
  const std::vector<const Node*> bands = speed->find_all(element("g", "still"));
  ASSERT_EQ(bands.size(), 1u);
  EXPECT_TRUE(bands[0]->has_class("stalled"));
  EXPECT_EQ(bands[0]->attribute("data-first"), "20");
  EXPECT_EQ(bands[0]->attribute("data-last"), "80");
  EXPECT_NE(bands[0]->all_text().find("stalled 60 ticks"), std::string::npos) << bands[0]->all_text();
  // The run's speed line lies on the zero line from tick 21 to tick 80, and only there.
  const Area a = area_of(*speed);
  const double per_tick = a.width / 100.0;
  std::size_t flat = 0;
  for (const Point& p : line_of(*speed, "speed", 0)) {
    const double tick = (p.x - a.left) / per_tick;
    const bool at_zero = std::fabs(p.y - a.bottom()) < 0.01;
    if (tick > 20.5 && tick < 80.5) {
      EXPECT_TRUE(at_zero) << "tick " << tick << " at y " << p.y;
      flat += at_zero ? 1 : 0;
    } else {
      EXPECT_FALSE(at_zero) << "tick " << tick << " is moving";
    }
  }
  EXPECT_EQ(flat, 60u) << "one point per still tick";
  // The top view says so where the tick marks pile up.
  const Node* top = only(*svg, element("g", "top-view"), "top view");
  ASSERT_TRUE(top);
  const Node* mark = only(*top, element("g", "still-mark"), "stall mark");
  ASSERT_TRUE(mark);
  EXPECT_NE(mark->all_text().find("stalled 60 ticks (20-80)"), std::string::npos) << mark->all_text();
  EXPECT_NE(only(*svg, element("g", "legend"), "legend")->all_text().find("stalled"), std::string::npos);
}

TEST(TimeView, StandingStillWithoutInputIsStillNotStalledAndAShortPauseIsNothing) {
  const Trajectory rest = walk_with_pause(100, 20, 80);
  std::unique_ptr<Node> svg = parse_xml(plot_svg(flat_scenario(100, /*pushed=*/false), {{"rest", &rest}}, std::nullopt));
  ASSERT_TRUE(svg);
  const std::vector<const Node*> bands = strip(*svg, "speed")->find_all(element("g", "still"));
  ASSERT_EQ(bands.size(), 1u);
  EXPECT_FALSE(bands[0]->has_class("stalled"));
  EXPECT_NE(bands[0]->all_text().find("still 60 ticks"), std::string::npos);
  // 20 ticks at 60 Hz is a third of a second: a pause, not marked.
  const Trajectory pause = walk_with_pause(100, 20, 40);
  svg = parse_xml(plot_svg(flat_scenario(100, true), {{"pause", &pause}}, std::nullopt));
  ASSERT_TRUE(svg);
  EXPECT_EQ(count(*svg, element("g", "still")), 0u);
  EXPECT_EQ(count(*svg, element("g", "still-mark")), 0u);
}

TEST(TimeView, AMillionTickRunDrawsAFewPointsAPixelAndKeepsItsPeaks) {
  // 200 000 rows walking at 3 m/s, one row jumping 1 m sideways (60 m/s),
  // grounded on every other row.
  Trajectory t = walk_with_pause(200000, 0, 0);
  const int x = t.column_index("x"), grounded = t.column_index("grounded");
  for (std::size_t i = 100000; i < t.rows.size(); ++i) t.rows[i][static_cast<std::size_t>(x)] = 1.0;
  for (std::size_t i = 0; i < t.rows.size(); i += 2) t.rows[i][static_cast<std::size_t>(grounded)] = 0;
  const std::string text = plot_svg(flat_scenario(200000, true), {{"long", &t}}, std::nullopt);
  const std::unique_ptr<Node> svg = parse_xml(text);
  ASSERT_TRUE(svg);
  const Node* speed = strip(*svg, "speed");
  ASSERT_TRUE(speed);
  const Area a = area_of(*speed);
  const std::vector<Point> points = line_of(*speed, "speed", 0);
  EXPECT_LE(points.size(), static_cast<std::size_t>(4 * (a.width + 1))) << "at most four points a pixel column";
  double top = 1e9;
  for (const Point& p : points) top = std::min(top, p.y);
  EXPECT_LT(top, a.top + 0.1 * a.height) << "the one-row spike is the highest point drawn";
  EXPECT_LE(count(*strip(*svg, "contact"), element("rect", "grounded-span")), static_cast<std::size_t>(a.width))
      << "flickering grounded: at most a bar a pixel";
  EXPECT_LT(text.size(), 2'000'000u);
}

TEST(TimeView, StickPushedFollowsTheInputKeysOfTheTickBefore) {
  const std::string text = R"({"format": "stepslide/scenario@1", "ticks": 6,
    "world": [{"shape": {"type": "box", "half_extents": [5, 0.5, 5]}, "position": [0, -0.5, 0]}],
    "input": [{"tick": 1, "move": [0, 1]}, {"tick": 2, "jump": true}, {"tick": 3, "move": [0, 0]},
              {"tick": 4, "wish_velocity": [1, 0]}, {"tick": 5, "move": [0, 0]}]})";
  const LoadResult load = load_scenario_text(text, "keys.json");
  ASSERT_TRUE(load.scenario) << format_load_errors(load);
  const SimulationResult run = simulate(*load.scenario);
  const plot::TraceData data = plot::trace_data(plot::make_frame({0, 1, 0}), {"run", &run.trajectory}, 60);
  // Row r comes from the input of tick r - 1; a key holds until another changes it.
  EXPECT_EQ(plot::stick_pushed(*load.scenario, data), (std::vector<bool>{false, false, true, true, false, true, false}));
}

// Steering pushes until the feet reach the last target: the plot replays the
// arrival from the rows and agrees with the sticks the runner used.
TEST(TimeView, StickPushedFollowsSteeringUntilTheArrival) {
  const std::string text = R"({"format": "stepslide/scenario@1", "ticks": 120,
    "world": [{"shape": {"type": "box", "half_extents": [5, 0.5, 5]}, "position": [0, -0.5, 0]}],
    "input": [{"tick": 2, "waypoints": [[1, 0], [1, -1]]}, {"tick": 90, "move": [0, 1]}, {"tick": 95, "move_to": [0, 0]}]})";
  const LoadResult load = load_scenario_text(text, "steer.json");
  ASSERT_TRUE(load.scenario) << format_load_errors(load);
  std::vector<bool> used;  // per row: whether the input that made it pushed
  SimulationOptions options;
  options.on_tick = [&](const TickView& view) {
    used.push_back(view.tick > 0 && (view.input.move_right != 0.0 || view.input.move_forward != 0.0));
  };
  const SimulationResult run = simulate(*load.scenario, options);
  const plot::TraceData data = plot::trace_data(plot::make_frame({0, 1, 0}), {"run", &run.trajectory}, 60);
  const std::vector<bool> pushed = plot::stick_pushed(*load.scenario, data);
  EXPECT_EQ(pushed, used);
  EXPECT_TRUE(pushed[3]);
  EXPECT_FALSE(pushed[89]) << "arrived before the move key";
  EXPECT_TRUE(pushed[93]);
}

TEST(TimeView, LanesShowWhereEachTraceIsStuck) {
  const std::string path = kSource + "/scenarios/platforms/crushed.json";
  const Scenario scenario = load_or_die(path);
  const SimulationResult run = simulate(scenario);
  const int stuck = run.trajectory.column_index("stuck");
  std::vector<std::pair<int, int>> spans;  // stuck row ranges
  for (std::size_t i = 0; i < run.trajectory.rows.size(); ++i) {
    if (run.trajectory.rows[i][static_cast<std::size_t>(stuck)] == 0) continue;
    if (spans.empty() || spans.back().second + 1 != static_cast<int>(i)) spans.emplace_back(i, i);
    spans.back().second = static_cast<int>(i);
  }
  ASSERT_FALSE(spans.empty()) << "the crusher wedges the character";
  const std::unique_ptr<Node> svg = parse_xml(plot_svg(scenario, {{"run", &run.trajectory}}, std::nullopt));
  ASSERT_TRUE(svg);
  const std::vector<const Node*> bars = strip(*svg, "contact")->find_all(element("rect", "stuck-span"));
  ASSERT_EQ(bars.size(), spans.size());
  for (std::size_t k = 0; k < spans.size(); ++k) {
    const std::string ticks = spans[k].first == spans[k].second
                                  ? "tick " + std::to_string(spans[k].first)
                                  : "ticks " + std::to_string(spans[k].first) + "-" + std::to_string(spans[k].second);
    EXPECT_EQ(bars[k]->all_text(), "stuck-span, " + ticks);
  }
}

TEST(SideView, AFallKeepsTheGroundBelowItInView) {
  // Dropped from 12 m for 40 ticks: the run ends near 10 m, the floor is at 0.
  const std::string text = R"({"format": "stepslide/scenario@1", "name": "falling", "ticks": 40,
    "character": {"position": [0, 12, 0]},
    "world": [{"name": "floor", "shape": {"type": "box", "half_extents": [5, 0.5, 5]}, "position": [0, -0.5, 0]}],
    "input": [{"tick": 0, "move": [0, 1]}]})";
  const LoadResult load = load_scenario_text(text, "falling.json");
  ASSERT_TRUE(load.scenario) << format_load_errors(load);
  const SimulationResult run = simulate(*load.scenario);
  const std::unique_ptr<Node> svg = parse_xml(plot_svg(*load.scenario, {{"run", &run.trajectory}}, std::nullopt));
  ASSERT_TRUE(svg);
  const Node* side = only(*svg, element("g", "side-view"), "side view");
  ASSERT_TRUE(side);
  const Node* background = side->child("rect");
  ASSERT_TRUE(background);
  const double top = std::stod(background->attribute("y"));
  const double bottom = top + std::stod(background->attribute("height"));
  const Node* ground = only(*side, element("path", "ground"), "ground");
  ASSERT_TRUE(ground);
  // The ground's upper edge (every point not on the fill's bottom line) is
  // inside the panel, with ground visible below it.
  std::size_t edge = 0;
  for (const Point& p : path_points(ground->attribute("d"))) {
    if (p.y >= bottom) continue;
    ++edge;
    EXPECT_GT(p.y, top);
    EXPECT_LT(p.y, bottom - 8) << "a slab of floor shows under the surface";
  }
  EXPECT_GT(edge, 10u);
}

TEST(SideView, EveryScenarioShowsAllTheGroundUnderItsRun) {
  for (const std::string& path : every_scenario()) {
    const Scenario scenario = load_or_die(path);
    const SimulationResult run = simulate(scenario);
    const plot::Frame frame = plot::make_frame(scenario.up);
    World world(scenario);
    const std::vector<plot::TraceData> data{plot::trace_data(frame, {"run", &run.trajectory}, scenario.tick_rate)};
    const plot::SideView view = plot::side_view(frame, world, data);
    for (const auto& [row, h] : view.profile) {
      if (!std::isfinite(h)) continue;
      EXPECT_LT(view.world.y0, h - 0.1) << path << " row " << row << ": ground at " << h << " below the view";
      EXPECT_GT(view.world.y1, h) << path;
    }
  }
}

// ---------------------------------------------------------------------------
// Headless Chromium: what a person sees.

class TimeViewRendering : public CommandTest {};

TEST_F(TimeViewRendering, ChromiumShowsAStallAsARedBandAndTheLanes) {
  const std::string chromium = chromium_binary();
  if (chromium.empty()) GTEST_SKIP() << kNoChromium;
  // riser_too_tall walks into a 0.5 m riser and stays there for 108 ticks.
  const PlotShot shot = plot_and_screenshot(chromium, "stairs/riser_too_tall.json");
  ASSERT_TRUE(shot.svg);
  const std::unique_ptr<Node>& svg = shot.svg;
  const std::optional<Image>& image = shot.image;
  ASSERT_TRUE(image) << "no readable PNG";
  const int height = std::stoi(svg->attribute("height"));
  EXPECT_EQ(image->height, static_cast<unsigned>(height));
  // The stalled band covers ticks 12-120 of a 900-pixel, 100-pixel-high strip.
  const Area band = area_of(*strip(*svg, "speed"));
  EXPECT_GT(pixels_near(*image, 0xf9, 0xd6, 0xd2, 6), static_cast<std::size_t>(0.8 * band.width * band.height * 108 / 120))
      << "the red stall band is visible";
  // Two grounded lanes a full strip wide: the run's blue and the golden's pale orange.
  EXPECT_GT(pixels_near(*image, 0x39, 0x7b, 0xc8, 30), 8000u) << "the run's grounded lane";
}

}  // namespace
}  // namespace stepslide::test
