// Pictures and failure reports: the SVG of `stepslide plot` and the HTML of
// `check --report`, read back with a strict XML reader and counted (one
// trajectory path per trace in each view, one outline group per body, one
// marker per step), on every scenario in scenarios/; the commands end
// to end; and one rendering of each in headless Chromium, when it is installed.
#include "gate/plot.h"

#include <gtest/gtest.h>
#include <png.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "base/file_io.h"
#include "base/format.h"
#include "gate/gate.h"
#include "scenario/json_reader.h"
#include "gate/report.h"
#include "xml_check.h"

namespace stepslide {
namespace {

namespace fs = std::filesystem;
using xml_check::element;
using xml_check::Node;

const std::string kSource = STEPSLIDE_SOURCE_DIR;

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> every_scenario() { return discover_scenarios({kSource + "/scenarios"}).files; }

std::string golden_of(const std::string& scenario) {
  return golden_path_for(scenario, kSource + "/scenarios", kSource + "/golden");
}

Scenario load_or_die(const std::string& path) {
  const LoadResult load = load_scenario_file(path);
  if (!load.scenario) throw std::runtime_error(path + " does not load: " + format_load_errors(load));
  return *load.scenario;
}

std::optional<Trajectory> read_trajectory(const std::string& path) {
  Expected<Trajectory> t = read_trajectory_file(path);
  return t ? std::optional<Trajectory>(t.take()) : std::nullopt;
}

std::unique_ptr<Node> parse_xml(const std::string& text) {
  xml_check::Reader reader(text);
  std::unique_ptr<Node> root = reader.read();
  EXPECT_TRUE(root) << reader.error();
  return root;
}

const Node* only(const Node& root, const std::function<bool(const Node&)>& match, const char* what) {
  const std::vector<const Node*> found = root.find_all(match);
  EXPECT_EQ(found.size(), 1u) << what;
  return found.empty() ? nullptr : found.front();
}

std::size_t count(const Node& root, const std::function<bool(const Node&)>& match) {
  return root.find_all(match).size();
}

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
    EXPECT_EQ(count(*view, element("path", "airborne")) > 0,
              rows_where(*traces[0], "grounded", [](double g) { return g == 0; }) > 0 ||
                  (traces.size() > 1 && rows_where(*traces[1], "grounded", [](double g) { return g == 0; }) > 0));
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
// plot_svg

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

class PlotCli : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("stepslide_plot_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  struct Result {
    int code = -1;
    std::string out, err;
  };

  /// `stepslide ARGS` in the temp dir, without the test's CI or colour settings.
  Result run(const std::string& args, const std::string& env = "") const {
    const std::string command = "cd '" + dir_.string() + "' && env -u CI -u NO_COLOR -u GTEST_TOTAL_SHARDS " +
                                "-u GTEST_SHARD_INDEX " + env + " '" STEPSLIDE_BINARY "' " + args +
                                " >.stdout 2>.stderr";
    const int status = std::system(command.c_str());
    Result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(dir_ / ".stdout");
    r.err = slurp(dir_ / ".stderr");
    return r;
  }

  /// Copies a scenario and its golden from the repository into the temp dir.
  void copy_case(const std::string& rel, bool with_golden = true) const {
    fs::create_directories((dir_ / "scenarios" / rel).parent_path());
    fs::copy_file(kSource + "/scenarios/" + rel, dir_ / "scenarios" / rel);
    if (!with_golden) return;
    const std::string golden_rel = fs::path(rel).replace_extension(".csv").string();
    fs::create_directories((dir_ / "golden" / golden_rel).parent_path());
    fs::copy_file(kSource + "/golden/" + golden_rel, dir_ / "golden" / golden_rel);
  }

  void write(const std::string& rel, const std::string& text) const {
    fs::create_directories((dir_ / rel).parent_path());
    std::ofstream(dir_ / rel, std::ios::binary) << text;
  }

  fs::path dir_;
};

/// The scenario's text with max_step_height lowered (too low for its stairs).
std::string with_low_step(const std::string& scenario_path) {
  strict_json::ParsedJson parsed = strict_json::parse_json(slurp(scenario_path), 64, 10);
  if (!parsed.ok) throw std::runtime_error("cannot parse " + scenario_path);
  parsed.document["character"]["settings"]["max_step_height"] = 0.15;
  return parsed.document.dump(2);
}

TEST_F(PlotCli, PlotsEveryScenarioOverItsGolden) {
  for (const std::string& scenario : every_scenario()) {
    const bool has_golden = fs::exists(golden_of(scenario));
    const Result r = run("plot '" + scenario + "'" + (has_golden ? " --golden '" + golden_of(scenario) + "'" : "") +
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

TEST_F(PlotCli, ExitCodesAndNoPartialOutput) {
  const std::string stairs = kSource + "/scenarios/stairs/up_straight.json";
  write("low.json", with_low_step(stairs));
  // Differs from the golden: the picture is written, exit 1, the divergence named.
  Result r = run("plot low.json --golden '" + golden_of(stairs) + "' --out low.svg");
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

TEST_F(PlotCli, CheckReportListsEveryScenarioAndDrawsEachFailure) {
  copy_case("basics/walk_flat.json");
  copy_case("stairs/up_straight.json");
  copy_case("stairs/down_straight.json", /*with_golden=*/false);
  write("scenarios/stairs/up_straight.json", with_low_step(kSource + "/scenarios/stairs/up_straight.json"));
  write("scenarios/zz_invalid.json", R"({"format": "stepslide/scenario@1", "ticks": "many"})");

  const Result r = run("check --report out/report");
  EXPECT_EQ(r.code, 2) << "an invalid scenario makes it 2\n" << r.out << r.err;
  EXPECT_NE(r.out.find("report: out/report/index.html"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 passed, 3 failed"), std::string::npos) << r.out;
  const std::string html = slurp(dir_ / "out/report/index.html");
  const std::unique_ptr<Node> page = parse_xml(html);
  ASSERT_TRUE(page);
  EXPECT_EQ(page->name, "html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);

  // Every scenario listed with its status.
  const std::vector<const Node*> rows = page->find_all(element("tr", "outcome"));
  ASSERT_EQ(rows.size(), 4u);
  std::map<std::string, std::string> status;
  for (const Node* row : rows) {
    const std::string text = row->all_text();
    for (const char* word : {"PASS", "FAIL", "INVALID"}) {
      if (text.find(word) != std::string::npos) status[row->find_all(element("code"))[0]->all_text()] = word;
    }
  }
  const std::map<std::string, std::string> expected_status = {
      {"scenarios/basics/walk_flat.json", "PASS"},
      {"scenarios/stairs/up_straight.json", "FAIL"},
      {"scenarios/stairs/down_straight.json", "FAIL"},
      {"scenarios/zz_invalid.json", "INVALID"},
  };
  EXPECT_EQ(status, expected_status);

  // One section per failure; the regression has its divergence, worst errors and picture.
  const std::vector<const Node*> sections = page->find_all(element("section", "failure"));
  ASSERT_EQ(sections.size(), 3u);
  const Node* regression = nullptr;
  for (const Node* s : sections) {
    if (s->all_text().find("up_straight") != std::string::npos) regression = s;
  }
  ASSERT_TRUE(regression);
  Scenario low = load_or_die((dir_ / "scenarios/stairs/up_straight.json").string());
  const SimulationResult run_low = simulate(low);
  const std::optional<Trajectory> golden = read_trajectory(kSource + "/golden/stairs/up_straight.csv");
  ASSERT_TRUE(golden);
  const DiffResult diff = diff_trajectories(*golden, run_low.trajectory, default_diff_rules());
  ASSERT_TRUE(diff.first);
  const Node* first = only(*regression, element("table", "first-divergence"), "first divergence table");
  ASSERT_TRUE(first);
  const std::vector<const Node*> cells = first->find_all(element("td"));
  ASSERT_GE(cells.size(), 4u);
  EXPECT_EQ(cells[0]->all_text(), format_number(diff.first->tick));
  EXPECT_EQ(cells[1]->all_text(), diff.first->column);
  EXPECT_EQ(cells[2]->all_text(), diff.first->expected);
  EXPECT_EQ(cells[3]->all_text(), diff.first->actual);
  const Node* worst = only(*regression, element("table", "worst-errors"), "worst error table");
  ASSERT_TRUE(worst);
  EXPECT_EQ(count(*worst, element("tr")), diff.worst.size() + 1) << "a header and one row per column";
  const Node* svg = only(*regression, element("svg"), "picture");
  ASSERT_TRUE(svg);
  EXPECT_EQ(count(*svg, element("g", "divergence")), 2u);
  EXPECT_EQ(count(*svg, element("path", "trajectory")), 4u) << "run and golden, in both views";
  // The missing golden still gets a picture of the run alone; the invalid file gets none.
  std::size_t pictures = 0;
  for (const Node* s : sections) pictures += count(*s, element("svg"));
  EXPECT_EQ(pictures, 2u);
  // Ids stay unique when several pictures share the page.
  std::set<std::string> ids;
  for (const Node* n : page->find_all([](const Node& e) { return !e.attribute("id").empty(); })) {
    EXPECT_TRUE(ids.insert(n->attribute("id")).second) << "duplicate id " << n->attribute("id");
  }
}

TEST_F(PlotCli, CheckReportOnEveryScenarioAgreesWithTheTextOutput) {
  const std::size_t total = every_scenario().size();
  const Result r = run("check --scenario-root '" + kSource + "/scenarios' --golden-dir '" + kSource +
                       "/golden' --report report");
  EXPECT_TRUE(r.code == 0 || r.code == 1) << r.out << r.err;
  const std::unique_ptr<Node> page = parse_xml(slurp(dir_ / "report/index.html"));
  ASSERT_TRUE(page);
  const std::vector<const Node*> rows = page->find_all(element("tr", "outcome"));
  EXPECT_EQ(rows.size(), total);
  std::size_t failures = 0;
  for (const Node* row : rows) {
    const std::string name = row->find_all(element("code"))[0]->all_text();
    const bool passed = row->has_class("pass");
    failures += passed ? 0 : 1;
    EXPECT_NE(r.out.find((passed ? "PASS " : "FAIL ") + name), std::string::npos) << name;
  }
  EXPECT_EQ(count(*page, element("section", "failure")), failures);
  EXPECT_NE(r.out.find(std::to_string(total - failures) + " passed, " + std::to_string(failures) + " failed"),
            std::string::npos);
}

TEST_F(PlotCli, ReportDirectoryThatCannotBeWrittenIsAnError) {
  copy_case("basics/walk_flat.json");
  write("blocker", "a file where the report directory should go");
  const Result r = run("check --report blocker/sub");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("cannot write blocker/sub/index.html"), std::string::npos) << r.err;
}

// ---------------------------------------------------------------------------
// Headless Chromium: the pictures render to something a person can see.

std::string chromium_binary() {
  if (const char* set = std::getenv("STEPSLIDE_CHROMIUM"); set != nullptr && *set != '\0') return set;
  for (const char* name : {"chromium", "chromium-browser"}) {
    if (std::system(("command -v " + std::string(name) + " >/dev/null 2>&1").c_str()) == 0) return name;
  }
  return "";
}

struct Image {
  unsigned width = 0, height = 0;
  std::vector<unsigned char> rgb;
};

std::optional<Image> read_png(const fs::path& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) return std::nullopt;
  image.format = PNG_FORMAT_RGB;
  Image out;
  out.width = image.width;
  out.height = image.height;
  out.rgb.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, out.rgb.data(), 0, nullptr)) return std::nullopt;
  return out;
}

/// Screenshots `page` (a file) at W x H with the flags headless Chromium needs as root.
std::optional<Image> screenshot(const std::string& chromium, const fs::path& page, int width, int height,
                                const fs::path& work) {
  const fs::path profile = work / "profile";
  const fs::path png = work / "shot.png";
  fs::create_directories(profile);
  const std::string command = "timeout 120 " + chromium +
                              " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
                              "--disable-background-networking --disable-component-update --disable-sync "
                              "--hide-scrollbars --user-data-dir='" + profile.string() + "' --screenshot='" +
                              png.string() + "' --window-size=" + std::to_string(width) + "," +
                              std::to_string(height) + " 'file://" + page.string() + "' >'" +
                              (work / "chromium.log").string() + "' 2>&1";
  const int status = std::system(command.c_str());
  EXPECT_EQ(status, 0) << command << "\n" << slurp(work / "chromium.log");
  return read_png(png);
}

/// Pixels within `tolerance` of `rgb` on every channel.
std::size_t pixels_near(const Image& image, unsigned r, unsigned g, unsigned b, int tolerance) {
  std::size_t n = 0;
  for (std::size_t i = 0; i + 2 < image.rgb.size(); i += 3) {
    n += std::abs(image.rgb[i] - static_cast<int>(r)) <= tolerance &&
                 std::abs(image.rgb[i + 1] - static_cast<int>(g)) <= tolerance &&
                 std::abs(image.rgb[i + 2] - static_cast<int>(b)) <= tolerance
             ? 1
             : 0;
  }
  return n;
}

std::size_t distinct_colours(const Image& image) {
  std::set<unsigned> colours;
  for (std::size_t i = 0; i + 2 < image.rgb.size(); i += 3) {
    colours.insert((image.rgb[i] >> 3) << 10 | (image.rgb[i + 1] >> 3) << 5 | (image.rgb[i + 2] >> 3));
  }
  return colours.size();
}

TEST_F(PlotCli, ChromiumRendersThePlotOfAScenario) {
  const std::string chromium = chromium_binary();
  if (chromium.empty()) {
    GTEST_SKIP() << "chromium is not installed: run STEPSLIDE_WITH_CHROMIUM=1 tools/install-deps.sh "
                    "(or set STEPSLIDE_CHROMIUM to a Chromium binary) to check the rendering";
  }
  const std::string scenario = kSource + "/scenarios/stairs/up_straight.json";
  const Result r = run("plot '" + scenario + "' --golden '" + golden_of(scenario) + "' --out plot.svg");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::unique_ptr<Node> svg = parse_xml(slurp(dir_ / "plot.svg"));
  ASSERT_TRUE(svg);
  const int width = std::stoi(svg->attribute("width")), height = std::stoi(svg->attribute("height"));
  const std::optional<Image> image = screenshot(chromium, dir_ / "plot.svg", width, height, dir_);
  ASSERT_TRUE(image) << "no readable PNG";
  EXPECT_EQ(image->width, static_cast<unsigned>(width));
  EXPECT_EQ(image->height, static_cast<unsigned>(height));
  const std::size_t total = static_cast<std::size_t>(image->width) * image->height;
  const std::size_t white = pixels_near(*image, 255, 255, 255, 3);
  EXPECT_GT(total - white, total / 5) << "at least a fifth of the picture is drawn on";
  EXPECT_GT(distinct_colours(*image), 40u) << "shaded level, lines and text";
  EXPECT_GT(pixels_near(*image, 0x15, 0x65, 0xc0, 40), 300u) << "the run's blue line is visible";
  EXPECT_GT(pixels_near(*image, 0x00, 0x89, 0x7b, 40), 50u) << "step-up markers are visible";
}

TEST_F(PlotCli, ChromiumRendersTheReport) {
  const std::string chromium = chromium_binary();
  if (chromium.empty()) {
    GTEST_SKIP() << "chromium is not installed: run STEPSLIDE_WITH_CHROMIUM=1 tools/install-deps.sh "
                    "(or set STEPSLIDE_CHROMIUM to a Chromium binary) to check the rendering";
  }
  copy_case("stairs/up_straight.json");
  write("scenarios/stairs/up_straight.json", with_low_step(kSource + "/scenarios/stairs/up_straight.json"));
  const Result r = run("check --report report");
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  const std::optional<Image> image = screenshot(chromium, dir_ / "report/index.html", 1100, 1400, dir_);
  ASSERT_TRUE(image) << "no readable PNG";
  EXPECT_EQ(image->width, 1100u);
  EXPECT_GT(pixels_near(*image, 0xc6, 0x28, 0x28, 30), 100u) << "the red FAIL badges are visible";
  EXPECT_GT(pixels_near(*image, 0x15, 0x65, 0xc0, 40), 100u) << "the inline plot is drawn";
}

}  // namespace
}  // namespace stepslide
