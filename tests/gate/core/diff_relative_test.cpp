// Relative tolerance in the diff (gate/core/diff.h): a cell passes when
// |expected - actual| <= max(abs, rel * |expected|), and the report gives
// both parts of the rule.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "gate/core/diff.h"
#include "gate/core/diff_report.h"

namespace stepslide {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Two one-column tables: expected `e`, actual `a`, row by row.
std::pair<Trajectory, Trajectory> column_pair(const std::vector<double>& e, const std::vector<double>& a) {
  Trajectory expected, actual;
  expected.columns = actual.columns = {"tick", "v"};
  for (std::size_t i = 0; i < e.size(); ++i) {
    expected.rows.push_back({static_cast<double>(i), e[i]});
    actual.rows.push_back({static_cast<double>(i), a[i]});
  }
  return {expected, actual};
}

bool passes(double e, double a, double abs, double rel) {
  DiffRules rules;
  rules.set("v", abs, rel);
  const auto [expected, actual] = column_pair({e}, {a});
  return diff_trajectories(expected, actual, rules).equal;
}

TEST(DiffRelative, ScalesWithTheExpectedValue) {
  // Powers of two, so every error and bound is exact.
  EXPECT_TRUE(passes(1024.0, 1025.0, 0.0, 1.0 / 1024));   // error 1 == 1024 / 1024
  EXPECT_FALSE(passes(1024.0, 1025.0, 0.0, 1.0 / 2048));  // error 1 > 0.5
  EXPECT_TRUE(passes(-1024.0, -1025.0, 0.0, 1.0 / 1024)) << "|expected|: the sign does not matter";
  EXPECT_FALSE(passes(1.0, 2.0, 0.0, 1.0 / 1024)) << "the same rel is tight near small values";
}

TEST(DiffRelative, TheLargerOfAbsAndRelApplies) {
  EXPECT_TRUE(passes(0.0, 0.25, 0.25, 0.5)) << "at expected 0 only abs is left";
  EXPECT_FALSE(passes(0.0, 0.5, 0.25, 0.5));
  EXPECT_TRUE(passes(8.0, 12.0, 0.25, 0.5)) << "rel * 8 = 4 beats abs 0.25";
  EXPECT_FALSE(passes(8.0, 12.5, 0.25, 0.5));
}

TEST(DiffRelative, IsMeasuredAgainstTheExpectedSideOnly) {
  // |e - a| = 2 both ways; 0.25 * |e| is 2 with e = 8 but 1.5 with e = 6.
  EXPECT_TRUE(passes(8.0, 6.0, 0.0, 0.25));
  EXPECT_FALSE(passes(6.0, 8.0, 0.0, 0.25));
}

TEST(DiffRelative, NeverExcusesNaNOrInfinity) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(passes(inf, 5.0, 0.0, 0.5)) << "rel * inf would pass anything";
  EXPECT_FALSE(passes(5.0, inf, 0.0, 0.5));
  EXPECT_TRUE(passes(inf, inf, 0.0, 0.5));
  EXPECT_FALSE(passes(5.0, kNaN, 1.0, 0.5));
  EXPECT_FALSE(passes(kNaN, kNaN, 0.0, 0.5)) << "a NaN never matches, not even another NaN";
}

TEST(DiffRelative, TheDivergenceCarriesTheRuleAndTheBoundItGave) {
  DiffRules rules;
  rules.set("v", 0.125, 0.25);
  const auto [expected, actual] = column_pair({1.0, 4.0}, {1.0, 6.0});
  const DiffResult d = diff_trajectories(expected, actual, rules);
  ASSERT_TRUE(d.first.has_value());
  EXPECT_EQ(d.first->row, 1u);
  EXPECT_EQ(d.first->error, 2.0);
  EXPECT_EQ(d.first->tolerance, 1.0) << "max(0.125, 0.25 * 4)";
  EXPECT_EQ(d.first->abs_tolerance, 0.125);
  EXPECT_EQ(d.first->rel_tolerance, 0.25);
  EXPECT_EQ(diff_summary(d),
            "first divergence at tick 1, column v: expected 4, got 6 (error 2 > tolerance 1 = max(abs 0.125, rel "
            "0.25 * |expected|))");
  const std::string report = format_diff_report(d, expected, actual);
  EXPECT_NE(report.find("(error 2 > tolerance 1 = max(abs 0.125, rel 0.25 * |expected|))\n"), std::string::npos)
      << report;
}

TEST(DiffRelative, WithoutRelTheReportIsUnchanged) {
  DiffRules rules;
  rules.set("v", 0.125);
  const auto [expected, actual] = column_pair({4.0}, {6.0});
  EXPECT_EQ(diff_summary(diff_trajectories(expected, actual, rules)),
            "first divergence at tick 0, column v: expected 4, got 6 (error 2 > tolerance 0.125)");
}

TEST(DiffRules, RuleForGivesBothTolerancesAndSetReplacesBoth) {
  DiffRules r;
  r.set("y", 0.5, 0.25);
  EXPECT_EQ(r.rule_for("y").abs_tolerance, 0.5);
  EXPECT_EQ(r.rule_for("y").rel_tolerance, 0.25);
  EXPECT_EQ(r.tolerance_for("y"), 0.5);
  r.set("y", 0.125);
  EXPECT_EQ(r.rule_for("y").rel_tolerance, 0.0);
  EXPECT_EQ(r.rule_for("other").abs_tolerance, r.default_tolerance);
  EXPECT_EQ(r.rule_for("other").rel_tolerance, 0.0);
  for (const ColumnRule& rule : default_diff_rules().rules) EXPECT_EQ(rule.rel_tolerance, 0.0) << rule.column;
}

}  // namespace
}  // namespace stepslide
