// The SVG of `stepslide plot`, read back with the strict XML reader and
// counted (one trajectory path per trace in each view, one outline group per
// body, one marker per step) on every scenario in scenarios/; the command end
// to end; and one rendering in headless Chromium, when it is installed.
#include "gate/plot/plot.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "base/format.h"
#include "gate/plot/body_marks.h"
#include "gate/plot/run_events.h"
#include "gate/picture_test_util.h"
#include "scenario/load/load.h"
#include "support/chromium.h"

namespace stepslide::test {
namespace {

/// Steps as the plot draws them: runs of consecutive rows whose step_dy has one sign.
std::size_t step_runs(const Trajectory& t, int sign) {
  const int c = t.column_index("step_dy");
  std::size_t runs = 0;
  int previous = 0;
  for (const auto& row : t.rows) {
    const double dy = c >= 0 ? row[static_cast<std::size_t>(c)] : 0.0;
    const int now = dy > 0 ? 1 : dy < 0 ? -1 : 0;
    runs += now == sign && previous != sign ? 1 : 0;
    previous = now;
  }
  return runs;
}

std::size_t rows_where(const Trajectory& t, const char* column, const std::function<bool(double)>& test) {
  const int c = t.column_index(column);
  std::size_t n = 0;
  for (const auto& row : t.rows) n += c >= 0 && test(row[static_cast<std::size_t>(c)]) ? 1 : 0;
  return n;
}

/// The tick interval the legend announces ("every 10 ticks ...").
long legend_tick_interval(const Node& svg) {
  const std::string text = only(svg, element("g", "legend"), "legend")->all_text();
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("every ([0-9]+) ticks"))) return -1;
  return std::stol(m[1]);
}

/// Runs of consecutive rows where `test` holds on `column`.
std::size_t row_runs(const Trajectory& t, const char* column, const std::function<bool(double)>& test) {
  const int c = t.column_index(column);
  std::size_t runs = 0;
  bool previous = false;
  for (const auto& row : t.rows) {
    const bool now = c >= 0 && test(row[static_cast<std::size_t>(c)]);
    runs += now && !previous ? 1 : 0;
    previous = now;
  }
  return runs;
}

/// The time view: four strips; a line per trace for height, speed and camera;
/// one bar per grounded or stuck stretch of each trace; one marker per step.
void expect_time_view_structure(const Node& svg, const std::vector<const Trajectory*>& traces) {
  const Node* view = only(svg, element("g", "time-view"), "time view");
  ASSERT_TRUE(view);
  const std::vector<const Node*> strips = view->find_all(element("g", "time-strip"));
  ASSERT_EQ(strips.size(), 4u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(count(*strips[i], element("path", "time-line")), traces.size()) << strips[i]->attribute("data-strip");
  }
  std::size_t grounded = 0, stuck = 0, ups = 0, downs = 0;
  for (const Trajectory* t : traces) {
    grounded += row_runs(*t, "grounded", [](double g) { return g != 0; });
    stuck += row_runs(*t, "stuck", [](double v) { return v != 0; });
    ups += step_runs(*t, 1);
    downs += step_runs(*t, -1);
  }
  EXPECT_EQ(count(*strips[3], element("rect", "grounded-span")), grounded);
  EXPECT_EQ(count(*strips[3], element("rect", "stuck-span")), stuck);
  EXPECT_EQ(count(*strips[0], element("polygon", "step-up")), ups);
  EXPECT_EQ(count(*strips[0], element("polygon", "step-down")), downs);
}

/// What every plot must hold, checked against the scenario and its traces.
void expect_plot_structure(const std::string& svg_text, const Scenario& scenario,
                           const std::vector<const Trajectory*>& traces, const std::string& what) {
  SCOPED_TRACE(what);
  const std::unique_ptr<Node> svg = parse_xml(svg_text);
  ASSERT_TRUE(svg);
  EXPECT_EQ(svg->name, "svg");
  EXPECT_EQ(svg->attribute("xmlns"), "http://www.w3.org/2000/svg");
  const Node* top = only(*svg, element("g", "top-view"), "top view");
  const Node* side = only(*svg, element("g", "side-view"), "side view");
  ASSERT_TRUE(top && side);
  expect_time_view_structure(*svg, traces);
  for (const Node* view : {top, side}) {
    const std::vector<const Node*> paths = view->find_all(element("path", "trajectory"));
    ASSERT_EQ(paths.size(), traces.size()) << "one trajectory path per trace in " << view->attribute("class");
    for (std::size_t k = 0; k < paths.size(); ++k) {
      EXPECT_EQ(paths[k]->attribute("data-trace"), std::to_string(traces.size() - 1 - k));  // reference first
      EXPECT_EQ(paths[k]->attribute("d").rfind("M", 0), 0u);
    }
    std::size_t ups = 0, downs = 0;
    for (const Trajectory* t : traces) {
      ups += step_runs(*t, 1);
      downs += step_runs(*t, -1);
    }
    EXPECT_EQ(count(*view, element("polygon", "step-up")), ups);
    EXPECT_EQ(count(*view, element("polygon", "step-down")), downs);
    const long interval = legend_tick_interval(*svg);
    ASSERT_GT(interval, 0);
    EXPECT_EQ(count(*view, element("circle", "tick-mark")),
              rows_where(*traces[0], "tick", [&](double tick) { return static_cast<long>(tick) % interval == 0; }));
    const bool any_airborne = std::any_of(traces.begin(), traces.end(), [](const Trajectory* t) {
      return rows_where(*t, "grounded", [](double g) { return g == 0; }) > 0;
    });
    EXPECT_EQ(count(*view, element("path", "airborne")) > 0, any_airborne);
  }
  // One outline group per body, only in the top view, each with a polygon.
  const std::vector<const Node*> bodies = svg->find_all(element("g", "body"));
  EXPECT_EQ(bodies.size(), scenario.world.size());
  EXPECT_EQ(top->find_all(element("g", "body")).size(), scenario.world.size());
  for (const Node* body : bodies) {
    EXPECT_GE(count(*body, element("polygon")), 1u) << body->attribute("data-body");
    const bool moving = count(*body, element("polygon", "pose-start")) > 0;
    EXPECT_EQ(moving, count(*body, element("polygon", "pose-end")) > 0) << body->attribute("data-body");
  }
  // Self-contained: nothing fetched, nothing run.
  EXPECT_EQ(svg_text.find("<script"), std::string::npos);
  EXPECT_EQ(svg_text.find("href"), std::string::npos);
  EXPECT_EQ(svg_text.find("http://", svg_text.find('>')), std::string::npos);
}

// ---------------------------------------------------------------------------
// The pieces

TEST(PlotSvg, StairsRunOverItsGoldenHasOnePathPerTraceAndOneOutlinePerBody) {
  const std::string path = kSource + "/scenarios/stairs/up_straight.json";
  const Scenario scenario = load_or_die(path);
  const SimulationResult run = simulate(scenario);
  const std::optional<Trajectory> golden = read_trajectory(golden_of(path));
  ASSERT_TRUE(golden);
  const std::string svg = plot_svg(scenario, {{"this run", &run.trajectory}, {"golden", &*golden}}, std::nullopt);
  expect_plot_structure(svg, scenario, {&run.trajectory, &*golden}, "up_straight");
  // The stairs are drawn step by step: one polygon per step.
  const std::unique_ptr<Node> root = parse_xml(svg);
  ASSERT_TRUE(root);
  int stairs_bodies = 0;
  for (const Node* body : root->find_all(element("g", "body"))) {
    for (std::size_t i = 0; i < scenario.world.size(); ++i) {
      if (scenario.world[i].shape.type == ShapeType::Stairs && scenario.world[i].name == body->attribute("data-body")) {
        EXPECT_EQ(count(*body, element("polygon")), static_cast<std::size_t>(scenario.world[i].shape.steps));
        ++stairs_bodies;
      }
    }
  }
  EXPECT_EQ(stairs_bodies, 1);
  EXPECT_GT(rows_where(run.trajectory, "step_dy", [](double v) { return v > 0; }), 0u) << "the run climbs";
}

TEST(PlotSvg, EveryScenarioPlotsOverItsGolden) {
  const std::vector<std::string> scenarios = every_scenario();
  ASSERT_GE(scenarios.size(), 30u);
  std::size_t with_golden = 0;
  for (const std::string& path : scenarios) {
    const Scenario scenario = load_or_die(path);
    const SimulationResult run = simulate(scenario);
    // A scenario whose golden is not blessed yet is drawn alone (check fails it).
    const std::optional<Trajectory> golden = read_trajectory(golden_of(path));
    std::vector<PlotTrace> traces{{"this run", &run.trajectory}};
    std::vector<const Trajectory*> drawn{&run.trajectory};
    if (golden) {
      traces.push_back({"golden", &*golden});
      drawn.push_back(&*golden);
      ++with_golden;
    }
    // The other characters' paths follow ("characters"), from the run's columns.
    std::vector<Trajectory> others;
    others.reserve(scenario.others.size());
    for (const OtherCharacter& other : scenario.others) {
      others.push_back(columns_of(run.trajectory, other.def.name + "."));
      drawn.push_back(&others.back());
    }
    const DiffResult diff = golden ? diff_trajectories(*golden, run.trajectory, default_diff_rules()) : DiffResult{};
    expect_plot_structure(plot_svg(scenario, traces, diff.first), scenario, drawn, path);
  }
  EXPECT_GE(with_golden, 30u);
}

TEST(PlotSvg, MarksTheFirstDivergenceInBothViewsAndTheLegend) {
  const std::string path = kSource + "/scenarios/stairs/up_straight.json";
  Scenario scenario = load_or_die(path);
  scenario.character.settings.max_step_height = 0.15;  // too low for these stairs: the run stops at the first riser
  const SimulationResult run = simulate(scenario);
  const std::optional<Trajectory> golden = read_trajectory(golden_of(path));
  ASSERT_TRUE(golden);
  const DiffResult diff = diff_trajectories(*golden, run.trajectory, default_diff_rules());
  ASSERT_FALSE(diff.equal);
  ASSERT_TRUE(diff.first);
  const std::string svg = plot_svg(scenario, {{"this run", &run.trajectory}, {"golden", &*golden}}, diff.first);
  expect_plot_structure(svg, scenario, {&run.trajectory, &*golden}, "divergent");
  const std::unique_ptr<Node> root = parse_xml(svg);
  ASSERT_TRUE(root);
  for (const char* view : {"top-view", "side-view"}) {
    const Node* v = only(*root, element("g", view), view);
    ASSERT_TRUE(v);
    const Node* marker = only(*v, element("g", "divergence"), "divergence marker");
    ASSERT_TRUE(marker);
    EXPECT_EQ(count(*marker, element("circle")), 2u) << "a ring on each trajectory";
  }
  const std::string legend = only(*root, element("g", "legend"), "legend")->all_text();
  std::ostringstream expected;
  expected << "first divergence at tick " << diff.first->tick << ", column " << diff.first->column;
  EXPECT_NE(legend.find(expected.str()), std::string::npos) << legend;
}

TEST(PlotSvg, MarksEachFailedExpectationOnEveryViewAndListsItInTheLegend) {
  const std::string path = kSource + "/scenarios/stairs/up_straight.json";
  Scenario scenario = load_or_die(path);
  scenario.character.settings.max_step_height = 0.15;  // stops at the first riser: its expectations fail
  const SimulationResult run = simulate(scenario);
  ASSERT_GE(run.expectation_failures.size(), 2u);
  PlotOptions options;
  options.expectation_failures = run.expectation_failures;
  const std::string svg = plot_svg(scenario, {{"this run", &run.trajectory}}, std::nullopt, options);
  expect_plot_structure(svg, scenario, {&run.trajectory}, "failing");
  const std::unique_ptr<Node> root = parse_xml(svg);
  ASSERT_TRUE(root);
  const std::size_t failures = run.expectation_failures.size();
  for (const char* view : {"top-view", "side-view"}) {
    const Node* v = only(*root, element("g", view), view);
    ASSERT_TRUE(v);
    const std::vector<const Node*> marks = v->find_all(element("g", "expectation-failure"));
    ASSERT_EQ(marks.size(), failures) << view;
    for (std::size_t i = 0; i < failures; ++i) {
      EXPECT_EQ(marks[i]->attribute("data-check"), run.expectation_failures[i].check);
      EXPECT_EQ(marks[i]->attribute("data-tick"), std::to_string(run.expectation_failures[i].tick));
      EXPECT_EQ(count(*marks[i], element("line")), 4u) << "a cross on a white halo";
      EXPECT_NE(marks[i]->all_text().find("E" + std::to_string(i + 1)), std::string::npos);
    }
  }
  const Node* time = only(*root, element("g", "time-view"), "time view");
  ASSERT_TRUE(time);
  EXPECT_EQ(count(*time, element("g", "time-expectation-failure")), failures);
  const std::string legend = only(*root, element("g", "legend"), "legend")->all_text();
  EXPECT_NE(legend.find("failed expectation (E1, E2, ...: listed below)"), std::string::npos) << legend;
  EXPECT_NE(legend.find("E1 " + run.expectation_failures[0].check + " at tick " +
                        std::to_string(run.expectation_failures[0].tick)),
            std::string::npos)
      << legend;

  // Without failures nothing is marked.
  const std::string passing = plot_svg(scenario, {{"this run", &run.trajectory}}, std::nullopt);
  EXPECT_EQ(passing.find("expectation-failure"), std::string::npos);
}

TEST(PlotSvg, InsideALevelTheTopViewShadesTheFloorsWalkedOnNotTheRoof) {
  const std::string path = kSource + "/scenarios/levels/oa_dm3/stairs_8u_up.json";
  const Scenario scenario = load_or_die(path);
  const std::optional<Trajectory> golden = read_trajectory(golden_of(path));
  ASSERT_TRUE(golden);
  const std::string svg = plot_svg(scenario, {{"golden", &*golden}}, std::nullopt);
  const std::unique_ptr<Node> root = parse_xml(svg);
  ASSERT_TRUE(root);
  const Node* top = only(*root, element("g", "top-view"), "top view");
  ASSERT_TRUE(top);
  EXPECT_GT(count(*top, element("polygon", "floor")), 50u);
  EXPECT_EQ(count(*top, element("polygon", "extent")), 1u);
  EXPECT_EQ(count(*top, element("path", "wall")), 1u);
  // The scale is the floors' heights, from the corridor to the landing (the
  // roof is at 15.9 m): "surface height -13.312 to ..." rather than one value.
  const std::string legend = only(*root, element("g", "legend"), "legend")->all_text();
  std::smatch m;
  ASSERT_TRUE(std::regex_search(legend, m, std::regex("surface height (-?[0-9.]+) to (-?[0-9.]+) m"))) << legend;
  EXPECT_NEAR(std::stod(m[1]), -13.312, 1e-3);
  EXPECT_GT(std::stod(m[2]), -10.8);
  EXPECT_LT(std::stod(m[2]), -8.9) << "nothing higher than the head at the top of the stairs";
  EXPECT_NE(legend.find("wall, where it crosses the character's waist"), std::string::npos);
  EXPECT_NE(legend.find("above the head"), std::string::npos);
}

TEST(PlotSvg, NoReferenceMeansOnePathPerViewAndNoDivergence) {
  const Scenario scenario = load_or_die(kSource + "/scenarios/basics/jump.json");
  const SimulationResult run = simulate(scenario);
  const std::string svg = plot_svg(scenario, {{"this run", &run.trajectory}}, std::nullopt);
  expect_plot_structure(svg, scenario, {&run.trajectory}, "jump");
  const std::unique_ptr<Node> root = parse_xml(svg);
  ASSERT_TRUE(root);
  EXPECT_EQ(count(*root, element("g", "divergence")), 0u);
  EXPECT_GT(count(*root, element("path", "airborne")), 0u) << "a jump is airborne";
}

TEST(PlotSvg, MovingBodiesShowTheirStartAndEndPoses) {
  const Scenario scenario = load_or_die(kSource + "/scenarios/platforms/linear_mover.json");
  const SimulationResult run = simulate(scenario);
  const std::unique_ptr<Node> root = parse_xml(plot_svg(scenario, {{"run", &run.trajectory}}, std::nullopt));
  ASSERT_TRUE(root);
  std::size_t moving = 0;
  for (const Node* body : root->find_all(element("g", "body"))) {
    const std::vector<const Node*> start = body->find_all(element("polygon", "pose-start"));
    const std::vector<const Node*> end = body->find_all(element("polygon", "pose-end"));
    if (start.empty()) continue;
    ++moving;
    ASSERT_EQ(start.size(), end.size());
    EXPECT_NE(start[0]->attribute("points"), end[0]->attribute("points")) << "the mover moved";
    EXPECT_EQ(count(*body, element("line", "motion")), 1u) << "an arrow from start to end";
  }
  std::size_t defined = 0;
  for (const BodyDef& body : scenario.world) defined += body.motion.type != MotionType::None ? 1 : 0;
  EXPECT_EQ(moving, defined);
  EXPECT_GT(moving, 0u);
}

// A dynamic body is drawn where its columns put it (the world holds only its
// start): a light crate walked into ends elsewhere, with outlines at ticks
// along the way, and the pushes are marked with their body and ticks.
TEST(PlotSvg, ADynamicBodyIsDrawnFromItsColumnsAndThePushesAreMarked) {
  const Scenario scenario = load_or_die(kSource + "/scenarios/dynamic/crate_light.json");
  RunEventRecorder recorder(scenario);
  const SimulationResult run = simulate(scenario, recorder.options());
  ASSERT_FALSE(recorder.events().pushes.empty());
  PlotOptions options;
  options.events = &recorder.events();
  const std::unique_ptr<Node> root = parse_xml(plot_svg(scenario, {{"run", &run.trajectory}}, std::nullopt, options));
  ASSERT_TRUE(root);
  const Node* crate = nullptr;
  for (const Node* body : root->find_all(element("g", "body"))) {
    if (body->attribute("data-body") == "crate") crate = body;
  }
  ASSERT_TRUE(crate);
  const std::vector<const Node*> start = crate->find_all(element("polygon", "pose-start"));
  const std::vector<const Node*> end = crate->find_all(element("polygon", "pose-end"));
  ASSERT_EQ(start.size(), 1u);
  ASSERT_EQ(end.size(), 1u);
  EXPECT_NE(start[0]->attribute("points"), end[0]->attribute("points")) << "the crate was pushed away";
  EXPECT_EQ(count(*crate, element("polygon", "pose-sample")), static_cast<std::size_t>(plot::kBodySamples));
  const std::vector<const Node*> pushes = root->find_all(element("g", "push"));
  ASSERT_FALSE(pushes.empty());
  EXPECT_EQ(pushes[0]->attribute("data-body"), "crate");
  EXPECT_NE(only(*root, element("g", "legend"), "legend")->all_text().find("character pushed"), std::string::npos);
  // Without the recorder the same run draws the bodies and no push.
  const std::unique_ptr<Node> plain = parse_xml(plot_svg(scenario, {{"run", &run.trajectory}}, std::nullopt));
  EXPECT_TRUE(plain->find_all(element("g", "push")).empty());
}

TEST(PlotSvg, OneWayBodiesAndCrouchedRowsAreMarked) {
  const Scenario oneway = load_or_die(kSource + "/scenarios/oneway/box_jump_through_and_land.json");
  const SimulationResult jump = simulate(oneway);
  const std::unique_ptr<Node> a = parse_xml(plot_svg(oneway, {{"run", &jump.trajectory}}, std::nullopt));
  ASSERT_TRUE(a);
  const std::vector<const Node*> marks = a->find_all(element("g", "one-way"));
  std::size_t defined = 0;
  for (const BodyDef& body : oneway.world) defined += body.one_way ? 1 : 0;
  EXPECT_EQ(marks.size(), defined);
  ASSERT_FALSE(marks.empty());
  EXPECT_NE(marks[0]->all_text().find("blocks from above"), std::string::npos);

  const Scenario crouch = load_or_die(kSource + "/scenarios/crouch/box_stand_up_after_ceiling.json");
  RunEventRecorder recorder(crouch);
  const SimulationResult run = simulate(crouch, recorder.options());
  ASSERT_EQ(recorder.events().height.size(), run.trajectory.rows.size());
  const std::vector<bool> crouched = recorder.events().crouched(crouch);
  EXPECT_TRUE(std::find(crouched.begin(), crouched.end(), true) != crouched.end());
  EXPECT_TRUE(std::find(crouched.begin(), crouched.end(), false) != crouched.end());
  PlotOptions options;
  options.events = &recorder.events();
  const std::unique_ptr<Node> b = parse_xml(plot_svg(crouch, {{"run", &run.trajectory}}, std::nullopt, options));
  EXPECT_EQ(b->find_all(element("path", "crouched")).size(), 1u);
  // The recorder only reads: the trajectory is the plain run's.
  EXPECT_EQ(simulate(crouch).trajectory.rows, run.trajectory.rows);
}

TEST(PlotSvg, ARunThatStaysPutIsDrawnAgainstTime) {
  const Scenario scenario = load_or_die(kSource + "/scenarios/platforms/elevator_up.json");
  const SimulationResult run = simulate(scenario);
  const std::unique_ptr<Node> root = parse_xml(plot_svg(scenario, {{"run", &run.trajectory}}, std::nullopt));
  ASSERT_TRUE(root);
  const Node* side = only(*root, element("g", "side-view"), "side view");
  ASSERT_TRUE(side);
  EXPECT_NE(side->all_text().find("time (s)"), std::string::npos);
  const Scenario walking = load_or_die(kSource + "/scenarios/basics/walk_flat.json");
  const SimulationResult walk = simulate(walking);
  const std::unique_ptr<Node> walk_root = parse_xml(plot_svg(walking, {{"run", &walk.trajectory}}, std::nullopt));
  ASSERT_TRUE(walk_root);
  EXPECT_NE(only(*walk_root, element("g", "side-view"), "side")->all_text().find("distance travelled (m)"),
            std::string::npos);
}

TEST(PlotSvg, SameInputsGiveTheSameBytes) {
  const Scenario scenario = load_or_die(kSource + "/scenarios/stairs/up_spiral.json");
  const SimulationResult run = simulate(scenario);
  EXPECT_EQ(plot_svg(scenario, {{"run", &run.trajectory}}, std::nullopt),
            plot_svg(scenario, {{"run", &run.trajectory}}, std::nullopt));
}

TEST(PlotSvg, NamesAreEscapedAndIdsArePrefixed) {
  const std::string text = R"({"format": "stepslide/scenario@1", "name": "a <b> & \"c\"", "ticks": 20,
    "description": "tab\tand 'quotes' <here>",
    "world": [{"name": "floor <&>", "shape": {"type": "box", "half_extents": [5, 0.5, 5]}, "position": [0, -0.5, 0]},
              {"name": "caf\u00e9 ramp", "shape": {"type": "ramp", "length": 2, "width": 1, "angle_deg": 20},
               "position": [0, 0, -1]}],
    "input": [{"tick": 0, "move": [0, 1]}]})";
  const LoadResult load = load_scenario_text(text, "escape.json");
  ASSERT_TRUE(load.scenario) << format_load_errors(load);
  const SimulationResult run = simulate(*load.scenario);
  PlotOptions options;
  options.id_prefix = "zz9";
  const std::string svg = plot_svg(*load.scenario, {{"run <1>", &run.trajectory}}, std::nullopt, options);
  const std::unique_ptr<Node> root = parse_xml(svg);
  ASSERT_TRUE(root);
  const std::vector<const Node*> bodies = root->find_all(element("g", "body"));
  ASSERT_EQ(bodies.size(), 2u);
  EXPECT_EQ(bodies[0]->attribute("data-body"), "floor <&>");
  EXPECT_EQ(bodies[1]->attribute("data-body"), "caf\xC3\xA9 ramp");
  EXPECT_GT(count(*bodies[1], element("polygon")), 1u) << "a ramp is drawn in bands";
  for (const Node* n : root->find_all([](const Node& e) { return !e.attribute("id").empty(); })) {
    EXPECT_EQ(n->attribute("id").rfind("zz9-", 0), 0u) << n->attribute("id");
  }
  EXPECT_NE(root->all_text().find("a <b> & \"c\""), std::string::npos);
}

TEST(PlotSvg, RefusesATraceWithoutPositions) {
  const Scenario scenario = load_or_die(kSource + "/scenarios/basics/walk_flat.json");
  Trajectory partial;
  partial.columns = {"tick", "x", "y"};
  partial.rows = {{0, 0, 0}};
  EXPECT_EQ(missing_plot_columns(partial), std::vector<std::string>{"z"});
  EXPECT_THROW(plot_svg(scenario, {{"partial", &partial}}, std::nullopt), std::invalid_argument);
}

// ---------------------------------------------------------------------------
// The commands, run as a user would

class PlotCommand : public CommandTest {};

TEST_F(PlotCommand, PlotsEveryScenarioOverItsGolden) {
  for (const std::string& scenario : every_scenario()) {
    const bool has_golden = fs::exists(golden_of(scenario));
    const RunResult r = run("plot '" + scenario + "'" + (has_golden ? " --golden '" + golden_of(scenario) + "'" : "") +
                         " --out plot.svg");
    // 0 when the run matches its golden, 1 (picture still written) when it does not: check says the same.
    EXPECT_TRUE(r.code == 0 || r.code == 1) << scenario << "\n" << r.out << r.err;
    if (has_golden) {
      EXPECT_NE(r.out.find(r.code == 0 ? "; matches " : "; differs from "), std::string::npos) << r.out;
    }
    const std::unique_ptr<Node> svg = parse_xml(slurp(dir_ / "plot.svg"));
    EXPECT_TRUE(svg) << scenario;
    fs::remove(dir_ / "plot.svg");
  }
}

TEST_F(PlotCommand, ExitCodesAndNoPartialOutput) {
  const std::string stairs = kSource + "/scenarios/stairs/up_straight.json";
  write("low.json", with_low_step(stairs));
  // Differs from the golden: the picture is written, exit 1, the divergence named.
  RunResult r = run("plot low.json --golden '" + golden_of(stairs) + "' --out low.svg");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("first divergence at tick"), std::string::npos) << r.out;
  ASSERT_TRUE(fs::exists(dir_ / "low.svg"));
  const std::unique_ptr<Node> svg = parse_xml(slurp(dir_ / "low.svg"));
  ASSERT_TRUE(svg);
  EXPECT_EQ(count(*svg, element("g", "divergence")), 2u);
  // --against takes any trajectory: the golden of the same run matches.
  r = run("plot '" + stairs + "' --against '" + golden_of(stairs) + "' --out -");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("<svg", 0), 0u) << "the SVG goes to stdout";
  EXPECT_NE(r.err.find("matches"), std::string::npos) << r.err;
  // Bad inputs: exit 2, nothing written.
  write("broken.csv", "tick,time\n0,0\n");
  r = run("plot '" + stairs + "' --against broken.csv --out bad1.svg");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("broken.csv: expected columns x, y and z to plot, missing x, y, z"), std::string::npos) << r.err;
  write("invalid.json", R"({"format": "stepslide/scenario@1", "ticks": 0})");
  r = run("plot invalid.json --out bad2.svg");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("invalid.json: /ticks: expected an integer >= 1"), std::string::npos) << r.err;
  r = run("plot '" + stairs + "' --golden a.csv --against b.csv --out bad3.svg");
  EXPECT_EQ(r.code, 2);
  r = run("plot '" + stairs + "' --golden missing.csv --out bad4.svg");
  EXPECT_EQ(r.code, 2);
  for (const char* name : {"bad1.svg", "bad2.svg", "bad3.svg", "bad4.svg"}) EXPECT_FALSE(fs::exists(dir_ / name)) << name;
}

// ---------------------------------------------------------------------------
// Headless Chromium: the pictures render to something a person can see.

TEST_F(PlotCommand, ChromiumRendersThePlotOfAScenario) {
  const std::string chromium = chromium_binary();
  if (chromium.empty()) GTEST_SKIP() << kNoChromium;
  const PlotShot shot = plot_and_screenshot(chromium, "stairs/up_straight.json");
  ASSERT_TRUE(shot.svg);
  const std::optional<Image>& image = shot.image;
  ASSERT_TRUE(image) << "no readable PNG";
  const int width = std::stoi(shot.svg->attribute("width")), height = std::stoi(shot.svg->attribute("height"));
  EXPECT_EQ(image->width, static_cast<unsigned>(width));
  EXPECT_EQ(image->height, static_cast<unsigned>(height));
  const std::size_t total = static_cast<std::size_t>(image->width) * image->height;
  const std::size_t white = pixels_near(*image, 255, 255, 255, 3);
  EXPECT_GT(total - white, total / 5) << "at least a fifth of the picture is drawn on";
  EXPECT_GT(distinct_colours(*image), 40u) << "shaded level, lines and text";
  EXPECT_GT(pixels_near(*image, 0x15, 0x65, 0xc0, 40), 300u) << "the run's blue line is visible";
  EXPECT_GT(pixels_near(*image, 0x00, 0x89, 0x7b, 40), 50u) << "step-up markers are visible";
}

}  // namespace
}  // namespace stepslide::test
