// Trajectory comparison: rules, divergences, worst errors, the report.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gate/core/diff.h"
#include "gate/core/diff_report.h"
#include "scenario/columns.h"

namespace stepslide {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A plausible run: walking along -Z on flat ground at y = 0.2.
Trajectory walk(std::size_t ticks) {
  Trajectory t;
  t.metadata = {" golden"};
  t.columns = fixed_columns();
  for (std::size_t k = 0; k < ticks; ++k) {
    const double tick = static_cast<double>(k);
    t.rows.push_back(
        {tick, tick / 60.0, 0.0, 0.2, -0.05 * tick, 0.0, 0.0, -3.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 3.0, 1.0, 0.0});
  }
  return t;
}

double& at(Trajectory& t, std::size_t row, const char* column) {
  return t.rows[row][static_cast<std::size_t>(t.column_index(column))];
}

TEST(DiffRules, DefaultTolerancesAreTheDocumentedOnes) {
  const DiffRules r = default_diff_rules();
  for (const char* exact :
       {"tick", "grounded", "sweeps", "slide_iters", "depen_iters", "stuck", "ground_body"}) {
    EXPECT_EQ(r.tolerance_for(exact), 0.0) << exact;
  }
  EXPECT_EQ(r.tolerance_for("time"), 1e-12);
  for (const char* c :
       {"x", "y", "z", "normal_x", "normal_y", "normal_z", "step_dy", "camera_dy", "local_x", "local_y", "local_z"}) {
    EXPECT_EQ(r.tolerance_for(c), 1e-6) << c;
  }
  for (const char* c : {"vx", "vy", "vz"}) EXPECT_EQ(r.tolerance_for(c), 1e-5) << c;
  EXPECT_EQ(r.default_tolerance, 1e-9);
  EXPECT_EQ(r.tolerance_for("some_new_column"), 1e-9);
}

TEST(DiffRules, EveryFixedColumnHasAnExplicitRule) {
  const DiffRules r = default_diff_rules();
  for (const std::string& column : fixed_columns()) {
    bool found = false;
    for (const ColumnRule& rule : r.rules) found = found || rule.column == column;
    EXPECT_TRUE(found) << column;
  }
}

TEST(DiffRules, SetReplacesOrAdds) {
  DiffRules r;
  r.set("y", 0.5);
  r.set("y", 0.25);
  r.set("z", 1.0);
  EXPECT_EQ(r.rules.size(), 2u);
  EXPECT_EQ(r.tolerance_for("y"), 0.25);
  EXPECT_EQ(r.tolerance_for("z"), 1.0);
  EXPECT_EQ(r.tolerance_for("w"), r.default_tolerance);
}

TEST(Diff, IdenticalTablesAreEqual) {
  const Trajectory t = walk(10);
  const DiffResult d = diff_trajectories(t, t, default_diff_rules());
  EXPECT_TRUE(d.equal);
  EXPECT_TRUE(d.structural.empty());
  EXPECT_FALSE(d.first.has_value());
  EXPECT_TRUE(d.worst.empty());
  EXPECT_EQ(format_diff_report(d, t, t), "");
}

TEST(Diff, MetadataIsIgnored) {
  const Trajectory expected = walk(3);
  Trajectory actual = expected;
  actual.metadata = {" other build", " other date"};
  EXPECT_TRUE(diff_trajectories(expected, actual, default_diff_rules()).equal);
}

TEST(Diff, OneChangedCellIsFoundAtItsTickAndColumn) {
  const Trajectory expected = walk(241);
  Trajectory actual = expected;
  at(actual, 212, "y") = 0.2031;
  const DiffResult d = diff_trajectories(expected, actual, default_diff_rules());
  EXPECT_FALSE(d.equal);
  EXPECT_TRUE(d.structural.empty());
  ASSERT_TRUE(d.first.has_value());
  EXPECT_EQ(d.first->row, 212u);
  EXPECT_EQ(d.first->tick, 212.0);
  EXPECT_EQ(d.first->column, "y");
  EXPECT_EQ(d.first->expected, "0.2");
  EXPECT_EQ(d.first->actual, "0.2031");
  EXPECT_EQ(d.first->error, 0.2031 - 0.2);
  EXPECT_EQ(d.first->tolerance, 1e-6);
  ASSERT_EQ(d.worst.size(), 1u);
  EXPECT_EQ(d.worst[0].column, "y");
  EXPECT_EQ(d.worst[0].mismatches, 1u);
  EXPECT_EQ(d.worst[0].worst_tick, 212.0);
}

TEST(Diff, ExactlyAtToleranceIsAMatchAndJustAboveIsNot) {
  Trajectory expected;
  expected.columns = {"tick", "a"};
  expected.rows = {{0, 1.0}, {1, 1.0}};
  Trajectory actual = expected;
  actual.rows[0][1] = 1.5;  // error exactly 0.5: representable, so no rounding doubt
  actual.rows[1][1] = 0.5;
  DiffRules rules;
  rules.set("a", 0.5);
  EXPECT_TRUE(diff_trajectories(expected, actual, rules).equal);

  actual.rows[1][1] = std::nextafter(1.5, 2.0);  // error 0.5 + 2^-52, exact
  const DiffResult d = diff_trajectories(expected, actual, rules);
  EXPECT_FALSE(d.equal);
  ASSERT_TRUE(d.first.has_value());
  EXPECT_EQ(d.first->row, 1u);
  EXPECT_GT(d.first->error, 0.5);
}

TEST(Diff, DefaultPositionToleranceBoundary) {
  Trajectory expected;
  expected.columns = {"tick", "y"};
  expected.rows = {{0, 0.0}};
  Trajectory actual = expected;
  actual.rows[0][1] = 1e-6;  // |0 - 1e-6| == the tolerance itself
  EXPECT_TRUE(diff_trajectories(expected, actual, default_diff_rules()).equal);
  actual.rows[0][1] = 1.0000001e-6;
  EXPECT_FALSE(diff_trajectories(expected, actual, default_diff_rules()).equal);
}

TEST(Diff, ZeroToleranceColumnsAreExact) {
  const Trajectory expected = walk(5);
  Trajectory actual = expected;
  at(actual, 3, "sweeps") = 3.0000000001;
  const DiffResult d = diff_trajectories(expected, actual, default_diff_rules());
  ASSERT_TRUE(d.first.has_value());
  EXPECT_EQ(d.first->column, "sweeps");
  EXPECT_EQ(d.first->tolerance, 0.0);
}

TEST(Diff, NegativeZeroEqualsZeroEvenWhenExact) {
  Trajectory expected;
  expected.columns = {"tick", "grounded"};
  expected.rows = {{0, 0.0}};
  Trajectory actual = expected;
  actual.rows[0][1] = -0.0;
  EXPECT_TRUE(diff_trajectories(expected, actual, default_diff_rules()).equal);
}

TEST(Diff, NaNHandling) {
  Trajectory expected;
  expected.columns = {"tick", "y", "vy"};
  expected.rows = {{0, kNaN, 1.0}, {1, 0.0, 1.0}};
  Trajectory actual = expected;
  // A NaN is never a result: NaN against NaN is a mismatch (it used to pass).
  DiffResult d = diff_trajectories(expected, actual, default_diff_rules());
  EXPECT_FALSE(d.equal) << "NaN must not equal NaN";
  ASSERT_TRUE(d.first.has_value());
  EXPECT_EQ(d.first->row, 0u);
  EXPECT_EQ(d.first->column, "y");
  EXPECT_NE(format_diff_report(d, expected, actual).find("never matches"), std::string::npos);
  DiffRules exact = default_diff_rules();
  for (ColumnRule& rule : exact.rules) rule.abs_tolerance = 0.0;
  EXPECT_FALSE(diff_trajectories(expected, actual, exact).equal) << "not in --exact mode either";
  DiffRules loose;
  loose.default_tolerance = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(diff_trajectories(expected, actual, loose).equal) << "not even with an infinite tolerance";

  expected.rows[0][1] = 0.0;
  actual = expected;
  actual.rows[1][2] = kNaN;
  d = diff_trajectories(expected, actual, default_diff_rules());
  ASSERT_TRUE(d.first.has_value());
  EXPECT_EQ(d.first->row, 1u);
  EXPECT_EQ(d.first->column, "vy");
  EXPECT_EQ(d.first->actual, "nan");
  EXPECT_TRUE(std::isinf(d.first->error));

  expected.rows[0][1] = kNaN;
  actual = expected;
  actual.rows[0][1] = 0.2;  // expected NaN, got a number
  d = diff_trajectories(expected, actual, default_diff_rules());
  ASSERT_TRUE(d.first.has_value());
  EXPECT_EQ(d.first->row, 0u);
  EXPECT_EQ(d.first->expected, "nan");
  EXPECT_NE(format_diff_report(d, expected, actual).find("NaN on one side"), std::string::npos);
}

TEST(Diff, Infinities) {
  Trajectory expected;
  expected.columns = {"tick", "y"};
  const double inf = std::numeric_limits<double>::infinity();
  expected.rows = {{0, inf}};
  Trajectory actual = expected;
  EXPECT_TRUE(diff_trajectories(expected, actual, default_diff_rules()).equal);
  actual.rows[0][1] = -inf;
  EXPECT_FALSE(diff_trajectories(expected, actual, default_diff_rules()).equal);
}

TEST(Diff, FirstIsLowestRowThenLeftmostColumn) {
  const Trajectory expected = walk(20);
  Trajectory actual = expected;
  at(actual, 15, "x") = 1.0;
  at(actual, 9, "vz") = 1.0;
  at(actual, 9, "y") = 1.0;
  const DiffResult d = diff_trajectories(expected, actual, default_diff_rules());
  ASSERT_TRUE(d.first.has_value());
  EXPECT_EQ(d.first->row, 9u);
  EXPECT_EQ(d.first->column, "y");
}

TEST(Diff, WorstErrorPerColumnInTableOrder) {
  const Trajectory expected = walk(50);
  Trajectory actual = expected;
  at(actual, 10, "y") += 0.001;
  at(actual, 20, "y") += 0.004;
  at(actual, 30, "y") += 0.002;
  at(actual, 40, "y") += 0.004;  // a tie keeps the earlier tick
  at(actual, 12, "grounded") = 0.0;
  at(actual, 13, "grounded") = 0.0;
  at(actual, 5, "time") += 1e-13;  // within tolerance: not counted
  const DiffResult d = diff_trajectories(expected, actual, default_diff_rules());
  ASSERT_EQ(d.worst.size(), 2u);
  EXPECT_EQ(d.worst[0].column, "y");
  EXPECT_NEAR(d.worst[0].worst_error, 0.004, 1e-12);
  EXPECT_EQ(d.worst[0].worst_tick, 20.0);
  EXPECT_EQ(d.worst[0].mismatches, 4u);
  EXPECT_EQ(d.worst[1].column, "grounded");
  EXPECT_EQ(d.worst[1].worst_error, 1.0);
  EXPECT_EQ(d.worst[1].worst_tick, 12.0);
  EXPECT_EQ(d.worst[1].mismatches, 2u);
  ASSERT_TRUE(d.first.has_value());
  EXPECT_EQ(d.first->row, 10u);
}

TEST(Diff, ShorterActualIsStructuralWithFirstAtTheMissingRow) {
  const Trajectory expected = walk(241);
  Trajectory actual = walk(180);
  const DiffResult d = diff_trajectories(expected, actual, default_diff_rules());
  EXPECT_FALSE(d.equal);
  ASSERT_EQ(d.structural.size(), 1u);
  EXPECT_EQ(d.structural[0], "expected 241 rows, got 180");
  ASSERT_TRUE(d.first.has_value());
  EXPECT_EQ(d.first->row, 180u);
  EXPECT_EQ(d.first->tick, 180.0);
  EXPECT_EQ(d.first->column, "tick");
  EXPECT_EQ(d.first->expected, "180");
  EXPECT_EQ(d.first->actual, "");
  EXPECT_TRUE(std::isinf(d.first->error));
  EXPECT_TRUE(d.worst.empty());

  const std::string report = format_diff_report(d, expected, actual);
  EXPECT_NE(report.find("expected 241 rows, got 180\n"), std::string::npos) << report;
  EXPECT_NE(report.find("first divergence at tick 180: row missing from actual"), std::string::npos) << report;
  EXPECT_NE(report.find("(no row)"), std::string::npos) << report;
}

TEST(Diff, LongerActualReportsTheExtraRow) {
  const Trajectory expected = walk(3);
  const Trajectory actual = walk(5);
  const DiffResult d = diff_trajectories(expected, actual, default_diff_rules());
  ASSERT_TRUE(d.first.has_value());
  EXPECT_EQ(d.structural, std::vector<std::string>{"expected 3 rows, got 5"});
  EXPECT_EQ(d.first->row, 3u);
  EXPECT_EQ(d.first->expected, "");
  EXPECT_EQ(d.first->actual, "3");
  EXPECT_NE(format_diff_report(d, expected, actual).find("extra row in actual"), std::string::npos);
}

TEST(Diff, EarlierValueMismatchWinsOverMissingRows) {
  const Trajectory expected = walk(10);
  Trajectory actual = walk(6);
  at(actual, 4, "z") = 9.0;
  const DiffResult d = diff_trajectories(expected, actual, default_diff_rules());
  ASSERT_TRUE(d.first.has_value());
  EXPECT_EQ(d.first->row, 4u);
  EXPECT_EQ(d.first->column, "z");
  EXPECT_EQ(d.structural, std::vector<std::string>{"expected 10 rows, got 6"});
}

TEST(Diff, ExtraAndMissingColumnsAreStructuralAndCommonOnesStillCompared) {
  const Trajectory expected = walk(8);
  Trajectory actual = expected;
  actual.columns.push_back("stuck");
  for (std::vector<double>& row : actual.rows) row.push_back(0.0);
  DiffResult d = diff_trajectories(expected, actual, default_diff_rules());
  EXPECT_FALSE(d.equal);
  EXPECT_EQ(d.structural, std::vector<std::string>{"actual has extra column(s): stuck"});
  EXPECT_FALSE(d.first.has_value());
  const std::string report = format_diff_report(d, expected, actual);
  EXPECT_EQ(report, "actual has extra column(s): stuck\n");

  // Drop camera_dy from actual and change y: both reported.
  const int camera = actual.column_index("camera_dy");
  actual.columns.erase(actual.columns.begin() + camera);
  for (std::vector<double>& row : actual.rows) row.erase(row.begin() + camera);
  at(actual, 6, "y") = 0.3;
  d = diff_trajectories(expected, actual, default_diff_rules());
  EXPECT_EQ(d.structural,
            (std::vector<std::string>{"actual is missing column(s): camera_dy", "actual has extra column(s): stuck"}));
  ASSERT_TRUE(d.first.has_value());
  EXPECT_EQ(d.first->row, 6u);
  EXPECT_EQ(d.first->column, "y");
}

TEST(Diff, ColumnsAreMatchedByName) {
  Trajectory expected;
  expected.columns = {"tick", "a", "b"};
  expected.rows = {{0, 1, 2}};
  Trajectory actual;
  actual.columns = {"tick", "b", "a"};
  actual.rows = {{0, 2, 1}};
  const DiffResult d = diff_trajectories(expected, actual, default_diff_rules());
  EXPECT_FALSE(d.first.has_value()) << "values agree once matched by name";
  ASSERT_EQ(d.structural.size(), 1u);
  EXPECT_EQ(d.structural[0].rfind("columns are in a different order", 0), 0u);
  EXPECT_FALSE(d.equal);
}

TEST(Report, ShowsTheFirstDivergenceContextMarkerAndWorst) {
  const Trajectory expected = walk(241);
  Trajectory actual = expected;
  at(actual, 212, "y") = 0.2031;
  at(actual, 213, "y") = 0.21;
  at(actual, 214, "grounded") = 0.0;
  const DiffResult d = diff_trajectories(expected, actual, default_diff_rules());
  const std::string report = format_diff_report(d, expected, actual, 2);

  EXPECT_EQ(report.rfind("first divergence at tick 212, column y: expected 0.2, got 0.2031 "
                         "(error 0.0031 > tolerance 1e-06)\n",
                         0),
            0u)
      << report;
  // Header, 3 expected rows, 3 actual rows, the marker.
  EXPECT_NE(report.find("\nexpected  210 "), std::string::npos) << report;
  EXPECT_NE(report.find("\nexpected  212 "), std::string::npos) << report;
  EXPECT_NE(report.find("\nactual    210 "), std::string::npos) << report;
  EXPECT_EQ(report.find("expected  209 "), std::string::npos) << report;

  // The marker sits exactly under the divergent cell of the actual row.
  const std::size_t actual_row = report.find("\nactual    212 ") + 1;
  const std::size_t actual_row_end = report.find('\n', actual_row);
  const std::string row_text = report.substr(actual_row, actual_row_end - actual_row);
  const std::size_t cell = row_text.find("0.2031");
  ASSERT_NE(cell, std::string::npos) << report;
  const std::string marker_line =
      report.substr(actual_row_end + 1, report.find('\n', actual_row_end + 1) - actual_row_end - 1);
  EXPECT_EQ(marker_line, std::string(cell, ' ') + "^~~~~~") << report;

  // The header's "y" is in the same column as the divergent cell.
  const std::size_t header = report.find('\n') + 1;
  EXPECT_EQ(report.substr(header + cell, 2), "y ") << report;

  EXPECT_NE(report.find("worst error per column:\n"), std::string::npos) << report;
  EXPECT_NE(report.find("  y         0.01 at tick 213, 2 mismatching rows\n"), std::string::npos) << report;
  EXPECT_NE(report.find("  grounded  1 at tick 214, 1 mismatching row\n"), std::string::npos) << report;
}

TEST(Report, ContextIsClippedAtTheFirstRowAndCanBeZero) {
  const Trajectory expected = walk(10);
  Trajectory actual = expected;
  at(actual, 0, "x") = 1.0;
  const DiffResult d = diff_trajectories(expected, actual, default_diff_rules());
  const std::string report = format_diff_report(d, expected, actual, 5);
  EXPECT_NE(report.find("\nexpected  0 "), std::string::npos) << report;
  EXPECT_EQ(report.find("\nexpected  1 "), std::string::npos) << report;

  Trajectory later = expected;
  at(later, 6, "x") = 1.0;
  const DiffResult d6 = diff_trajectories(expected, later, default_diff_rules());
  const std::string none = format_diff_report(d6, expected, later, 0);
  EXPECT_EQ(none.find("expected  5 "), std::string::npos) << none;
  EXPECT_NE(none.find("expected  6 "), std::string::npos) << none;
}

TEST(Report, WideTablesShowAWindowAroundTheDivergentColumn) {
  const Trajectory expected = walk(4);
  Trajectory actual = expected;
  at(actual, 2, "depen_iters") = 1.0;
  const DiffResult d = diff_trajectories(expected, actual, default_diff_rules());
  const std::string report = format_diff_report(d, expected, actual);
  const std::string header =
      report.substr(report.find('\n') + 1, report.find('\n', report.find('\n') + 1) - report.find('\n') - 1);
  EXPECT_NE(header.find("tick"), std::string::npos) << report;
  EXPECT_NE(header.find("..."), std::string::npos) << report;
  EXPECT_NE(header.find("depen_iters"), std::string::npos) << report;
  EXPECT_EQ(header.find("vx"), std::string::npos) << report;
}

TEST(Report, SmallErrorsNeverLookWithinTolerance) {
  Trajectory expected;
  expected.columns = {"tick", "y"};
  expected.rows = {{0, 0.0}};
  Trajectory actual = expected;
  actual.rows[0][1] = 1.0000001e-6;
  const DiffResult d = diff_trajectories(expected, actual, default_diff_rules());
  const std::string report = format_diff_report(d, expected, actual);
  EXPECT_NE(report.find("(error 1.0000001e-06 > tolerance 1e-06)"), std::string::npos) << report;
}

TEST(Report, IsDeterministic) {
  const Trajectory expected = walk(30);
  Trajectory actual = expected;
  at(actual, 17, "vz") = -2.9;
  const DiffResult d = diff_trajectories(expected, actual, default_diff_rules());
  EXPECT_EQ(format_diff_report(d, expected, actual), format_diff_report(d, expected, actual));
}

// ---------------------------------------------------------------------------
// One-line summary, from the result (not from the report's text)

/// The summary as it used to be found: the report's "first divergence" line,
/// else its first line. diff_summary must agree with it.
std::string summary_from_report_text(const std::string& report) {
  const std::string marker = "first divergence at tick";
  std::size_t start = report.find("\n" + marker);
  start = report.compare(0, marker.size(), marker) == 0 ? 0 : (start == std::string::npos ? 0 : start + 1);
  return report.substr(start, report.find('\n', start) - start);
}

TEST(DiffSummary, IsTheFirstDivergenceLine) {
  const Trajectory expected = walk(6);
  Trajectory actual = expected;
  at(actual, 3, "y") = 0.25;
  const DiffResult d = diff_trajectories(expected, actual, default_diff_rules());
  EXPECT_EQ(diff_summary(d), "first divergence at tick 3, column y: expected 0.2, got 0.25 (error 0.05 > tolerance 1e-06)");
  EXPECT_EQ(diff_summary(d), summary_from_report_text(format_diff_report(d, expected, actual)));
}

TEST(DiffSummary, PrefersTheDivergenceOverStructuralLines) {
  const Trajectory expected = walk(10);
  const Trajectory actual = walk(7);
  const DiffResult d = diff_trajectories(expected, actual, default_diff_rules());
  ASSERT_FALSE(d.structural.empty());
  EXPECT_EQ(diff_summary(d), "first divergence at tick 7: row missing from actual (expected tick 7)");
  EXPECT_EQ(diff_summary(d), summary_from_report_text(format_diff_report(d, expected, actual, 0)));
}

TEST(DiffSummary, IsTheFirstStructuralProblemWithoutADivergence) {
  const Trajectory expected = walk(4);
  Trajectory actual = expected;
  actual.columns.push_back("stuck");
  for (std::vector<double>& row : actual.rows) row.push_back(0.0);
  const DiffResult d = diff_trajectories(expected, actual, default_diff_rules());
  EXPECT_EQ(diff_summary(d), "actual has extra column(s): stuck");
  EXPECT_EQ(diff_summary(d), summary_from_report_text(format_diff_report(d, expected, actual)));
}

TEST(DiffSummary, IsEmptyWhenEqual) {
  const Trajectory t = walk(3);
  EXPECT_EQ(diff_summary(diff_trajectories(t, t, default_diff_rules())), "");
  EXPECT_EQ(diff_summary(DiffResult{}), "");
}

}  // namespace
}  // namespace stepslide
