// `stepslide view` without a browser: what the page holds (bodies, poses,
// runs, divergence, trace), that the same inputs give the same bytes, that a
// trajectory of another scenario is refused with nothing written, and the
// command's options and exit codes. The browser tests are in
// view_chromium_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <regex>

#include "gate/picture_test_util.h"
#include "gate/trace/trace.h"
#include "gate/view/encoding.h"
#include "gate/view/view.h"
#include "gate/view/view_test_util.h"

namespace stepslide::test {
namespace {

Scenario scenario(const std::string& rel) { return load_or_die(kSource + "/scenarios/" + rel); }

Trajectory golden(const std::string& rel) {
  std::optional<Trajectory> t = read_trajectory(kSource + "/golden/" + rel);
  if (!t) throw std::runtime_error("cannot read golden " + rel);
  return *t;
}

/// The page for `request` with the stand-in scripts; fails the test on an error.
std::string page(ViewRequest request) {
  const view::ThreeJs three = fake_three();
  request.three = &three;
  const Expected<ViewResult> result = view_html(request);
  EXPECT_TRUE(result.ok()) << result.error();
  return result ? result->html : "";
}

std::vector<double> column(const ViewJson& run, const std::string& name) {
  const ViewJson& c = run["columns"][name];
  std::vector<double> values;
  const double scale = std::pow(10.0, c["digits"].get<int>());
  for (std::int64_t n : view::delta_decode(c["delta"], 1)) values.push_back(static_cast<double>(n) / scale);
  return values;
}

TEST(ViewHtml, HoldsEveryBodyThePosesOfMovingOnesAndTheRun) {
  const Scenario s = scenario("platforms/elevator_up.json");
  ViewRequest request;
  request.scenario = &s;
  const ViewJson data = page_data(page(request));
  EXPECT_EQ(data["format"], "stepslide/view@1");
  EXPECT_EQ(data["ticks"], ViewJson::array({0, s.ticks}));
  ASSERT_EQ(data["bodies"].size(), s.world.size());
  int moving = 0;
  for (std::size_t i = 0; i < s.world.size(); ++i) {
    const ViewJson& body = data["bodies"][i];
    EXPECT_EQ(body["moving"].get<bool>(), s.world[i].motion.type != MotionType::None);
    if (!body["moving"].get<bool>()) {
      EXPECT_FALSE(body.contains("poses"));
      continue;
    }
    ++moving;
    EXPECT_EQ(body["poses"]["delta"].size(), 7u * static_cast<std::size_t>(s.ticks + 1));
  }
  EXPECT_GE(moving, 1);
  ASSERT_EQ(data["runs"].size(), 1u);
  EXPECT_EQ(data["runs"][0]["role"], "run");
  EXPECT_TRUE(data["divergence"].is_null());
  EXPECT_TRUE(data["trace"].is_null());

  // The path reads back as the run, to the micrometre.
  const Trajectory run = simulate(s).trajectory;
  const std::vector<double> y = column(data["runs"][0], "y");
  ASSERT_EQ(y.size(), run.rows.size());
  for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], run.rows[i][3], 0.5e-6) << "tick " << i;
  EXPECT_FALSE(data["runs"][0]["columns"].contains("tick"));
  EXPECT_FALSE(data["runs"][0]["columns"].contains("time"));
}

// A dynamic body's poses in the page are its columns, row by row: the crate
// walked into moves between the first frame and the last, and each frame
// reads back as the run's crate.x to the micrometre.
TEST(ViewHtml, ADynamicBodyMovesInTheFramesAsItsColumnsSay) {
  const Scenario s = scenario("dynamic/crate_light.json");
  ViewRequest request;
  request.scenario = &s;
  const ViewJson data = page_data(page(request));
  const Trajectory run = simulate(s).trajectory;
  const int crate_x = run.column_index("crate.x");
  ASSERT_GE(crate_x, 0);
  const ViewJson* crate = nullptr;
  for (const ViewJson& body : data["bodies"]) {
    if (body["name"] == "crate") crate = &body;
  }
  ASSERT_TRUE(crate);
  EXPECT_TRUE((*crate)["moving"].get<bool>());
  const std::vector<std::int64_t> poses = view::delta_decode((*crate)["poses"]["delta"], 7);
  const double scale = std::pow(10.0, (*crate)["poses"]["digits"].get<int>());
  ASSERT_EQ(poses.size(), 7 * run.rows.size());
  for (std::size_t row = 0; row < run.rows.size(); ++row) {
    EXPECT_NEAR(static_cast<double>(poses[7 * row]) / scale, run.cell(row, crate_x), 0.5e-6) << "row " << row;
  }
  const double moved = static_cast<double>(poses[7 * (run.rows.size() - 1)] - poses[0]) / scale;
  EXPECT_GT(std::fabs(moved), 0.5) << "the crate moved between the first frame and the last";
}

/// "characters": every other character with its name and a colour of its
/// own, which the page draws it in and lists in the legend.
TEST(ViewHtml, EveryOtherCharacterHasItsNameAndItsOwnColour) {
  const Scenario s = scenario("characters/layers_pass_through.json");
  ViewRequest request;
  request.scenario = &s;
  const ViewJson data = page_data(page(request));
  ASSERT_EQ(data["characters"].size(), s.others.size());
  std::vector<std::string> colours;
  for (std::size_t i = 0; i < s.others.size(); ++i) {
    const ViewJson& c = data["characters"][i];
    EXPECT_EQ(c["name"], s.others[i].def.name);
    const std::string colour = c["colour"].get<std::string>();
    EXPECT_TRUE(std::regex_match(colour, std::regex("#[0-9a-f]{6}"))) << colour;
    EXPECT_EQ(std::find(colours.begin(), colours.end(), colour), colours.end()) << colour << " twice";
    colours.push_back(colour);
  }
  // The legend is built from them.
  const std::string html = page(request);
  EXPECT_NE(html.find("'character ' + other.name"), std::string::npos);
}

TEST(ViewHtml, OneWayBodiesSayTheirSideAndTheStanceIsShownWhenCrouching) {
  const Scenario oneway = scenario("oneway/box_jump_through_and_land.json");
  ViewRequest a;
  a.scenario = &oneway;
  const ViewJson one = page_data(page(a));
  std::size_t marked = 0;
  for (std::size_t i = 0; i < oneway.world.size(); ++i) {
    EXPECT_EQ(one["bodies"][i].contains("one_way"), oneway.world[i].one_way);
    if (!oneway.world[i].one_way) continue;
    ++marked;
    EXPECT_GT(one["bodies"][i]["one_way"][1].get<double>(), 0) << "blocks from above";
  }
  EXPECT_GE(marked, 1u);
  EXPECT_TRUE(one["stance"].is_null()) << "no crouch_shape, no stance";

  const Scenario crouch = scenario("crouch/box_stand_up_after_ceiling.json");
  ViewRequest b;
  b.scenario = &crouch;
  const ViewJson data = page_data(page(b));
  ASSERT_TRUE(data["stance"].is_object());
  EXPECT_TRUE(data["stance"].contains("mesh"));
  const std::vector<std::int64_t> crouched = view::delta_decode(data["stance"]["crouched"]["delta"], 1);
  ASSERT_EQ(crouched.size(), static_cast<std::size_t>(crouch.ticks + 1));
  EXPECT_NE(std::count(crouched.begin(), crouched.end(), 1), 0);
  EXPECT_NE(std::count(crouched.begin(), crouched.end(), 0), 0);
  // Traced, the same stance.
  b.trace = true;
  const ViewJson traced = page_data(page(b));
  EXPECT_EQ(traced["stance"]["crouched"], data["stance"]["crouched"]);
}

TEST(ViewHtml, InsideALevelThePageCutsItOpenAndElsewhereNot) {
  // oa_dm3's walls rise over the character where it starts: a level.
  const Scenario level = scenario("levels/oa_dm3/stairs_8u_up.json");
  ViewRequest request;
  request.scenario = &level;
  const Trajectory run = golden("levels/oa_dm3/stairs_8u_up.csv");
  request.run = &run;
  const ViewJson data = page_data(page(request));
  ASSERT_TRUE(data["level"].is_object()) << data["level"].dump();
  EXPECT_EQ(data["level"]["digits"], view::kGeometryDigits);
  EXPECT_EQ(data["level"]["character_height"], 18000) << "the default capsule, 1.8 m";
  EXPECT_EQ(data["level"]["cut_above_feet"], 21000) << "0.3 m over its head";
  // Open ground, stairs, a flat mesh floor, a moving platform: drawn as they
  // always were.
  for (const char* rel : {"basics/walk_flat.json", "stairs/up_straight.json", "terrain/mesh_floor.json",
                          "platforms/elevator_up.json"}) {
    const Scenario s = scenario(rel);
    ViewRequest plain;
    plain.scenario = &s;
    EXPECT_TRUE(page_data(page(plain))["level"].is_null()) << rel;
  }
}

TEST(ViewHtml, AGoldenIsAGhostAndTheGatesFirstDivergenceIsMarked) {
  const Scenario low = load_scenario_text(with_low_step(kSource + "/scenarios/stairs/up_straight.json"),
                                          "up_straight.json").scenario.value();
  const Trajectory g = golden("stairs/up_straight.csv");
  ViewRequest request;
  request.scenario = &low;
  request.reference = &g;
  request.reference_label = "golden/stairs/up_straight.csv";
  const view::ThreeJs three = fake_three();
  request.three = &three;
  const Expected<ViewResult> result = view_html(request);
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_FALSE(result->diff->equal);
  EXPECT_FALSE(result->expectation_failures.empty());
  const ViewJson data = page_data(result->html);
  ASSERT_EQ(data["runs"].size(), 2u);
  EXPECT_EQ(data["runs"][1]["role"], "golden");
  EXPECT_EQ(data["runs"][1]["label"], "golden: golden/stairs/up_straight.csv");
  // The step at tick 12 is refused: the feet stay down where the golden's rise.
  EXPECT_EQ(data["divergence"]["tick"], 12);
  EXPECT_EQ(data["divergence"]["column"], "y");
  EXPECT_FALSE(data["expectations"].empty());

  request.reference_is_golden = false;
  EXPECT_EQ(page_data(view_html(request)->html)["runs"][1]["role"], "other");
}

TEST(ViewHtml, AMatchingGoldenHasNoDivergence) {
  const Scenario s = scenario("stairs/up_spiral.json");
  const Trajectory g = golden("stairs/up_spiral.csv");
  ViewRequest request;
  request.scenario = &s;
  request.reference = &g;
  request.reference_label = "g.csv";
  const ViewJson data = page_data(page(request));
  EXPECT_EQ(data["runs"].size(), 2u);
  EXPECT_TRUE(data["divergence"].is_null());
  EXPECT_TRUE(data["structural"].empty());
  // Steps of the spiral are listed, each going up.
  ASSERT_FALSE(data["runs"][0]["steps"].empty());
  for (const ViewJson& step : data["runs"][0]["steps"]) EXPECT_TRUE(step["up"].get<bool>());
}

TEST(ViewHtml, TicksNarrowTheRowsAndPoses) {
  const Scenario s = scenario("platforms/elevator_up.json");
  ViewRequest request;
  request.scenario = &s;
  request.first_tick = 10;
  request.last_tick = 20;
  const ViewJson data = page_data(page(request));
  EXPECT_EQ(data["ticks"], ViewJson::array({10, 20}));
  EXPECT_EQ(column(data["runs"][0], "x").size(), 11u);
  for (const ViewJson& body : data["bodies"]) {
    if (body["moving"].get<bool>()) {
      EXPECT_EQ(body["poses"]["delta"].size(), 7u * 11);
    }
  }
  request.last_tick = s.ticks + 1;
  const view::ThreeJs three = fake_three();
  request.three = &three;
  const Expected<ViewResult> beyond = view_html(request);
  ASSERT_FALSE(beyond.ok());
  EXPECT_CONTAINS(beyond.error(), "expected A..B with 0 <= A <= B <= " + std::to_string(s.ticks));
}

TEST(ViewHtml, TheTraceHoldsTheTicksShownInTheWordsOfTrace) {
  const Scenario s = scenario("stairs/up_straight.json");
  ViewRequest request;
  request.scenario = &s;
  request.trace = true;
  request.first_tick = 12;
  request.last_tick = 13;
  const ViewJson data = page_data(page(request));
  ASSERT_FALSE(data["trace"].is_null());
  EXPECT_EQ(data["trace"]["first"], 12);
  ASSERT_EQ(data["trace"]["ticks"].size(), 2u);
  const std::string printed = trace_scenario(s, {12, 13, false});
  bool stepped = false;
  for (const ViewJson& e : data["trace"]["ticks"][0]) {
    const std::string text = e["text"];
    EXPECT_CONTAINS(printed, "  " + text + "\n");
    if (e["event"] == "sweep" && e["hit"].get<bool>()) {
      EXPECT_TRUE(e.contains("reached"));
      EXPECT_TRUE(e.contains("point"));
      EXPECT_TRUE(e.contains("normal"));
    }
    stepped = stepped || (e["event"] == "step-up" && e["accepted"].get<bool>());
  }
  EXPECT_TRUE(stepped) << "tick 12 of up_straight steps up";

  // Row 0 has no step, so a trace from tick 0 starts at tick 1.
  request.first_tick = 0;
  request.last_tick = 2;
  const ViewJson from_zero = page_data(page(request));
  EXPECT_EQ(from_zero["trace"]["first"], 1);
  EXPECT_EQ(from_zero["trace"]["ticks"].size(), 2u);
}

TEST(ViewHtml, TheSameInputsGiveTheSameBytes) {
  const Scenario s = scenario("platforms/spin_disc.json");
  ViewRequest request;
  request.scenario = &s;
  request.trace = true;
  const std::string first = page(request);
  EXPECT_EQ(page(request), first);
  const Trajectory run = simulate(s).trajectory;
  request.trace = false;
  request.run = &run;
  request.reference = &run;
  request.reference_label = "same";
  EXPECT_EQ(page(request), page(request));
}

TEST(ViewHtml, ATrajectoryOfAnotherScenarioIsRefused) {
  const Scenario s = scenario("stairs/up_straight.json");
  const Trajectory g = golden("stairs/up_straight.csv");
  EXPECT_TRUE(check_view_reference(s, g, "g.csv").ok());

  Trajectory shorter = g;
  shorter.rows.pop_back();
  EXPECT_CONTAINS(check_view_reference(s, shorter, "g.csv").error(),
                  "g.csv: has 90 rows, expected 91 (ticks 0..90 of up_straight): not a run of this scenario");

  Trajectory faster = g;  // the same rows at twice the tick rate
  for (auto& row : faster.rows) row[1] /= 2;
  EXPECT_CONTAINS(check_view_reference(s, faster, "g.csv").error(),
                  "g.csv: tick 1 is at time 0.008333333333333333 s, expected 0.016666666666666666 s (up_straight "
                  "runs at 60 ticks per second)");

  Trajectory renumbered = g;
  renumbered.rows[5][0] = 7;
  EXPECT_CONTAINS(check_view_reference(s, renumbered, "g.csv").error(), "g.csv: row 5 has tick 7, expected 5");

  Trajectory no_y = g;
  no_y.columns[3] = "height";
  EXPECT_EQ(check_view_reference(s, no_y, "g.csv").error(), "g.csv: expected columns x, y and z, missing y");

  ViewRequest request;
  request.scenario = &s;
  request.reference = &shorter;
  request.reference_label = "g.csv";
  const view::ThreeJs three = fake_three();
  request.three = &three;
  EXPECT_FALSE(view_html(request).ok());
}

TEST(ViewHtml, TickRangesAndFileNames) {
  using Range = std::pair<std::int64_t, std::int64_t>;
  EXPECT_EQ(*parse_tick_range("0..90", 90), Range(0, 90));
  EXPECT_EQ(*parse_tick_range("12..12", 90), Range(12, 12));
  for (const char* bad : {"", "5", "5..", "..5", "9..3", "0..91", "-1..3", "a..b", "1...3", "1..2x"}) {
    const auto range = parse_tick_range(bad, 90);
    EXPECT_FALSE(range.ok()) << bad;
    if (!range.ok()) {
      EXPECT_CONTAINS(range.error(), "expected A..B with 0 <= A <= B <= 90");
    }
  }
  EXPECT_EQ(view_file_name("up_spiral"), "up_spiral.view.html");
  EXPECT_EQ(view_file_name("../a b"), "_.._a_b.view.html");
}

TEST(ViewHtml, TheDebianLibraryIsInlinedAsIsAndIsTheOnlyPlaceAUrlAppears) {
  if (!have_libjs_three()) GTEST_SKIP() << "libjs-three is not installed (tools/install-deps.sh installs it)";
  const Expected<view::ThreeJs> three = view::load_three_js(view::kDebianThreeDir);
  ASSERT_TRUE(three.ok());
  EXPECT_EQ(three->revision, "111");
  const Scenario s = scenario("stairs/up_straight.json");
  ViewRequest request;
  request.scenario = &s;
  request.three = &*three;
  const std::string html = view_html(request)->html;
  EXPECT_EQ(script_text(html, "three-js"), "\n" + three->three + "\n");
  EXPECT_EQ(script_text(html, "orbit-controls-js"), "\n" + three->orbit_controls + "\n");

  // What stepslide writes refers to nothing outside the page.
  const std::string own = without_libraries(html);
  for (const char* outside : {"http:", "https:", "src=", "href=", "url(", "@import", "fetch(", "XMLHttpRequest",
                              "<link", "<iframe", "<img"}) {
    EXPECT_EQ(own.find(outside), std::string::npos) << outside;
  }
  // The libraries name URLs only as XHTML's namespace or in comments (credits, a shader's source).
  const std::regex url(R"(https?://[^\s"'()]+)");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), url); it != std::sregex_iterator(); ++it) {
    const std::string found = it->str();
    const std::string before = html.substr(static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, it->position() - 40)),
                                           static_cast<std::size_t>(std::min<std::ptrdiff_t>(40, it->position())));
    const bool comment = before.find("//") != std::string::npos || before.find("@author") != std::string::npos;
    EXPECT_TRUE(found == "http://www.w3.org/1999/xhtml" || comment) << found << " after: " << before;
  }
}

/// The command, with a stand-in libjs-three unless a test says otherwise.
class ViewCommand : public CommandTest {
 protected:
  void SetUp() override {
    CommandTest::SetUp();
    three_ = "STEPSLIDE_THREE_DIR='" + write_fake_three(dir_).string() + "'";
    copy_case("stairs/up_straight.json");
  }
  RunResult view(const std::string& args) const { return run("view " + args, three_); }
  std::string three_;
};

TEST_F(ViewCommand, WritesThePageNamedAfterTheScenario) {
  const RunResult r = view("scenarios/stairs/up_straight.json --golden golden/stairs/up_straight.csv");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "viewed scenarios/stairs/up_straight.json -> up_straight.view.html (");
  EXPECT_CONTAINS(r.out, "; matches golden/stairs/up_straight.csv");
  ASSERT_TRUE(exists("up_straight.view.html"));
  const std::string html = read("up_straight.view.html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_CONTAINS(html, "/* three.js stand-in */");
  EXPECT_EQ(page_data(html)["runs"].size(), 2u);

  // The same bytes again, to stdout this time.
  const RunResult again = view("scenarios/stairs/up_straight.json --golden golden/stairs/up_straight.csv --out -");
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(again.out, html);
  EXPECT_CONTAINS(again.err, "viewed scenarios/stairs/up_straight.json (");
}

TEST_F(ViewCommand, ARunThatDiffersExitsOneWithThePageWritten) {
  write("scenarios/stairs/low.json", with_low_step(kSource + "/scenarios/stairs/up_straight.json"));
  const RunResult r = view("scenarios/stairs/low.json --other golden/stairs/up_straight.csv --out low.html --trace");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_CONTAINS(r.out, "; differs from golden/stairs/up_straight.csv: first divergence at tick 12, column y");
  EXPECT_CONTAINS(r.out, "/expect/0 at tick 90");
  const ViewJson data = page_data(read("low.html"));
  EXPECT_EQ(data["runs"][1]["role"], "other");
  EXPECT_FALSE(data["trace"].is_null());
}

TEST_F(ViewCommand, BadInputIsExitTwoWithNothingWritten) {
  const std::string csv = read("golden/stairs/up_straight.csv");
  write("short.csv", csv.substr(0, csv.rfind('\n', csv.size() - 2) + 1));  // the last row cut off
  std::string no_z = csv;
  no_z.replace(no_z.find(",z,"), 3, ",w,");
  write("no_z.csv", no_z);
  write("garbage.csv", "tick,time,x\n0,0,zero\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--golden short.csv", "short.csv: has 90 rows, expected 91"},
      {"--other no_z.csv", "no_z.csv: expected columns x, y and z, missing z"},
      {"--golden garbage.csv", "garbage.csv: line 2: expected a number in column x"},
      {"--golden missing.csv", "missing.csv: cannot open"},
      {"--ticks 50..40", "--ticks 50..40: expected A..B with 0 <= A <= B <= 90"},
      {"--ticks 0..91", "--ticks 0..91: expected A..B"},
      {"--golden golden/stairs/up_straight.csv --other short.csv", "excludes"},
  };
  for (const auto& [options, message] : cases) {
    const RunResult r = view("scenarios/stairs/up_straight.json " + options + " --out page.html");
    EXPECT_EQ(r.code, 2) << options << "\n" << r.out << r.err;
    EXPECT_CONTAINS(r.err, message);
    EXPECT_FALSE(exists("page.html")) << options;
  }
  const RunResult bad_scenario = view("golden/stairs/up_straight.csv --out page.html");
  EXPECT_EQ(bad_scenario.code, 2);
  EXPECT_FALSE(exists("page.html"));
}

TEST_F(ViewCommand, WithoutLibjsThreeItSaysWhichPackageToInstall) {
  const RunResult r =
      run("view scenarios/stairs/up_straight.json --out page.html",
          "STEPSLIDE_THREE_DIR='" + path("none").string() + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "cannot read " + path("none").string() + "/three.min.js");
  EXPECT_CONTAINS(r.err, "libjs-three");
  EXPECT_FALSE(exists("page.html"));
}

TEST_F(ViewCommand, CheckReportLinksAViewPageForEachFailure) {
  copy_case("stairs/up_spiral.json");
  write("scenarios/stairs/up_straight.json", with_low_step(kSource + "/scenarios/stairs/up_straight.json"));
  const RunResult r = run("check --report report", three_);
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  ASSERT_TRUE(exists("report/index.html"));
  ASSERT_TRUE(exists("report/up_straight.view.html"));
  EXPECT_FALSE(exists("report/up_spiral.view.html"));  // it passes
  const std::string index = read("report/index.html");
  EXPECT_CONTAINS(index, "<a href=\"up_straight.view.html\">Replay in 3D</a>");
  const ViewJson data = page_data(read("report/up_straight.view.html"));
  ASSERT_EQ(data["runs"].size(), 2u);
  EXPECT_EQ(data["runs"][1]["label"], "golden: golden/stairs/up_straight.csv");
  EXPECT_EQ(data["divergence"]["tick"], 12);
  EXPECT_FALSE(data["expectations"].empty());
  parse_xml(index);  // still well-formed

  // Without libjs-three the report is still written, and says why there is no view.
  fs::remove_all(path("report"));
  const RunResult bare = run("check --report report", "STEPSLIDE_THREE_DIR='" + path("none").string() + "'");
  EXPECT_EQ(bare.code, 1);
  EXPECT_CONTAINS(bare.err, "warning: report without 3D views: cannot read");
  EXPECT_TRUE(exists("report/index.html"));
  EXPECT_FALSE(exists("report/up_straight.view.html"));
  EXPECT_CONTAINS(read("report/index.html"), "(no 3D view: cannot read");
}

TEST(ViewPages, SameNamedScenariosGetTheirOwnPages) {
  const Scenario s = scenario("stairs/up_straight.json");
  auto detail = std::make_shared<FailureDetail>();
  detail->scenario = s;
  detail->actual = simulate(s).trajectory;
  CheckOutcome failed;
  failed.verdict = Verdict::Fail;
  failed.detail = detail;
  CheckOutcome passed;
  const std::vector<CheckOutcome> outcomes{failed, passed, failed};
  const fs::path dir = fs::temp_directory_path() / ("stepslide_view_pages_" + std::to_string(::getpid()));
  const view::ThreeJs three = fake_three();
  const ViewPages pages = write_view_pages(dir.string(), outcomes, &three);
  EXPECT_EQ(pages.error, "");
  EXPECT_EQ(pages.files, (std::vector<std::string>{"up_straight.view.html", "", "up_straight-2.view.html"}));
  EXPECT_TRUE(fs::exists(dir / "up_straight-2.view.html"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace stepslide::test
