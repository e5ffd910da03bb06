// `check --report`: the HTML page read back with the strict XML reader, on a
// failing case and on every scenario, and rendered in headless Chromium when
// it is installed.
#include "gate/commands/report.h"

#include <gtest/gtest.h>

#include "base/format.h"
#include "gate/picture_test_util.h"
#include "support/chromium.h"

namespace stepslide::test {
namespace {

class ReportCommand : public CommandTest {};

TEST_F(ReportCommand, CheckReportListsEveryScenarioAndDrawsEachFailure) {
  copy_case("basics/walk_flat.json");
  copy_case("stairs/up_straight.json");
  copy_case("stairs/down_straight.json", /*with_golden=*/false);
  write("scenarios/stairs/up_straight.json", with_low_step(kSource + "/scenarios/stairs/up_straight.json"));
  write("scenarios/zz_invalid.json", R"({"format": "stepslide/scenario@1", "ticks": "many"})");

  const RunResult r = run("check --report out/report");
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
  EXPECT_EQ(cells[2]->all_text(), readable_values(*diff.first).expected);
  EXPECT_EQ(cells[3]->all_text(), readable_values(*diff.first).actual);
  EXPECT_LE(cells[2]->all_text().size(), 12u) << "six significant digits: " << cells[2]->all_text();
  const Node* worst = only(*regression, element("table", "worst-errors"), "worst error table");
  ASSERT_TRUE(worst);
  EXPECT_EQ(count(*worst, element("tr")), diff.worst.size() + 1) << "a header and one row per column";
  const Node* svg = only(*regression, element("svg"), "picture");
  ASSERT_TRUE(svg);
  EXPECT_EQ(count(*svg, element("g", "divergence")), 2u);
  EXPECT_EQ(count(*svg, element("path", "trajectory")), 4u) << "run and golden, in both views";
  // The time view: run and golden against tick, the divergence through every strip at its tick.
  const Node* time_view = only(*svg, element("g", "time-view"), "time view");
  ASSERT_TRUE(time_view);
  EXPECT_EQ(count(*time_view, element("g", "time-strip")), 4u);
  EXPECT_EQ(count(*time_view, element("path", "time-line")), 6u) << "height, speed and camera of both";
  const Node* time_divergence = only(*time_view, element("g", "time-divergence"), "time divergence");
  ASSERT_TRUE(time_divergence);
  EXPECT_NE(time_divergence->all_text().find("first divergence at tick " + readable_number(diff.first->tick)),
            std::string::npos);
  EXPECT_EQ(count(*time_view, element("g", "stalled")), 1u) << "stopped at the first riser, stick pushed";
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

TEST_F(ReportCommand, CheckReportOnEveryScenarioAgreesWithTheTextOutput) {
  const std::size_t total = every_scenario().size();
  const RunResult r = run("check --scenario-root '" + kSource + "/scenarios' --golden-dir '" + kSource +
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

TEST_F(ReportCommand, ReportDirectoryThatCannotBeWrittenIsAnError) {
  copy_case("basics/walk_flat.json");
  write("blocker", "a file where the report directory should go");
  const RunResult r = run("check --report blocker/sub");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("cannot write blocker/sub/index.html"), std::string::npos) << r.err;
}

TEST_F(ReportCommand, ChromiumRendersTheReport) {
  const std::string chromium = chromium_binary();
  if (chromium.empty()) GTEST_SKIP() << kNoChromium;
  copy_case("stairs/up_straight.json");
  write("scenarios/stairs/up_straight.json", with_low_step(kSource + "/scenarios/stairs/up_straight.json"));
  const RunResult r = run("check --report report");
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  // Tall enough for the whole page: the picture's time view is at its bottom.
  const std::optional<Image> image = screenshot(chromium, dir_ / "report/index.html", 1100, 2600, dir_);
  ASSERT_TRUE(image) << "no readable PNG";
  EXPECT_EQ(image->width, 1100u);
  EXPECT_GT(pixels_near(*image, 0xc6, 0x28, 0x28, 30), 100u) << "the red FAIL badges are visible";
  EXPECT_GT(pixels_near(*image, 0x15, 0x65, 0xc0, 40), 100u) << "the inline plot is drawn";
  EXPECT_GT(pixels_near(*image, 0xf9, 0xd6, 0xd2, 6), 20000u) << "the time view's stall band is visible";
}

}  // namespace
}  // namespace stepslide::test
